"""Serve the app with waitress: ``python -m referee.serve [--lan] [--port N]``."""

from __future__ import annotations

import argparse
import getpass
import re
import signal
import sys
from typing import TextIO

import segno
from flask import Flask
from waitress.channel import HTTPChannel
from waitress.server import create_server
from waitress.task import ErrorTask
from werkzeug.exceptions import RequestEntityTooLarge

from referee.network import lan_address
from referee.store import checkpoint
from referee.web import create_app
from referee.web.safety import SERVER_MAX_BODY
from referee.web.service import OWNER_KEY, hash_pin

# Server threads: enough that the few a follow stream (4 at most) or a scoresheet PDF (2 at
# most) holds never leave plays waiting for a free one.
THREADS = 16
RECV_BYTES = 64 * 1024  # read from a connection at once (``server_options``)


def server_options(threads: int = THREADS) -> dict[str, object]:
    """waitress's settings for a club: a guest holding hundreds of idle or half-sent
    connections never keeps a tablet's play waiting.

    - ``connection_limit``: waitress stops accepting past it (its default, 100, was reached
      by one guest's half-open sockets, and the tablet's next connection then waited in the
      backlog); a club's phones and tablets hold a few each, so 1,000 leaves room for a
      guest's hundreds too. ``asyncore_use_poll``: ``select()`` cannot watch more than 1,024.
    - ``channel_timeout``: a connection that sent nothing for 30 s (a request cut half-way,
      an idle keep-alive) is closed; a follow stream that is answering is not idle.
    - ``cleanup_interval``: how often those are looked for.
    - ``max_request_body_size``: above the largest body the app takes (a photo), so that
      every documented limit is answered by the app (JSON under /api/); beyond this the
      server refuses before reading the body.
    - ``recv_bytes``: waitress reads every body on its one loop thread, the thread that also
      hands each play to a worker thread, before the app sees the request (a photo the
      photo pool has no room for is read too, then refused). 64 KB a read instead of 8 KB:
      the 16 photos of a storm (48 MB) took that thread 0.20 s of CPU, now 0.09 s
      (measured); below 128 KB, each read's buffer stays off ``mmap``.
    """
    return {
        "threads": threads,
        "connection_limit": 1000,
        "asyncore_use_poll": True,
        "channel_timeout": 30,
        "cleanup_interval": 5,
        "backlog": 2048,
        "max_request_body_size": SERVER_MAX_BODY,
        "recv_bytes": RECV_BYTES,
    }


class AppErrorTask(ErrorTask):  # type: ignore[misc]
    """A body past the server's own limit (``max_request_body_size``) is refused by waitress
    before the app sees the request; this answers it as the app answers its own 413: JSON
    with ``{"error", "rule"}`` under /api/, the app's page in the request's language
    elsewhere, instead of waitress's plain English text. Any other error of waitress (a
    malformed request line) keeps waitress's answer."""

    app: Flask

    def execute(self) -> None:
        if getattr(self.request.error, "code", None) != 413:
            super().execute()
            return
        try:
            status, headers, body = app_answer(self.app, self.request)
        except Exception:  # never let the nicer answer lose the refusal
            super().execute()
            return
        self.status = status
        self.response_headers.extend(headers)
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


def app_answer(app: Flask, parsed: object) -> tuple[str, list[tuple[str, str]], bytes]:
    """The app's answer to a 413 for the request waitress parsed (its path, its language)."""
    skipped = {"CONTENT_LENGTH", "CONTENT_TYPE", "TRANSFER_ENCODING"}
    raw = getattr(parsed, "headers", {}) or {}
    headers = [(name.replace("_", "-").title(), value) for name, value in raw.items() if name not in skipped]
    with app.test_request_context(
        path=getattr(parsed, "path", "/") or "/",
        query_string=getattr(parsed, "query", "") or "",
        method=getattr(parsed, "command", "POST") or "POST",
        headers=headers,
    ):
        response = app.make_response(app.handle_user_exception(RequestEntityTooLarge()))
        body = response.get_data()
        kept = [(name, value) for name, value in response.headers.items() if name.lower() != "content-length"]
        return response.status, kept, body


def app_channel(app: Flask) -> type:
    """waitress's connection class for ``app``: its refusals of a too-large body are answered
    as the app's (``AppErrorTask``)."""

    class Channel(HTTPChannel):  # type: ignore[misc]
        error_task_class = type("AppErrorTask", (AppErrorTask,), {"app": app})

    return Channel


def make_server(app: Flask, **options: object) -> object:
    """waitress's server for ``app`` (``host``, ``port`` and ``server_options()``)."""
    server = create_server(app, **options)
    server.channel_class = app_channel(app)
    return server


def serve(app: Flask, **options: object) -> None:
    """Serve ``app`` until stopped (``make_server``'s settings)."""
    make_server(app, **options).run()  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve Domino Referee.")
    parser.add_argument(
        "--lan", action="store_true", help="serve to the local network, not just this machine"
    )
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=THREADS)
    parser.add_argument("--no-prompt", action="store_true", help="do not ask for an owner PIN on the console")
    args = parser.parse_args(argv)
    app = create_app()
    if not args.no_prompt:
        ask_owner_pin(app)
    host = "0.0.0.0" if args.lan else "127.0.0.1"
    address = lan_address() if args.lan else "127.0.0.1"
    if args.lan:  # the Host check lets the LAN address in, besides this machine's names
        app.config["ALLOWED_HOSTS"] = [*app.config.get("ALLOWED_HOSTS", ()), address]
    url = f"http://{address}:{args.port}/"
    print(f"Domino Referee: open {url}", flush=True)
    if args.lan:
        segno.make(url, error="m").terminal(compact=True)
        print("Scan the code with a tablet or phone on the same Wi-Fi.", flush=True)
    # a normal stop (Ctrl-C or SIGTERM) ends serve() and checkpoints the WAL into the file
    signal.signal(signal.SIGTERM, _stop)
    try:
        serve(app, host=host, port=args.port, ident="domino-referee", **server_options(args.threads))
    except KeyboardInterrupt:
        pass
    finally:
        shut_down(app)


OWNER_PIN = re.compile(r"^[0-9]{4,12}$")


def ask_owner_pin(app: Flask, stdin: TextIO | None = None, stdout: TextIO | None = None) -> bool:
    """On a first start at a console (stdin is a terminal, no owner PIN yet), offer to set
    the owner PIN once; Enter skips. Returns whether a PIN was set."""
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    if stdin is None or not stdin.isatty():
        return False
    stores = app.extensions["referee.stores"]
    store = stores.acquire()
    try:
        if store.setting(OWNER_KEY):
            return False
        print(
            "An owner PIN (4 to 12 digits) guards the trash and imports of backups on this server.",
            file=stdout,
            flush=True,
        )
        for _attempt in range(3):
            prompt = "Owner PIN (Enter: none, as at home): "
            if stdin is sys.stdin:
                pin = getpass.getpass(prompt)
            else:
                stdout.write(prompt)
                stdout.flush()
                pin = stdin.readline()
            pin = pin.strip()
            if not pin:
                print(
                    "No owner PIN: it can be set later on the /owner page, opened on this machine.",
                    file=stdout,
                    flush=True,
                )
                return False
            if OWNER_PIN.match(pin):
                store.set_setting(OWNER_KEY, hash_pin(pin))
                print("The owner PIN is set.", file=stdout, flush=True)
                return True
            print("An owner PIN is 4 to 12 digits.", file=stdout, flush=True)
        print(
            "No owner PIN was set: it can be set later on the /owner page, opened on this machine.",
            file=stdout,
            flush=True,
        )
        return False
    finally:
        stores.release(store)


def _stop(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def shut_down(app: Flask) -> None:
    """Close the pooled connections and fold the WAL into the database file, so that a copy
    of the ``.db`` file alone holds every write."""
    app.extensions["referee.stores"].close()
    checkpoint(app.config["DATABASE"])
    print("Domino Referee stopped: every write is in " + app.config["DATABASE"], flush=True)


if __name__ == "__main__":
    main()
