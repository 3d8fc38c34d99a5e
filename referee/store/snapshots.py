"""Snapshots of a match: its pickle, behind a header that says what it belongs to.

A snapshot is only a cache of the log: ``read_snapshot`` believes one only when its header
names the game, the version and the fingerprint of the event at that version, and its
checksum fits; anything else is rebuilt from the events. Snapshots written with another
``SNAPSHOT_FORMAT`` are not read at all (tests/store/test_snapshot_format.py fails when
``Match``'s pickled shape changes while the format stays the same).
"""

from __future__ import annotations

import hashlib
import json
import pickle
from typing import Any

from referee.match import Match

SNAPSHOT_FORMAT = 6  # bump when Match's pickled shape changes: old snapshots are rebuilt
SNAPSHOT_EVERY = 32  # events between snapshots: the most a cold load replays
SNAPSHOT_MAGIC = b"referee-snapshot\n"


def event_digest(kind: str, payload: Any, created: str) -> str:
    """The fingerprint of one logged event, as a snapshot made after it records it."""
    text = json.dumps([kind, payload, created], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def snapshot_bytes(match: Match, game_id: str, version: int, last_event: str) -> bytes:
    """The snapshot of ``match``: a header saying what it belongs to (the game, the version,
    the fingerprint of the event at that version, a checksum of the pickle), then the pickle.
    ``read_snapshot`` believes it only when all of them fit."""
    body = pickle.dumps(match, protocol=pickle.HIGHEST_PROTOCOL)
    header = {
        "game": game_id,
        "version": version,
        "event": last_event,
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    return SNAPSHOT_MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + body


def read_snapshot(blob: bytes, game_id: str, version: int, last_event: str | None) -> Match | None:
    """The match in ``blob`` when it is this game's snapshot at ``version`` (made after the
    event whose fingerprint is ``last_event``) and undamaged; otherwise None."""
    if not blob.startswith(SNAPSHOT_MAGIC):
        return None
    head, _, body = blob[len(SNAPSHOT_MAGIC) :].partition(b"\n")
    try:
        header = json.loads(head)
    except ValueError:
        return None
    if (
        not isinstance(header, dict)
        or header.get("game") != game_id
        or header.get("version") != version
        or header.get("event") != last_event
        or header.get("sha256") != hashlib.sha256(body).hexdigest()
    ):
        return None
    match = pickle.loads(body)
    return match if isinstance(match, Match) else None
