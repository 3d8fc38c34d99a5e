"""Wrong PINs are counted per client (address, session), not per game: a guesser elsewhere
cannot lock the rightful players out; and the unlock page's limit is exact however many
attempts arrive at once."""

from __future__ import annotations

import threading

from referee.web import service

HANDS = {"hands": {"Ana": 0, "Ben": 4}}


def protected(api, pin="2468"):
    return api.create(game="mexican-train", players=["Ana", "Ben"], set=9, mode="scores", pin=pin)


def test_a_guesser_elsewhere_does_not_lock_the_players_out(app, api):
    game = protected(api)
    url = f"/api/games/{game['id']}/rounds/1/hands"
    guesser = app.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "192.168.1.66"
    for guess in range(service.PIN_FAILURES_ALLOWED + 2):
        assert guesser.post(url, json=HANDS, headers={"X-Table-Pin": f"{guess:04d}"}).status_code == 403
    throttled = guesser.post(url, json=HANDS, headers={"X-Table-Pin": "2468"})
    assert throttled.status_code == 403 and "Too many" in throttled.get_json()["error"]
    player = app.test_client()
    player.environ_base["REMOTE_ADDR"] = "192.168.1.20"
    assert player.post(url, json=HANDS, headers={"X-Table-Pin": "2468"}).status_code == 200
    unlock = player.post(f"/games/{game['id']}/unlock", data={"pin": "2468"})
    assert unlock.status_code == 303


def test_the_unlock_page_lets_exactly_the_allowed_tries_through_at_once(app, api):
    game = protected(api)
    statuses: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(30)

    def attempt(index: int) -> None:
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = "10.0.0.9"
        start.wait()
        response = client.post(f"/games/{game['id']}/unlock", data={"pin": f"{1000 + index}"})
        with lock:
            statuses.append(response.status_code)

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(statuses) == [403] * service.PIN_FAILURES_ALLOWED + [429] * (
        30 - service.PIN_FAILURES_ALLOWED
    )
