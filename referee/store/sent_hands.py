"""Hands sent from the players' phones for the tablet to review: kept beside the game,
never booked by themselves (the person at the tablet saves the round with the usual
hands entry). Every send is kept, with the phone and the address that sent it."""

from __future__ import annotations

import json
from dataclasses import dataclass

from referee.store.log import GameLog


@dataclass(frozen=True)
class SentHand:
    """One hand sent from a phone: ``sent`` in epoch seconds; ``again`` when the same
    player had sent one before for the same round."""

    id: int
    player: str
    tiles: list[str]
    sent: float
    again: bool


class SentHands(GameLog):
    """The hands sent per game and round, and how many each phone and address sent lately."""

    def sends_since(self, since: float, device: str | None = None, address: str | None = None) -> int:
        """How many hands the phone ``device`` (or the address ``address``) sent at ``since``
        (epoch seconds) or later, to any game."""
        column, value = ("device", device) if device is not None else ("address", address)
        count: int = self.db.execute(
            f"select count(*) from phone_hands where {column} = ? and sent >= ?", [value, since]
        ).fetchone()[0]
        return count

    def send_hand(
        self,
        game_id: str,
        number: int,
        player: str,
        tiles: list[str],
        at: float,
        device: str = "",
        address: str = "",
    ) -> int:
        """Keep ``player``'s hand for round ``number`` beside any sent before; the game itself
        is not changed. Returns the send's id."""
        with self.write():
            self._row(game_id)
            cursor = self.db.execute(
                "insert into phone_hands (game_id, round, player, tiles, sent, device, address) "
                "values (?, ?, ?, ?, ?, ?, ?)",
                [game_id, number, player, json.dumps(tiles, ensure_ascii=False), at, device, address],
            )
            return int(cursor.lastrowid or 0)

    def hand_sends(self, game_id: str, number: int) -> list[SentHand]:
        """Every hand sent for round ``number`` of ``game_id``, oldest first."""
        seen: set[str] = set()
        sends = []
        for row in self.db.query(
            "select id, player, tiles, sent from phone_hands where game_id = ? and round = ? order by sent, id",
            [game_id, number],
        ):
            sends.append(
                SentHand(
                    row["id"], row["player"], json.loads(row["tiles"]), row["sent"], row["player"] in seen
                )
            )
            seen.add(row["player"])
        return sends

    def sent_hands(self, game_id: str, number: int) -> dict[str, list[str]]:
        """The latest hand sent for round ``number`` of ``game_id``, by player."""
        return {send.player: send.tiles for send in self.hand_sends(game_id, number)}
