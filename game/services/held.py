"""The tables this process holds in memory: each table's row, its current game and its seats as
this process last committed or read them (nginx sends a table's sockets to one process, so the
process that plays its moves is the one whose memory holds it).

A move is checked and played against what is held here, then saved in one statement that
writes only if the database still has the version held, the table still playing and the seats
held (services.store.save_move): no lock, no read before it. When anything else wrote meanwhile
(another process's move or timer, a page, staff), the statement writes nothing; the table is
dropped from here and the move goes the locked way, which reads the table again and applies or
refuses the move as it always did (services.play.game_act).

Only what was committed is kept (`keep` runs once the transaction commits): a version held here
is a version the database had. Every object held is never changed in place; a held move works
on copies.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from typing import NamedTuple

from django.db import transaction
from django.db.models.signals import post_save

from game.models import Game, Seat, Table

# Tables held at most (the least recently played leave first): a table of four with its game is
# a few tens of kilobytes at most.
MOST = 20_000


class Held(NamedTuple):
    table: Table
    game: Game
    seats: list[Seat]


_held: OrderedDict[str, Held] = OrderedDict()
_codes: dict[int, str] = {}  # a held table's code by its id


def get(code: str) -> Held | None:
    found = _held.get(code.upper())
    if found is not None:
        _held.move_to_end(found.table.code)
    return found


def keep(table: Table, game: Game | None, seats: list[Seat]) -> None:
    """Hold the table as it is once the current transaction commits (at once outside one). An
    older version than the one held (a commit of this process overtaken) is not kept."""
    if game is None or game.table_id != table.id:
        return
    held = Held(table, game, sorted(seats, key=lambda seat: seat.index))
    transaction.on_commit(lambda: _keep(held))


def _keep(held: Held) -> None:
    code = held.table.code
    before = _held.get(code)
    if before is not None and (before.game.number, before.game.version) > (held.game.number, held.game.version):
        return
    _held[code] = held
    _codes[held.table.id] = code
    _held.move_to_end(code)
    while len(_held) > MOST:
        _code, gone = _held.popitem(last=False)
        _codes.pop(gone.table.id, None)


def drop(code: str) -> None:
    gone = _held.pop(code.upper(), None)
    if gone is not None:
        _codes.pop(gone.table.id, None)


def _written(sender, instance, **_kwargs) -> None:
    """A table, game or seat saved through the ORM in this process (not a move's own statement):
    the held table is read again at its next move, whatever changed (the statement of a held
    move would also find most such changes, not every one: a game's state rewritten in place)."""
    table_id = instance.id if sender is Table else instance.table_id
    code = _codes.get(table_id)
    if code is not None:
        drop(code)


for _model in (Table, Game, Seat):
    post_save.connect(_written, sender=_model, dispatch_uid=f"sevn-held-{_model.__name__}")


def seen(keys_by_code: dict[str, set[str]], now: datetime) -> None:
    """These tables' seated people (by player key) were seen now (presence wrote it): their held
    seats say so as the database does, so that a held move decides who is gone as the locked way
    would (services.play)."""
    for code, keys in keys_by_code.items():
        found = _held.get(code.upper())
        if found is None:
            continue
        for seat in found.seats:
            if seat.player_key in keys and (seat.last_seen is None or seat.last_seen < now):
                seat.last_seen = now  # the one field changed in place: to the database's own value


def seen_at(keys_by_table: dict[int, set[str]], now: datetime) -> None:
    """As `seen`, by the tables' ids."""
    seen({_codes[table_id]: keys for table_id, keys in keys_by_table.items() if table_id in _codes}, now)


def clear() -> None:
    """Forget every table (tests; a process that lost its database)."""
    _held.clear()
    _codes.clear()
