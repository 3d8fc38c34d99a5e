"""What a name looks like: Unicode's confusable characters (UTS #39), for telling apart the
names at one table.

The data is Unicode's own ``confusables.txt`` as shipped, offline, by the
``confusable-homoglyphs`` package (pinned in ``pyproject.toml``): a maintained, pure-Python
package whose JSON file lists, for every character of Unicode's list, the characters it is
confusable with, in both directions. The package's own functions answer another question
("does this text hold characters that look like another script's?"), which would refuse a
Hungarian ``Ödön`` or a Hindi name for the company its letters keep; only its data is used
here, to compare two names as UTS #39 does: by their *skeletons*. Each confusable
character is replaced by one representative of its set of look-alikes (the characters the
data links, directly or not), so two names have equal skeletons exactly when Unicode says
they are drawn alike, letter by letter; a character drawn like several is replaced by
them, except a plain letter (``m`` and ``rn``: Amie and Arnie are two names). Names that merely share a script, or share letters with another script,
keep different skeletons.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib import resources

# Characters that draw nothing: format characters (Cf), combining marks on their own, spaces,
# and the "filler" letters some keyboards offer as a blank name.
BLANK_CHARACTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0")
DIRECTION_MARK = "\u200e"  # the package's data wraps right-to-left characters in it


def invisible(ch: str) -> bool:
    return ch in BLANK_CHARACTERS or ch.isspace() or unicodedata.category(ch) in ("Cf", "Zs")


@cache
def look_alike_table() -> dict[int, str]:
    """``str.translate`` table: every confusable character to its set's representative (the
    smallest code point of the set), or, for a character drawn like several, to theirs."""
    data = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    )
    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        root = ch
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(ch, ch) != root:  # shorten the path for the next look-up
            parent[ch], ch = root, parent[ch]
        return root

    drawn_as_several: dict[str, str] = {}
    for key, entries in data.items():
        source = key.replace(DIRECTION_MARK, "")
        if len(source) != 1:  # the reverse of a character drawn as several: seen from it
            continue
        for entry in entries:
            target = entry["c"].replace(DIRECTION_MARK, "")
            if len(target) == 1:
                a, b = find(source), find(target)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            elif target and not source.isascii():
                # (Unicode also lists plain letters drawn like two, as "m" and "rn": two
                # spellings in plain letters, like Amie and Arnie, are two names.)
                drawn_as_several[source] = target
    table = {ord(ch): find(ch) for ch in parent if find(ch) != ch}
    for ch, several in drawn_as_several.items():
        table[ord(ch)] = "".join(find(part) if part in parent else part for part in several)
    return table


def skeletons(name: str) -> frozenset[str]:
    """What ``name`` looks like, as written and case folded: compatibility forms folded
    (NFKC), blank characters dropped, each character replaced by its look-alikes'
    representative (on the decomposed form, so accents are compared as drawn). Two names
    look the same when they share a skeleton."""
    table = look_alike_table()
    result = set()
    for form in (name, name.casefold()):
        folded = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", form))
        visible = "".join(ch for ch in folded if not invisible(ch))
        result.add(unicodedata.normalize("NFD", visible.translate(table)))
    return frozenset(result)
