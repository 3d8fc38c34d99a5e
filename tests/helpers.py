"""Black-box helpers of the API tests (tests/games/, tests/web/api/): only the JSON API of
API.md is used. Every test that creates games, acts and books hands through the API takes
its steps from here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

AB = ["Ana", "Ben"]
ABC = ["Ana", "Ben", "Caro"]
MAOS = ["Masha", "Alex", "Olya", "Serg"]  # the rule book's Kozel examples

# The rule ids of the rule book (RULES.md), written out independently of referee/rules/book.py.
RULE_IDS_COMMON = ["tiles", "pips", "unique", "turn", "hidden"]
RULE_IDS = {
    "mexican-train": [
        "mt.players",
        "mt.deal",
        "mt.engine",
        "mt.start",
        "mt.train",
        "mt.match",
        "mt.train.available",
        "mt.one-tile",
        "mt.draw",
        "mt.marker.place",
        "mt.marker.remove",
        "mt.must-play",
        "mt.last-tile",
        "mt.first-turn",
        "mt.double.follow",
        "mt.double.last",
        "mt.double.open",
        "mt.double.order",
        "mt.double.dead",
        "mt.first-turn.double",
        "mt.end.domino",
        "mt.end.blocked",
        "mt.score",
        "mt.winner",
    ],
    "chicken-foot": [
        "cf.players",
        "cf.rounds",
        "cf.start",
        "cf.match",
        "cf.spinner",
        "cf.one-tile",
        "cf.draw",
        "cf.double",
        "cf.foot.dead",
        "cf.end",
        "cf.score",
        "cf.tie",
    ],
    "kozel": [
        "kz.players",
        "kz.redeal",
        "kz.lead.first",
        "kz.lead.next",
        "kz.match",
        "kz.bazaar",
        "kz.must-play",
        "kz.out",
        "kz.fish",
        "kz.score.hand",
        "kz.score.zero",
        "kz.score.remember",
        "kz.score.open",
        "kz.score.reset",
        "kz.score.display",
        "kz.fish.all",
        "kz.fish.one",
        "kz.fish.pot",
        "kz.goat",
        "kz.rating",
        "kz.rating.left",
    ],
}


def game_maker(
    game: str, *, set: int | None = None, mode: str | None = "referee", players: Sequence[str] = AB
) -> Callable[..., str]:
    """``new(api, players, set=, mode=, **options)`` for one game: creates a game through the
    API and answers its id. ``set`` or ``mode`` None: the key is left out (the API's default)."""

    def new(
        api, players: Sequence[str] = players, *, set: int | None = set, mode: str | None = mode, **options
    ) -> str:
        body: dict[str, Any] = {"game": game, "players": list(players)}
        if set is not None:
            body["set"] = set
        if mode is not None:
            body["mode"] = mode
        if options:
            body["options"] = options
        return api.create(**body)["id"]

    return new


def is_refusal(data: Any) -> bool:
    """The error body of API.md: a non-empty ``error`` sentence and a ``rule`` (an id or null)."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("error"), str)
        and bool(data["error"])
        and "rule" in data
    )


def without_version(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "version"}


def ok(api, game_id: str, **action: Any) -> dict[str, Any]:
    """An action the rules allow: 200, version + 1, and the answer is the stored state."""
    before = api.state(game_id)
    status, data = api.act(game_id, **action)
    assert status == 200, (action, data)
    assert data["version"] == before["version"] + 1, action
    assert api.state(game_id) == data
    return data


def play_on(api, game_id: str, player: str, tile: str, on: str | None = None) -> dict[str, Any]:
    """An accepted Chicken Foot or Kozel play; ``on`` is the tile it joins (none for a first tile)."""
    action = {"type": "play", "player": player, "tile": tile}
    if on is not None:
        action["on"] = on
    return ok(api, game_id, **action)


def play_train(api, game_id: str, player: str, tile: str, train: str) -> dict[str, Any]:
    """An accepted Mexican Train play on ``train`` (a player's name or "mexican")."""
    return ok(api, game_id, type="play", player=player, tile=tile, train=train)


def spinner_arms(api, game_id: str, tiles: Sequence[str] = ("9-1", "9-2", "9-3", "9-4")) -> None:
    """Chicken Foot: Ana lays the spinner 9-9; Ben, Ana, Ben, Ana lay the arms. Ben is next."""
    play_on(api, game_id, "Ana", "9-9")
    for i, tile in enumerate(tiles):
        play_on(api, game_id, ["Ben", "Ana"][i % 2], tile, "9-9")


def refused(
    api, game_id: str, action: dict[str, Any], status: int = 422, rule: Any = ..., rules: tuple = ()
) -> dict[str, Any]:
    """A refused action: the status, the rule id (``...`` = not asserted), and nothing changed."""
    before = api.state(game_id)
    got, data = api.act(game_id, **action)
    assert got == status, (action, got, data)
    assert isinstance(data, dict) and isinstance(data.get("error"), str) and data["error"], data
    assert "rule" in data, data
    if rule is not ...:
        assert data["rule"] == rule, (action, data)
    if rules:
        assert data["rule"] in rules, (action, data)
    assert api.state(game_id) == before, action
    return data


def hands_ok(api, game_id: str, number: int, hands: dict[str, Any]) -> dict[str, Any]:
    before = api.state(game_id)
    status, data = api.hands(game_id, number, hands)
    assert status == 200, (hands, data)
    assert data["version"] == before["version"] + 1
    assert api.state(game_id) == data
    return data


def hands_refused(
    api, game_id: str, number: int, hands: Any, status: int = 422, rule: Any = ...
) -> dict[str, Any]:
    before = api.state(game_id)
    got, data = api.hands(game_id, number, hands)
    assert got in (status if isinstance(status, tuple) else (status,)), (hands, got, data)
    assert isinstance(data, dict) and data.get("error") and "rule" in data, data
    if rule is not ...:
        assert data["rule"] == rule, (hands, data)
    assert api.state(game_id) == before
    return data


def rounds(api, game_id: str, *entries: dict[str, Any]) -> dict[str, Any] | None:
    """Book each entry of hands for the current round in turn; the last state."""
    data = None
    for hands in entries:
        number = api.state(game_id)["round"]["number"]
        data = hands_ok(api, game_id, number, hands)
    return data
