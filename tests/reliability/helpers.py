"""Shared by the reliability tests: the whole database as seen through the API."""

from __future__ import annotations

from typing import Any


def snapshot(client) -> dict[str, Any]:
    """Every game's state and events: what a refused request must leave untouched."""
    games = client.get("/api/games").get_json()["games"]
    return {
        g["id"]: (
            client.get(f"/api/games/{g['id']}").get_json(),
            client.get(f"/api/games/{g['id']}/events").get_json()["events"],
        )
        for g in games
    }


def assert_refusal(response, status: int) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True)[:300])
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert isinstance(body.get("error"), str) and body["error"].strip(), body
    assert "rule" in body and (body["rule"] is None or isinstance(body["rule"], str)), body
    return body
