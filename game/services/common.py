"""What every service shares: the table update it announces and returns, locking a table,
checking requests."""

from __future__ import annotations

import re
import unicodedata

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from game.core import names
from game.core.errors import ServiceError, choose_int  # noqa: F401 (choose_int: the services' helper)
from game.core.identity import Player
from game.delivery import announce
from game.models import Game, Seat, Table
from game.services import table_reads
from game.services.store import count_up, locked_table_and_game

NICKNAME_MAX = 20


def table_update(
    table: Table, seats: list[Seat], game: Game | None, state: dict | None = None, events: list[dict] | None = None
) -> dict:
    """What a change did to a table, as its viewers may see it: the new snapshot and the events
    (game.delivery.broadcast sends it to every screen)."""
    return {"snapshot": table_reads.snapshot(table, seats, game, state), "events": events or []}


def announced(code: str, update: dict) -> dict:
    """`update` told to every screen of the table once the transaction commits (nothing if it
    rolls back: game.delivery.announce), and returned (for the tests, and for a service that
    builds on another's). A service that changes what a screen shows ends with this: its caller
    broadcasts nothing."""
    announce.table(code, update)
    return update


def presence_event(table_id: int) -> dict:
    """Whose sockets are open, as an event every screen hears (it changes no game), with the
    table's count of such events. Two sockets opening at once in two processes compute theirs
    a moment apart and may broadcast them in the other order: a screen keeps the one told later
    (the higher `told`), not the one that reached it last. The count is taken with the table's
    row locked, so the later count always goes with the later reading of who is here."""
    with transaction.atomic():
        told = count_up(Table, table_id, "presence_told")
        return {"type": "presence", "online": table_reads.online(table_id), "told": told}


def locked_table(code: str | None = None, *, table_id: int | None = None) -> Table:
    """The table, locked for this transaction (services.store); refused if unknown or closed."""
    table, _game = locked_table_and_game(code, table_id=table_id)
    if table is None:
        raise ServiceError("unknown_table", _("There is no table with that code."))
    if table.status == Table.Status.CLOSED:
        raise ServiceError("closed", _("This table was closed by staff."))
    return table


def require_host(table: Table, player: Player) -> None:
    if table.host_key != player.key:
        raise ServiceError("not_host", _("Only the host can do that."))


def require_lobby(table: Table) -> None:
    if table.status != Table.Status.LOBBY:
        raise ServiceError("started", _("The game has already started."))


# Characters that print as nothing although Unicode calls them letters or symbols (fillers,
# the blank braille pattern) or that change other characters unseen (joiners, marks, selectors).
INVISIBLE = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u180e", "\u034f", "\u17b4", "\u17b5"}
INVISIBLE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
RESERVED = re.compile(r"^\W*(bot|computer|cpu|admin|staff|moderator)\b", re.IGNORECASE)


def _visible(ch: str) -> bool:
    return ch not in INVISIBLE and unicodedata.category(ch) not in INVISIBLE_CATEGORIES


def clean_nickname(raw: object) -> str:
    """A name people can read and tell apart: printable, with something visible in it (no
    Hangul filler or blank braille posing as a name), at most two combining marks on a letter,
    and not posing as a bot or as staff, in any letters that look like theirs (game.core.names)."""
    text = names.cap_marks(unicodedata.normalize("NFKC", str(raw or "")))
    words = text.split()  # any run of white space (tabs, newlines) becomes one space
    name = " ".join(w for w in ("".join(ch for ch in word if _visible(ch)) for word in words) if w)
    if not 1 <= len(name) <= NICKNAME_MAX or not any(unicodedata.category(ch)[0] in "LNS" for ch in name):
        raise ServiceError("bad_nickname", _("A nickname has 1 to 20 characters."))
    if RESERVED.match(name) or RESERVED.match(names.skeleton(name)):
        raise ServiceError("reserved_nickname", _("That nickname is kept for computer players and staff."))
    return name


def name_taken(name: str, seats) -> bool:
    """True if a seated name looks like `name` (the same letters, or look-alikes of them)."""
    folded = names.skeleton(name)
    return any(seat.nickname and names.skeleton(seat.nickname) == folded for seat in seats)
