"""Catalogs are compiled when the app starts, however it is started (no install step)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from referee.web import i18n
from referee.web.i18n import TRANSLATIONS, ensure_compiled

ROOT = Path(__file__).resolve().parents[2]


def po_tree(tmp_path: Path) -> Path:
    """A copy of the catalogs as a fresh checkout has them: .po files, no .mo."""
    source = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS, source, ignore=shutil.ignore_patterns("*.mo"))
    assert not list(source.glob("*/LC_MESSAGES/*.mo"))
    return source


def test_missing_catalogs_are_compiled_in_place(tmp_path):
    source = po_tree(tmp_path)
    assert ensure_compiled(source, tmp_path / "fallback") == source
    assert sorted(p.parent.parent.name for p in source.glob("*/LC_MESSAGES/messages.mo")) == [
        "hi",
        "hu",
        "pa",
    ]
    assert not (tmp_path / "fallback").exists()


def test_a_stale_catalog_is_compiled_again(tmp_path):
    source = po_tree(tmp_path)
    ensure_compiled(source, tmp_path / "fallback")
    mo = source / "hu" / "LC_MESSAGES" / "messages.mo"
    before = mo.read_bytes()
    po = mo.with_suffix(".po")
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Játék"', 'msgstr "Játszma"', 1), "utf-8")
    mo.touch()  # same second as the .po is fine: make the .po newer explicitly
    future = po.stat().st_mtime + 5
    import os

    os.utime(po, (future, future))
    ensure_compiled(source, tmp_path / "fallback")
    assert mo.read_bytes() != before


def test_unwritable_source_falls_back(tmp_path, monkeypatch):
    """An installed package in a read-only site-packages: the .mo files go to the fallback."""
    source = po_tree(tmp_path)
    real = i18n.compile_catalogs

    def refuse_in_place(directory, *, strict=True):
        if directory == source:
            raise PermissionError("read-only")
        return real(directory, strict=strict)

    monkeypatch.setattr(i18n, "compile_catalogs", refuse_in_place)
    chosen = ensure_compiled(source, tmp_path / "fallback")
    assert chosen == tmp_path / "fallback"
    assert sorted(p.parent.parent.name for p in chosen.glob("*/LC_MESSAGES/messages.mo")) == [
        "hi",
        "hu",
        "pa",
    ]


PROBE = """
import re
from app import app
client = app.test_client()
for code in ("en", "hi", "pa", "hu"):
    client.set_cookie("lang", code)
    page = client.get("/games/new").get_data(as_text=True)
    print(code, re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1).strip())
"""


def test_app_started_without_install_step_serves_every_language(tmp_path):
    """``flask --app app run`` (or ``pip install .``) on a checkout whose catalogs were never
    compiled: the app compiles them at start-up and the pages come in every language."""
    checkout = tmp_path / "checkout"
    ignore = shutil.ignore_patterns(
        ".git", ".venv", "*.mo", "__pycache__", "test-artifacts", "instance", "*.db"
    )
    shutil.copytree(ROOT, checkout, ignore=ignore)
    env = {"REFEREE_DB": str(tmp_path / "x.db"), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=checkout, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    headings = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    assert headings["en"] == "New game"
    assert len({headings[code] for code in ("en", "hi", "pa", "hu")}) == 4, headings
    assert headings["hu"] == "Új játék"
