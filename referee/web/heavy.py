"""Heavy work off the table's path: photo reads run in a small pool of worker processes of
their own, never on the threads that serve plays.

A read holds one of ``READS_AT_ONCE`` workers (each its own interpreter: decoding and
reading a photo never holds the lock the plays need, and runs at a lower CPU priority);
``QUEUED`` more may wait for a worker. A read beyond that is refused at once (``Busy``: the
caller answers 503 with ``Retry-After``) instead of holding a server thread; the server
thread waits on its read at most ``READ_TIMEOUT`` seconds.

A reader that cannot be sent to another process (a stand-in the tests put in place of the
real one) runs on a thread of the same bounded pool.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from referee.vision import read_photo, start_reader_process

READS_AT_ONCE = 2  # photos read at once, each by its own worker process
QUEUED = 4  # reads that may wait for a worker; more are answered 503 at once
READ_TIMEOUT = 60.0  # seconds a server thread waits on one read
RETRY_AFTER = 5  # seconds a refused request is asked to wait

T = TypeVar("T")


class Busy(Exception):
    """The pool is full, or the read took too long: nothing was read."""

    FULL = "Other photos are being read right now: try again in a few seconds."

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class HeavyPool:
    """At most ``workers`` jobs running and ``queued`` waiting; more are refused."""

    def __init__(self, workers: int = READS_AT_ONCE, queued: int = QUEUED) -> None:
        self.workers = workers
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
            raise Busy(Busy.FULL)
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
            raise Busy("The photo took too long to read: try again in a few seconds.") from None
        except BrokenProcessPool:
            self._broken(executor)
            raise Busy("The photo could not be read: try again in a few seconds.") from None

    def shutdown(self) -> None:
        with self._lock:
            executors = [e for e in (self._processes, self._threads) if e is not None]
            self._processes = self._threads = None
        for executor in executors:
            executor.shutdown(wait=False, cancel_futures=True)


photo_pool = HeavyPool()
