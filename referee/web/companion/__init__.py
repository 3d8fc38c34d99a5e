"""The table companion, one module per concern, all on one blueprint (``companion``):

- ``follow``: follow a game from a phone (live, read-only, through the store);
- ``share``: the QR code and the address to open on another device;
- ``players``: players across games and the leaderboards;
- ``pwa``: the installable app (the service worker);
- ``pdf``: the scoresheet as a PDF.

Views only read the store and render; the numbers come from the core (``Match.state()``,
``Standing``) and from the pure ``referee.stats``.
"""

from __future__ import annotations

from referee.web.companion import follow, pdf, players, pwa, share
from referee.web.companion.common import bp, load_game

__all__ = ["bp", "follow", "load_game", "pdf", "players", "pwa", "share"]
