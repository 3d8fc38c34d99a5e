"""The catalog check: every message of the code is translated in hi, pa and hu, nothing
fuzzy, nothing empty, placeholders intact, and the catalogs compile."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from referee.web.i18n import CODES, TRANSLATIONS, compile_catalogs

ROOT = Path(__file__).resolve().parents[2]
LANGS = [code for code in CODES if code != "en"]  # English is the source language
KEYWORDS = {
    "refuse": (2,),
    "phrase": (1,),
    "night_refusal": (2,),  # the club nights' refusals (referee.nights)
    "night_violation": (2,),
    "plural_phrase": (1, 2),
    "_": None,
    "gettext": None,
    "_l": None,
    "lazy_gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
}


def catalog(lang: str):
    with (TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=lang)


def fields(text: str) -> list[tuple[str, str | None]]:
    return sorted({(name, conv) for _, name, _, conv in string.Formatter().parse(text) if name is not None})


def code_messages() -> set[str]:
    """What pybabel extracts now from referee/ and templates/ (babel.cfg)."""
    with (ROOT / "babel.cfg").open() as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map=method_map, options_map=options_map, keywords=KEYWORDS
    ):
        if isinstance(message, (tuple, list)):
            found.update(part for part in message if part)
        elif message:
            found.add(message)
    return found


def test_languages():
    assert CODES == ("en", "hi", "pa", "hu")


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_fuzzy_or_untranslated(lang):
    problems = []
    po = catalog(lang)
    assert not po.fuzzy, f"{lang}: the catalog header is fuzzy"
    for message in po:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        if not all(s and s.strip() for s in strings):
            problems.append(f"untranslated: {message.id!r}")
    assert not problems, f"{lang}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_kept(lang):
    bad = []
    for message in catalog(lang):
        if not message.id or isinstance(message.id, (list, tuple)):
            continue
        if fields(message.id) != fields(message.string):
            bad.append(f"{message.id!r} -> {message.string!r}")
    assert not bad, f"{lang}: placeholders changed:\n" + "\n".join(bad)


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_of_the_code_is_translated(lang):
    """Extract now (not the committed .pot): a new string in the code or a wrapped template
    fails here until hi, pa and hu translate it."""
    translated = set()
    for message in catalog(lang):
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if message.id and not message.fuzzy and all(strings):
            # a plural message (ngettext) is listed by both its singular and plural ids
            ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
            translated.update(ids)
    missing = sorted(code_messages() - translated)
    assert not missing, f"{lang}: {len(missing)} messages not in the catalog:\n" + "\n".join(
        repr(m) for m in missing
    )


def test_catalogs_compile(tmp_path):
    import shutil

    shutil.copytree(TRANSLATIONS, tmp_path / "translations")
    written = compile_catalogs(tmp_path / "translations", strict=True)
    assert sorted(mo.parents[1].name for mo in written) == sorted(LANGS)
