"""Each language in a real browser: the table page of a referee game in mid-round (with a
refusal) and the scoresheet, rendered in Hindi, Punjabi and Hungarian, show no English
left and no missing glyph; screenshots go to test-artifacts/i18n-<lang>-*.png.

* "No English": the visible text (and the placeholders, titles and labels people meet)
  is cut into Latin words; none may be an English word of the message catalog
  (referee/translations/messages.pot). Allowed: player names, tile texts, numbers, rule
  ids, the brand "Domino Referee", the language switcher's names and a few
  abbreviations (CSV, PDF, ...).
* "No missing glyph": the faces of static/app.css (@font-face) are loaded for the script
  (``document.fonts``: status "loaded") and measure exactly as the shipped .ttf loaded on
  its own (so the page draws with that font, from the device or from static/fonts/),
  ``document.fonts.check`` is true for the page's text, every character of the page's text
  draws differently on a canvas from the font's fallback box (the .notdef "tofu" drawn for a
  code point no font has), and the shipped .ttf's own character map covers every
  Devanagari/Gurmukhi character of the page (read here without any font library).
"""

from __future__ import annotations

import re
import struct
import unicodedata
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
POT = ROOT / "referee" / "translations" / "messages.pot"
FONTS = ROOT / "static" / "fonts"
PLAYERS = ["Ana", "Ben", "Caro"]

LANGUAGES = {
    # code: (family of the shipped face or None, its file, the script's Unicode block)
    "hi": ("Noto Sans Devanagari", "NotoSansDevanagari-Regular.ttf", (0x0900, 0x097F)),
    "pa": ("Noto Sans Gurmukhi", "NotoSansGurmukhi-Regular.ttf", (0x0A00, 0x0A7F)),
    "hu": (None, None, None),
}
# Latin words that may stay in any language: names, the brand, the switcher, abbreviations,
# the word typed into a hand field for "went out" (the hands parser reads "out"), and the
# JSON names of the API that refusals quote ('on', 'end').
ALLOWED = {
    word.casefold()
    for word in (
        *PLAYERS,
        "Domino",
        "Referee",
        "English",
        "Magyar",
        "CSV",
        "PDF",
        "A4",
        "Letter",
        "PIN",
        "QR",
        "JSON",
        "out",
        "on",
        "end",
        "mexican",
        "Chromium",
        "Debian",
        "HTTP",
        "bash",
        "scripts",
        "serve",
        "lan",
    )
}
RULE_ID = re.compile(r"\b[a-z]{2}(?:\.[a-z0-9\-]+)+\b")  # mt.double.open, kz.fish.all
# Hungarian words that are spelled like an English word of the catalog.
# ("add": "Add meg …", give; "most": now; "fel": up; "van": is; "ide": here.)
HUNGARIAN_HOMOGRAPHS = {"add", "most", "fel", "van", "ide", "hat", "mind"}


# ----------------------------------------------------------------------------- helpers


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Every English word (3+ letters) of the catalog's msgids, placeholders and HTML
    markup removed."""
    with POT.open("rb") as handle:
        catalog = read_po(handle)
    words: set[str] = set()
    for message in catalog:
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        for text in ids:
            if not text:
                continue
            text = re.sub(r"%\([a-z_]+\)[sdr]|\{[a-z_]+(![rsa])?\}|<[^>]+>", " ", text)
            text = RULE_ID.sub(" ", text)  # rule ids are the same in every language
            text = re.sub(r"\b[a-z]+(?:-[a-z]+)+\b", " ", text)  # slugs: chicken-foot
            words.update(w.casefold() for w in re.findall(r"[A-Za-z]{3,}", text))
    return frozenset(words - ALLOWED)


def leftover_english(text: str, lang: str, rule_ids: list[str] = ()) -> list[str]:
    text = RULE_ID.sub(" ", text)  # rule ids: mt.double.open
    for rule in rule_ids:  # the shown ids, common ones included ("turn", "unique")
        text = re.sub(rf"(?<![\w.]){re.escape(rule)}(?![\w.])", " ", text)
    found = []
    for word in re.findall(r"[^\W\d_]{3,}", text):
        if not re.fullmatch(r"[A-Za-z]+", word):
            continue  # a word with letters outside basic Latin (hu: "kör") is not English
        key = word.casefold()
        if lang == "hu" and key in HUNGARIAN_HOMOGRAPHS:
            continue
        if key in english_words():
            found.append(word)
    return sorted(set(found))


def cmap(path: Path) -> set[int]:
    """The code points a TrueType font maps (cmap subtable format 4 or 12), read directly."""
    data = path.read_bytes()
    tables = struct.unpack(">H", data[4:6])[0]
    offset = None
    for i in range(tables):
        tag, _sum, where, _length = struct.unpack(">4sLLL", data[12 + 16 * i : 28 + 16 * i])
        if tag == b"cmap":
            offset = where
    assert offset is not None, f"{path.name} has no cmap"
    count = struct.unpack(">H", data[offset + 2 : offset + 4])[0]
    points: set[int] = set()
    for i in range(count):
        _platform, _encoding, sub = struct.unpack(">HHL", data[offset + 4 + 8 * i : offset + 12 + 8 * i])
        start = offset + sub
        fmt = struct.unpack(">H", data[start : start + 2])[0]
        if fmt == 4:
            segs = struct.unpack(">H", data[start + 6 : start + 8])[0] // 2
            ends = struct.unpack(f">{segs}H", data[start + 14 : start + 14 + 2 * segs])
            begin = start + 16 + 2 * segs
            starts = struct.unpack(f">{segs}H", data[begin : begin + 2 * segs])
            deltas = struct.unpack(f">{segs}h", data[begin + 2 * segs : begin + 4 * segs])
            ranges_at = begin + 4 * segs
            ranges = struct.unpack(f">{segs}H", data[ranges_at : ranges_at + 2 * segs])
            for k in range(segs):
                for code in range(starts[k], ends[k] + 1):
                    if code == 0xFFFF:
                        continue
                    if ranges[k] == 0:
                        glyph = (code + deltas[k]) & 0xFFFF
                    else:
                        at = ranges_at + 2 * k + ranges[k] + 2 * (code - starts[k])
                        glyph = struct.unpack(">H", data[at : at + 2])[0]
                        glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
                    if glyph:
                        points.add(code)
        elif fmt == 12:
            groups = struct.unpack(">L", data[start + 12 : start + 16])[0]
            for g in range(groups):
                first, last, _glyph = struct.unpack(">LLL", data[start + 16 + 12 * g : start + 28 + 12 * g])
                points.update(range(first, last + 1))
    return points


VISIBLE_JS = """() => {
  const ids = [...document.querySelectorAll('.rule-id, .refusal-rule')].map(el => el.innerText.trim());
  const parts = [document.body.innerText];
  for (const el of document.querySelectorAll('[placeholder], [title], [aria-label], img[alt]')) {
    if (el.closest('svg.tile, .tile-button, [data-tile]')) continue;  // tile faces: "5-6"
    for (const name of ['placeholder', 'title', 'aria-label', 'alt']) {
      const value = el.getAttribute(name);
      if (value) parts.push(value);
    }
  }
  parts.push(document.title);
  return {text: parts.join('\\n'), ids};
}"""

GLYPHS_JS = """async ([family, text, fontUrl]) => {
  await document.fonts.ready;
  const faces = [...document.fonts]
    .filter(f => f.family.replace(/["']/g, '') === family)
    .map(f => ({weight: f.weight, status: f.status}));
  const stack = family ? `"${family}", sans-serif` : 'system-ui, sans-serif';
  const check = document.fonts.check(`16px ${stack}`, text);
  // the fallback box: a code point no font has (U+0378 is unassigned) is drawn as .notdef
  const size = 48, canvas = document.createElement('canvas');
  canvas.width = canvas.height = size * 2;
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const draw = (ch) => {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.font = `${size}px ${stack}`;
    ctx.fillText(ch, size / 2, size * 1.4);
    return {width: ctx.measureText(ch).width, pixels: ctx.getImageData(0, 0, canvas.width, canvas.height).data.join(',')};
  };
  const tofu = draw('\\u0378');
  const chars = [...new Set([...text].filter(ch => /\\S/.test(ch)))];
  const missing = chars.filter(ch => { const d = draw(ch); return d.width === tofu.width && d.pixels === tofu.pixels; });
  // the page's letters in the page's face, against the same file loaded on its own (same
  // widths: the shipped file is what draws them) and against fallback boxes (different)
  const letters = text.replace(/\\s+/g, '');
  ctx.font = `${size}px ${stack}`;
  const real = ctx.measureText(letters).width;
  let shipped = null;
  if (fontUrl) {
    const copy = new FontFace('Shipped copy', `url(${fontUrl})`);
    document.fonts.add(await copy.load());
    ctx.font = `${size}px "Shipped copy"`;
    shipped = ctx.measureText(letters).width;
  }
  ctx.font = `${size}px ${stack}`;
  const boxes = ctx.measureText('\\u0378'.repeat([...letters].length)).width;
  return {faces, check, missing, chars: chars.length, real, shipped, boxes};
}"""


def api(page, url: str, body: dict) -> dict:
    response = page.request.post(url, data=body)
    assert response.ok, (url, body, response.status, response.text())
    return response.json()


def referee_game_mid_round(page) -> str:
    """A Mexican Train referee game in round 1 with an open double and a marked train."""
    game = api(page, "/api/games", {"game": "mexican-train", "set": 9, "players": PLAYERS})
    game_id = game["id"]
    for action in (
        {"type": "play", "player": "Ana", "tile": "9-5", "train": "Ana"},
        {"type": "play", "player": "Ben", "tile": "9-4", "train": "Ben"},
        {"type": "play", "player": "Caro", "tile": "9-3", "train": "Caro"},
        {"type": "play", "player": "Ana", "tile": "5-5", "train": "Ana"},
        {"type": "draw", "player": "Ana"},
        {"type": "pass", "player": "Ana"},
    ):
        api(page, f"/api/games/{game_id}/actions", action)
    return game_id


def score_pad_game(page) -> str:
    """A Mexican Train score pad with two booked rounds (the scoresheet's table and chart)."""
    game = api(page, "/api/games", {"game": "mexican-train", "set": 9, "players": PLAYERS, "mode": "scores"})
    game_id = game["id"]
    api(page, f"/api/games/{game_id}/rounds/1/hands", {"hands": {"Ana": 0, "Ben": 23, "Caro": 41}})
    api(page, f"/api/games/{game_id}/rounds/2/hands", {"hands": {"Ana": 12, "Ben": [], "Caro": 7}})
    return game_id


def shoot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def assert_translated(page, lang: str, where: str) -> str:
    seen = page.evaluate(VISIBLE_JS)
    text = seen["text"]
    left = leftover_english(text, lang, seen["ids"])
    assert not left, f"{lang} {where}: English words left: {left}\n---\n{text}"
    return text


def assert_glyphs(page, lang: str, where: str, text: str) -> None:
    family, font_file, block = LANGUAGES[lang]
    if block:
        script = "".join(ch for ch in text if block[0] <= ord(ch) <= block[1] or ch in "\u200c\u200d")
        assert len(script) > 50, f"{lang} {where}: hardly any {family} text on the page"
        sample = script
    else:  # Hungarian: the accented letters, in the page's own font stack
        sample = "".join(ch for ch in text if ord(ch) > 0x7F and unicodedata.category(ch).startswith("L"))
        assert set("őéáöü") & set(sample), f"{where}: no Hungarian accented letters on the page"
    result = page.evaluate(
        GLYPHS_JS, [family or "", sample[:400], f"/static/fonts/{font_file}" if font_file else ""]
    )
    assert result["check"], f"{lang} {where}: document.fonts.check is false for the page's text"
    assert not result["missing"], f"{lang} {where}: drawn as the fallback box: {result['missing']}"
    if family:
        assert result["faces"] and all(face["status"] in ("loaded", "unloaded") for face in result["faces"])
        assert any(face["status"] == "loaded" for face in result["faces"]), (
            f"{lang} {where}: the shipped {family} was not loaded: {result['faces']}"
        )
        assert abs(result["real"] - result["shipped"]) < 0.01, (
            f"{lang} {where}: the page's {family} does not measure like the shipped file: {result}"
        )
        assert abs(result["real"] - result["boxes"]) > 1, (
            f"{lang} {where}: the text measures like fallback boxes: {result}"
        )
        covered = cmap(FONTS / font_file)
        uncovered = sorted({ch for ch in sample if ord(ch) not in covered and ch not in "\u200c\u200d"})
        assert not uncovered, f"{lang} {where}: {font_file} has no glyph for {uncovered}"


# ----------------------------------------------------------------------------- the test


@pytest.mark.parametrize("lang", ["hi", "pa", "hu"])
def test_table_and_scoresheet_in_the_language(page, live_server, lang):
    referee_id = referee_game_mid_round(page)
    pad_id = score_pad_game(page)

    # the language is chosen on the page (the switcher's /lang/<code>) and remembered
    page.goto(f"/lang/{lang}?next=/games/{referee_id}/table")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator(".turn .turn-name").inner_text() == "Ben"

    # the table mid-round: the open double, the marked train, the reminders, the controls
    text = assert_translated(page, lang, "table")
    assert_glyphs(page, lang, "table", text)
    shoot(page, f"i18n-{lang}-table")

    # a tile selected, then a play the rules refuse (mt.double.open): the refusal, its rule
    # text and the links, in the language
    page.goto(f"/games/{referee_id}/table?tile=4-8")
    page.locator('button.place[data-place="Ben"]').click()
    refusal = page.locator(".refusal")
    refusal.wait_for()
    assert "mt.double.open" in refusal.inner_text()
    text = assert_translated(page, lang, "refusal")
    assert_glyphs(page, lang, "refusal", text)
    shoot(page, f"i18n-{lang}-refusal")

    # the scoresheet of a game with booked rounds (table, totals, chart, rules in force)
    page.goto(f"/games/{pad_id}/scoresheet")
    page.locator(".scoresheet-table").wait_for()
    text = assert_translated(page, lang, "scoresheet")
    assert_glyphs(page, lang, "scoresheet", text)
    shoot(page, f"i18n-{lang}-scoresheet")

    # and the referee game's own scoresheet, still in round 1
    page.goto(f"/games/{referee_id}/scoresheet")
    text = assert_translated(page, lang, "scoresheet in round 1")
    shoot(page, f"i18n-{lang}-scoresheet-round1")

    # the shipped file is served for a device without the font (app.css may prefer an
    # installed copy through local(); the file loaded above as "Shipped copy" is this one)
    if LANGUAGES[lang][1]:
        response = page.request.get(f"/static/fonts/{LANGUAGES[lang][1]}")
        assert response.status == 200 and response.body()[:4] == b"\x00\x01\x00\x00"


def test_the_catalog_word_list_catches_english():
    """The check itself: an untranslated sentence is caught, a translated one is not."""
    assert "Refused" in leftover_english("Refused. mt.double.open Ana", "hi")
    assert leftover_english("ठुकराया गया। mt.double.open Ana 5-5 Domino Referee", "hi") == []
    assert leftover_english("Elutasítva. A kör véget ért.", "hu") == []
    # a rule id shown on the page is allowed, the same word in a sentence is not
    assert leftover_english("turn अभी Ben की बारी है", "hi", ["turn"]) == []
    assert leftover_english("Ben's turn", "hi", []) == ["turn"]
    # words of the rule ids inside the msgids ("(cf.score)") are not taken for English words
    assert "cf" not in english_words() and "Refused".casefold() in english_words()
    assert 0x0915 in cmap(FONTS / "NotoSansDevanagari-Regular.ttf")  # क
    assert 0x0A15 in cmap(FONTS / "NotoSansGurmukhi-Regular.ttf")  # ਕ
    assert 0x0A15 not in cmap(FONTS / "NotoSansDevanagari-Regular.ttf")
