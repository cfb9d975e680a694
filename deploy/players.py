"""People at tables, as the scale-out tests and the load benchmark play them: a browser's cookies
and forms over HTTP, and a table socket that reads its own screen, answers the decision shown
on it with a legal move, and reconnects as htmx's WebSocket extension does when it drops.

Each person may come from an address of their own on the loopback range (127.x.y.z), so the
server's per-address limits see households, not one crowd on 127.0.0.1.

Whatever a person meets that is not the game going on is counted by kind (`Seat.errors`):

- `toast_<reason>`: a refusal shown as a toast, named by its data-reason: a ServiceError's code
  (`toast_stale`: the move was made on a table that had changed meanwhile; `toast_not_your_turn`,
  …), `toast_slow_down` (over the socket's message allowance), `toast_server_error` ("something
  went wrong": the move failed on the server);
- `closed_<code>`: the server closed the socket, with the reason its last toast named when it
  had one (`closed_4429_flooding`, `closed_4430_too_many_sockets`, `closed_4429_lookups`,
  `closed_4404_no_table`), `closed_4429` alone from Daphne's frame guard, `closed_1006` when the
  connection dropped without a close (a process killed), `closed_1011` a server crash;
- `handshake_<status>`: the socket was refused before it opened, with that HTTP status (429
  from nginx's limit on new sockets, 403 when Daphne gave up waiting for the consumer to accept,
  502/504 from nginx with no process answering), `handshake_timeout` (no answer within
  `open_timeout`), `handshake_invalid`, `connect_failed` (no TCP connection);
- `busy_shed`: a full server turned a new socket away (4503, or 4504 while it lets a crowd in:
  game.runtime.capacity). That is how overload is meant to look, not a failure: the seat tries
  again after a growing random pause, as the page does, and it is not counted in `errors_of`.
"""

from __future__ import annotations

import asyncio
import http.client
import itertools
import json
import random
import re
import time
import urllib.parse
from collections import Counter
from http.cookies import SimpleCookie

META = re.compile(r'id="table-meta"[^>]*data-game="(\d+)" data-version="(\d+)"')
FORM = re.compile(r"<form ws-send[^>]*>(.*?)</form>", re.S)
ONLINE = re.compile(r'id="table-presence" hidden data-online="([^"]*)"')
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
TOAST = re.compile(r'<p class="toast[^"]*"(?: data-reason="([^"]*)")?>(.*?)</p>', re.S)

CLOSE_BUSY = 4503  # game.live.admission.CLOSE_BUSY: "busy, try again later"
CLOSE_ARRIVING = 4504  # game.live.admission.CLOSE_ARRIVING: "busy for moments: a crowd is let in"
# Refusals whose toast comes right before the server closes the socket: counted with the close.
CLOSING_REASONS = frozenset({"flooding", "too_many_sockets", "lookups", "no_table"})
NOT_ERRORS = frozenset({"busy_shed"})  # counted by kind, but overload shedding is not a failure
BUSY_PAUSE_MAX = 64.0  # seconds: the longest pause before trying again after turn-aways in a row (js/connection.js)
ARRIVING_PAUSE_MAX = 4.0  # seconds: the same when the server said only a crowd is being let in (4504)


def errors_of(kinds: dict[str, int]) -> int:
    """The errors among counts by kind (everything but a busy server's turn-aways)."""
    return sum(count for kind, count in kinds.items() if kind not in NOT_ERRORS)


def kinds_of(seats) -> dict[str, int]:
    """Every seat's counts by kind, added up, in order of name."""
    total: Counter[str] = Counter()
    for seat in seats:
        total.update(seat.errors)
    return dict(sorted(total.items()))


def address_of(n: int) -> str:
    """The n-th loopback address after 127.0.0.1 (127.0.0.2, …, 127.0.1.0, …)."""
    n += 2
    return f"127.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"


class Browser:
    """Cookies and forms over HTTP, from one address."""

    def __init__(self, port: int, address: str = "127.0.0.1") -> None:
        self.port, self.address = port, address
        self.cookies: dict[str, str] = {}

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(
        self, method: str, path: str, body: dict | None = None, headers: dict | None = None, follow: bool = True
    ) -> tuple[int, dict, str]:
        for _ in range(5):
            connection = http.client.HTTPConnection(
                "127.0.0.1", self.port, timeout=15, source_address=(self.address, 0)
            )
            sent = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **(headers or {})}
            data = None
            if body is not None:
                data = urllib.parse.urlencode(body)
                sent.update(
                    {
                        "Content-Type": "application/x-www-form-urlencoded",
                        "Origin": self.origin,
                        "Referer": self.origin + path,
                    }
                )
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            connection.close()
            if follow and response.status in (301, 302, 303) and response.headers.get("Location"):
                method, path, body = "GET", urllib.parse.urlsplit(response.headers["Location"]).path, None
                continue
            return response.status, dict(response.headers), text
        raise RuntimeError("too many redirects")

    def get(self, path: str) -> str:
        return self.request("GET", path)[2]

    def post(self, path: str, data: dict) -> tuple[int, str]:
        page = self.get(path.rsplit("/", 2)[0] + "/") if "csrftoken" not in self.cookies else ""
        token = self.cookies.get("csrftoken") or CSRF_INPUT.search(page).group(1)
        status, headers, text = self.request("POST", path, {**data, "csrfmiddlewaretoken": token}, follow=False)
        return status, headers.get("Location", "")

    def new_table(self, nickname: str, seats: int, timer: int = 0, target: int = 250) -> str:
        self.get("/en/")
        _status, location = self.post(
            "/en/tables/new/",
            {
                "nickname": nickname,
                "seat_count": seats,
                "target": target,
                "turn_seconds": timer,
                "bot_speed": "normal",
                "show_odds": "on",
            },
        )
        return location.rstrip("/").rsplit("/", 1)[1]

    def join(self, code: str, nickname: str) -> None:
        self.get(f"/en/t/{code}/")
        self.post(f"/en/t/{code}/join/", {"nickname": nickname})

    def start(self, code: str) -> None:
        self.post(f"/en/t/{code}/start/", {})


class Screen:
    """What one socket shows: the table version and, when it is this person's decision, its forms
    (kept until new controls arrive: a decision like the one before is not sent again)."""

    def __init__(self) -> None:
        self.version = (0, -1)  # (game number, version)
        self.forms: list[dict] = []
        self.active = False
        self.over = False
        self.toasts: list[str] = []
        self.toast: tuple[str, str] | None = None  # the last message's toast: (reason, text)
        self.online = 0  # seats with a socket open, as #table-presence last said

    def read(self, html: str) -> bool:
        """Take in a message; True if it showed a newer table."""
        self.toast = None
        if (toast := TOAST.search(html)) is not None:
            self.toast = (toast.group(1) or "", re.sub(r"<[^>]+>", "", toast.group(2)).strip()[:200])
            self.toasts.append(self.toast[1])
        match = META.search(html)
        newer = False
        if match:
            version = (int(match.group(1)), int(match.group(2)))
            newer = version > self.version
            if version >= self.version:
                self.version = version
        if 'id="controls"' in html:
            self.active = "controls--active" in html
            forms = [dict(HIDDEN.findall(body)) for body in FORM.findall(html)]
            self.forms = [form for form in forms if "kind" in form]
        if 'class="standings"' in html:
            self.over = True
        if (online := ONLINE.search(html)) is not None:
            self.online = len(online.group(1).split())
        return newer

    def choose(self, rng: random.Random) -> dict | None:
        if not self.active or not self.forms:
            return None
        kinds = {form["kind"]: form for form in self.forms}
        if "draw" in kinds and "pass" in kinds:
            return kinds["draw"] if rng.random() < 0.6 else kinds["pass"]
        return kinds.get("pass") or self.forms[0]


_seats_made = itertools.count()


class Seat:
    """A person's table socket: reads, answers its decisions after `think` seconds, reconnects."""

    def __init__(
        self, browser: Browser, code: str, think: float = 0.0, seed: int | None = None, plays: bool = True
    ) -> None:
        self.browser, self.code, self.think, self.plays = browser, code, think, plays
        self.until = 0.0  # when to stop playing (run() sets it; a bench may move it)
        # Each seat its own draws (its moves, its pauses after turn-aways), as each browser has its
        # own Math.random: seats sharing one seed were turned away together and came back together,
        # in lock step, however long their pauses grew (400 watchers, 7 turn-aways each, a minute).
        self.rng = random.Random(seed if seed is not None else f"{browser.address} {code} {next(_seats_made)}")
        self.screen = Screen()
        self.socket = None
        self.reconnects = 0
        self.closed_codes: list[int] = []
        self.errors: Counter[str] = Counter()  # by kind (the module's docstring)
        self.closing: str | None = None  # the reason the server gave for the close that follows
        self.busy_in_a_row = 0  # turn-aways since a table last arrived
        self.drain = 0.0  # seconds to go on reading, without moving, once the time is up
        self.sent: dict[tuple[int, int], float] = {}  # version answered -> when
        self.answered: dict[tuple[int, int], float] = {}  # every version answered -> last sent (kept)
        self.refused_at = 0.0  # when a refusal last came (perf_counter)
        self.on_version = None  # callback(seat, version, when)
        # One reader at a time: a bench may start a decision (and its looking while thinking)
        # beside the reading loop, and a socket has one receiver.
        self._reading = asyncio.Lock()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.browser.port}/ws/t/{self.code}/?lang=en"

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        cookie = "; ".join(f"{k}={v}" for k, v in self.browser.cookies.items())
        self.socket = await connect(
            self.url,
            origin=self.browser.origin,
            additional_headers={"Cookie": cookie},
            max_size=2**22,
            ping_interval=None,
            open_timeout=20,
            local_addr=(self.browser.address, 0),
        )

    async def run(self, until: float) -> None:
        """Play until the time is up (`self.until`, which may be moved meanwhile), then read for
        `self.drain` seconds more; reconnect at once whenever the socket drops, after a short
        back-off when it does not open, and after a growing random pause when a busy server
        turned it away (as the page's script does)."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        self.until = until
        wait = 0.1
        while time.monotonic() < self.until + self.drain:
            try:
                if self.socket is None:
                    await self.connect()
                    wait = 0.1
                await self._read()
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else 1006
                self.closed_codes.append(code)
                self.socket = None
                if code in (CLOSE_BUSY, CLOSE_ARRIVING):
                    self.errors["busy_shed"] += 1
                    self.busy_in_a_row += 1
                    longest = ARRIVING_PAUSE_MAX if code == CLOSE_ARRIVING else BUSY_PAUSE_MAX
                    pause = self.rng.uniform(0, min(longest, 2.0 ** (self.busy_in_a_row - 1)))
                    await asyncio.sleep(max(0.0, min(pause, self.until + self.drain - time.monotonic())))
                else:
                    self.errors[f"closed_{code}" + (f"_{self.closing}" if self.closing else "")] += 1
                    self.reconnects += 1
                self.closing = None
            except (OSError, InvalidHandshake, TimeoutError) as failed:
                self.errors[self._not_opened(failed)] += 1
                self.socket = None
                await asyncio.sleep(wait)
                wait = min(wait * 2, 2.0)
        if self.socket is not None:
            await self.socket.close()
            self.socket = None

    @staticmethod
    def _not_opened(failed: Exception) -> str:
        from websockets.exceptions import InvalidStatus

        if isinstance(failed, InvalidStatus):
            return f"handshake_{failed.response.status_code}"
        if isinstance(failed, TimeoutError):  # open_timeout (an OSError too: asked first)
            return "handshake_timeout"
        if isinstance(failed, OSError):
            return "connect_failed"
        return "handshake_invalid"

    def _heard(self, now: float) -> None:
        """Count what the message just read showed that was not the game going on."""
        if self.screen.toast is None:
            self.busy_in_a_row = 0  # a table arrived: the next turn-away starts the pauses anew
            return
        reason = self.screen.toast[0]
        if reason in CLOSING_REASONS:
            self.closing = reason  # counted with the close that follows
        else:
            self.errors[f"toast_{reason or 'unnamed'}"] += 1
            self.refused_at = now

    async def _read(self) -> None:
        fresh = True  # a socket (re)opened: the whole table, with the decision it shows
        while True:
            left = self.until + self.drain - time.monotonic()
            if left <= 0:
                return
            try:
                async with self._reading:
                    html = await asyncio.wait_for(self.socket.recv(), timeout=min(left, 1.0))
            except TimeoutError:
                continue
            newer = self._take(html)
            if not self.plays or time.monotonic() >= self.until:  # watching, or draining
                fresh = False  # nothing was sent on this socket: its next messages need no second answer
                continue
            if newer or fresh:
                if fresh:  # a move sent before the socket dropped may never have arrived: answer again
                    self.sent.pop(self.screen.version, None)
                fresh = False
                await self._decide()
            elif 'class="toast"' in html and self.screen.active:
                await asyncio.sleep(0.3)  # refused (the server busy or restarting): as a person, try again
                self.sent.pop(self.screen.version, None)
                await self._decide()

    def _take(self, html: str) -> bool:
        """A message onto the screen; True if it showed a newer table."""
        now = time.perf_counter()
        newer = self.screen.read(html)
        self._heard(now)
        if newer and self.on_version is not None:
            self.on_version(self, self.screen.version, now)
        return newer

    async def _look(self, seconds: float) -> None:
        """While its person thinks, the screen goes on drawing what arrives (a timeout, a bot,
        someone coming back): they answer the table shown when they decide, never one that a
        newer table already replaced."""
        until = min(time.monotonic() + seconds, self.until)
        while True:
            async with self._reading:
                if (left := until - time.monotonic()) <= 0:
                    return
                try:
                    html = await asyncio.wait_for(self.socket.recv(), timeout=left)
                except TimeoutError:
                    return
            self._take(html)

    async def _decide(self) -> None:
        move = self.screen.choose(self.rng)
        if move is None:
            return
        seen = self.screen.version
        if self.think:
            await self._look(self.rng.uniform(0.5, 1.5) * self.think)
        # the screen may have moved on while thinking: answer what it shows now
        if self.screen.version != seen:
            move = self.screen.choose(self.rng)
            if move is None:
                return
        if self.screen.version in self.sent:  # one answer per table shown, as the page's bar allows
            return
        if time.monotonic() >= self.until or not self.plays:  # the time is up (draining), or told to stop
            return
        self.sent[self.screen.version] = self.answered[self.screen.version] = time.perf_counter()
        # the table the screen shows goes with the move (its version and game), as the page's script adds it
        game, version = self.screen.version
        await self.socket.send(json.dumps({**move, "version": str(version), "game": str(game)}))


def started_table(port: int, people: int, n: int = 0, timer: int = 0, target: int = 250) -> tuple[str, list[Browser]]:
    """A table with `people` people seated (each from an address of their own) and started."""
    browsers = [Browser(port, address_of(n * 8 + i)) for i in range(people)]
    code = browsers[0].new_table(f"P{n}-0", people, timer=timer, target=target)
    for i, browser in enumerate(browsers[1:], start=1):
        browser.join(code, f"P{n}-{i}")
    browsers[0].start(code)
    return code, browsers
