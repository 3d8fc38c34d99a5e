"""Serve the app with waitress: ``python -m referee.serve [--lan] [--port N]``."""

from __future__ import annotations

import argparse
import signal

from flask import Flask
from waitress import serve

from referee.network import lan_address
from referee.store import checkpoint
from referee.web import create_app
from referee.web.backup import IMPORT_MAX_BODY

# Server threads: enough that the few a follow stream (4 at most) or a scoresheet PDF (2 at
# most) holds never leave plays waiting for a free one.
THREADS = 16


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve Domino Referee.")
    parser.add_argument(
        "--lan", action="store_true", help="serve to the local network, not just this machine"
    )
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=THREADS)
    args = parser.parse_args(argv)
    app = create_app()
    host = "0.0.0.0" if args.lan else "127.0.0.1"
    address = lan_address() if args.lan else "127.0.0.1"
    if args.lan:  # the Host check lets the LAN address in, besides this machine's names
        app.config["ALLOWED_HOSTS"] = [*app.config.get("ALLOWED_HOSTS", ()), address]
    url = f"http://{address}:{args.port}/"
    print(f"Domino Referee: open {url}", flush=True)
    if args.lan:
        import segno

        segno.make(url, error="m").terminal(compact=True)
        print("Scan the code with a tablet or phone on the same Wi-Fi.", flush=True)
    # a normal stop (Ctrl-C or SIGTERM) ends serve() and checkpoints the WAL into the file
    signal.signal(signal.SIGTERM, _stop)
    try:
        serve(
            app,
            host=host,
            port=args.port,
            threads=args.threads,
            ident="domino-referee",
            # bodies beyond what the app takes are refused before they are read in full
            max_request_body_size=IMPORT_MAX_BODY,
        )
    except KeyboardInterrupt:
        pass
    finally:
        shut_down(app)


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
