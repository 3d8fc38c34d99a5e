"""Players across games: records, head-to-head and leaderboards, from stored matches.

Pure functions over ``Match`` values (no Flask, no database): the web layer loads the
games and passes them in. Conventions, the same for all three games (lower is better):

- a *round score* is a player's booked hand points for a round (``RoundRecord.points``);
  the best round is the lowest, the worst the highest;
- wins, places and head-to-head count **finished** games only. Mexican Train and Chicken
  Foot: the game's winners (after any tie-break). Kozel: the players with the most rating
  points (the goat, and a player who left, have none);
- one person plays under one name: names are matched case-insensitively (``Ana`` = ``ana``),
  shown as last written.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from referee.match import Match
from referee.rules import game_rules


def player_key(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


@dataclass(frozen=True, slots=True)
class RoundRef:
    points: int
    game_id: str
    game: str
    number: int


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One stored game as the statistics see it."""

    id: str
    game: str
    created: str
    players: tuple[str, ...]
    finished: bool
    totals: dict[str, int]
    rounds: tuple[tuple[int, dict[str, int]], ...]  # (round number, points per player)
    winners: tuple[str, ...]
    places: dict[str, int]  # 1 for the best; players with equal results share a place
    rating: dict[str, int] | None = None
    goats: tuple[str, ...] = ()
    left: str | None = None

    def place(self, name: str) -> int:
        """1 for the best; players with equal results share a place (finished games)."""
        return self.places.get(name, 1)


def summarize(game_id: str, created: str, match: Match) -> GameSummary:
    standing = match.standing
    players = tuple(match.players)
    totals = {p: int(standing.totals.get(p, 0)) for p in players}
    result = match.result
    places = {p: result.place_of(p) or len(players) for p in players} if result else {}
    rounds = tuple((r.number, {p: int(r.points.get(p, 0)) for p in players}) for r in match.rounds)
    return GameSummary(
        game_id,
        match.config.game,
        created,
        players,
        result is not None,
        totals,
        rounds,
        result.first if result else (),
        places,
        dict(result.rating) if result and result.rating else None,
        result.goats if result else (),
        result.left if result else None,
    )


@dataclass(slots=True)
class HeadToHead:
    opponent: str
    games: int = 0  # finished games played together
    ahead: int = 0
    behind: int = 0
    level: int = 0

    def count(self, mine: int, theirs: int) -> None:
        """One more finished game together, where the player placed ``mine`` and the
        opponent ``theirs`` (1 is first)."""
        self.games += 1
        if mine < theirs:
            self.ahead += 1
        elif mine > theirs:
            self.behind += 1
        else:
            self.level += 1


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game in a player's history."""

    id: str
    game: str
    created: str
    finished: bool
    total: int
    place: int | None
    won: bool
    players: tuple[str, ...]


@dataclass(slots=True)
class PlayerStats:
    name: str
    key: str
    games: int = 0
    finished: int = 0
    wins: int = 0
    rounds: int = 0
    round_points: int = 0
    best: RoundRef | None = None
    worst: RoundRef | None = None
    goat: int = 0
    rating_points: int = 0
    last_played: str = ""
    head_to_head: dict[str, HeadToHead] = field(default_factory=dict)
    history: list[GameLine] = field(default_factory=list)

    @property
    def average_round(self) -> float | None:
        return self.round_points / self.rounds if self.rounds else None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.finished if self.finished else None


def player_stats(games: Iterable[GameSummary], game: str | None = None) -> dict[str, PlayerStats]:
    """Every player's record (keyed by ``player_key``), optionally for one kind of game.

    Games are taken newest first for the names shown; pass them in any order."""
    chosen = sorted(
        (g for g in games if game is None or g.game == game), key=lambda g: (g.created, g.id), reverse=True
    )
    stats: dict[str, PlayerStats] = {}
    display: dict[str, str] = {}
    for summary in chosen:
        for name in summary.players:
            display.setdefault(player_key(name), name)
    for summary in chosen:
        for name in summary.players:
            key = player_key(name)
            record = stats.setdefault(key, PlayerStats(display[key], key))
            record.games += 1
            record.last_played = max(record.last_played, summary.created)
            won = summary.finished and name in summary.winners
            place = summary.place(name) if summary.finished else None
            record.history.append(
                GameLine(
                    summary.id,
                    summary.game,
                    summary.created,
                    summary.finished,
                    summary.totals[name],
                    place,
                    won,
                    summary.players,
                )
            )
            for number, points in summary.rounds:
                value = points[name]
                record.rounds += 1
                record.round_points += value
                ref = RoundRef(value, summary.id, summary.game, number)
                if record.best is None or value < record.best.points:
                    record.best = ref
                if record.worst is None or value > record.worst.points:
                    record.worst = ref
            if not summary.finished:
                continue
            record.finished += 1
            record.wins += won
            if name in summary.goats:
                record.goat += 1
            if summary.rating:
                record.rating_points += summary.rating.get(name, 0)
            for other in summary.players:
                if other == name:
                    continue
                okey = player_key(other)
                h2h = record.head_to_head.setdefault(okey, HeadToHead(display[okey]))
                h2h.count(summary.place(name), summary.place(other))
    return stats


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One player's part in one game: what the lists add up (kept by the store, one row per
    player and game, so the lists never go through the games themselves)."""

    game_id: str
    key: str
    name: str
    game: str
    created: str
    finished: bool
    won: bool
    total: int
    place: int | None  # finished games only
    rounds: int
    round_points: int
    best: int | None  # the lowest round, and the first round that scored it
    best_round: int | None
    worst: int | None  # the highest round, and the first round that scored it
    worst_round: int | None
    goat: bool  # finished Kozel games only
    rating: int  # finished games only


def player_games(summary: GameSummary) -> list[PlayerGame]:
    """The rows of ``summary``, one per player, with what ``player_stats`` counts of them."""
    rows = []
    for name in summary.players:
        best = worst = best_round = worst_round = None
        points_total = 0
        for number, points in summary.rounds:
            value = points[name]
            points_total += value
            if best is None or value < best:
                best, best_round = value, number
            if worst is None or value > worst:
                worst, worst_round = value, number
        finished = summary.finished
        rows.append(
            PlayerGame(
                summary.id,
                player_key(name),
                name,
                summary.game,
                summary.created,
                finished,
                finished and name in summary.winners,
                summary.totals[name],
                summary.place(name) if finished else None,
                len(summary.rounds),
                points_total,
                best,
                best_round,
                worst,
                worst_round,
                finished and name in summary.goats,
                (summary.rating or {}).get(name, 0) if finished else 0,
            )
        )
    return rows


def leaderboard(games: Iterable[GameSummary], game: str) -> list[PlayerStats]:
    """Players of one game, best first: most wins, then the best win rate, then the lowest
    average round (Kozel: most rating points first)."""
    return ranked(player_stats(games, game).values(), game)


def ranked(records: Iterable[PlayerStats], game: str) -> list[PlayerStats]:
    """``records`` of one game in the leaderboard's order (see ``leaderboard``)."""
    rows = list(records)
    rated = game_rules(game).rated

    def key(row: PlayerStats) -> tuple[float | str, ...]:
        rate = row.win_rate if row.win_rate is not None else -1
        average = row.average_round if row.average_round is not None else float("inf")
        if rated:
            return (-row.rating_points, -row.wins, -rate, average, row.key)
        return (-row.wins, -rate, average, row.key)

    return sorted(rows, key=key)
