#!/usr/bin/env python3
"""Compile the message catalogs: referee/translations/<lang>/LC_MESSAGES/messages.po → .mo.

    python scripts/compile_translations.py            # compile (install and test step)
    python scripts/compile_translations.py --check    # also fail on fuzzy/untranslated
    python scripts/compile_translations.py --extract  # re-extract messages.pot and merge
                                                      # it into hi, pa, hu (then translate)

Uses Babel's API only (no pybabel executable needed). Exit status 1 on a problem.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TRANSLATIONS = ROOT / "referee" / "translations"
POT = TRANSLATIONS / "messages.pot"
KEYWORDS = [
    "refuse:2",
    "phrase:1",
    "plural_phrase:1,2",
    "bad_request:1",
    "night_refusal:2",
    "night_violation:2",
    "N_",
    "_l",
    "lazy_gettext",
    "gettext",
    "ngettext:1,2",
    "_",
    "pgettext:1c,2",
]


def extract() -> None:
    """pybabel extract (babel.cfg: referee/ Python, form labels, templates/) + update."""
    from babel.messages.frontend import CommandLineInterface

    args = [
        "pybabel",
        "-q",
        "extract",
        "-F",
        str(ROOT / "babel.cfg"),
        "--no-default-keywords",
        "--sort-by-file",
        "--project",
        "domino-referee",
        "--add-comments",
        "TRANSLATORS:",
        "-o",
        str(POT),
    ]
    for keyword in KEYWORDS:
        args += ["-k", keyword]
    import os

    here = os.getcwd()
    os.chdir(ROOT)  # locations in the .pot relative to the repository
    try:
        CommandLineInterface().run(args + ["."])
    finally:
        os.chdir(here)
    for lang in ("hi", "pa", "hu"):
        po = TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po"
        command = "update" if po.exists() else "init"
        CommandLineInterface().run(
            ["pybabel", "-q", command, "-i", str(POT), "-d", str(TRANSLATIONS), "-l", lang, "--no-wrap"]
            + (["--ignore-obsolete", "--no-fuzzy-matching"] if command == "update" else [])
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail on fuzzy or untranslated messages")
    parser.add_argument(
        "--extract", action="store_true", help="re-extract messages.pot and update the .po files"
    )
    options = parser.parse_args()
    if options.extract:
        extract()
    from referee.web.i18n import compile_catalogs

    try:
        written = compile_catalogs(TRANSLATIONS, strict=options.check)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 1
    for mo in written:
        print(f"compiled {mo.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
