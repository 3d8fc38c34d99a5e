"""Heavy requests at a club (issue 23, points 2–5): a small image that claims a huge size
never takes the server's memory, photo reads run in a bounded pool of their own while the
plays go on, one body limit answered in JSON, and hundreds of half-open connections never
keep the tablet's play waiting."""

from __future__ import annotations

import io
import json
import socket
import struct
import subprocess
import sys
import threading
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from tests.web.photo_helpers import reading

ROOT = Path(__file__).resolve().parents[2]


def png_bytes(width: int, height: int) -> bytes:
    """A fully transparent RGBA PNG, compressed row by row (its pixels are never held)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    row = b"\x00" * (1 + 4 * width)  # filter byte 0, then RGBA zeros
    parts = [packer.compress(row) for _ in range(height)]
    parts.append(packer.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(parts)) + chunk(b"IEND", b"")
    )


MEASURE = """
import json, resource, sys
from PIL import Image
import io
from referee.vision.decode import decode
from referee.vision.reading import PhotoError
data = sys.stdin.buffer.read()
small = io.BytesIO(); Image.new("RGB", (64, 64)).save(small, "PNG"); decode(small.getvalue())
resting = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    decoded = decode(data)
    status, size = 200, list(decoded.rgb.shape)
except PhotoError as error:
    status, size = error.status, None
growth = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - resting) / 1024
print(json.dumps({"status": status, "growth_mb": growth, "size": size}))
"""


def decode_in_child(data: bytes) -> dict:
    """Decode ``data`` in a fresh interpreter; its status and peak memory growth (MB)."""
    done = subprocess.run(
        [sys.executable, "-c", MEASURE], input=data, capture_output=True, cwd=ROOT, timeout=120, check=True
    )
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


def test_a_small_png_claiming_7000_by_7000_pixels_is_refused_before_it_is_decoded():
    data = png_bytes(7000, 7000)
    assert len(data) < 300_000  # about 190 KB on the wire
    found = decode_in_child(data)
    assert found["status"] == 413
    assert found["growth_mb"] < 50, found


def test_a_transparent_12_mp_png_is_read_reduced_within_its_budget():
    found = decode_in_child(png_bytes(4000, 3000))
    assert found["status"] == 200 and found["size"] == [960, 1280, 3]
    # its RGBA pixels decoded (48 MB) and premultiplied once, every later copy at the
    # analysis size (it took 182 MB when flattened and turned at the photo's size)
    assert found["growth_mb"] < 150, found


def test_a_12_mp_jpeg_is_decoded_at_a_reduced_scale():
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (4000, 3000), (200, 30, 30)).save(buffer, "JPEG", quality=80)
    found = decode_in_child(buffer.getvalue())
    assert found["status"] == 200 and found["growth_mb"] < 60, found


def test_a_12_kb_heic_claiming_7000_by_7000_pixels_is_refused_before_it_is_decoded():
    pytest.importorskip("pillow_heif")
    data = (ROOT / "tests/reliability/files/black-7000x7000.heic").read_bytes()
    assert len(data) < 20_000
    found = decode_in_child(data)
    assert found["status"] == 413
    assert found["growth_mb"] < 50, found


# ----- the photo pool ----------------------------------------------------------------------


@pytest.fixture
def played(live_server):
    """A Mexican Train game on the served app, and a way to log a play (a draw: always legal)."""
    url = live_server.url
    created = requests.post(
        f"{url}/api/games", json={"game": "mexican-train", "players": ["Ana", "Ben"], "set": 12}, timeout=10
    ).json()
    return url, created["id"]


def draw(url: str, game_id: str, timeout: float = 10) -> int:
    state = requests.get(f"{url}/api/games/{game_id}", timeout=timeout).json()
    player = state["round"]["turn"]
    answer = requests.post(
        f"{url}/api/games/{game_id}/actions", json={"type": "draw", "player": player}, timeout=timeout
    )
    if answer.status_code == 422:  # drew already this turn: pass instead
        answer = requests.post(
            f"{url}/api/games/{game_id}/actions", json={"type": "pass", "player": player}, timeout=timeout
        )
    return answer.status_code


def send_photo(url: str, game_id: str, data: bytes = b"\x89PNG\r\n\x1a\n" + b"0" * 100) -> requests.Response:
    return requests.post(
        f"{url}/api/games/{game_id}/rounds/1/photo",
        files={"photo": ("hand.png", data, "image/png")},
        timeout=60,
    )


def test_a_photo_storm_never_holds_the_threads_that_serve_plays(live_server, played, monkeypatch):
    """16 photos at once, each read held until the test lets go: the plays sent meanwhile
    are all answered, the photos past the pool's queue are told to come back (503)."""
    url, game_id = played
    release, entered = threading.Event(), threading.Semaphore(0)

    def held_reader(data: bytes, highest: int):
        entered.release()
        release.wait(30)
        return reading()

    monkeypatch.setattr("referee.web.photo.read_photo", held_reader)
    with ThreadPoolExecutor(16) as senders:
        photos = [senders.submit(send_photo, url, game_id) for _ in range(16)]
        try:
            assert entered.acquire(timeout=20)  # a read is under way
            plays = [draw(url, game_id, timeout=8) for _ in range(6)]
            # every photo past the pool's six places has had its answer before any read ends
            # (on a slow machine the last senders may still be on their way)
            deadline = time.monotonic() + 20
            while sum(photo.done() for photo in photos) < 10 and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            release.set()
        answers = [photo.result() for photo in photos]
    assert plays == [200] * 6
    statuses = sorted(answer.status_code for answer in answers)
    assert set(statuses) == {200, 503}
    assert statuses.count(200) <= 6  # two read at once, four waiting
    for answer in answers:
        if answer.status_code == 503:
            assert answer.headers["Retry-After"].isdigit()
            assert answer.json()["error"] and "rule" in answer.json()


def test_the_real_reader_runs_in_a_worker_process(app):
    from referee.vision import read_photo
    from referee.web.heavy import HeavyPool

    pool = HeavyPool(workers=1, queued=0)
    try:
        from PIL import Image

        buffer = io.BytesIO()
        Image.new("RGB", (320, 240), (20, 120, 20)).save(buffer, "JPEG")
        assert pool.run(read_photo, buffer.getvalue(), 12).tiles == ()
        assert pool._processes is not None and pool._threads is None
    finally:
        pool.shutdown()


# ----- one body limit, in JSON -------------------------------------------------------------

MB = 1024 * 1024


def test_a_20_mb_photo_is_read_and_a_21_mb_one_refused_in_json_by_the_server(
    live_server, played, monkeypatch
):
    url, game_id = played
    monkeypatch.setattr("referee.web.photo.read_photo", lambda data, highest: reading())
    head = b"\x89PNG\r\n\x1a\n"
    assert send_photo(url, game_id, head + b"0" * (20 * MB - len(head))).status_code == 200
    refused = send_photo(url, game_id, head + b"0" * (21 * MB))
    assert refused.status_code == 413
    assert refused.headers["Content-Type"].startswith("application/json")
    body = refused.json()
    assert set(body) >= {"error", "rule"} and body["error"]


def test_a_21_mb_photo_is_refused_in_json_by_the_app(client, api, monkeypatch):
    game_id = api.create(game="mexican-train", players=["Ana", "Ben"], set=12)["id"]
    monkeypatch.setattr("referee.web.photo.read_photo", lambda data, highest: reading())
    body = {"photo": (io.BytesIO(b"\x89PNG\r\n\x1a\n" + b"0" * (21 * MB)), "hand.png", "image/png")}
    refused = client.post(
        f"/api/games/{game_id}/rounds/1/photo", data=body, content_type="multipart/form-data"
    )
    assert refused.status_code == 413 and refused.is_json
    assert set(refused.get_json()) >= {"error", "rule"}


def test_an_import_over_its_limit_is_still_refused_in_json_by_the_server(live_server):
    body = b'{"games": [' + b" " * (5 * MB) + b"]}"
    refused = requests.post(
        f"{live_server.url}/api/import", data=body, headers={"Content-Type": "application/json"}, timeout=30
    )
    assert refused.status_code == 413 and refused.json()["error"]


# ----- connections ---------------------------------------------------------------------------


def test_300_half_open_connections_never_keep_a_play_waiting(live_server, played):
    url, game_id = played
    held = []
    try:
        for _ in range(300):
            sock = socket.create_connection(("127.0.0.1", live_server.port), timeout=5)
            sock.sendall(b"POST /api/games/" + game_id.encode() + b"/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            held.append(sock)
        time.sleep(0.5)  # the server has seen them all
        started = time.perf_counter()
        status = draw(url, game_id, timeout=10)
        took = time.perf_counter() - started
    finally:
        for sock in held:
            sock.close()
    assert status == 200
    print(f"a play with 300 half-open connections held: {took * 1000:.0f} ms")


def test_the_document_says_a_busy_photo_reader_answers_503(client):
    document = client.get("/api/openapi.json").get_json()
    answers = document["paths"]["/api/games/{game_id}/rounds/{number}/photo"]["post"]["responses"]
    assert "503" in answers and "Retry-After" in answers["503"]["headers"]


def test_200_connections_trickling_their_requests_never_keep_a_play_waiting(live_server, played):
    """Slow, not idle: each connection sends one more byte every 0.5 s (so no time-out ever
    closes it), half of them of a request's head, half of a body that its head announced.
    The tablet's play, on a new connection, is still answered at once."""
    url, game_id = played
    path = f"/api/games/{game_id}/actions".encode()
    heads = b"POST " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
    bodies = b'{"type": "draw", "player": "' + b"a" * 1000
    announced = b"POST " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    announced += b"Content-Length: 2000\r\n\r\n"
    held: list[tuple[socket.socket, bytes]] = []
    stop = threading.Event()

    def trickle() -> None:
        sent = 0
        while not stop.wait(0.5):
            for sock, data in held:
                try:
                    sock.send(data[sent : sent + 1])
                except OSError:
                    pass
            sent += 1

    trickler = threading.Thread(target=trickle, daemon=True)
    try:
        for index in range(200):
            sock = socket.create_connection(("127.0.0.1", live_server.port), timeout=5)
            if index % 2:
                sock.sendall(announced)
            held.append((sock, bodies if index % 2 else heads))
        trickler.start()
        time.sleep(1.2)  # a few bytes on each
        started = time.perf_counter()
        status = draw(url, game_id, timeout=10)
        took = time.perf_counter() - started
    finally:
        stop.set()
        trickler.join(5)
        for sock, _data in held:
            sock.close()
    assert status == 200
    assert took < 5.0, took  # (about 10 ms; waiting behind the trickles would be forever)


def too_large(port: int, path: str, language: str) -> tuple[str, dict[str, str], bytes]:
    """A body that announces 40 MB (past the server's own limit): waitress refuses it when
    its head is read, before the body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: {language}\r\n"
            f"Content-Type: application/octet-stream\r\nContent-Length: {40 * MB}\r\n\r\n".encode()
            + b"0" * 1000
        )
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return status, headers, body


def test_a_40_mb_body_is_refused_by_the_server_as_the_app_refuses(live_server, played):
    """Past the server's own limit the app never sees the body; the refusal is still the
    API's JSON under /api/, and the app's page in the request's language elsewhere."""
    from referee.serve import app_channel

    url, game_id = played
    live_server.server.channel_class = app_channel(live_server.app)  # as python -m referee.serve
    status, headers, body = too_large(live_server.port, f"/api/games/{game_id}/rounds/1/photo", "en")
    assert status.split()[1] == "413" and headers["content-type"].startswith("application/json")
    refused = json.loads(body)
    assert set(refused) >= {"error", "rule"} and refused["error"]
    status, headers, body = too_large(live_server.port, "/import", "hu")
    assert status.split()[1] == "413" and headers["content-type"].startswith("text/html")
    assert 'lang="hu"' in body.decode() and "Too large" not in body.decode()
    assert draw(url, game_id) == 200  # and the server goes on


def test_a_full_photo_pool_says_so_in_the_request_language(client, api):
    from referee.web.heavy import photo_pool

    game_id = api.create(game="mexican-train", players=["Ana", "Ben"], set=12)["id"]
    taken = 0
    while photo_pool._slots.acquire(blocking=False):
        taken += 1
    try:
        body = {"photo": (io.BytesIO(b"\x89PNG\r\n\x1a\n0000"), "hand.png", "image/png")}
        refused = client.post(
            f"/api/games/{game_id}/rounds/1/photo",
            data=body,
            content_type="multipart/form-data",
            headers={"Accept-Language": "pa"},
        )
    finally:
        for _ in range(taken):
            photo_pool._slots.release()
    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    answer = refused.get_json()
    assert answer["error"].startswith("Other photos are being read")  # the API's error: English
    assert answer["text"].startswith("ਹੁਣੇ ਹੋਰ ਫ਼ੋਟੋਆਂ")  # and said in the request's language
