"""The rule book: rule ids and texts, read from the bundled RULES.md.

One source feeds both the refusals (a rule id is checked to exist) and the in-app rule
book, so the text a player is pointed at is the text the referee enforces.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

RULES_FILE = Path(__file__).with_name("RULES.md")
COMMON_IDS = ("tiles", "pips", "unique", "turn", "hidden")
GAME_PREFIX = {"mexican-train": "mt", "chicken-foot": "cf", "kozel": "kz"}
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


@lru_cache(maxsize=None)
def all_rules() -> tuple[Rule, ...]:
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

    for line in RULES_FILE.read_text(encoding="utf-8").splitlines():
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


@lru_cache(maxsize=None)
def rules_by_id() -> dict[str, Rule]:
    return {rule.id: rule for rule in all_rules()}


def rules_for(game: str) -> list[Rule]:
    prefix = GAME_PREFIX[game] + "."
    return [rule for rule in all_rules() if rule.id in COMMON_IDS or rule.id.startswith(prefix)]


def rule_text(rule_id: str | None) -> str | None:
    rule = rules_by_id().get(rule_id or "")
    return rule.text if rule else None
