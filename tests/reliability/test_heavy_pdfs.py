"""PDFs off the table's path (issue 23, point 4): the scoresheet and the club night's sheet
are made in a bounded pool of their own; past its queue a PDF is answered at once with 503,
``Retry-After`` and a sentence in the request's language, and the plays sent meanwhile are
all served."""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from referee.vision import start_reader_process
from referee.web.heavy import Busy, HeavyPool, pdf_pool
from tests.reliability.test_heavy import draw, played  # noqa: F401 (a fixture)

FAKE_PDF = b"%PDF-1.4 a stand-in\n"


def test_a_pdf_storm_never_holds_the_threads_that_serve_plays(live_server, played, monkeypatch):  # noqa: F811
    """16 scoresheets asked at once, each held in the pool until the test lets go: the plays
    sent meanwhile are all answered, the PDFs past the queue are told, in Hungarian, to come
    back (503 with Retry-After)."""
    url, game_id = played
    release, entered = threading.Event(), threading.Semaphore(0)

    def held_pdf(sheet) -> bytes:
        entered.release()
        release.wait(30)
        return FAKE_PDF

    monkeypatch.setattr("referee.web.heavy.render", held_pdf)

    def ask(index: int) -> requests.Response:
        # each for another paper or version is not needed: nothing is cached while held
        return requests.get(
            f"{url}/games/{game_id}/scoresheet.pdf", headers={"Accept-Language": "hu"}, timeout=60
        )

    with ThreadPoolExecutor(16) as askers:
        pdfs = [askers.submit(ask, index) for index in range(16)]
        try:
            assert entered.acquire(timeout=20)  # a PDF is under way
            plays = [draw(url, game_id, timeout=8) for _ in range(6)]
        finally:
            release.set()
        answers = [pdf.result() for pdf in pdfs]
    assert plays == [200] * 6
    statuses = sorted(answer.status_code for answer in answers)
    assert set(statuses) == {200, 503}, statuses
    assert statuses.count(200) <= pdf_pool.workers + pdf_pool.queued
    for answer in answers:
        if answer.status_code == 503:
            assert answer.headers["Retry-After"].isdigit()
            assert answer.headers["Content-Type"].startswith("text/html")
            assert "Épp más pontozólapok készülnek" in answer.text
        else:
            assert answer.content == FAKE_PDF


def test_a_full_pool_answers_the_night_sheet_with_503_and_a_sentence(api, client):
    night = api.client.post(
        "/api/nights",
        json={
            "name": "Tuesday club",
            "game": "mexican-train",
            "mode": "scores",
            "players": ["Ana", "Ben", "Caro", "Dee"],
            "table_size": 4,
            "stages": 1,
            "rounds_per_stage": 1,
            "seating": "fixed",
        },
    ).get_json()
    taken = 0
    while pdf_pool._slots.acquire(blocking=False):
        taken += 1
    try:
        refused = client.get(f"/nights/{night['id']}/sheet.pdf", headers={"Accept-Language": "hi"})
    finally:
        for _ in range(taken):
            pdf_pool._slots.release()
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    assert "अभी दूसरी स्कोरशीट बन रही हैं" in refused.get_data(as_text=True)
    made = client.get(f"/nights/{night['id']}/sheet.pdf")
    assert made.status_code == 200 and made.data.startswith(b"%PDF")


def test_a_pdf_that_outlasts_its_time_has_its_worker_killed_and_the_pool_recovers():
    pool = HeavyPool(
        1, 0, process_jobs=(time.sleep, os.getpid), initializer=start_reader_process, kill_late=True
    )
    try:
        first = pool.run(os.getpid)
        assert first != os.getpid()  # made in a worker process, not on a server thread
        started = time.monotonic()
        with pytest.raises(Busy):
            pool.run(time.sleep, 60, timeout=1.0)
        assert time.monotonic() - started < 10
        while not pool.has_room() and time.monotonic() - started < 20:  # the pool sees it gone
            time.sleep(0.05)
        assert pool.run(os.getpid, timeout=30) != first  # a fresh worker took the killed one's place
    finally:
        pool.shutdown()
