"""How Mexican Train is shown: trains from the hub, a place is a train."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.match import Match
from referee.presenters.base import Gettext, Presenter
from referee.rules.base import Action
from referee.rules.mexican_train import BIG_SET_HAND, DEAL
from referee.tiles import Tile

MEXICAN = "mexican"  # the key of the Mexican train (every other train is its owner's name)


def chain(tiles: list[str], start: int | None) -> list[tuple[str, int | None]]:
    """Tiles of a train as the follow page draws them, each with the half facing the
    previous one."""
    drawn: list[tuple[str, int | None]] = []
    value = start
    for text in tiles:
        tile = Tile.parse(text)
        if value is not None and tile.has(value):
            drawn.append((text, value))
            value = tile.other(value)
        else:
            drawn.append((text, None))
            value = None
    return drawn


class MexicanTrainPresenter(Presenter):
    table_template = "table/mexican_train.html"
    table_starts_laid = True  # the engine waits on the hub from the start

    def table_words(self, _: Gettext) -> dict[str, str]:
        return {**super().table_words(_), "pass": _("Pass and mark train")}

    def play_body(self, place: str | None) -> dict[str, Any]:
        return {"train": place}

    def place_of(self, play: Action) -> object:
        return play.train

    def place_from_key(self, key: str | None, highest: int) -> object:
        return key

    def named_place(self, key: str, _: Gettext) -> str:
        return _("the Mexican train") if key == MEXICAN else _("%(player)s's train", player=key)

    def play_line(self, action: Action, who: str, tile: str, _: Gettext) -> str:
        if action.train == MEXICAN:
            return _("%(player)s played %(tile)s on the Mexican train.", player=who, tile=tile)
        if action.train == action.player:
            return _("%(player)s played %(tile)s on their own train.", player=who, tile=tile)
        return _(
            "%(player)s played %(tile)s on %(owner)s's train.", player=who, tile=tile, owner=action.train
        )

    def table_view(self, match: Match, rnd: Mapping[str, Any], _: Gettext) -> dict[str, Any]:
        """Trains as rows from the hub, each tile oriented from the engine outwards."""
        engine_tile = Tile.parse(rnd["double"]) if rnd.get("double") else None
        engine_value = engine_tile.high if engine_tile else 0
        open_doubles = list(rnd.get("open_doubles") or [])
        trains = []
        for key, train in (rnd.get("trains") or {}).items():
            value = engine_value
            tiles = []
            for text in train["tiles"]:
                t = Tile.parse(text)
                tiles.append(
                    {"text": text, "first": value, "double": t.is_double, "open": text in open_doubles}
                )
                value = t.other(value)
            trains.append(
                {
                    "key": key,
                    "owner": None if key == MEXICAN else key,
                    "label": _("Mexican train") if key == MEXICAN else key,
                    "tiles": tiles,
                    "open_end": train["open"],
                    "marker": train["marker"],
                }
            )
        return {
            "trains": trains,
            "engine_tile": str(engine_tile) if engine_tile else None,
            "open_doubles": open_doubles,
        }

    def follow_view(self, match: Match, rnd: Mapping[str, Any], _: Gettext) -> dict[str, Any]:
        engine_value = Tile.parse(rnd["double"]).low if rnd.get("double") else None
        trains = [
            {
                "key": key,
                "label": _("Mexican train") if key == MEXICAN else key,
                "tiles": chain(train["tiles"], engine_value),
                "open": train.get("open"),
                "marker": train.get("marker", False),
                "mexican": key == MEXICAN,
            }
            for key, train in (rnd.get("trains") or {}).items()
        ]
        return {"trains": trains, "arms": []}

    def double_words(self, tile: str, _: Gettext) -> str:
        return _("engine %(tile)s", tile=tile)

    def rule_book_extras(self, _: Gettext) -> dict[str, Any]:
        """mt.deal: the hand size by set and number of players."""
        counts = sorted({n for row in DEAL.values() for n in row})
        return {
            "deal": {
                "rule": "mt.deal",
                "counts": counts,
                "rows": [
                    (_("double-%(highest)s", highest=highest), [DEAL[highest].get(n) for n in counts])
                    for highest in sorted(DEAL, reverse=True)
                ],
                "big": BIG_SET_HAND,
            }
        }
