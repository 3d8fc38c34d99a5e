"""Serve the app with waitress: ``python -m referee.serve [--lan] [--port N]``."""

from __future__ import annotations

import argparse

from waitress import serve

from referee.network import lan_address
from referee.web import create_app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve Domino Referee.")
    parser.add_argument(
        "--lan", action="store_true", help="serve to the local network, not just this machine"
    )
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args(argv)
    app = create_app()
    host = "0.0.0.0" if args.lan else "127.0.0.1"
    url = f"http://{lan_address() if args.lan else '127.0.0.1'}:{args.port}/"
    print(f"Domino Referee: open {url}", flush=True)
    if args.lan:
        import segno

        segno.make(url, error="m").terminal(compact=True)
        print("Scan the code with a tablet or phone on the same Wi-Fi.", flush=True)
    serve(app, host=host, port=args.port, threads=args.threads, ident="domino-referee")


if __name__ == "__main__":
    main()
