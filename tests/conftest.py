"""Fixtures: an app on a temporary database, its client, a served app, and Chromium."""

from __future__ import annotations

import os
import shutil
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from referee.store import Store
from referee.web import create_app

settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"

# The tests that time something, or load the machine themselves, with the reason of each:
# marked `serial`, scripts/test runs them alone after the parallel pass (-n 2), so that no
# other worker's CPU stretches what they measure. A key is a file or one test in it.
SERIAL = {
    "tests/reliability/test_load_mix.py": "30 tablets, 100 phones and 20 PDFs against one server: its load would slow the tests beside it",
    "tests/reliability/test_crash.py": "kills and restarts a served app under start deadlines, 4 clients",
    "tests/bench/test_smoke.py::test_a_tiny_run_prints_the_table_and_all_figures": (
        "runs the benchmark in small: storms of plays, photos and PDFs, a kill"
    ),
    "tests/reliability/test_heavy.py::test_a_photo_storm_never_holds_the_threads_that_serve_plays": (
        "16 photo senders against plays answered within 8 s and a 20 s deadline"
    ),
    "tests/reliability/test_heavy.py::test_300_half_open_connections_never_keep_a_play_waiting": (
        "300 connections held while a play is timed"
    ),
    "tests/reliability/test_heavy.py::test_200_connections_trickling_their_requests_never_keep_a_play_waiting": (
        "200 trickling connections while a play must answer within 5 s"
    ),
    "tests/reliability/test_heavy_pdfs.py::test_a_pdf_storm_never_holds_the_threads_that_serve_plays": (
        "a storm of PDFs against plays answered in time"
    ),
    "tests/reliability/test_heavy_pdfs.py::test_a_pdf_that_outlasts_its_time_has_its_worker_killed_and_the_pool_recovers": (
        "a worker killed after 1 s must be gone within 10 s"
    ),
    "tests/web/test_players_scale.py::test_a_fresh_app_answers_the_lists_of_20000_games_from_the_kept_rows": (
        "asserts the first /players of 20000 games under 1 s"
    ),
    "tests/web/test_scoresheet_pdf.py::test_a_pdf_beyond_those_in_flight_is_refused_at_once": (
        "asserts the 503 within 1 s"
    ),
    "tests/web/test_companion.py::test_event_stream_resumes_from_last_event_id_and_ends_in_bounded_time": (
        "asserts a 0.3 s stream ends within 3 s"
    ),
    "tests/web/test_companion.py::test_event_stream_beyond_the_limit_answers_at_once_and_asks_to_poll": (
        "asserts the answer within 2 s"
    ),
    "tests/browser/test_companion.py::test_follow_page_updates_itself_after_plays_logged_elsewhere": (
        "the follow page must show a play logged elsewhere within 5-6 s"
    ),
    "tests/browser/test_table_blip.py": "restarts a server on its port; the follower must reconnect within 15 s",
    "tests/browser/test_club_night.py": "the night's board must update itself within 8 s",
}


def _is_serial(nodeid: str) -> str | None:
    for key, reason in SERIAL.items():
        if nodeid == key or nodeid.startswith((f"{key}::", f"{key}[", f"{key}/")):
            return reason
    return None


def pytest_addoption(parser) -> None:
    group = parser.getgroup("referee", "the two passes of scripts/test")
    group.addoption("--skip-serial", action="store_true", help="deselect the tests marked serial")
    group.addoption("--only-serial", action="store_true", help="deselect all but the tests marked serial")


# Figures a test hands to the run's summary: ``request.node.user_properties.append((title,
# dict or line))``. They come back from the xdist workers in the test reports, so the summary
# (dicts summed by title) is printed once, by the process that prints the run.
SUMMARY: dict[str, Any] = {}


def pytest_runtest_logreport(report) -> None:
    if report.when != "call":
        return
    for title, value in report.user_properties:
        if isinstance(value, dict):
            totals = SUMMARY.setdefault(title, dict.fromkeys(value, 0))
            for key, count in value.items():
                totals[key] = totals.get(key, 0) + count
        else:
            SUMMARY[title] = value


def pytest_terminal_summary(terminalreporter) -> None:
    for title, value in SUMMARY.items():
        terminalreporter.write_line(f"{title}: {value}")


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        # Schemathesis names each operation's test "test[GET /path]", but under pytest 9.2
        # the node id is the function's, the same for all; pytest-xdist schedules by node
        # id (--dist loadfile would run one of them). The operation makes the id unique.
        if item._id.params is None and item.name.endswith("]"):
            item._id = item._id.with_params(item.name.partition("[")[2].removesuffix("]"))
        reason = _is_serial(item.nodeid)
        if reason:
            item.add_marker(pytest.mark.serial(reason=reason))
    skip, only = config.getoption("--skip-serial"), config.getoption("--only-serial")
    if not (skip or only):
        return
    kept = [item for item in items if (item.get_closest_marker("serial") is not None) == only]
    dropped = [item for item in items if (item.get_closest_marker("serial") is not None) != only]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory) -> Path:
    """A database file with every migration applied, made once per test process. A test's
    app starts on a copy of it: migrating a new file takes about 0.05 s, and the suite makes
    over a thousand apps; create_app's migrate() then finds nothing left to do (the
    migrations themselves are tested on new files: tests/store)."""
    path = tmp_path_factory.mktemp("migrated") / "referee.db"
    store = Store(str(path))
    store.migrate()
    store.close()
    return path


def migrated_copy(template: Path, path: Path) -> str:
    """``path`` holding a copy of the migrated ``template``, as a DATABASE setting."""
    shutil.copyfile(template, path)
    return str(path)


@pytest.fixture
def app(tmp_path, migrated_database):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": migrated_copy(migrated_database, tmp_path / "referee.db"),
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


class Api:
    """Small JSON client over the Flask test client: ``api.post(url, body)`` → (status, json)."""

    def __init__(self, client) -> None:
        self.client = client

    def get(self, url: str) -> tuple[int, Any]:
        response = self.client.get(url)
        return response.status_code, response.get_json(silent=True)

    def post(self, url: str, body: Any) -> tuple[int, Any]:
        response = self.client.post(url, json=body)
        return response.status_code, response.get_json(silent=True)

    def create(self, **body: Any) -> dict[str, Any]:
        status, data = self.post("/api/games", body)
        assert status == 201, data
        return data

    def act(self, game_id: str, **action: Any) -> tuple[int, Any]:
        return self.post(f"/api/games/{game_id}/actions", action)

    def hands(self, game_id: str, number: int, hands: dict[str, Any]) -> tuple[int, Any]:
        return self.post(f"/api/games/{game_id}/rounds/{number}/hands", {"hands": hands})

    def state(self, game_id: str) -> dict[str, Any]:
        status, data = self.get(f"/api/games/{game_id}")
        assert status == 200, data
        return data


@pytest.fixture
def api(client) -> Api:
    return Api(client)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    def __init__(self, app, port: int = 0) -> None:
        from waitress.server import create_server

        from referee.serve import server_options

        self.app = app
        # Port 0: the kernel picks a free port at bind time, so parallel servers never race.
        # The served app's own settings (connections, body limit), with fewer threads.
        self.server = create_server(app, host="127.0.0.1", port=port, **server_options(threads=8))
        self.port = self.server.effective_port
        self.url = f"http://127.0.0.1:{self.port}"
        self._stopping = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        # One poll at a time, so stop() can end the loop before the sockets close under it.
        while not self._stopping.is_set():
            self.server.asyncore.loop(
                timeout=0.05, map=self.server._map, count=1, use_poll=self.server.adj.asyncore_use_poll
            )

    def stop(self) -> None:
        from waitress import wasyncore

        self._stopping.set()
        self.server.pull_trigger()
        self.thread.join(timeout=5)
        wasyncore.close_all(self.server._map)  # ends open event streams: their writes now fail
        self.server.task_dispatcher.shutdown(timeout=1)
        self.app.extensions["referee.stores"].close()


@pytest.fixture
def live_app(tmp_path, migrated_database):
    """An app with CSRF on, as served to real browsers."""
    database = migrated_copy(migrated_database, tmp_path / "live.db")
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "live-secret"})


@pytest.fixture
def live_server(live_app) -> Iterator[LiveServer]:
    server = LiveServer(live_app)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: the test command installs Debian's chromium package")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@contextmanager
def guarded_page(browser, live_server, **context_options):
    """A tablet-sized page (1024×768) that fails the test on any request outside the app."""
    context = browser.new_context(
        viewport={"width": 1024, "height": 768}, base_url=live_server.url, **context_options
    )
    outside: list[str] = []
    context.on(
        "request",
        lambda request: (
            outside.append(request.url)
            if not request.url.startswith((live_server.url, "data:", "blob:"))
            else None
        ),
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
    assert not outside, f"requests outside the app: {outside}"


@pytest.fixture
def page(browser, live_server):
    with guarded_page(browser, live_server) as tablet:
        yield tablet


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, base_url=live_server.url, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
