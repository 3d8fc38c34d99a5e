"""Kozel's game-level rules and its own scoring (`kz.score.*`, `kz.goat`, `kz.rating*`, `kz.teams`)."""

from __future__ import annotations

from collections.abc import Iterable

from referee.rules.base import (
    EndReason,
    GameResult,
    GameRules,
    LedgerRow,
    Phrase,
    RoundEnd,
    RoundRecord,
    RoundSetup,
    Standing,
    Team,
    phrase,
    placings_by,
    refuse,
)
from referee.rules.kozel.declaration import (
    DECLARATION,
    HAND_SIZE,
    OPEN_AT,
    RATING_BASE,
    KozelBook,
    KozelOptions,
)
from referee.rules.kozel.engine import KozelRound
from referee.tiles import Tile


class Kozel(GameRules[KozelOptions]):
    declaration = DECLARATION
    Options = KozelOptions
    leaving = True  # kz.rating.left
    Round = KozelRound
    out_rule = "kz.out"
    zero_is_out = True  # kz.score.zero: a lone 0-0 counts 10 or 25, so only an empty hand is 0
    rated = True  # kz.goat, kz.rating
    round_double_name = ""  # a round's lead is any tile, not a double it grows from (kz.lead.next)

    @classmethod
    def pad_round_end(cls, empty: str | None) -> RoundEnd:
        """kz.out / kz.fish: a round nobody went out of ended in a fish."""
        return RoundEnd(EndReason.DOMINO, empty) if empty else RoundEnd(EndReason.FISH, None)

    @classmethod
    def check_table(cls, players: tuple[str, ...], highest: int, options: KozelOptions) -> None:
        if highest != 6:
            raise refuse(
                "kz.players",
                "Kozel is played with a double-6 set only, not double-{highest}.",
                highest=highest,
            )
        if not 2 <= len(players) <= 4:
            raise refuse("kz.players", "Kozel is for 2–4 players, not {count}.", count=len(players))
        if options.teams and len(players) != 4:
            raise refuse(
                "kz.teams",
                "Kozel in teams is for exactly 4 players (two pairs of partners), not {count}.",
                count=len(players),
            )

    @classmethod
    def round_count(cls, highest: int, options: KozelOptions) -> None:
        return None

    @classmethod
    def round_double(cls, number: int, highest: int, options: KozelOptions) -> None:
        return None

    @classmethod
    def round_setup(
        cls,
        number: int,
        players: tuple[str, ...],
        highest: int,
        options: KozelOptions,
        finished: list[RoundRecord],
    ) -> RoundSetup[KozelOptions]:
        # kz.lead.next: whoever went out or made the fish leads; unknown in round 1.
        leader = None
        if finished:
            last = finished[-1]
            leader = last.end.player if last.end.reason in ("domino", "fish", "table") else None
        return RoundSetup(
            players=players,
            highest=highest,
            options=options,
            number=number,
            double=None,
            starter=leader,
            hand_size=HAND_SIZE,
        )

    @classmethod
    def hand_points(cls, tiles: Iterable[Tile], options: KozelOptions) -> int:
        tiles = list(tiles)
        if tiles == [Tile(0, 0)]:
            return int(options.zero_zero)  # kz.score.zero
        return sum(tile.pips for tile in tiles)

    @classmethod
    def standing(
        cls,
        players: tuple[str, ...],
        highest: int,
        options: KozelOptions,
        rounds: list[RoundRecord],
        left: str | None = None,
    ) -> Standing:
        return book_game(players, options, rounds, left)

    @classmethod
    def leaders(cls, standing: Standing) -> list[str]:
        """Kozel has no leader: remembered points are not booked, so its standings show
        them instead (kz.score.display)."""
        return []

    @classmethod
    def zero_note(cls, options: KozelOptions) -> tuple[str, Phrase]:
        return "kz.score.zero", phrase("A lone 0-0 counts {points}.", points=options.zero_zero)

    @classmethod
    def rules_in_force(cls, options: KozelOptions) -> list[str]:
        fish: str = (
            phrase("Fish scoring: fish for all (kz.fish.all).")
            if options.fish == "all"
            else phrase("Fish scoring: fish to one (kz.fish.one).")
        )
        return [
            fish,
            phrase("A lone 0-0 counts {points} (kz.score.zero).", points=options.zero_zero),
            phrase("The goat is the first to {points} (kz.goat).", points=options.lose_at),
        ] + (
            [phrase("Played in teams: partners sit opposite and share one account (kz.teams).")]
            if options.teams
            else []
        )


def half_up(numerator: int, denominator: int = 10) -> int:
    """``numerator / denominator`` rounded half up (7.5 → 8, 2.5 → 3; not banker's rounding)."""
    return (2 * numerator + denominator) // (2 * denominator)


def rating_points(own: int, reference: int = RATING_BASE) -> int:
    """kz.rating / kz.rating.left: ``(reference − own) / 10``, rounded half up, at least 1."""
    return max(1, half_up(reference - own))


def teams_of(players: tuple[str, ...], options: KozelOptions) -> tuple[tuple[str, ...], ...]:
    """kz.teams: partners sit opposite (1st and 3rd against 2nd and 4th); else each player
    is a side of their own."""
    if options.teams and len(players) == 4:
        return ((players[0], players[2]), (players[1], players[3]))
    return tuple((name,) for name in players)


def _single_highest_side(scores: list[int]) -> int | None:
    top = max(scores)
    leaders = [index for index, score in enumerate(scores) if score == top]
    return leaders[0] if len(leaders) == 1 else None


def _rated_placings(
    players: tuple[str, ...], rating: dict[str, int], totals: dict[str, int]
) -> tuple[tuple[str, ...], ...]:
    """The rated players' places: most rating points first, then the lower account."""
    rated = [name for name in players if name in rating]
    return placings_by(rated, {name: (-rating[name], totals[name]) for name in rated})


def book_game(
    players: tuple[str, ...], options: KozelOptions, rounds: list[RoundRecord], left: str | None = None
) -> Standing:
    """The booked Kozel game (kz.score.*, kz.fish.*, kz.goat, kz.rating*, kz.teams) from its rounds.

    Each round's ``points`` are the hand points (kz.score.hand, kz.score.zero applied).
    The account is kept per side: a player, or with kz.teams a team of two partners, whose
    score is the sum of its hands (0 for the side of the player who went out).
    A round's "round score" is what goes through kz.score.remember / kz.score.open: the
    side's hand points, except in a fish to one (the taker scores every hand, the others 0)
    and for the taker of a pot (its hand plus the pot) — both booked by the usual rule.
    """
    sides = teams_of(players, options)
    side_of = {name: index for index, side in enumerate(sides) for name in side}
    count = len(sides)
    account = [0] * count
    is_open = [False] * count
    remembered = [0] * count
    pot = 0
    ledger: list[LedgerRow] = []
    goats: list[int] = []
    for record in rounds:
        if goats:
            break  # kz.goat: the game ended with the goat; later rounds are not booked
        hands = {name: int(record.points.get(name, 0)) for name in players}
        went_out = record.went_out()
        if went_out not in side_of:
            went_out = None  # no empty hand: kozel reads the round as a fish
        fish = went_out is None
        out_side = side_of[went_out] if went_out is not None else None
        side_hands = [
            0 if index == out_side else sum(hands[name] for name in side) for index, side in enumerate(sides)
        ]
        shown_before = [account[i] if is_open[i] else remembered[i] for i in range(count)]
        scores = list(side_hands)
        resets: set[int] = set()
        pot_taker: int | None = None
        pot_taken = 0
        drawn = False
        if fish and options.fish == "one":
            taker = _single_highest_side(side_hands)
            scores = [0] * count
            if taker is None:
                drawn = True  # kz.fish.pot: nobody books; the hands go to the pot
                pot += sum(side_hands)
            else:
                scores[taker] = sum(side_hands)
                resets = set(range(count)) - {taker}  # kz.fish.one
        else:
            if out_side is not None:
                resets = {out_side}  # kz.score.reset
            taker = _single_highest_side(side_hands) if pot else None
        if pot and not drawn and taker is not None:
            pot_taker, pot_taken = taker, pot
            scores[taker] += pot
            pot = 0
        for index in range(count):
            if index in resets:
                remembered[index] = 0
            if drawn:
                continue
            score = scores[index]
            if is_open[index]:
                account[index] += score
            elif score > OPEN_AT:  # kz.score.open
                is_open[index] = True
                account[index] += remembered[index] + score
                remembered[index] = 0
            else:  # kz.score.remember
                remembered[index] += score
        row: LedgerRow = {
            "number": record.number,
            "fish": fish,
            "pot": pot,
            "players": {
                name: {
                    "before": shown_before[side_of[name]],
                    "hand": hands[name],
                    "points": scores[side_of[name]],
                    "after": account[side_of[name]] if is_open[side_of[name]] else remembered[side_of[name]],
                    "open": is_open[side_of[name]],
                    "remembered": remembered[side_of[name]],
                    "took_pot": side_of[name] == pot_taker,
                    "pot_taken": pot_taken if side_of[name] == pot_taker else 0,
                }
                for name in players
            },
        }
        if options.teams:
            # API.md: each team's own score for the round (kz.teams), before the fish-to-one
            # transfer and the pot; the ledger's points above are what each team booked.
            row["team_points"] = list(side_hands)
        ledger.append(row)
        reached = [index for index in range(count) if account[index] >= options.lose_at]
        if reached:
            worst = max(account[index] for index in reached)
            goats = [index for index in reached if account[index] == worst]
    totals = {name: account[side_of[name]] for name in players}
    book = KozelBook(
        remembered={name: remembered[side_of[name]] for name in players},
        open={name: is_open[side_of[name]] for name in players},
        goat_at=options.lose_at,
        pot=pot,
        ledger=tuple(ledger),
        teams=tuple(
            Team(side, account[index], remembered[index], is_open[index]) for index, side in enumerate(sides)
        )
        if options.teams
        else (),
    )
    result: GameResult | None = None
    if goats:
        goat_names = tuple(name for name in players if side_of[name] in goats)
        rating = {name: rating_points(totals[name]) for name in players if name not in goat_names}
        result = GameResult(
            placings=_rated_placings(players, rating, totals) + (goat_names,),
            goats=goat_names,
            rating=rating,
        )
    elif left is not None and left in side_of:
        leavers = sides[side_of[left]]
        rating = {name: rating_points(totals[name], totals[left]) for name in players if name not in leavers}
        result = GameResult(
            placings=_rated_placings(players, rating, totals) + (leavers,),
            rating=rating,
            left=left,
        )
    return Standing(totals=totals, result=result, detail=book)
