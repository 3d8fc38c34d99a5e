"""The phones of the storms (bench/trust.py): heavy requests sent at once from a process of
their own, as they come from other devices at a club. This module imports only what sending
needs, so that the phones' process starts in a moment."""

from __future__ import annotations

import http.client
import uuid
from concurrent.futures import ThreadPoolExecutor

from bench.screens import get


def send_photo(port: int, game_id: str, data: bytes, name: str = "hand.jpg") -> int:
    """One photo sent as the phone does (multipart), on a connection of its own: its status."""
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="{name}"\r\n'
            "Content-Type: application/octet-stream\r\n\r\n"
        ).encode()
        + data
        + f"\r\n--{boundary}--\r\n".encode()
    )
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request(
            "POST",
            f"/api/games/{game_id}/rounds/1/photo",
            body=body,
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def get_pdf(port: int, game_id: str) -> int:
    """One scoresheet PDF asked on a connection of its own: its status."""
    return get(port, f"/games/{game_id}/scoresheet.pdf", 120)[0]


PHOTO = b""  # in the phones' process: the photo each of them sends (``phones_ready``)


def phones_ready(photo: bytes) -> None:
    """The phones' process, started before the plays are timed: the photo handed over once,
    and every module loaded, so that nothing of its start falls inside the storm."""
    global PHOTO
    PHOTO = photo


def send_at_once(what: str, port: int, game_id: str, count: int) -> list[int]:
    """In the phones' process: ``count`` heavy requests at once (``"photo"``: the photo sent;
    ``"pdf"``: the scoresheet asked), each on a connection of its own: their statuses."""

    def one(_index: int) -> int:
        return send_photo(port, game_id, PHOTO) if what == "photo" else get_pdf(port, game_id)

    with ThreadPoolExecutor(count) as phones:
        return sorted(phones.map(one, range(count)))
