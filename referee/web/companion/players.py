"""Players across games: their records, head-to-head, and the leaderboards."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import abort, current_app, g, render_template
from flask_babel import gettext as _

from referee.rules import GAMES
from referee.stats import GameSummary, PlayerStats, leaderboard, player_key, player_stats, summarize
from referee.store import GameNotFound, GameUnreadable
from referee.web import get_store
from referee.web.companion.common import bp
from referee.web.i18n import game_title, game_titles

T = TypeVar("T")


def summaries() -> list[GameSummary]:
    """Every stored game, summarized. Kept per game with the version it was made at (a game
    only changes by growing its version), so the cache holds one entry per game, however
    many games there are, and a request summarizes only the games changed since the last."""
    store = get_store()
    caches: dict[str, dict[str, tuple[int, GameSummary]]] = current_app.extensions.setdefault(
        "companion_stats", {}
    )
    cache = caches.setdefault(current_app.config["DATABASE"], {})
    result = []
    listed = set()
    for row in store.list_games():
        listed.add(row["id"])
        held = cache.get(row["id"])
        if held is not None and held[0] == row["version"]:
            result.append(held[1])
            continue
        try:
            game = store.load(row["id"])
        except GameNotFound:  # deleted meanwhile
            continue
        except GameUnreadable as error:  # left out, with a note on the page
            current_app.logger.error("game %s left out of the lists: %s", error.game_id, error.reason)
            g.unreadable_games = [*getattr(g, "unreadable_games", []), error.game_id]
            continue
        summary = summarize(game.id, game.created, game.match)
        cache[row["id"]] = (game.version, summary)
        result.append(summary)
    if len(cache) > len(listed):  # games deleted or in the trash: forget them
        for game_id in set(cache) - listed:
            cache.pop(game_id, None)
    return result


def games_fingerprint() -> tuple[object, ...]:
    """What the listed games are at this moment, in three index lookups: how many, the last
    change here (every new game, play, hands entry, import and restore sets it) and the last
    throw into the trash. Equal fingerprints, equal lists."""
    row = (
        get_store()
        .db.execute(
            "select (select count(*) from games where trashed is null), "
            "(select max(changed) from games), (select max(trashed) from games)"
        )
        .fetchone()
    )
    return tuple(row)


def cached(name: str, make: Callable[[], T]) -> T:
    """``make()``, kept until a game changes: with 20,000 games, going through every
    summary again for each page view would cost seconds."""
    fingerprint = games_fingerprint()  # taken first: a change meanwhile is seen next time
    views: dict[str, dict[str, object]] = current_app.extensions.setdefault("companion_views", {})
    held = views.get(current_app.config["DATABASE"])
    if held is None or held.get("(fingerprint)") != fingerprint:
        held = {"(fingerprint)": fingerprint}
        views[current_app.config["DATABASE"]] = held
    if name not in held:
        held[name] = make()
        held[f"{name}(unreadable)"] = list(getattr(g, "unreadable_games", []))
    # the note on games left out holds as long as the view it was made with
    left_out = held.get(f"{name}(unreadable)") or []
    assert isinstance(left_out, list)
    g.unreadable_games = sorted({*getattr(g, "unreadable_games", []), *left_out})
    return held[name]  # type: ignore[return-value]


@bp.get("/players")
def players():
    stats = cached(
        "players", lambda: sorted(player_stats(summaries()).values(), key=lambda s: (-s.games, s.key))
    )
    return render_template("companion/players.html", players=stats, games=game_titles())


def stats_of(games: list[GameSummary], kind: str) -> dict[str, PlayerStats]:
    return cached(f"stats:{kind}", lambda: player_stats(games, kind))


@bp.get("/players/<path:name>")
def player(name: str):
    games = cached("summaries", summaries)
    stats = cached("stats", lambda: player_stats(games))
    record = stats.get(player_key(name))
    if record is None:
        abort(404, description=_("No game has a player called %(name)r.", name=name))
    by_game = {kind: stats_of(games, kind).get(record.key) for kind in GAMES}
    h2h = sorted(record.head_to_head.values(), key=lambda h: (-h.games, h.opponent.casefold()))
    return render_template(
        "companion/player.html",
        player=record,
        by_game=by_game,
        head_to_head=h2h,
        games=game_titles(),
        history=sorted(record.history, key=lambda g: g.created, reverse=True),
    )


@bp.get("/leaderboard")
def leaderboards():
    return render_template("companion/leaderboards.html", games=game_titles())


@bp.get("/leaderboard/<game>")
def leaderboard_page(game: str):
    if game not in GAMES:
        abort(
            404,
            description=_(
                "There is no game called %(game)r: mexican-train, chicken-foot or kozel.", game=game
            ),
        )
    rows = cached(f"leaderboard:{game}", lambda: leaderboard(summaries(), game))
    return render_template(
        "companion/leaderboard.html", rows=rows, game=game, title=game_title(game), games=game_titles()
    )
