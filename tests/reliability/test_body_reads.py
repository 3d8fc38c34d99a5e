"""Bodies are read in large chunks (issue 23, point 4): waitress reads every request's body
on its one loop thread, the thread that also hands each play to a worker thread, before the
app sees the request. A storm of 16 photos (48 MB) read 8 KB at a time took that thread
0.20 s of CPU; 64 KB at a time, 0.09 s (``referee.serve.server_options``)."""

from __future__ import annotations

import requests
from waitress.channel import HTTPChannel

from referee.serve import RECV_BYTES, server_options

PHOTO_BYTES = 4 * 1024 * 1024


def test_the_served_app_reads_a_photo_body_in_chunks_of_64_kb(live_server, monkeypatch):
    assert server_options()["recv_bytes"] == RECV_BYTES == 64 * 1024
    reads: list[int] = []
    read = HTTPChannel.recv

    def counted(self, size: int) -> bytes:
        data = read(self, size)
        reads.append(len(data))
        return data

    monkeypatch.setattr(HTTPChannel, "recv", counted)
    answer = requests.post(
        f"{live_server.url}/api/games/no-such-game/rounds/1/photo",
        files={"photo": ("hand.jpg", b"\xff" * PHOTO_BYTES)},
        timeout=30,
    )
    assert answer.status_code == 404  # read whole, then answered by the app, in JSON
    assert answer.json()["error"]
    assert sum(reads) >= PHOTO_BYTES
    assert 8 * 1024 < max(reads) <= RECV_BYTES  # more than waitress's 8 KB a read
