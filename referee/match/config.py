"""A game's table as the API declares it (``GameConfig``): its game, mode, set, players and
options, and the checks of the players' names."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.look_alikes import invisible, skeletons
from referee.rules import GAMES, GameOptions
from referee.rules.base import PLAYERS_MOST, AnyGameRules, Phrase, bad_request, phrase, refuse

MODES = ("referee", "scores")
NAME_MAX = 40
PLAYERS_MAX = PLAYERS_MOST


def listing(items: Sequence[object]) -> Phrase:
    """Several values (phrases) joined by ", ", each translated in its turn."""
    names = [f"item{index}" for index in range(len(items))]
    return Phrase(", ".join("{" + name + "}" for name in names), dict(zip(names, items)))


def game_and_mode(body: Mapping[str, Any]) -> tuple[str, AnyGameRules, str]:
    """The ``game`` (its key and rules) and ``mode`` of a creation body (a game's or a club
    night's, API.md), or the 400 that refuses them."""
    game = body.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise bad_request("'game' must be one of {games}.", field="game", games=", ".join(GAMES))
    mode = body.get("mode", "referee")
    if mode not in MODES:
        raise bad_request('\'mode\' must be "referee" or "scores".', field="mode")
    return game, GAMES[game], mode


def given_options(body: Mapping[str, Any]) -> object:
    """The body's ``options`` as the game parses them: an option given as null is the
    default (API.md), so it is left out."""
    raw_options = body.get("options")
    if isinstance(raw_options, Mapping):
        return {key: value for key, value in raw_options.items() if value is not None}
    return raw_options


class UnknownRound(LookupError):
    """A round number the game does not have (HTTP 404)."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What is fixed when a game is created: validated once, never changed."""

    game: str
    mode: str
    highest: int
    players: tuple[str, ...]
    options: GameOptions  # the game's own options dataclass (``rules.Options``)

    @property
    def rules(self) -> AnyGameRules:
        return GAMES[self.game]

    @classmethod
    def from_json(cls, body: object) -> GameConfig:
        if not isinstance(body, Mapping):
            raise bad_request("The body must be a JSON object describing the game.")
        unknown = sorted(set(body) - {"game", "players", "set", "mode", "options"})
        if unknown:
            raise bad_request("Unknown field {name!r}.", field=unknown[0], name=unknown[0])
        game, rules, mode = game_and_mode(body)
        highest = body.get("set", rules.default_set)
        if isinstance(highest, bool) or not isinstance(highest, int):
            raise bad_request("'set' must be a whole number: the highest pip of the set.", field="set")
        if highest not in rules.sets:
            allowed = listing([phrase("double-{highest}", highest=n) for n in rules.sets])
            raise refuse(
                f"{rules.prefix}.players",
                "{game} is played with {sets}, not double-{highest}.",
                game=Phrase(rules.title),
                sets=allowed,
                highest=highest,
            )
        players = clean_player_names(body.get("players"), game)
        options = rules.parse_options(given_options(body), highest, players)
        rules.check_table(players, highest, options)
        return cls(game, mode, highest, players, options)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "mode": self.mode,
            "set": self.highest,
            "players": list(self.players),
            "options": self.options.to_json(),
        }


def _blank(ch: str) -> bool:
    """Draws nothing on its own (a combining mark alone draws on nothing)."""
    return invisible(ch) or unicodedata.category(ch) in ("Mn", "Me")


def name_skeleton(name: str) -> frozenset[str]:
    """What a name looks like (see ``referee.look_alikes``): two names look the same when
    they share a skeleton."""
    return skeletons(name)


def clean_player_names(raw: Any, game: str) -> tuple[str, ...]:
    """Names as players type them: trimmed, 1–40 characters, any script, no markup."""
    if not isinstance(raw, list) or not raw:
        raise bad_request("'players' must be a list of names, in turn order.", field="players")
    if len(raw) > PLAYERS_MAX:
        raise bad_request("At most {count} players.", field="players", count=PLAYERS_MAX)
    names: list[str] = []
    seen: set[str] = set()
    for value in raw:
        if not isinstance(value, str):
            raise bad_request("Every player name must be a string.", field="players")
        name = unicodedata.normalize("NFC", value).strip()
        if not name:
            raise bad_request("A player name cannot be empty.", field="players")
        if len(name) > NAME_MAX:
            raise bad_request(
                "A player name has at most {count} characters.", field="players", count=NAME_MAX
            )
        if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") for ch in name if ch != "\u200d"):
            raise bad_request("The name {name!r} contains control characters.", field="players", name=name)
        if all(_blank(ch) for ch in name):
            raise bad_request(
                "A player name needs at least one visible letter, digit or sign.", field="players"
            )
        if "<" in name or ">" in name:
            raise bad_request("A player name may not contain '<' or '>'.", field="players")
        GAMES[game].check_player_name(name)
        if name.casefold() in seen:
            raise bad_request(
                "Two players are called {name!r}: names must be unique.", field="players", name=name
            )
        skeleton = name_skeleton(name)
        twin = next((other for other in names if name_skeleton(other) & skeleton), None)
        if twin is not None:
            raise bad_request(
                "The names {name!r} and {other!r} look the same: choose names the table can tell apart.",
                field="players",
                name=name,
                other=twin,
            )
        seen.add(name.casefold())
        names.append(name)
    return tuple(names)
