"""Black-box helpers for the acceptance tests: only the JSON API of API.md is used."""

from __future__ import annotations

from typing import Any

RULE_IDS_COMMON = ["tiles", "pips", "unique", "turn", "hidden"]


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
