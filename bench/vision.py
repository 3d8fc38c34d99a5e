"""``python -m bench vision [FOLDER] [--count N] [--seed S]``: how well photos are read.

FOLDER holds photos and a ``labels.json`` (``{"photos": [{"file", "tiles", ...}]}``, the
format of ``../shared/photos/``). For the folder it prints tile recall and precision, the
share of tiles read exactly (both halves), the share of photos whose pip total is exactly
right before any correction, the median and maximum seconds per photo, and last one JSON
object with the keys ``tile_recall``, ``tile_precision``, ``tiles_exact``,
``photos_total_exact``, ``seconds_median``, ``seconds_max``, ``photos``.

The labels name no positions, so tiles are matched as multisets per photo: recall is
min(tiles read, tiles labelled) over tiles labelled, precision the same over tiles read,
and a tile is read exactly when it is in the multiset intersection of the two.

Without FOLDER it first reads ``../shared/photos/`` when present (the real photos), then
a synthetic set generated into a temporary folder; the last JSON line is then the
synthetic set's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from referee.vision import PhotoError, read_photo

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "photos"


def _highest(photo: dict[str, Any]) -> int:
    hint = str(photo.get("set_hint", ""))
    for n in (18, 15, 12, 9, 6):
        if f"double-{n}" in hint:
            return n
    return 12


def measure(folder: Path, verbose: bool = True) -> dict[str, Any]:
    labels = json.loads((folder / "labels.json").read_text())
    labelled = read = matched_count = exact = totals = 0
    seconds: list[float] = []
    for photo in labels["photos"]:
        data = (folder / photo["file"]).read_bytes()
        want = Counter(str(t) for t in photo["tiles"])
        start = time.perf_counter()
        try:
            reading = read_photo(data, _highest(photo))
            got = Counter(str(t.tile) for t in reading.tiles)
            pips = reading.pips
        except PhotoError as error:
            got, pips = Counter(), -1
            if verbose:
                print(f"  {photo['file']}: {error.message}")
        seconds.append(time.perf_counter() - start)
        n_want, n_got = sum(want.values()), sum(got.values())
        labelled += n_want
        read += n_got
        matched_count += min(n_want, n_got)
        hits = sum((want & got).values())
        exact += hits
        right = pips == photo["total_pips"]
        totals += right
        if verbose:
            mark = "ok " if hits == n_want == n_got else "   "
            print(
                f"  {mark}{photo['file']}: {hits}/{n_want} exact, {n_got} read, total {pips} "
                f"(labelled {photo['total_pips']}), {seconds[-1]:.2f} s"
                + (
                    ""
                    if mark == "ok "
                    else f"; read {sorted(got.elements())}, labelled {sorted(want.elements())}"
                )
            )
    photos = len(labels["photos"])
    return {
        "tile_recall": round(matched_count / labelled, 4) if labelled else 1.0,
        "tile_precision": round(matched_count / read, 4) if read else 1.0,
        "tiles_exact": round(exact / labelled, 4) if labelled else 1.0,
        "photos_total_exact": round(totals / photos, 4) if photos else 1.0,
        "seconds_median": round(statistics.median(seconds), 3) if seconds else 0.0,
        "seconds_max": round(max(seconds), 3) if seconds else 0.0,
        "photos": photos,
    }


def _summary(name: str, figures: dict[str, Any]) -> None:
    print(
        f"{name}: {figures['photos']} photos; tile recall {figures['tile_recall']:.1%}, "
        f"precision {figures['tile_precision']:.1%}, tiles read exactly {figures['tiles_exact']:.1%}, "
        f"photos with the exact total {figures['photos_total_exact']:.1%}; seconds per photo "
        f"median {figures['seconds_median']:.2f}, max {figures['seconds_max']:.2f}"
    )


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench vision", description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, help="a folder with photos and labels.json")
    parser.add_argument("--count", type=int, default=200, help="synthetic photos when no FOLDER (200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the synthetic set (1)")
    parser.add_argument("--size", default="4000x3000", help="synthetic photo size (4000x3000, 12 MP)")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="synthetic photos without face-down backs, touching tiles, side views or marble",
    )
    parser.add_argument(
        "--thick",
        action="store_true",
        help="synthetic photos of thick tiles seen from a low angle (their shaded sides beside the face)",
    )
    parser.add_argument(
        "--grids",
        action="store_true",
        help="also lay a quarter of the synthetic photos' tiles in a seamless grid, half on a white table",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="only the summaries")
    args = parser.parse_args(argv)
    if args.folder is not None:
        figures = measure(args.folder, verbose=not args.quiet)
        _summary(str(args.folder), figures)
        print(json.dumps(figures), flush=True)
        return
    if (REAL / "labels.json").exists():
        print(f"Real photos ({REAL}):")
        _summary("real photos", measure(REAL, verbose=not args.quiet))
    from referee.vision.synthetic import write_set  # heavy (OpenCV): only for the synthetic set

    w, h = (int(v) for v in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory() as tmp:
        kind = ("plain " if args.plain else "") + ("thick " if args.thick else "")
        print(f"Synthetic {kind}photos ({args.count}, {w}x{h}, seed {args.seed}), generated into {tmp}:")
        write_set(
            Path(tmp),
            args.count,
            seed=args.seed,
            size=(w, h),
            plain=args.plain,
            thick=args.thick,
            grids=args.grids,
        )
        figures = measure(Path(tmp), verbose=not args.quiet)
    _summary("synthetic photos", figures)
    print(json.dumps(figures), flush=True)
