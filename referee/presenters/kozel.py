"""How Kozel is shown: the line of play, the accounts (kz.score.display), the pot, the teams
and the goat."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.match import Match
from referee.presenters.base import Account, Gettext, Presenter, RoundDetail, Series, join_names, last_round
from referee.rules.kozel import KozelBook, redeal_check
from referee.tiles import Tile


def book_of(match: Match) -> KozelBook:
    """The game's Kozel book (kz.score.*), which every Kozel standing carries."""
    book = match.standing.detail
    if not isinstance(book, KozelBook):
        raise TypeError("a Kozel game without its book")
    return book


def account_points(value: int, open_: bool) -> str:
    """kz.score.display in plain text: an open account as it is, remembered points as "+n"."""
    return str(value) if open_ or not value else f"+{value}"


class KozelPresenter(Presenter):
    table_template = "table/kozel.html"
    score_macros = "score/kozel.html"
    redeal_template = "redeal.html"

    def table_words(self, _: Gettext) -> dict[str, str]:
        return {"boneyard": _("Bazaar"), "draw": _("Draw from the bazaar"), "pass": _("Knock (pass)")}

    def redeal_link(self, _: Gettext) -> str:
        return _("Kozel: must this hand be redealt?")

    def redeal(self, tiles: Sequence[str]) -> tuple[bool, str]:
        """kz.redeal: five doubles or six tiles of one suit are dealt again."""
        return redeal_check(tiles)

    def pass_line(self, who: str, _: Gettext) -> str:
        return _("%(player)s knocked.", player=who)

    def table_view(self, match: Match, rnd: Mapping[str, Any], _: Gettext) -> dict[str, Any]:
        """The line of play from its left end to its right end, each tile oriented so that
        touching halves meet (the engine keeps the line in order; ``ends[0]`` is its left)."""
        engine = match.engine
        line: list[dict[str, Any]] = []
        if engine is None:
            return {"line": line, "end_tiles": []}
        state = engine.extra_state()
        texts, ends = state.get("line"), state.get("ends")
        tiles = [Tile.parse(str(text)) for text in texts] if isinstance(texts, list) else []
        if tiles and isinstance(ends, list) and isinstance(ends[0], int):
            # The left tile shows the left end's value outermost; each next tile starts with
            # the half its neighbour leaves open.
            value = ends[0]
            for tile in tiles:
                first = value if tile.has(value) else tile.low
                line.append({"text": str(tile), "first": first, "double": tile.is_double})
                value = tile.other(first)
        end_tiles = [str(t) for t in getattr(engine, "end_tiles", [])]
        return {"line": line, "end_tiles": end_tiles}

    def accounts(self, match: Match) -> dict[str, Account]:
        book = book_of(match)
        return {name: Account(book.open[name], book.remembered[name]) for name in match.players}

    def pot(self, match: Match) -> int:
        return book_of(match).pot

    def round_details(self, match: Match) -> dict[int, RoundDetail]:
        """Each round's ledger row, and whose account was open before it."""
        ledger = {entry["number"]: entry for entry in book_of(match).ledger}
        was_open = {name: False for name in match.players}
        details = {}
        for record in match.rounds:
            entry = ledger.get(record.number)
            if entry:
                details[record.number] = RoundDetail(entry, dict(was_open))
                was_open = {name: bool(entry["players"][name]["open"]) for name in match.players}
        return details

    def running_summary(self, match: Match, _: Gettext) -> str:
        book = book_of(match)
        opened = {name: match.standing.totals[name] for name in match.players if book.open[name]}
        if not opened:
            return _("No account open yet") if match.rounds else _("No round booked yet")
        top = max(opened.values())
        return _(
            "Nearest the goat: %(players)s",
            players=join_names([f"{n} {v}" for n, v in opened.items() if v == top], _),
        )

    def columns(self, match: Match, _: Gettext) -> list[tuple[str, str]]:
        """kz.teams: one column per team, showing its first player's (shared) account."""
        teams = book_of(match).teams
        if not teams:
            return super().columns(match, _)
        return [(join_names(team.players, _), team.players[0]) for team in teams]

    def teams(self, match: Match, _: Gettext) -> list[dict[str, Any]]:
        result = match.result
        return [
            {
                "players": team.players,
                "label": join_names(team.players, _),
                "total": team.total,
                "remembered": team.remembered,
                "open": team.open,
                "goat": bool(result and team.players[0] in result.goats),
            }
            for team in book_of(match).teams
        ]

    def chart_series(self, match: Match) -> Series:
        """The booked account after each round (from the ledger, so remembered points appear
        only once they are booked), with the goat line."""
        book = book_of(match)
        players = list(match.players)
        rounds: list[int] = []
        totals: dict[str, list[int]] = {p: [] for p in players}
        for entry in book.ledger:
            rounds.append(int(entry["number"]))
            for p in players:
                row = entry["players"][p]
                totals[p].append(int(row["after"]) if row["open"] else 0)
        return Series(rounds, totals, last_round(match, rounds), book.goat_at, "booked account")

    def sheet_cell(self, row: Mapping[str, Any], name: str) -> str:
        ledger = row["ledger"]
        if not ledger:
            return super().sheet_cell(row, name)
        entry = ledger["players"][name]
        return f"{entry['points']}\n{account_points(entry['after'], entry['open'])}"

    def sheet_total(self, standing: Mapping[str, Any]) -> str:
        is_open = bool(standing["open"])
        return account_points(standing["total"] if is_open else standing["remembered"], is_open)
