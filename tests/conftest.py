"""Fixtures: an app on a temporary database, its client, a served app, and Chromium."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

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


@pytest.fixture
def app(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "referee.db"),
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
def live_app(tmp_path):
    """An app with CSRF on, as served to real browsers."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "live.db"), "SECRET_KEY": "live-secret"})


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
