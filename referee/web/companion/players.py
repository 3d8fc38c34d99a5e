"""Players across games: their records, head-to-head, and the leaderboards."""

from __future__ import annotations

from flask import abort, current_app, g, render_template
from flask_babel import gettext as _

from referee.rules import GAMES
from referee.stats import GameSummary, leaderboard, player_key, player_stats, summarize
from referee.store import GameNotFound, GameUnreadable
from referee.web import get_store
from referee.web.companion.common import bp
from referee.web.i18n import game_title, game_titles


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


@bp.get("/players")
def players():
    stats = sorted(player_stats(summaries()).values(), key=lambda s: (-s.games, s.key))
    return render_template("companion/players.html", players=stats, games=game_titles())


@bp.get("/players/<path:name>")
def player(name: str):
    games = summaries()
    stats = player_stats(games)
    record = stats.get(player_key(name))
    if record is None:
        abort(404, description=_("No game has a player called %(name)r.", name=name))
    by_game = {kind: player_stats(games, kind).get(record.key) for kind in GAMES}
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
    rows = leaderboard(summaries(), game)
    return render_template(
        "companion/leaderboard.html", rows=rows, game=game, title=game_title(game), games=game_titles()
    )
