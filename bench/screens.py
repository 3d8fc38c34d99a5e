"""The screens of a club night (``bench/nights.py``), in a process of their own:
``python -m bench.screens PORT NIGHT_ID GAMES_JSON BOARDS PHONES LOOK_EVERY``.

At a club the boards and the phones are other devices: their looks cost the server its
answers, never the tablets' own CPU. Run as threads of the benchmark's process, 62 screens
parsing their answers took that process's GIL from the 20 tablets' threads, and a play's
round trip counted the wait for it (a play answered in 3 ms by the app was timed at 60 ms
or more on a busy 2-core machine). Here they have their own interpreter, so the tablets'
timings are the plays as a tablet sees them and the screens load only the server.

It prints ``ready`` once its threads wait, starts looking at the line ``go`` on its
standard input, stops at ``stop`` (or the input's end) and prints one JSON line:
``{"looks": n, "errors": n, "error_samples": [...]}``. Only the standard library is
imported, so the process starts in a few tens of milliseconds.

- A board (``view=board``) and half the phones ask for the night's live part every
  ``LOOK_EVERY`` s with the mark they show, as ``static/nights.js`` does (204 while nothing
  changed); a look answered anything but 200 or 204 is an error.
- The other phones follow their table's game as the follow page does (``static/app.js``):
  the event stream from the version shown, the fragment when a newer one is announced.
"""

from __future__ import annotations

import http.client
import json
import re
import sys
import threading

MARK = re.compile(rb'data-live-mark="([0-9a-f]+)"')
FOLLOW_SECONDS = 3.0  # a held event stream with nothing new is left after this


def get(port: int, path: str, timeout: float = 10) -> tuple[int, bytes]:
    """One GET on a connection of its own (a phone's fetch): (status, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def look_at_stream(port: int, game: str, shown: int, timeout: float) -> tuple[float, int | None]:
    """One look of a phone following a game (static/app.js): the event stream from the version
    it shows. Returns the seconds to wait before the next look (longer when every stream slot
    is taken) and the newer version announced, if any."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", f"/games/{game}/events/stream?since={shown}")
        response = conn.getresponse()
        text = response.read1(256).decode()  # "retry: …"
        retry = 4.0 if "4000" in text else 1.5  # every slot taken: the browser asks again later
        try:
            text += response.read1(256).decode()  # the newer version, if any
        except TimeoutError:  # a held stream with nothing new: the phone waits on
            pass
    finally:
        conn.close()
    versions = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    return retry, (versions[-1] if versions and versions[-1] != shown else None)


class Screens:
    def __init__(
        self, port: int, night_id: str, games: list[str], boards: int, phones: int, look_every: float
    ) -> None:
        self.port, self.night_id, self.games = port, night_id, games
        self.boards, self.phones, self.look_every = boards, phones, look_every
        self.start = threading.Event()
        self.done = threading.Event()
        self.lock = threading.Lock()
        self.looks = 0
        self.errors: list[str] = []

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)

    def looked(self) -> None:
        with self.lock:
            self.looks += 1

    def night_screen(self, index: int) -> None:
        """A board (``index`` < boards) or a phone on the night page: its live part, again
        and again, with the mark it shows."""
        path = f"/nights/{self.night_id}/live" + ("?view=board" if index < self.boards else "")
        mark = b""
        self.start.wait()
        self.done.wait(self.look_every * index / (self.boards + self.phones))  # not in step
        while not self.done.is_set():
            asked = path + ("&" if "?" in path else "?") + "mark=" + mark.decode()
            try:
                status, body = get(self.port, asked)
            except (OSError, http.client.HTTPException) as error:
                self.error(f"look: {error!r}")
                status, body = 0, b""
            self.looked()
            if status not in (200, 204, 0):
                self.error(f"{path}: {status}")
            found = MARK.search(body)
            if found:
                mark = found.group(1)
            self.done.wait(self.look_every)

    def game_follower(self, index: int) -> None:
        """A phone following its table's game: the event stream from the version it shows,
        the fragment when a newer one is announced, again after the stream's retry."""
        game = self.games[index % len(self.games)]
        shown = 0
        self.start.wait()
        self.done.wait(self.look_every * index / (self.boards + self.phones))
        while not self.done.is_set():
            retry = 1.5
            try:
                retry, newer = look_at_stream(self.port, game, shown, FOLLOW_SECONDS)
                self.looked()
                if newer is not None:
                    status, _ = get(self.port, f"/games/{game}/follow/fragment")
                    self.looked()
                    if status != 200:
                        self.error(f"fragment: {status}")
                    shown = newer
            except (OSError, http.client.HTTPException) as error:
                self.error(f"follow: {error!r}")
            self.done.wait(retry)

    def threads(self) -> list[threading.Thread]:
        made = [
            threading.Thread(target=self.night_screen, args=(index,), daemon=True)
            for index in range(self.boards)
        ]
        for phone in range(self.phones):
            if phone % 2:
                made.append(threading.Thread(target=self.game_follower, args=(phone // 2,), daemon=True))
            else:
                made.append(
                    threading.Thread(target=self.night_screen, args=(self.boards + phone,), daemon=True)
                )
        return made


def main(argv: list[str]) -> None:
    port, night_id, games, boards, phones, look_every = argv
    screens = Screens(int(port), night_id, json.loads(games), int(boards), int(phones), float(look_every))
    threads = screens.threads()
    for thread in threads:
        thread.start()
    print("ready", flush=True)
    if sys.stdin.readline().strip() == "go":
        screens.start.set()
        sys.stdin.readline()  # "stop", or the input's end
    screens.done.set()
    screens.start.set()
    for thread in threads:
        thread.join(FOLLOW_SECONDS + 15)
    print(
        json.dumps(
            {"looks": screens.looks, "errors": len(screens.errors), "error_samples": screens.errors[:3]}
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
