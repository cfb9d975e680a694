"""What every game's table has: #table-meta (the version a move is made on, whose turn it is, the
clock), #table-presence (whose sockets are open), the turn pill, the rematch at game over, and
the shape of one viewer's table (its frame and its pieces), and who sits where."""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import NamedTuple

from django.utils.translation import gettext

from game.core.identity import tag
from game.drawkit.pieces import Piece
from game.drawkit.words import names_list


class TableView(NamedTuple):
    """One viewer's table: the arrangement around the pieces (a game's own Frame: when it
    changes, a screen gets the whole table again) and the pieces, by element id in page order."""

    frame: Hashable
    pieces: dict[str, Piece]


class Meta(NamedTuple):
    """#table-meta: what the page's script and style read, sent with every change."""

    game: int  # the game's number at the table (a move carries it, with the version)
    version: int
    turn: int | None  # the seat that decides
    deadline_ms: int | None
    timer: int  # the table's seconds per decision
    show_summary: bool  # a round was scored by this update: the summary opens


# The server's clock as #table-meta tells it, to the nearest CLOCK_STEP_MS: the screens of one
# update are drawn a few milliseconds apart, and at the same reading they share one drawing (a
# countdown of whole seconds is none the worse for 50 ms).
CLOCK_STEP_MS = 100


def meta_piece(meta: Meta) -> Piece:
    """#table-meta, with the server's clock as the update is worked out (the page's countdown
    corrects its own by it): drawn, not compared."""
    return Piece("table/_meta.html", meta, _meta_context, round(time.time() * 1000 / CLOCK_STEP_MS) * CLOCK_STEP_MS)


def _meta_context(meta: Meta, now_ms: int) -> dict:
    return {"meta": meta, "now_ms": now_ms}


def presence(online: tuple[int, ...] | None) -> Piece:
    """Which seats have a socket open (as the last presence change said), read by the style:
    a seat is not redrawn when its person comes and goes. None: not known yet."""
    return Piece("table/_presence.html", online, _presence_context)


def _presence_context(online: tuple[int, ...] | None) -> dict:
    return {"online": " ".join(str(int(seat)) for seat in online or ()), "known": online is not None}


class Turn(NamedTuple):
    """The turn pill: who decides (None when nobody does), whether it is the viewer, and whether
    a clock runs (its time is in #table-meta)."""

    current_name: str | None
    yours: bool
    clock: bool


def turn_context(turn: Turn) -> dict:
    return {"turn": turn}


class Rematch(NamedTuple):
    """Game over, in the controls' place: the host starts a rematch and sees who asked for one;
    anyone else seated may ask; a spectator waits with everyone."""

    code: str
    host_name: str
    seated: bool
    is_host: bool
    asked_names: tuple[str, ...]  # for the host: who asked (never the host)
    you_asked: bool
    game_id: str | None = None  # the finished game's public id: its record and replay are linked (game.fair)


def rematch(snapshot: dict, names: tuple[str, ...], me: int | None, is_host: bool, asked: frozenset) -> Rematch:
    """The same rule for either game; `asked`: the seats that asked, as the viewer's screen heard."""
    table = snapshot["table"]
    host_seat = next((seat["index"] for seat in snapshot["seats"] if seat["who"] == table["host"]), None)
    asked_names = tuple(names[seat] for seat in sorted(asked) if seat < len(names) and seat != host_seat)
    return Rematch(
        table["code"],
        table["host_name"],
        me is not None,
        is_host,
        asked_names if is_host else (),
        me in asked,
        snapshot["game"]["public_id"] if snapshot["game"].get("fair", {}).get("server_seed") else None,
    )


class Record(NamedTuple):
    """An account's record beside its name at a seat (services.reliability.seat_records):
    finished `finished` of its last `counted` games, `since` games since its last leave (`left`:
    if it ever left one)."""

    finished: int
    counted: int
    since: int
    left: bool


def seat_record(seat: dict | None) -> Record | None:
    """A snapshot seat's record as its viewer may see it (None: a guest, a bot, no game yet, or
    a private profile's shown to someone who is not its friend: game.screen.table.seen_by)."""
    found = seat.get("reliable") if seat else None
    return Record(found["finished"], found["counted"], found["since"], found["left"]) if found else None


def record_context(record: Record) -> dict:
    return {"reliable": record}


class RatingMove(NamedTuple):
    """One person's rating before and after a rated game (its game-over standings show it)."""

    before: int
    after: int

    @property
    def change(self) -> int:
        return self.after - self.before


def rating_moves(snapshot: dict) -> tuple[RatingMove | None, ...]:
    """Per seat, what a finished rated game did to its person's rating (None: a bot, a guest,
    or a game that rated nobody): services.table_reads puts them in a finished game's snapshot."""
    game = snapshot["game"]
    moved = {seat: RatingMove(before, after) for seat, before, after in game.get("ratings") or ()}
    return tuple(moved.get(index) for index in range(len(game["players"])))


def rematch_context(rematch: Rematch) -> dict:
    return {"decision": None, "over": True, "rematch": rematch}


def viewer_seat(snapshot: dict, viewer_key: str | None) -> dict | None:
    who = tag(viewer_key)
    return next((s for s in snapshot["seats"] if who and s["who"] == who), None)


def seat_names(snapshot: dict) -> list[str]:
    names = list(snapshot["game"]["players"])
    for seat in snapshot["seats"]:
        if seat["index"] < len(names):
            names[seat["index"]] = seat["nickname"]
    return names


def winners_title(names: list[str]) -> str:
    """Game over's headline in the active language: one winner wins, several share the win (one
    sentence, never one per winner)."""
    if len(names) == 1:
        return gettext("%(name)s wins!") % {"name": names[0]}
    return gettext("%(names)s share the win!") % {"names": names_list(names)}
