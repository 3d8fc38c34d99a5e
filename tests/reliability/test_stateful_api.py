"""A Hypothesis state machine over the JSON API: random creates (every game, both modes),
plays, draws, passes, starts and ends chosen from legal and illegal candidates, undos,
hands entries and corrections. After every step: the served state equals the replayed
event log, the version grew by exactly one per accepted change (and the log by one
event), a refused call changed nothing, and booked totals are the sum of the rounds.

Bounded by the Hypothesis profile (tests/conftest.py): ``ci`` by default,
HYPOTHESIS_PROFILE=thorough for many more runs."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from referee.rules.base import Action
from referee.store import Store
from referee.tiles import full_set
from referee.web import create_app

NAMES = ["Ana", "Ben", "Caro", "Dev"]
TABLES = [("mexican-train", 12), ("mexican-train", 9), ("chicken-foot", 9), ("kozel", 6)]
FIGURES = {"machines": 0, "steps": 0, "accepted": 0, "refused": 0, "legal_tried": 0}


class ApiMachine(RuleBasedStateMachine):
    games = Bundle("games")

    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.mkdtemp(prefix="referee-stateful-")
        self.app = create_app(
            {
                "TESTING": True,
                "DATABASE": str(Path(self.dir) / "s.db"),
                "SECRET_KEY": "s",
                "WTF_CSRF_ENABLED": False,
            }
        )
        self.client = self.app.test_client()
        self.store = Store(self.app.config["DATABASE"])
        self.versions: dict[str, int] = {}
        FIGURES["machines"] += 1

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    # ----- helpers -----------------------------------------------------------------------

    def view(self, game_id: str):
        state = self.client.get(f"/api/games/{game_id}").get_json()
        events = self.client.get(f"/api/games/{game_id}/events").get_json()["events"]
        return state, events

    def post(self, game_id: str, url: str, body, expect_ok: bool | None = None):
        FIGURES["steps"] += 1
        before = self.view(game_id)
        response = self.client.post(url, json=body)
        after = self.view(game_id)
        data = response.get_json()
        if response.status_code == 200:
            FIGURES["accepted"] += 1
            assert after[0]["version"] == before[0]["version"] + 1
            assert len(after[1]) == len(before[1]) + 1
            assert data == after[0]
            self.versions[game_id] += 1
        else:
            FIGURES["refused"] += 1
            assert response.status_code in (400, 404, 409, 422), (response.status_code, data)
            assert isinstance(data["error"], str) and data["error"] and "rule" in data
            assert after == before, "a refused call changed the game"
        if expect_ok is not None:
            assert (response.status_code == 200) == expect_ok, (body, response.status_code, data)
        return response

    # ----- rules -------------------------------------------------------------------------

    @initialize(
        target=games,
        table=st.sampled_from(TABLES),
        mode=st.sampled_from(["referee", "scores"]),
        count=st.integers(2, 4),
    )
    def first_game(self, table, mode, count):
        return self._create(table, mode, count)

    @rule(
        target=games,
        table=st.sampled_from(TABLES),
        mode=st.sampled_from(["referee", "scores"]),
        count=st.integers(2, 4),
    )
    def create(self, table, mode, count):
        return self._create(table, mode, count)

    def _create(self, table, mode, count):
        game, highest = table
        response = self.client.post(
            "/api/games", json={"game": game, "set": highest, "mode": mode, "players": NAMES[:count]}
        )
        assert response.status_code == 201, response.get_json()
        data = response.get_json()
        assert data["version"] == 1
        self.versions[data["id"]] = 1
        return data["id"]

    @rule(
        body=st.sampled_from(
            [
                {"game": "kozel", "players": ["Ana"]},
                {"game": "kozel", "players": ["Ana", "ana"]},
                {"game": "chess", "players": ["Ana", "Ben"]},
                {"game": "kozel", "players": ["Ana", "Ben"], "set": 12},
            ]
        )
    )
    def refused_create(self, body):
        before = self.client.get("/api/games").get_json()
        response = self.client.post("/api/games", json=body)
        assert response.status_code in (400, 422)
        assert self.client.get("/api/games").get_json() == before

    @rule(game_id=games, data=st.data())
    def act(self, game_id, data):
        match = self.store.load(game_id).match
        legal, illegal = candidates(match)
        use_legal = bool(legal) and data.draw(st.integers(0, 3), label="illegal if 3") != 3
        action = data.draw(st.sampled_from(legal if use_legal else illegal), label="action")
        expect = None
        if isinstance(action, Action):
            expect = action in legal
            FIGURES["legal_tried"] += expect
            body = action.to_json()
        else:
            body = action
        if data.draw(st.booleans(), label="with version"):
            stale = data.draw(st.integers(0, 3), label="stale if 3") == 3
            body = {**body, "version": self.versions[game_id] - (1 if stale else 0)}
            if stale:
                expect = False
        self.post(game_id, f"/api/games/{game_id}/actions", body, expect)

    @rule(game_id=games)
    def undo(self, game_id):
        self.post(game_id, f"/api/games/{game_id}/actions", {"type": "undo"})

    @rule(game_id=games, data=st.data())
    def hands(self, game_id, data):
        state = self.client.get(f"/api/games/{game_id}").get_json()
        current = state["round"]["number"]
        # mostly the current round, else a correction, sometimes a round not reached (404)
        number = current - data.draw(st.integers(-1, current - 1), label="rounds back")
        players = state["players"]
        points = data.draw(
            st.lists(st.integers(0, 60), min_size=len(players), max_size=len(players)), label="points"
        )
        hands = dict(zip(players, points))
        bad = data.draw(
            st.sampled_from([None, None, None, "negative", "unknown", "missing", "tile"]), label="bad"
        )
        if bad == "negative":
            hands[players[0]] = -5
        elif bad == "unknown":
            hands["Zed"] = 1
        elif bad == "missing":
            hands.pop(players[-1])
        elif bad == "tile":
            hands[players[0]] = ["19-19"]
        expect = False if bad or number > current else None
        self.post(game_id, f"/api/games/{game_id}/rounds/{number}/hands", {"hands": hands}, expect)

    # ----- invariants --------------------------------------------------------------------

    @invariant()
    def served_state_is_the_replayed_log(self):
        for game_id, version in self.versions.items():
            state, events = self.view(game_id)
            assert state["version"] == version == len(events)
            assert [e["version"] for e in events] == list(range(1, version + 1))
            replayed = self.store.replay(game_id).state()
            assert {k: v for k, v in state.items() if k not in ("id", "version", "created")} == replayed
            if state["game"] in ("mexican-train", "chicken-foot"):
                assert state["totals"] == {
                    p: sum(r["points"][p] for r in state["rounds"]) for p in state["players"]
                }
            assert state["round"]["number"] >= 1


def candidates(match):
    """Legal actions (as the engine judges them) and illegal ones, for this match now."""
    players = list(match.players)
    illegal: list = [
        {"type": "draw", "player": "Zed"},
        {"type": "jump", "player": players[0]},
        {"type": "play", "player": players[0], "tile": "19-19", "train": "mexican"},
        {"type": "draw", "player": players[0], "tile": 7},
    ]
    engine = match.engine
    if not match.referee or engine is None or match.round_status() != "playing" or match.finished:
        illegal += [Action(kind, p) for kind in ("draw", "pass") for p in players]
        return [], illegal
    turn = engine.turn()
    movers = [turn] if turn else players
    actions = [Action(kind, p) for kind in ("draw", "pass", "end", "start") for p in players]
    on_table = engine.tiles_on_table()
    free = [t for t in full_set(match.config.highest) if t not in on_table]
    for target in engine.targets():
        for tile in free:
            for player in movers:
                if match.config.game == "mexican-train":
                    actions.append(Action("play", player, tile, train=target))
                else:
                    actions.append(Action("play", player, tile, on=target))
    legal = [a for a in actions if engine.is_legal(a)]
    illegal += [a for a in actions if a not in legal][:200]
    return legal, illegal


ApiMachine.TestCase.settings = settings(settings(), stateful_step_count=20, deadline=None)
TestApiStateMachine = ApiMachine.TestCase


def test_the_machine_tries_legal_plays_and_refused_calls():
    """The invariants above mean something only if the machine reaches both sides: calls the
    rules accept (legal plays among them) and calls they refuse. A fixed short run must."""
    before = dict(FIGURES)
    run_state_machine_as_test(
        ApiMachine,
        settings=settings(
            max_examples=3, stateful_step_count=20, derandomize=True, database=None, deadline=None
        ),
    )
    ran = {key: FIGURES[key] - before[key] for key in FIGURES}
    assert ran["machines"] >= 1
    assert ran["accepted"] > 0 and ran["refused"] > 0 and ran["legal_tried"] > 0, ran
    assert ran["steps"] == ran["accepted"] + ran["refused"], ran
