"""Mexican Train's game-level rules (`mt.*`): table checks, hand sizes, names and scoring."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

from referee.rules.base import (
    RoundEnd,
    RoundFacts,
    RoundRecord,
    RoundSetup,
    bad_request,
    face_points,
    phrase,
    refuse,
)
from referee.rules.mexican_train.declaration import (
    DECLARATION,
    MEXICAN,
    MexicanTrainOptions,
    standard_hand_size,
)
from referee.rules.mexican_train.engine import MexicanTrainRound
from referee.rules.scoring import LowestTotalGame
from referee.tiles import Tile, set_size


class MexicanTrain(LowestTotalGame[MexicanTrainOptions]):
    # mt.players names the usual sets (the declaration's); any other set of the `tiles` rule
    # is played when the table sets a hand size the tiles suffice for.
    declaration = DECLARATION
    Options = MexicanTrainOptions
    Round = MexicanTrainRound
    out_rule = "mt.end.domino"
    last_tile_rule = "mt.last-tile"
    round_double_name = phrase("Engine")

    @classmethod
    def ends_first_turn(cls, options: MexicanTrainOptions) -> bool:
        return bool(options.first_turn == "build")  # mt.first-turn

    @classmethod
    def check_player_name(cls, name: str) -> None:
        if name.casefold() == MEXICAN:  # mt.train: the Mexican train's key
            raise bad_request(
                '"mexican" names the Mexican train: choose another player name.', field="players"
            )

    @classmethod
    def check_options(cls, raw: Mapping[str, object], options: MexicanTrainOptions, highest: int) -> None:
        super().check_options(raw, options, highest)
        if options.blank_half and raw.get("double_blank") is not None:
            raise bad_request(
                "With 'blank_half' 25 a 0-0 counts 50: leave 'double_blank' unset (mt.house.blank-half).",
                field="double_blank",
            )

    @classmethod
    def tie_break(cls, options: MexicanTrainOptions) -> str:
        return str(options.tie_break)  # mt.winner

    @classmethod
    def hand_size(cls, highest: int, player_count: int, options: MexicanTrainOptions) -> int:
        return options.hand_size or standard_hand_size(highest, player_count) or 0

    @classmethod
    def check_table(cls, players: tuple[str, ...], highest: int, options: MexicanTrainOptions) -> None:
        count = len(players)
        if highest not in cls.sets:
            raise refuse(
                "mt.players",
                "Mexican Train is played with a double-6, -9, -12, -15 or -18 set, not double-{highest}.",
                highest=highest,
            )
        if count < 2:
            raise refuse("mt.players", "Mexican Train needs at least 2 players.")
        if options.hand_size is None:
            if standard_hand_size(highest, count) is None:
                allowed = {9: "2–4", 12: "2–8", 15: "9–12", 18: "9–12"}.get(highest)
                if allowed is None:
                    raise refuse(
                        "mt.players",
                        "The rules give no hand size for a double-{highest} set: set the hand size.",
                        highest=highest,
                    )
                raise refuse(
                    "mt.players",
                    "A double-{highest} set is for {allowed} players, not {count}: "
                    "choose another set or set the hand size.",
                    highest=highest,
                    allowed=allowed,
                    count=count,
                )
            return
        needed = count * options.hand_size + 1
        if needed > set_size(highest):
            raise refuse(
                "mt.deal",
                "{count} hands of {hand} plus the engine need {needed} tiles, "
                "but a double-{highest} set has only {size}.",
                count=count,
                hand=options.hand_size,
                needed=needed,
                highest=highest,
                size=set_size(highest),
            )

    @classmethod
    def round_setup(
        cls,
        number: int,
        players: tuple[str, ...],
        highest: int,
        options: MexicanTrainOptions,
        finished: list[RoundRecord],
    ) -> RoundSetup[MexicanTrainOptions]:
        # mt.start default: the first player entered starts round 1, then one seat clockwise.
        return RoundSetup(
            players=players,
            highest=highest,
            options=options,
            number=number,
            double=cls.round_double(number, highest, options),
            starter=players[(number - 1) % len(players)],
            hand_size=cls.hand_size(highest, len(players), options),
        )

    @classmethod
    def hand_points(cls, tiles: Iterable[Tile], options: MexicanTrainOptions) -> int:
        blank = options.blank_half  # mt.house.blank-half
        twice = options.doubles_in_hand == "double"  # mt.house.doubles
        if not blank and not twice:
            return face_points(tiles, options.double_blank)
        total = 0
        for tile in tiles:
            if tile == Tile(0, 0):
                total += 2 * blank if blank else options.double_blank
                continue
            value = sum(blank if half == 0 and blank else half for half in (tile.low, tile.high))
            total += 2 * value if twice and tile.is_double else value
        return total

    @classmethod
    def entry_fact_names(cls, options: MexicanTrainOptions, referee: bool) -> tuple[str, ...]:
        """A score pad with a marker penalty names the marked trains (referee mode sees them)."""
        return ("markers",) if options.marker_penalty and not referee else ()

    @classmethod
    def entry_facts(
        cls,
        extra: Mapping[str, object],
        options: MexicanTrainOptions,
        players: tuple[str, ...],
        referee: bool,
    ) -> RoundFacts:
        """A score pad names the players whose trains carried a marker (`mt.house.marker`)."""
        unknown = sorted(set(extra) - {"markers"})
        if unknown:
            raise bad_request("Unknown field {name!r} in the hands entry.", field=unknown[0], name=unknown[0])
        if "markers" not in extra:
            return {}
        if not options.marker_penalty:
            raise bad_request(
                "'markers' is read only with a marker penalty (mt.house.marker), which this game does not play.",
                field="markers",
            )
        if referee:
            raise refuse(
                "mt.house.marker",
                "In referee mode the markers are read from the table: leave 'markers' out of the entry.",
            )
        markers = extra["markers"]
        if not isinstance(markers, list) or not all(isinstance(name, str) for name in markers):
            raise bad_request("'markers' must be a list of player names.", field="markers")
        named: list[str] = []
        for name in markers:
            cleaned = unicodedata.normalize("NFC", name).strip()
            if cleaned not in players:
                raise bad_request(
                    "'markers' names {name!r}, who is not playing in this game.", field="markers", name=name
                )
            if cleaned in named:
                raise bad_request("'markers' names {name!r} twice.", field="markers", name=cleaned)
            named.append(cleaned)
        return {"markers": named}

    @classmethod
    def round_points(
        cls, points: Mapping[str, int], end: RoundEnd, facts: RoundFacts, options: MexicanTrainOptions
    ) -> dict[str, int]:
        result = dict(points)
        bonus = options.out_bonus  # mt.house.out-bonus
        if bonus and end.reason in ("domino", "table") and end.player in result:
            result[end.player] -= bonus
        penalty = options.marker_penalty  # mt.house.marker
        if penalty:
            for name in facts.get("markers", ()):
                result[name] += penalty
        return result

    @classmethod
    def rules_in_force(cls, options: MexicanTrainOptions) -> list[str]:
        lines: list[str] = [
            phrase("Double-blank 0-0 counts {points} (mt.score).", points=options.double_blank)
        ]
        if options.tie_break == "chicken-foot":
            lines.append(phrase("Equal lowest totals are decided by the Chicken Foot tie-break (cf.tie)."))
        else:
            lines.append(phrase("Equal lowest totals share the win (mt.winner)."))
        return lines
