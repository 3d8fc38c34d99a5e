"""A stand-in for the photo reader, for the tests of what happens around a reading (the
correction screen, the checks, the answers): it returns a fixed reading, so those tests
do not depend on how well the reader reads."""

from __future__ import annotations

from typing import Any

from referee.tiles import Tile

try:
    from referee.vision import Reading, ReadTile
except ImportError:  # pragma: no cover - the reader's package not there yet
    from dataclasses import dataclass

    @dataclass(frozen=True, slots=True)
    class ReadTile:  # type: ignore[no-redef]
        tile: Tile
        confidence: float
        box: tuple[int, int, int, int]
        sure: bool = False

    @dataclass(frozen=True, slots=True)
    class Reading:  # type: ignore[no-redef]
        width: int
        height: int
        tiles: tuple[ReadTile, ...]


SURE_FROM = 0.9  # the stand-in reads a tile as sure from this confidence


def reading(*tiles: tuple[str, float, tuple[int, int, int, int]], width: int = 800, height: int = 600) -> Any:
    return Reading(
        width, height, tuple(ReadTile(Tile.parse(t), c, box, c >= SURE_FROM) for t, c, box in tiles)
    )


def fixed_reader(monkeypatch, result: Any) -> list[tuple[bytes, int]]:
    """Make the photo endpoint answer ``result`` for any photo; returns the calls made."""
    calls: list[tuple[bytes, int]] = []

    def read(data: bytes, highest: int) -> Any:
        calls.append((data, highest))
        return result

    monkeypatch.setattr("referee.web.photo.read_photo", read)
    return calls
