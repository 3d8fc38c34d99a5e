"""The PINs at a club: backups and exports are the owner's whenever a PIN is set; PINs of 4
to 12 digits under a slow hash; wrong PINs limited per game however many addresses a
guesser uses; the first owner PIN set only from the server's own machine."""

from __future__ import annotations

import hashlib
import os
import time

import pytest

from referee.web import service

HANDS = {"hands": {"Ana": 0, "Ben": 4}}
GUEST = "192.168.1.66"
EXPORTS = ("/api/export", "/api/games/{id}/export")
PAGE_DOWNLOADS = ("/backup/referee.db", "/games/{id}/export.json")


def guest(app, address: str = GUEST):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def new_game(client, pin: str | None = None) -> dict:
    body = {"game": "mexican-train", "players": ["Ana", "Ben"], "set": 9, "mode": "scores"}
    if pin is not None:
        body["pin"] = pin
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def stored_owner_pin(app) -> str | None:
    stores = app.extensions["referee.stores"]
    store = stores.acquire()
    try:
        return service.owner_pin_hash(store)
    finally:
        stores.release(store)


def set_owner_pin(app, pin: str = "13579") -> None:
    stores = app.extensions["referee.stores"]
    store = stores.acquire()
    try:
        store.set_setting(service.OWNER_KEY, service.hash_pin(pin))
    finally:
        stores.release(store)


# ----------------------------------------------------------------------------- backups and exports


def test_without_any_pin_a_guest_takes_backups_as_at_home(app):
    game = new_game(guest(app), pin=None)
    for url in (*EXPORTS, *PAGE_DOWNLOADS):
        assert guest(app).get(url.format(id=game["id"])).status_code == 200, url


def test_a_table_pin_keeps_every_backup_from_a_guest_in_the_api_shape(app):
    game = new_game(guest(app), pin="2468")
    for url in EXPORTS:
        response = guest(app).get(url.format(id=game["id"]))
        assert response.status_code == 403, url
        body = response.get_json()
        assert body["rule"] is None and "owner PIN" in body["error"] and body["error"].endswith(".")
        assert "pin_hash" not in response.get_data(as_text=True)
    for url in PAGE_DOWNLOADS:
        response = guest(app).get(url.format(id=game["id"]))
        assert response.status_code == 403, url
        assert "owner PIN" in response.get_data(as_text=True)
        assert not response.headers.get("Content-Disposition")


def test_an_owner_pin_guards_backups_and_the_owner_gets_the_table_pins_hash(app):
    game = new_game(guest(app), pin=None)
    set_owner_pin(app)
    for url in (*EXPORTS, *PAGE_DOWNLOADS):
        assert guest(app).get(url.format(id=game["id"])).status_code == 403, url
        assert app.test_client().get(url.format(id=game["id"])).status_code == 403, url  # localhost too
    wrong = guest(app).get("/api/export", headers={service.OWNER_HEADER: "97531"})
    assert wrong.status_code == 403
    protected = new_game(guest(app), pin="2468")
    owner = guest(app).get(f"/api/games/{protected['id']}/export", headers={service.OWNER_HEADER: "13579"})
    assert owner.status_code == 200
    assert owner.get_json()["games"][0]["pin_hash"].startswith("scrypt$")
    unlocked = guest(app)
    assert unlocked.post("/owner", data={"action": "unlock", "unlock-pin": "13579"}).status_code == 303
    assert unlocked.get("/backup/referee.db").status_code == 200
    assert unlocked.get(f"/games/{protected['id']}/export.json").status_code == 200


def test_with_table_pins_and_no_owner_pin_the_servers_own_machine_still_takes_backups(app):
    game = new_game(guest(app), pin="2468")
    local = app.test_client()  # 127.0.0.1
    assert local.get("/api/export").status_code == 200
    assert local.get(f"/games/{game['id']}/export.json").status_code == 200


# ----------------------------------------------------------------------------- PINs and their hash


def test_pins_of_4_to_12_digits_and_no_longer(app):
    client = guest(app)
    assert new_game(client, pin="123456789012")["id"]
    refused = client.post(
        "/api/games",
        json={
            "game": "mexican-train",
            "players": ["Ana", "Ben"],
            "set": 9,
            "mode": "scores",
            "pin": "1" * 13,
        },
    )
    assert refused.status_code == 400 and "4 to 12" in refused.get_json()["error"]
    game = new_game(client, pin="123456789012")
    url = f"/api/games/{game['id']}/rounds/1/hands"
    assert client.post(url, json=HANDS, headers={"X-Table-Pin": "123456789012"}).status_code == 200


def test_a_pin_hash_is_scrypt_salted_and_costs_a_guesser(app):
    first, second = service.hash_pin("2468"), service.hash_pin("2468")
    assert first.startswith("scrypt$") and first != second  # salted
    started = time.perf_counter()
    assert service._kdf_matches(first, "2468") and not service._kdf_matches(first, "2469")
    assert (time.perf_counter() - started) / 2 > 0.02  # memory-hard and slow, not one SHA-256
    assert 128 * service.SCRYPT_N * service.SCRYPT_R <= 32 * 1024 * 1024


def old_hash(pin: str) -> str:
    """A PIN's hash as the earlier versions wrote it (PBKDF2-SHA256)."""
    salt = os.urandom(8).hex()
    return f"{salt}${hashlib.pbkdf2_hmac('sha256', pin.encode(), salt.encode(), 50_000).hex()}"


def test_an_old_pin_hash_is_still_read(app):
    old = old_hash("2468")
    assert service.pin_matches(old, "2468") and not service.pin_matches(old, "2469")


def test_an_old_table_pin_hash_is_rehashed_on_the_next_right_pin(app):
    game = new_game(guest(app), pin="2468")
    stores = app.extensions["referee.stores"]
    store = stores.acquire()
    try:
        store.set_pin(game["id"], old_hash("2468"))
    finally:
        stores.release(store)
    table = guest(app, "192.168.1.20")
    assert table.post(f"/games/{game['id']}/unlock", data={"pin": "2468"}).status_code == 303
    store = stores.acquire()
    try:
        stored = store.load(game["id"]).pin_hash
    finally:
        stores.release(store)
    assert stored.startswith("scrypt$") and service.pin_matches(stored, "2468")


def test_an_old_owner_pin_hash_is_rehashed_on_the_next_right_pin(app):
    stores = app.extensions["referee.stores"]
    store = stores.acquire()
    try:
        store.set_setting(service.OWNER_KEY, old_hash("97531"))
    finally:
        stores.release(store)
    owner = guest(app)
    assert owner.post("/owner", data={"action": "unlock", "unlock-pin": "97531"}).status_code == 303
    assert stored_owner_pin(app).startswith("scrypt$")
    assert owner.get("/api/export").status_code == 200  # the session still knows its owner


def test_a_right_pin_with_every_play_pays_the_hash_once(app, monkeypatch):
    game = new_game(guest(app), pin="24680")
    calls: list[str] = []
    slow = service._kdf_matches
    monkeypatch.setattr(service, "_kdf_matches", lambda h, p: calls.append(p) or slow(h, p))
    url = f"/api/games/{game['id']}/rounds/1/hands"
    script = guest(app, "192.168.1.30")
    assert script.post(url, json=HANDS, headers={"X-Table-Pin": "24680"}).status_code == 200
    for index in range(3):  # other browsers, each giving the PIN once: no new hash computed
        unlocked = guest(app, f"192.168.1.{40 + index}").post(
            f"/games/{game['id']}/unlock", data={"pin": "24680"}
        )
        assert unlocked.status_code == 303
    assert calls == ["24680"]


# ----------------------------------------------------------------------------- the throttle


def test_thirty_addresses_check_no_more_than_the_games_budget_and_the_table_plays_on(app):
    game = new_game(guest(app), pin="8642")
    table = guest(app, "192.168.1.20")
    assert table.post(f"/games/{game['id']}/unlock", data={"pin": "8642"}).status_code == 303
    url = f"/api/games/{game['id']}/rounds/1/hands"
    checked = 0
    guess = 1000
    for round_ in range(12):
        for address in range(30):
            client = guest(app, f"10.0.{round_}.{address + 1}")
            response = client.post(url, json=HANDS, headers={"X-Table-Pin": f"{guess:04d}"})
            guess += 1
            assert response.status_code == 403
            if "Too many" not in response.get_json()["error"]:
                checked += 1
    assert checked <= 40  # a few dozen an hour, whatever the addresses
    played = table.post(url, json=HANDS)  # the unlocked tablet: its session, no PIN sent
    assert played.status_code == 200, played.get_json()


def test_the_owner_pin_has_a_budget_across_addresses_too(app):
    set_owner_pin(app)
    checked = 0
    for index in range(90):
        response = guest(app, f"10.1.{index // 30}.{index % 30 + 1}").post(
            "/owner", data={"action": "unlock", "unlock-pin": f"{20000 + index}"}
        )
        checked += response.status_code == 403
    assert checked <= 40


# ----------------------------------------------------------------------------- the first owner PIN


@pytest.mark.parametrize("address", ["192.168.1.66", "10.0.0.5", "fe80::1"])
def test_a_guest_on_the_lan_cannot_set_the_first_owner_pin(app, address):
    client = guest(app, address)
    page = client.get("/owner").get_data(as_text=True)
    assert "set on the server&#39;s own machine" in page or "set on the server's own machine" in page
    assert 'name="set-new"' not in page
    response = client.post("/owner", data={"action": "set", "set-new": "1234"})
    assert response.status_code == 403
    assert stored_owner_pin(app) is None


def test_the_servers_own_machine_sets_the_first_owner_pin(app):
    for address in ("127.0.0.1", "::1"):
        client = guest(app, address)
        assert 'name="set-new"' in client.get("/owner").get_data(as_text=True)
    local = guest(app, "::1")
    assert local.post("/owner", data={"action": "set", "set-new": "123456789012"}).status_code == 303
    stored = stored_owner_pin(app)
    assert stored and service.pin_matches(stored, "123456789012")


def test_the_owner_page_speaks_the_guests_language(app):
    client = guest(app)
    page = client.get("/owner", headers={"Accept-Language": "hu"}).get_data(as_text=True)
    assert "own machine" not in page
