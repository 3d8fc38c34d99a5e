"""Domino tiles and sets: pure values, no I/O.

A tile is an unordered pair of pip values (rule `tiles`): ``Tile(12, 5) == Tile(5, 12)``.
The canonical text form puts the smaller half first: ``"5-12"``.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import NamedTuple

SET_SIZES = (6, 9, 12, 15, 18)
_TILE_TEXT = re.compile(r"^\s*([0-9]{1,2})\s*[-|:/]\s*([0-9]{1,2})\s*$")


class TileError(ValueError):
    """A text that does not name a tile at all (``"abc"``, ``"5"``, ``"-1-3"``)."""

    def __init__(self, text: object, reason: str = "") -> None:
        self.text = text
        super().__init__(reason or f'{text!r} is not a tile: write it as two numbers like "5-12".')


_INTERNED: dict[tuple[int, int], Tile] = {}
_TEXT: dict[tuple[int, int], str] = {}  # every state lists its tiles as text: written once


class Tile(NamedTuple("_Halves", [("low", int), ("high", int)])):
    """One domino. Construct with either order; the halves are stored smaller first.

    A tuple underneath: equality, hashing and ordering run in C, which matters because
    the engines compare tiles on every check."""

    __slots__ = ()

    def __new__(cls, a: int, b: int) -> Tile:
        if type(a) is not int or type(b) is not int or a < 0 or b < 0:
            raise TileError(f"{a}-{b}")
        halves = (a, b) if a <= b else (b, a)
        # One object per tile: a snapshot then pickles each tile once, however often
        # the state refers to it.
        tile = _INTERNED.get(halves)
        if tile is None:
            _TEXT.setdefault(halves, f"{halves[0]}-{halves[1]}")
            tile = _INTERNED.setdefault(halves, tuple.__new__(cls, halves))
        return tile

    @classmethod
    def parse(cls, text: object) -> Tile:
        if isinstance(text, Tile):
            return text
        if not isinstance(text, str):
            raise TileError(text)
        return _parse_text(text)

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def pips(self) -> int:
        """Face value; games that value ``0-0`` differently apply that themselves."""
        return self.low + self.high

    def has(self, value: int) -> bool:
        return value == self.low or value == self.high

    def other(self, value: int) -> int:
        """The half opposite ``value`` (the new open end once matched on ``value``)."""
        if value == self.low:
            return self.high
        if value == self.high:
            return self.low
        raise ValueError(f"{self} has no half {value}")

    def in_set(self, highest: int) -> bool:
        return self.high <= highest


@lru_cache(maxsize=256)
def _parse_text(text: str) -> Tile:
    match = _TILE_TEXT.match(text)
    if not match:
        raise TileError(text)
    return Tile(int(match.group(1)), int(match.group(2)))


@cache
def full_set(highest: int) -> tuple[Tile, ...]:
    """Every tile of a double-``highest`` set, ordered (0-0, 0-1, …, highest-highest)."""
    if highest not in SET_SIZES:
        raise ValueError(f"there is no double-{highest} set in this app (sets: {SET_SIZES})")
    return tuple(Tile(a, b) for a in range(highest + 1) for b in range(a, highest + 1))


def set_size(highest: int) -> int:
    return (highest + 1) * (highest + 2) // 2


def tiles_with(value: int, highest: int) -> tuple[Tile, ...]:
    """All tiles of the set carrying ``value`` on either half (the double included)."""
    return tuple(Tile(value, other) for other in range(highest + 1))
