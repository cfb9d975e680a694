"""Writers announce their own changes: a service that changes what a screen shows (a table, its
chat) says so itself, and what it says goes out once its transaction commits, never if it rolls
back. Callers (pages, sockets, admin, the timers) call the service and broadcast nothing: a
caller that forgot to was a screen that silently lagged (tests/delivery/test_announced.py walks every
service that writes and fails if a commit leaves a table's screens behind it).

Where an announcement goes at the commit depends on who called the service:
- from a thread (a page, admin, a test): sent there and then (`broadcast.send`, which logs a
  failure: the change is committed, and the screens find it in the database: game.live.watch);
- from the event loop (a socket, the timers: game.live.watch.call runs the service in the
  database thread): held, and sent from the loop once the call returns, in the order said. The
  database thread, which every move of the process waits for, never waits for the loop or for
  Redis; and a socket's screens hear a move exactly when they did when the socket sent it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple

from django.db import transaction

from game.delivery import broadcast

logger = logging.getLogger(__name__)


class Update(NamedTuple):
    """A table's update ({"snapshot", "events"}) or a chat update ({"chat", "body"}) for every
    screen of the table `code`."""

    code: str
    update: dict


class Invitations(NamedTuple):
    """(user id, invitation) pairs for every page each invited person has open."""

    sent: list[tuple[int, dict]]


class Out(NamedTuple):
    """A person to put out of every socket (a suspension, a ban), after what was said before it."""

    player_tag: str
    user_id: int | None
    why: str


class PersonNote(NamedTuple):
    """A message for every page one signed-in person has open (game.live.people: its "type"
    names the handler), such as a friend request made to them."""

    user_id: int
    message: dict


class YourMove(NamedTuple):
    """A person's count of turn-based tables waiting for their move changed (`told`: {"code",
    "deadline", "count", "yours"}), for every page they have open."""

    user_id: int
    told: dict


Said = Update | Invitations | Out | PersonNote | YourMove

_held: ContextVar[list[Said] | None] = ContextVar("sevn_announcements_held", default=None)


def table(code: str, update: dict) -> None:
    """Every screen of the table gets `update` once the current transaction commits (at once,
    outside one). Say it inside the service, once the change is made; `update` is not changed
    after (it goes out as it is at the commit)."""
    _on_commit(Update(code, update))


def tables(sent: list[tuple[str, dict]]) -> None:
    """Several tables' updates, in this order."""
    for code, update in sent:
        table(code, update)


def invitations(sent: list[tuple[int, dict]]) -> None:
    if sent:
        _on_commit(Invitations(sent))


def person(user_id: int, message: dict) -> None:
    """Every page the person has open gets `message` once the current transaction commits."""
    _on_commit(PersonNote(user_id, message))


def your_move(user_id: int, told: dict) -> None:
    _on_commit(YourMove(user_id, told))


def out(player_tag: str, user_id: int | None, why: str) -> None:
    """The person's sockets close with `why` ("suspended", "banned"), in every process."""
    _on_commit(Out(player_tag, user_id, why))


_deadline_listeners: list[Callable[[float], None]] = []


def listen_for_deadlines(listener: Callable[[float], None]) -> None:
    """`listener` hears the deadline (epoch seconds) of every table update committed in this
    process that carries one, in the thread that committed it (game.live.timers: a process's
    deadline loop looks when a deadline it set is due, not at every short poll)."""
    if listener not in _deadline_listeners:
        _deadline_listeners.append(listener)


def _on_commit(said: Said) -> None:
    transaction.on_commit(lambda: _committed(said))


def _deadline_of(said: Said) -> float | None:
    if not isinstance(said, Update):
        return None
    game = (said.update.get("snapshot") or {}).get("game") or {}
    return game.get("deadline")


def _committed(said: Said) -> None:
    deadline = _deadline_of(said)
    if deadline is not None:
        for listener in _deadline_listeners:
            listener(deadline)
    held = _held.get()
    if held is not None:
        held.append(said)
    else:
        send(said)


def send(said: Said) -> None:
    """From a thread: a failure is logged, not raised (the change is committed)."""
    if isinstance(said, Update):
        broadcast.send(said.code, said.update)
    elif isinstance(said, Invitations):
        broadcast.send_to_people(said.sent)
    elif isinstance(said, PersonNote):
        broadcast.send_to_person(said.user_id, said.message)
    elif isinstance(said, YourMove):
        broadcast.send_your_move(said.user_id, said.told)
    else:
        broadcast.put_out(said.player_tag, said.user_id, said.why)


async def send_async(said: Said, tell: Callable[[str, dict], Awaitable[None]]) -> None:
    """From the event loop; a table's update through `tell` (game.live.watch's: a failure makes
    this process's screens read the table again)."""
    if isinstance(said, Update):
        await tell(said.code, said.update)
    elif isinstance(said, Invitations):
        await broadcast.send_to_people_async(said.sent)  # (logs its own failures)
    elif isinstance(said, PersonNote):
        await broadcast.send_to_person_async(said.user_id, said.message)  # (logs its own failures)
    elif isinstance(said, YourMove):
        await broadcast.send_your_move_async(said.user_id, said.told)
    else:
        try:
            await broadcast.put_out_async(said.player_tag, said.user_id, said.why)
        except Exception:  # as broadcast.put_out: they can act as that player nowhere anyway
            logger.warning("closing the sockets of a person put out failed", exc_info=True)


@contextmanager
def held():
    """What services say while this is open (in this context and the threads it hands its
    context to: asgiref's sync_to_async does) is kept in the list it gives, not sent."""
    kept: list[Said] = []
    token = _held.set(kept)
    try:
        yield kept
    finally:
        _held.reset(token)
