from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.tiles import SET_SIZES, Tile, TileError, full_set, set_size, tiles_with


@pytest.mark.parametrize("highest, count", [(6, 28), (9, 55), (12, 91), (15, 136), (18, 190)])
def test_set_sizes_follow_rule_tiles(highest, count):
    tiles = full_set(highest)
    assert len(tiles) == count == set_size(highest)
    assert len(set(tiles)) == count
    assert all(0 <= t.low <= t.high <= highest for t in tiles)
    assert sum(t.is_double for t in tiles) == highest + 1


@pytest.mark.parametrize(
    "text, expected",
    [
        ("12-5", Tile(5, 12)),
        ("5-12", Tile(5, 12)),
        (" 0-0 ", Tile(0, 0)),
        ("6|4", Tile(4, 6)),
    ],
)
def test_parse_ignores_orientation(text, expected):
    assert Tile.parse(text) == expected
    assert str(Tile.parse(text)) == f"{expected.low}-{expected.high}"


@pytest.mark.parametrize(
    "text", ["", "abc", "5", "5-", "-1-3", "5-5-5", "123-4", None, 5, ["5", "6"], "５-６", "5-6x"]
)
def test_parse_refuses_non_tiles(text):
    with pytest.raises(TileError):
        Tile.parse(text)


def test_tile_errors_are_value_errors():
    assert issubclass(TileError, ValueError)


@given(st.integers(0, 18), st.integers(0, 18))
def test_tile_equality_ignores_orientation_and_round_trips(a, b):
    tile = Tile(a, b)
    assert tile == Tile(b, a) and hash(tile) == hash(Tile(b, a))
    assert Tile.parse(str(tile)) == tile
    assert pickle.loads(pickle.dumps(tile)) == tile
    assert tile.pips == a + b
    assert tile.is_double == (a == b)
    assert tile.other(a) == b and tile.other(b) == a


def test_other_refuses_a_missing_half():
    with pytest.raises(ValueError):
        Tile(3, 4).other(5)


def test_tiles_are_immutable():
    with pytest.raises(AttributeError):
        Tile(1, 2).low = 5  # type: ignore[misc]


def test_tiles_with_a_number():
    assert tiles_with(5, 6) == tuple(Tile(5, v) for v in range(7))
    assert Tile(5, 5) in tiles_with(5, 6)


def test_unknown_set_is_refused():
    with pytest.raises(ValueError):
        full_set(7)
    assert SET_SIZES == (6, 9, 12, 15, 18)
