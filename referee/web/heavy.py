"""Heavy work off the table's path: photo reads and PDFs run in small bounded pools of their
own, never on the threads that serve plays.

A read holds one of ``READS_AT_ONCE`` workers (each its own interpreter: decoding and
reading a photo never holds the lock the plays need, and runs at a lower CPU priority);
``QUEUED`` more may wait for a worker. A read beyond that is refused at once (``Busy``: the
caller answers 503 with ``Retry-After``) instead of holding a server thread; the server
thread waits on its read at most ``READ_TIMEOUT`` seconds.

A reader that cannot be sent to another process (a stand-in the tests put in place of the
real one) runs on a thread of the same bounded pool.

PDFs (``pdf_pool``: the game's scoresheet, the club night's sheet) have a pool of their own,
so a storm of PDFs never takes the photos' places nor the other way round. A PDF's job runs
on one of the pool's threads, and that thread only waits: the PDF is laid out by a child
process (``python -m referee.scoresheet_pdf``, at a lower CPU priority), which is killed
when it takes too long.
"""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TypeVar

from flask import Response, current_app, render_template
from flask_babel import gettext as _

from referee.rules.base import Phrase, phrase
from referee.scoresheet_pdf import Sheet, to_json
from referee.vision import read_photo, start_reader_process
from referee.web.i18n import translate_text

READS_AT_ONCE = 2  # photos read at once, each by its own worker process
QUEUED = 4  # reads that may wait for a worker; more are answered 503 at once
READ_TIMEOUT = 60.0  # seconds a server thread waits on one read
RETRY_AFTER = 5  # seconds a refused request is asked to wait
PDFS_AT_ONCE = 2  # PDFs made at once, each by a child process
PDFS_QUEUED = 4  # PDFs that may wait; more are answered 503 at once

T = TypeVar("T")


class Busy(Exception):
    """The pool is full, or the job took too long: nothing was made. ``message`` is an
    English ``Phrase`` (the pages translate it; the API's ``error`` stays English)."""

    FULL = phrase("Other photos are being read right now: try again in a few seconds.")
    TOO_LONG = phrase("The photo took too long to read: try again in a few seconds.")
    BROKEN = phrase("The photo could not be read: try again in a few seconds.")
    PDFS_FULL = phrase("Other scoresheets are being made right now: try again in a few seconds.")
    PDF_TOO_LONG = phrase("The scoresheet took too long to make: try again in a few seconds.")

    def __init__(self, message: Phrase) -> None:
        super().__init__(message)
        self.message = message


class HeavyPool:
    """At most ``workers`` jobs running and ``queued`` waiting; more are refused.

    ``full`` and ``too_long`` are what a refused job is told (``Busy``)."""

    def __init__(
        self,
        workers: int = READS_AT_ONCE,
        queued: int = QUEUED,
        *,
        full: Phrase = Busy.FULL,
        too_long: Phrase = Busy.TOO_LONG,
    ) -> None:
        self.workers = workers
        self.queued = queued
        self.full = full
        self.too_long = too_long
        self._slots = threading.BoundedSemaphore(workers + queued)
        self._lock = threading.Lock()
        self._processes: ProcessPoolExecutor | None = None
        self._threads: ThreadPoolExecutor | None = None

    def _executor(self, in_process: bool) -> Executor:
        with self._lock:
            if in_process:
                if self._threads is None:
                    self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="heavy")
                return self._threads
            if self._processes is None:
                # spawn, not fork: the server's threads and locks are not copied into a worker
                self._processes = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=start_reader_process,
                )
            return self._processes

    def _broken(self, executor: Executor) -> None:
        """A worker died (killed, out of memory): the next read starts a fresh pool."""
        with self._lock:
            if self._processes is executor:
                self._processes = None
        executor.shutdown(wait=False, cancel_futures=True)

    def has_room(self) -> bool:
        """Whether a job sent now would be taken (a request checks before it reads its body)."""
        if not self._slots.acquire(blocking=False):
            return False
        self._slots.release()  # (a glance: ``run`` decides)
        return True

    def run(self, job: Callable[..., T], *args: object, timeout: float = READ_TIMEOUT) -> T:
        """``job(*args)`` on the pool; raises ``Busy`` when the pool is full or the job
        outlasts ``timeout`` (it then keeps its slot until it ends)."""
        if not self._slots.acquire(blocking=False):
            raise Busy(self.full)
        executor = self._executor(in_process=job is not read_photo)
        try:
            future: Future[T] = executor.submit(job, *args)
        except BaseException:
            self._slots.release()
            raise
        future.add_done_callback(lambda _done: self._slots.release())
        try:
            return future.result(timeout=timeout)
        except FutureTimeout:
            raise Busy(self.too_long) from None
        except BrokenProcessPool:
            self._broken(executor)
            raise Busy(Busy.BROKEN) from None

    def shutdown(self) -> None:
        with self._lock:
            executors = [e for e in (self._processes, self._threads) if e is not None]
            self._processes = self._threads = None
        for executor in executors:
            executor.shutdown(wait=False, cancel_futures=True)


photo_pool = HeavyPool()
pdf_pool = HeavyPool(PDFS_AT_ONCE, PDFS_QUEUED, full=Busy.PDFS_FULL, too_long=Busy.PDF_TOO_LONG)


class PdfFailed(Exception):
    """The child process that lays out a PDF failed, or took longer than its time."""

    def __init__(self, reason: str, *, too_long: bool = False) -> None:
        super().__init__(reason)
        self.too_long = too_long


# The child lays the PDF out at a lower CPU priority than the server's, as the photo readers do.
_PDF_CHILD = (
    "import os, runpy\n"
    "try:\n    os.nice(10)\nexcept OSError:\n    pass\n"
    "runpy.run_module('referee.scoresheet_pdf', run_name='__main__')\n"
)
ROOT = Path(__file__).resolve().parents[2]  # the child imports this checkout's referee


def make_pdf(sheet_json: str, timeout: float) -> bytes:
    """The PDF of a sheet (``referee.scoresheet_pdf.to_json``), laid out by a child process
    (its own interpreter: no lock shared with plays) that is killed after ``timeout`` s.
    Runs on a thread of ``pdf_pool``: no request, no app context."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _PDF_CHILD],
            input=sheet_json.encode("utf-8"),
            capture_output=True,
            timeout=timeout,
            cwd=ROOT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise PdfFailed(f"the PDF took longer than {timeout:g} s", too_long=True) from None
    except OSError as error:
        raise PdfFailed(f"the PDF's process could not start: {error}") from None
    if done.returncode != 0 or not done.stdout.startswith(b"%PDF"):
        raise PdfFailed(done.stderr[-2000:].decode("utf-8", "replace") or "no PDF came out")
    return done.stdout


PDF_TIMEOUT = 30.0  # seconds a PDF may take before its child is killed (config: PDF_TIMEOUT)


def busy(message: str) -> Response:
    """The page that says a PDF cannot be made now: 503 with ``Retry-After``."""
    body = render_template("companion/unavailable.html", message=message)
    response = Response(body, status=503, mimetype="text/html")
    response.headers["Retry-After"] = str(RETRY_AFTER)
    response.headers["Cache-Control"] = "no-store"
    return response


def pdf_in_pool(sheet: Sheet, what: str) -> bytes | Response:
    """The PDF of ``sheet``, made in the PDFs' pool (this thread only waits for it); when the
    pool is full or the PDF fails, the page that says so in the request's language."""
    timeout = float(current_app.config.get("PDF_TIMEOUT", PDF_TIMEOUT))
    try:
        return pdf_pool.run(make_pdf, to_json(sheet), timeout, timeout=timeout + 5)
    except Busy as refused:
        return busy(translate_text(refused.message))
    except PdfFailed as error:
        current_app.logger.warning("the %s PDF failed: %s", what, error)
        if error.too_long:
            return busy(_("The scoresheet took too long to make: try again in a few seconds."))
        return busy(_("The scoresheet could not be made: try again in a few seconds."))
