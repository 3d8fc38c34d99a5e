"""Players across games: their records, head-to-head, and the leaderboards."""

from __future__ import annotations

import json
from typing import Any

from flask import abort, g, render_template
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from referee.rules import GAMES
from referee.stats import GameLine, HeadToHead, PlayerStats, RoundRef, player_key, ranked
from referee.store import Store
from referee.web.companion.common import bp
from referee.web.db import get_store
from referee.web.i18n import game_title, game_titles


def lists_ready() -> None:
    """Bring the players' rows of any game that is behind up to date (none, unless the
    database was written by hand), and note the games left out because they cannot be read."""
    store = get_store()
    for game_id in store.unsummarized():
        store.summarize_game(game_id)
    g.unreadable_games = store.unreadable_games()


def record(row: dict[str, Any]) -> PlayerStats:
    """A player's sums (a row of ``player_totals``) as the pages show them."""

    def ref(kind: str) -> RoundRef | None:
        if row[kind] is None:
            return None
        return RoundRef(row[kind], row[f"{kind}_game_id"], row[f"{kind}_game"], row[f"{kind}_round"])

    return PlayerStats(
        row["name"],
        row["key"],
        games=row["games"],
        finished=row["finished"],
        wins=row["wins"],
        rounds=row["rounds"],
        round_points=row["round_points"],
        best=ref("best"),
        worst=ref("worst"),
        goat=row["goat"],
        rating_points=row["rating_points"],
        last_played=row["last_played"],
    )


def records(scope: str = "") -> list[PlayerStats]:
    """Every player's record (over all games, or one kind), from the sums the store keeps
    with every write: a few rows to read, however many games there are."""
    lists_ready()
    return [record(row) for row in get_store().player_totals(scope)]


@bp.get("/players")
def players() -> ResponseReturnValue:
    stats = sorted(records(), key=lambda s: (-s.games, s.key))
    return render_template("companion/players.html", players=stats, games=game_titles())


def full_record(store: Store, key: str) -> tuple[PlayerStats, dict[str, PlayerStats | None]] | None:
    """One player's record with their games (newest first) and head-to-head, and their
    records per kind of game; None when no game has them."""
    totals = store.player_totals_of(key)
    if "" not in totals:
        return None
    player = record(totals[""])
    player.history = [
        GameLine(
            row["game_id"],
            row["game"],
            row["created"],
            bool(row["finished"]),
            row["total"],
            row["place"],
            bool(row["won"]),
            tuple(json.loads(row["players"])),
        )
        for row in store.player_history(key)
    ]
    for other, name, mine, theirs in store.opponents_of(key):
        player.head_to_head.setdefault(other, HeadToHead(name)).count(mine, theirs)
    return player, {kind: record(totals[kind]) if kind in totals else None for kind in GAMES}


@bp.get("/players/<path:name>")
def player(name: str) -> ResponseReturnValue:
    lists_ready()
    found = full_record(get_store(), player_key(name))
    if found is None:
        abort(404, description=_("No game has a player called %(name)r.", name=name))
    player, by_game = found
    nights = get_store().nights_of_player(player_key(name))
    for line in nights:
        line["title"] = game_title(line["game"])
    finished = [line for line in nights if line["status"] == "finished"]
    h2h = sorted(player.head_to_head.values(), key=lambda h: (-h.games, h.opponent.casefold()))
    return render_template(
        "companion/player.html",
        player=player,
        by_game=by_game,
        head_to_head=h2h,
        games=game_titles(),
        history=player.history,
        nights=nights,
        nights_finished=finished,
        best_night=min((line["place"] for line in finished), default=None),
    )


@bp.get("/leaderboard")
def leaderboards() -> ResponseReturnValue:
    return render_template("companion/leaderboards.html", games=game_titles())


@bp.get("/leaderboard/<game>")
def leaderboard_page(game: str) -> ResponseReturnValue:
    if game not in GAMES:
        abort(
            404,
            description=_(
                "There is no game called %(game)r: mexican-train, chicken-foot or kozel.", game=game
            ),
        )
    rows = ranked(records(game), game)
    return render_template(
        "companion/leaderboard.html", rows=rows, game=game, title=game_title(game), games=game_titles()
    )
