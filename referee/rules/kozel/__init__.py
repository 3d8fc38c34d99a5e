"""Kozel, "Goat" (`kz.*`): its declaration, options, lead order and redeal check
(``declaration``), its round engine (``engine``) and its game-level rules and own scoring (``game``)."""

from referee.rules.kozel.declaration import (
    DECLARATION,
    HAND_SIZE,
    OPEN_AT,
    RATING_BASE,
    SET_HIGHEST,
    KozelBook,
    KozelOptions,
    lead_order,
    redeal_check,
)
from referee.rules.kozel.engine import KozelRound, Plan
from referee.rules.kozel.game import Kozel, book_game, half_up, rating_points, teams_of

__all__ = [
    "DECLARATION",
    "HAND_SIZE",
    "OPEN_AT",
    "RATING_BASE",
    "SET_HIGHEST",
    "Kozel",
    "KozelBook",
    "KozelOptions",
    "KozelRound",
    "Plan",
    "book_game",
    "half_up",
    "lead_order",
    "rating_points",
    "redeal_check",
    "teams_of",
]
