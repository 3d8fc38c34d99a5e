"""How Chicken Foot is shown: the spinner and its arms, each double with its toes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.match import Match
from referee.presenters.base import Gettext, Presenter
from referee.rules.chicken_foot import TOES_PER_FOOT
from referee.tiles import Tile


def follow_branch(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An arm as the follow page draws it: every tile shows its outer half last."""
    drawn = []
    for entry in entries:
        tile = Tile.parse(entry["tile"])
        end = entry.get("end")
        first = tile.other(end) if end is not None and tile.has(end) else None
        drawn.append(
            {
                "tile": entry["tile"],
                "first": first,
                "toes": [follow_branch(toe) for toe in entry.get("toes", [])],
                "dead": entry.get("dead", False),
            }
        )
    return drawn


class ChickenFootPresenter(Presenter):
    table_template = "table/chicken_foot.html"

    def table_words(self, _: Gettext) -> dict[str, str]:
        return {**super().table_words(_), "draw": _("Draw from the yard")}

    def lead_line(self, who: str, tile: str, _: Gettext) -> str:
        return _("%(player)s played %(tile)s (the spinner).", player=who, tile=tile)

    def table_view(self, match: Match, rnd: Mapping[str, Any], _: Gettext) -> dict[str, Any]:
        """The spinner and its arms (feet as a double with its toes), from extra_state()."""
        open_on = {entry["on"] for entry in rnd.get("open_ends") or []}

        def branch(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
            out = []
            for entry in entries:
                t = Tile.parse(entry["tile"])
                item = {
                    "text": entry["tile"],
                    "first": t.other(entry["end"]),
                    "end": entry["end"],
                    "double": t.is_double,
                    "open": entry["tile"] in open_on,
                    "dead": entry.get("dead", False),
                }
                if "toes" in entry:
                    item["toes"] = [branch(toe) for toe in entry["toes"]]
                    item["missing"] = max(0, TOES_PER_FOOT - len(entry["toes"]))
                out.append(item)
            return out

        arms = [branch(arm) for arm in rnd.get("arms") or []]
        arm_count = rnd.get("arm_count") or 4
        spinner_value = Tile.parse(rnd["double"]).high if rnd.get("double") else None
        return {
            "arms": arms,
            "spinner": rnd.get("spinner"),
            "spinner_value": spinner_value,
            "arm_count": arm_count,
            "unstarted": max(0, arm_count - len(arms)),
            "foot": rnd.get("foot"),
            "open_on": open_on,
        }

    def follow_view(self, match: Match, rnd: Mapping[str, Any], _: Gettext) -> dict[str, Any]:
        return {"trains": [], "arms": [follow_branch(arm) for arm in rnd.get("arms", [])]}
