"""Hands sent from the players' phones for the tablet to review: kept beside the game,
never booked by themselves (the person at the tablet saves the round with the usual
hands entry)."""

from __future__ import annotations

import json

from referee.store.log import GameLog


class SentHands(GameLog):
    """The hands sent per game and round, and every send (for the rate limit)."""

    def sent_since(self, game_id: str, since: float) -> int:
        """How many hands were sent for ``game_id`` at ``since`` (epoch seconds) or later."""
        count: int = self.db.execute(
            "select count(*) from hand_sends where game_id = ? and at >= ?", [game_id, since]
        ).fetchone()[0]
        return count

    def send_hand(self, game_id: str, number: int, player: str, tiles: list[str], at: float) -> None:
        """Keep ``player``'s hand for round ``number`` (a later one replaces it); the game
        itself is not changed. Sends older than an hour are forgotten by the rate limit."""
        with self.write():
            self._row(game_id)
            self.db.execute("delete from hand_sends where at < ?", [at - 3600])
            self.db.execute("insert into hand_sends (game_id, at) values (?, ?)", [game_id, at])
            self.db.execute(
                "insert or replace into sent_hands (game_id, round, player, tiles, sent) values (?, ?, ?, ?, ?)",
                [game_id, number, player, json.dumps(tiles, ensure_ascii=False), at],
            )

    def sent_hands(self, game_id: str, number: int) -> dict[str, list[str]]:
        """The hands sent for round ``number`` of ``game_id``, by player."""
        return {
            row["player"]: json.loads(row["tiles"])
            for row in self.db.query(
                "select player, tiles from sent_hands where game_id = ? and round = ? order by sent",
                [game_id, number],
            )
        }
