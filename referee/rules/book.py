"""The rule book: rule ids and texts, read from the bundled RULES.md.

One source feeds both the refusals (a rule id is checked to exist) and the in-app rule
book, so the text a player is pointed at is the text the referee enforces.

Which rules belong to which game is read from the game's declaration (its ``prefix``:
``kz.goat`` is Kozel's); the rules common to all games are ``COMMON_IDS``; the club-night
rules (``night.*``) are the club's, not a game's, and sit in no game's book.

Translations sit beside it as ``RULES.<lang>.md`` (``hi``, ``pa``, ``hu``) with the same
structure and the same rule ids; English is the default and the fallback for a rule (or
a whole book) that a translation lacks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from referee.rules import GAMES

RULES_FILE = Path(__file__).with_name("RULES.md")
DEFAULT_LANG = "en"
TRANSLATED = ("hi", "pa", "hu")
COMMON_IDS = ("tiles", "pips", "unique", "turn", "hidden")
CLUB_NIGHT_PREFIX = "night"
_RULE_LINE = re.compile(r"^- \*\*([a-z][a-z0-9.\-]*)\*\* ?(.*)$")
_INLINE = re.compile(r"\*\*|`")


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    text: str
    section: str

    @property
    def anchor(self) -> str:
        return "rule-" + self.id.replace(".", "-")


def rules_file(lang: str = DEFAULT_LANG) -> Path:
    """The rule book of ``lang`` (RULES.md for English or an unknown language)."""
    if lang in TRANSLATED:
        path = RULES_FILE.with_name(f"RULES.{lang}.md")
        if path.exists():
            return path
    return RULES_FILE


@cache
def all_rules(lang: str = DEFAULT_LANG) -> tuple[Rule, ...]:
    """Every rule of the book in ``lang``, in book order; a rule missing from a translation
    is taken from the English book, so every language has every id."""
    rules = read_book(rules_file(lang))
    if lang == DEFAULT_LANG or rules_file(lang) == RULES_FILE:
        return rules
    translated = {rule.id: rule for rule in rules}
    return tuple(translated.get(rule.id, rule) for rule in all_rules(DEFAULT_LANG))


def read_book(path: Path) -> tuple[Rule, ...]:
    """The rules in one rule book file as it is written (no fallback to the English book)."""
    rules: list[Rule] = []
    section = ""
    current: list[str] | None = None
    current_id = ""

    def flush() -> None:
        nonlocal current
        if current is not None:
            text = " ".join(part.strip() for part in current if part.strip())
            rules.append(Rule(current_id, _INLINE.sub("", text), section))
        current = None

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            flush()
            section = line.lstrip("#").strip()
            continue
        match = _RULE_LINE.match(line)
        if match:
            flush()
            current_id, current = match.group(1), [match.group(2)]
        elif current is not None and (line.startswith("  ") or line.strip() == ""):
            if line.strip().startswith("|"):
                continue  # tables are shown on the rule book page from the data, not inlined
            current.append(line)
        elif current is not None:
            flush()
            if line and not line.startswith("-"):
                section_note = line  # a sub-heading such as "Trains"
                section = section.split(" — ")[0] + (" — " + section_note if section_note else "")
    flush()
    return tuple(rules)


@cache
def rules_by_id(lang: str = DEFAULT_LANG) -> dict[str, Rule]:
    return {rule.id: rule for rule in all_rules(lang)}


def rules_for(game: str, lang: str = DEFAULT_LANG) -> list[Rule]:
    """The rules of ``game``'s book: the common ones and those named with its prefix."""
    prefix = GAMES[game].prefix + "."
    return [rule for rule in all_rules(lang) if rule.id in COMMON_IDS or rule.id.startswith(prefix)]


def club_night_rules(lang: str = DEFAULT_LANG) -> list[Rule]:
    """The rules of a club night (``night.*``): the club's, cited by a night's refusals."""
    prefix = CLUB_NIGHT_PREFIX + "."
    return [rule for rule in all_rules(lang) if rule.id.startswith(prefix)]


def game_of_rule(rule_id: str | None) -> str | None:
    """The game whose rule ``rule_id`` is (by its prefix: ``kz.goat`` → ``kozel``); ``None``
    for a rule common to all games or no rule."""
    prefix, dot, _ = (rule_id or "").partition(".")
    return next((key for key, rules in GAMES.items() if dot and rules.prefix == prefix), None)


def rule_text(rule_id: str | None, lang: str = DEFAULT_LANG) -> str | None:
    rule = rules_by_id(lang).get(rule_id or "")
    return rule.text if rule else None
