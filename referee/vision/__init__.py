"""Reading domino tiles from a photo: pure of Flask, offline, on the CPU.

``read_photo(data, highest)`` decodes a JPEG, PNG, HEIC or other still image (EXIF rotation
applied, decompression bombs refused), finds the face-up tiles and counts the pips of each
half with two small networks learned from synthetic photos (run with onnxruntime). Every
tile read carries a confidence and its box in the photo's pixels after the EXIF rotation.
The method, its training and its measured accuracy are described in docs/VISION.md.

The values it gives back live in ``referee.vision.reading``; decoding in ``decode``, the
reading itself in ``learned`` (the networks: ``model``, what they see: ``geometry``).
"""

from __future__ import annotations

import os
import time

from referee.vision.reading import MAX_PHOTO_BYTES, PhotoError, Reading, ReadTile


def read_photo(data: bytes, highest: int = 12) -> Reading:
    """Read the tiles on the photo ``data`` (the file's bytes) of a set whose highest pip is
    ``highest``. Raises ``PhotoError`` for a file that is not a readable photo."""
    # Imported on first use: they load numpy, OpenCV, Pillow and onnxruntime, which the app
    # need not hold in memory (nor take the time to import) until a photo is sent.
    from referee.vision.decode import decode
    from referee.vision.learned import read_learned

    image = decode(data)
    return read_learned(image, highest)


def start_reader_process() -> None:
    """A process that reads photos or makes PDFs for the server (referee.web.heavy) yields
    the CPU to the server whenever the server wants it, so that a burst of photos never
    slows the plays at the table; and it ends once the server is gone."""
    lowest_cpu_priority()
    end_with_parent()


def lowest_cpu_priority() -> str:
    """Put this process in the lowest CPU class the platform has; returns which it got.

    ``SCHED_IDLE`` (Linux): the kernel runs this process only on a core nothing else wants,
    and a play that wakes takes the core from it at once. Under ``nice`` alone (10 before;
    a weight of 110 against the server's 1,024) a reader still took a share of a core from
    the plays on a 2-core machine and their p99 tripled during a storm of photos, measured
    (docs/BENCHMARKS.md, "Storms"). The price: on a machine whose cores are both busy with
    other work for long, a read waits (the pool's time-outs answer 503). Where
    ``SCHED_IDLE`` is missing or refused, the lowest ``nice``.
    """
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        return "idle"
    except (AttributeError, OSError):  # (not Linux, or refused by the platform)
        pass
    try:
        os.nice(19)
        return "nice"
    except (AttributeError, OSError):  # (a platform without nice: the same priority)
        return "same"


PARENT_CHECK_SECONDS = 1.0


def end_with_parent() -> None:
    """End this worker once the process that started it is gone: a server killed with
    ``kill -9`` (or stopped by its tests) never leaves its readers behind holding memory.
    A worker's pipe to the server does not tell it (each worker holds both ends of the pool's
    queue), so a daemon thread looks at the parent's id every ``PARENT_CHECK_SECONDS``."""
    import threading

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


__all__ = [
    "MAX_PHOTO_BYTES",
    "PhotoError",
    "ReadTile",
    "Reading",
    "end_with_parent",
    "lowest_cpu_priority",
    "read_photo",
    "start_reader_process",
]
