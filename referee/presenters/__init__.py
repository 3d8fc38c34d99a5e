"""How each game is shown: one presenter per game, named by its rules' declaration.

``presenter_for(key)`` answers the presenter of the game called ``key`` (the
``GameDeclaration.presenter`` it names, ``"module:Class"``), made once. The rules import no
presentation code; the web layer asks the presenter and never branches on a game's name.
"""

from __future__ import annotations

import importlib
from functools import cache

from referee.presenters.base import CENTRE, Account, Gettext, Presenter, RoundDetail, Series
from referee.rules import GAMES


@cache
def _load(path: str) -> Presenter:
    module_name, _sep, class_name = path.partition(":")
    presenter = getattr(importlib.import_module(module_name), class_name)()
    if not isinstance(presenter, Presenter):
        raise TypeError(f"{path} is not a Presenter")
    return presenter


def presenter_for(game: str) -> Presenter:
    """The presenter of the game called ``game`` (``KeyError`` if there is no such game)."""
    return _load(GAMES[game].declaration.presenter)


__all__ = ["CENTRE", "Account", "Gettext", "Presenter", "RoundDetail", "Series", "presenter_for"]
