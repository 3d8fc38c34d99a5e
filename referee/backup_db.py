"""One-file backup of the whole database, taken while the app runs:
``python -m referee.backup_db OUT.db`` (``REFEREE_DB`` or ``--db`` names the database)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from referee.store import backup_to

DEFAULT_DB = Path(__file__).resolve().parents[1] / "instance" / "referee.db"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Copy the whole Domino Referee database into one file.")
    parser.add_argument("out", help="the backup file to write (must not exist yet)")
    parser.add_argument("--db", default=os.environ.get("REFEREE_DB") or str(DEFAULT_DB))
    args = parser.parse_args(argv)
    if not Path(args.db).exists():
        print(f"There is no database at {args.db}.", file=sys.stderr)
        return 2
    if Path(args.out).exists():
        print(f"{args.out} exists already: choose a new file name.", file=sys.stderr)
        return 2
    backup_to(args.db, args.out)
    print(f"Backed up {args.db} to {args.out}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
