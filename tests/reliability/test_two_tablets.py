"""Two tablets (and more) on one game, over real HTTP against the waitress-served app:
changes are serialized, a stale version gets 409, nothing is applied twice or lost."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
import requests

from referee.store import Store

CLIENTS = 6
PLAYERS = ["Ana", "Ben", "Caro"]


def create(server, **body):
    response = requests.post(f"{server.url}/api/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def check_log_matches(server, game_id, acknowledged):
    """Every acknowledged change is in the log exactly once, at the version it was told."""
    events = requests.get(f"{server.url}/api/games/{game_id}/events", timeout=10).json()["events"]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    assert len(events) == 1 + len(acknowledged)
    by_version = {e["version"]: e for e in events}
    for version, payload in acknowledged:
        assert by_version[version]["payload"] == payload
    state = requests.get(f"{server.url}/api/games/{game_id}", timeout=10).json()
    assert state["version"] == len(events)
    store = Store(server.app.config["DATABASE"])
    try:
        stored = store.load(game_id)
        assert stored.match.state() == store.replay(game_id).state()
    finally:
        store.close()
    return state


@pytest.mark.slow
def test_tablets_racing_with_versions_are_serialized(live_server):
    game = create(live_server, game="mexican-train", players=PLAYERS, set=12)
    acknowledged: list[tuple[int, dict]] = []
    conflicts = Counter()
    lock = threading.Lock()
    start = threading.Barrier(CLIENTS)
    errors: list[str] = []

    def tablet():
        session = requests.Session()
        start.wait()
        while True:
            answer = session.get(f"{live_server.url}/api/games/{game['id']}", timeout=10)
            if answer.status_code != 200:  # a read must never be refused, however busy the game
                errors.append(f"GET {answer.status_code} {answer.text[:200]}")
                return
            state = answer.json()
            if state["round"]["status"] != "playing" or len(acknowledged) >= 90:
                return
            player = state["round"]["turn"]
            for kind in ("draw", "pass"):
                payload = {"type": kind, "player": player}
                response = session.post(
                    f"{live_server.url}/api/games/{game['id']}/actions",
                    json={**payload, "version": state["version"]},
                    timeout=10,
                )
                if response.status_code == 200:
                    with lock:
                        acknowledged.append((response.json()["version"], payload))
                    break
                if response.status_code == 409:
                    with lock:
                        conflicts["409"] += 1
                    break
                if response.status_code != 422:
                    errors.append(f"{response.status_code} {response.text[:200]}")
                    return

    threads = [threading.Thread(target=tablet) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    versions = [v for v, _ in acknowledged]
    assert len(versions) == len(set(versions)), "two changes were told the same version"
    assert sorted(versions) == list(range(2, 2 + len(versions)))
    assert len(acknowledged) >= 60
    assert conflicts["409"] > 0, "the tablets never raced: the test proves nothing"
    check_log_matches(live_server, game["id"], acknowledged)
    print(f"\n{CLIENTS} concurrent clients: {len(acknowledged)} acknowledged, {conflicts['409']} stale (409)")


@pytest.mark.slow
def test_blind_tablets_lose_nothing_and_apply_nothing_twice(live_server):
    """Without versions, every accepted request is exactly one event (none lost, none doubled)."""
    game = create(live_server, game="mexican-train", players=PLAYERS, set=12, mode="scores")
    acknowledged: list[tuple[int, dict]] = []
    refused = Counter()
    lock = threading.Lock()
    start = threading.Barrier(CLIENTS)

    def tablet(index):
        session = requests.Session()
        start.wait()
        for attempt in range(12):
            # a score pad: every tablet books "round 1" again and again (a correction each time)
            payload = {"round": 1, "hands": {"Ana": index, "Ben": attempt, "Caro": 3}}
            response = session.post(
                f"{live_server.url}/api/games/{game['id']}/rounds/1/hands",
                json={"hands": payload["hands"]},
                timeout=10,
            )
            with lock:
                if response.status_code == 200:
                    acknowledged.append((response.json()["version"], payload))
                else:
                    refused[response.status_code] += 1

    threads = [threading.Thread(target=tablet, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not refused
    assert len(acknowledged) == CLIENTS * 12
    state = check_log_matches(live_server, game["id"], acknowledged)
    last = max(acknowledged, key=lambda item: item[0])[1]["hands"]
    assert state["rounds"][0]["points"] == last  # the last change applied wins, as logged


def test_two_tablets_with_the_same_version_one_wins(live_server):
    game = create(live_server, game="kozel", players=PLAYERS, mode="scores")
    url = f"{live_server.url}/api/games/{game['id']}/rounds/1/hands"
    start = threading.Barrier(8)
    answers: list[requests.Response] = []

    def tablet(index):
        start.wait()
        answers.append(
            requests.post(
                url, json={"hands": {"Ana": 0, "Ben": index + 1, "Caro": 5}, "version": 1}, timeout=10
            )
        )

    threads = [threading.Thread(target=tablet, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    statuses = Counter(a.status_code for a in answers)
    assert statuses == {200: 1, 409: 7}
    for answer in answers:
        if answer.status_code == 409:
            assert answer.json()["error"] and answer.json()["rule"] is None
    winner = next(a for a in answers if a.status_code == 200).json()
    assert requests.get(f"{live_server.url}/api/games/{game['id']}", timeout=10).json() == winner
    assert winner["version"] == 2
