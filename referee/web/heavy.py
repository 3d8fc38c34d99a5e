"""Heavy work off the table's path: photo reads and PDFs run in small bounded pools of their
own, never on the threads that serve plays.

A read holds one of ``READS_AT_ONCE`` workers (each its own interpreter: decoding and
reading a photo never holds the lock the plays need, and runs in the lowest CPU class,
``start_reader_process``); ``QUEUED`` more may wait for a worker. A read beyond that is refused at once (``Busy``: the
caller answers 503 with ``Retry-After``) instead of holding a server thread; the server
thread waits on its read at most ``READ_TIMEOUT`` seconds.

A reader that cannot be sent to another process (a stand-in the tests put in place of the
real one) runs on a thread of the same bounded pool.

PDFs (``pdf_pool``: the game's scoresheet, the club night's sheet) have a pool of their own,
so a storm of PDFs never takes the photos' places nor the other way round: ``PDFS_AT_ONCE``
worker processes (the lowest CPU class too) that stay started, so a PDF costs its layout
(about 0.15 s) and not an interpreter's start (about 1 s of CPU, measured); ``PDFS_QUEUED``
more may wait. A PDF that outlasts its time has its worker killed.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable, Collection
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from flask import Response, current_app, render_template

from referee.rules.base import Phrase, phrase
from referee.scoresheet_pdf import Sheet, render
from referee.vision import read_photo, start_reader_process
from referee.web.i18n import translate_text

READS_AT_ONCE = 2  # photos read at once, each by its own worker process
QUEUED = 4  # reads that may wait for a worker; more are answered 503 at once
READ_TIMEOUT = 60.0  # seconds a server thread waits on one read
RETRY_AFTER = 5  # seconds a refused request is asked to wait
PDFS_AT_ONCE = 1  # PDFs made at once (one worker process: two at once slowed plays more, measured)
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
    PDF_BROKEN = phrase("The scoresheet could not be made: try again in a few seconds.")

    def __init__(self, message: Phrase) -> None:
        super().__init__(message)
        self.message = message


class HeavyPool:
    """At most ``workers`` jobs running and ``queued`` waiting; more are refused.

    A job in ``process_jobs`` runs in one of ``workers`` worker processes (spawned once,
    ``initializer`` run in each); any other job (a stand-in a test puts in its place) runs on
    one of ``workers`` threads. ``full``, ``too_long`` and ``broken`` are what a refused job
    is told (``Busy``). With ``kill_late``, a job that outlasts its time has its worker
    killed (the jobs beside it are told ``broken``); else it keeps its slot until it ends.
    """

    def __init__(
        self,
        workers: int = READS_AT_ONCE,
        queued: int = QUEUED,
        *,
        process_jobs: Collection[Callable[..., object]] = (read_photo,),
        initializer: Callable[[], None] = start_reader_process,
        full: Phrase = Busy.FULL,
        too_long: Phrase = Busy.TOO_LONG,
        broken: Phrase = Busy.BROKEN,
        kill_late: bool = False,
    ) -> None:
        self.workers = workers
        self.queued = queued
        self.process_jobs = tuple(process_jobs)
        self.initializer = initializer
        self.full = full
        self.too_long = too_long
        self.broken = broken
        self.kill_late = kill_late
        self._slots = threading.BoundedSemaphore(workers + queued)
        self._lock = threading.Lock()
        self._processes: ProcessPoolExecutor | None = None
        self._threads: ThreadPoolExecutor | None = None

    def _executor(self, on_threads: bool) -> Executor:
        with self._lock:
            if on_threads:
                if self._threads is None:
                    self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="heavy")
                return self._threads
            if self._processes is None:
                # spawn, not fork: the server's threads and locks are not copied into a worker
                self._processes = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=self.initializer,
                )
            return self._processes

    def _broken(self, executor: Executor) -> None:
        """A worker died (killed, out of memory): the next job starts a fresh pool."""
        with self._lock:
            if self._processes is executor:
                self._processes = None
        executor.shutdown(wait=False, cancel_futures=True)

    def _kill(self, executor: Executor) -> None:
        """The workers of ``executor`` killed: a job stuck in one never holds it for good (its
        slot, and those of the jobs beside it, come back once the pool sees them gone)."""
        workers = list((getattr(executor, "_processes", None) or {}).values())
        for worker in workers:
            try:
                worker.kill()
            except (OSError, ValueError):
                pass
        self._broken(executor)

    def has_room(self) -> bool:
        """Whether a job sent now would be taken (a request checks before it reads its body)."""
        if not self._slots.acquire(blocking=False):
            return False
        self._slots.release()  # (a glance: ``run`` decides)
        return True

    def run(self, job: Callable[..., T], *args: object, timeout: float = READ_TIMEOUT) -> T:
        """``job(*args)`` on the pool; raises ``Busy`` when the pool is full or the job
        outlasts ``timeout``."""
        if not self._slots.acquire(blocking=False):
            raise Busy(self.full)
        executor = self._executor(on_threads=not any(job is known for known in self.process_jobs))
        try:
            future: Future[T] = executor.submit(job, *args)
        except BaseException:
            self._slots.release()
            raise
        future.add_done_callback(lambda _done: self._slots.release())
        try:
            return future.result(timeout=timeout)
        except FutureTimeout:
            if self.kill_late and isinstance(executor, ProcessPoolExecutor):
                self._kill(executor)
            raise Busy(self.too_long) from None
        except BrokenProcessPool:
            self._broken(executor)
            raise Busy(self.broken) from None

    def shutdown(self) -> None:
        with self._lock:
            executors = [e for e in (self._processes, self._threads) if e is not None]
            self._processes = self._threads = None
        for executor in executors:
            executor.shutdown(wait=False, cancel_futures=True)


photo_pool = HeavyPool()
pdf_pool = HeavyPool(
    PDFS_AT_ONCE,
    PDFS_QUEUED,
    # the job is the layout itself: a worker imports referee.scoresheet_pdf and fpdf only
    # (about 25 ms), never the web app (about 0.8 s of CPU at its start)
    process_jobs=(render,),
    initializer=start_reader_process,
    full=Busy.PDFS_FULL,
    too_long=Busy.PDF_TOO_LONG,
    broken=Busy.PDF_BROKEN,
    kill_late=True,
)

PDF_TIMEOUT = 30.0  # seconds a PDF may take before its worker is killed (config: PDF_TIMEOUT)


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
        pdf = pdf_pool.run(render, sheet, timeout=timeout)
    except Busy as refused:
        return busy(translate_text(refused.message))
    except Exception:  # the layout failed in its worker: said, and logged with its cause
        current_app.logger.exception("the %s PDF could not be made", what)
        return busy(translate_text(Busy.PDF_BROKEN))
    if not pdf.startswith(b"%PDF"):
        current_app.logger.warning("the %s PDF came out without a PDF's header", what)
        return busy(translate_text(Busy.PDF_BROKEN))
    return pdf
