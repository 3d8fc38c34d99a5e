"""The worker processes that read photos and make PDFs (issue 23, point 4): they give the CPU
to the plays whenever the plays want it (the lowest scheduling class the platform has), and
they end once the server that started them is gone, even when it was killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from referee.vision import start_reader_process
from referee.web.heavy import HeavyPool, pdf_pool, photo_pool

ROOT = Path(__file__).resolve().parents[2]


def test_photo_and_pdf_workers_run_in_the_lowest_cpu_class():
    assert photo_pool.initializer is start_reader_process
    assert pdf_pool.initializer is start_reader_process
    pool = HeavyPool(1, 0, process_jobs=(os.sched_getscheduler, os.nice), initializer=start_reader_process)
    try:
        if hasattr(os, "SCHED_IDLE"):  # Linux: runs only on a core nothing else wants
            assert pool.run(os.sched_getscheduler, 0) == os.SCHED_IDLE
        else:  # elsewhere the lowest nice
            assert pool.run(os.nice, 0) == 19
    finally:
        pool.shutdown()
    assert os.sched_getscheduler(0) != getattr(os, "SCHED_IDLE", -1)  # the server itself is not


def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")  # (ended; a zombie only waits for a reaper)


def test_a_worker_ends_when_its_server_is_killed():
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, sys, time\n"
            "from referee.web.heavy import HeavyPool\n"
            "pool = HeavyPool(1, 0, process_jobs=(os.getpid,))\n"
            "print(pool.run(os.getpid), flush=True)\n"
            "time.sleep(60)\n",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        assert worker != server.pid and not gone(worker)
        server.send_signal(signal.SIGKILL)  # no shutdown of its pool: as after kill -9
        server.wait(10)
        deadline = time.monotonic() + 10
        while not gone(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert gone(worker), "the worker outlived its server"
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
