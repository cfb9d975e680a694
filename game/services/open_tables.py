"""The home page's list of open tables: public tables waiting for people (in their lobby, a seat
free), each with its game, its seats, its host, the records of the accounts seated there
(services.reliability), its minimum, and for this viewer either Join or why they cannot sit.

Public is Table.public: every table but one with no time limit, which seats its host's friends
only. Such a table is open to anyone with its link, and this list is that link for strangers. A
live table is listed while one of its people has it open (a Presence: someone is there to play
with); a turn-based one for OPEN_TURN_BASED_FOR after it was made, as its people need not wait
on its page. The page polls the list (templates/game/_open_tables.html): who sits where changes
at the pace of people, and one read every POLL_SECONDS per open home page costs less than
telling every home page of every seat taken at any table.
"""

from __future__ import annotations

from datetime import timedelta
from typing import NamedTuple

from django.db.models import Count, Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from game import registry
from game.core import pace as paces
from game.core.identity import Player
from game.core.moments import date_and_time
from game.drawkit.clocks import pace_line
from game.drawkit.common import Record
from game.models import Friendship, Presence, Seat, Table
from game.services import reliability, table_reads

LISTED = 20  # the newest tables listed
OPEN_TURN_BASED_FOR = timedelta(days=3)
POLL_SECONDS = 20


class Person(NamedTuple):
    """Someone seated at an open table, as the list shows them."""

    name: str
    bot: bool
    host: bool
    record: Record | None  # None: a guest, a bot, no game yet, or a private profile not shown to this viewer


class OpenTable(NamedTuple):
    code: str
    game: str  # the game's name (SEVN, Sevens)
    host: str
    taken: int
    seats: int
    people: tuple[Person, ...]
    least: int  # the table's minimum share of finished games (%), 0 for none
    members_only: bool
    pace: str | None  # a turn-based table's pace in words (None: live)
    why: str | None  # why this viewer cannot sit (None: Join)

    @property
    def free(self) -> int:
        return self.seats - self.taken


def open_tables(viewer: Player | None, limit: int = LISTED) -> list[OpenTable]:
    """The public tables waiting for people, newest first, as `viewer` (None: someone with no
    session yet, a guest) may see them; not the ones they sit at (the page lists those already)."""
    now = timezone.now()
    someone_there = Exists(Presence.objects.filter(table=OuterRef("pk")))
    waiting = (
        Table.objects.filter(status=Table.Status.LOBBY)
        .exclude(pace=paces.UNLIMITED)
        .annotate(taken=Count("seats"), there=someone_there)
        .filter(taken__lt=F("seat_count"))
        .filter(Q(pace=paces.LIVE, there=True) | (~Q(pace=paces.LIVE) & Q(created__gte=now - OPEN_TURN_BASED_FOR)))
    )
    if viewer is not None:
        waiting = waiting.exclude(Exists(Seat.objects.filter(table=OuterRef("pk"), player_key=viewer.key)))
    tables = list(waiting.order_by("-created")[:limit])
    if not tables:
        return []
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__in=tables).order_by("table_id", "index"):
        seats.setdefault(seat.table_id, []).append(seat)
    records = reliability.records_of({seat.user_id for row in seats.values() for seat in row if seat.user_id})
    friends = _friends(viewer)
    refusal = _Refusal(viewer)
    listed = []
    for table in tables:
        here = seats.get(table.id, [])
        people = tuple(_person(table, seat, records, friends, viewer) for seat in here)
        kind = registry.KINDS.get(table.kind)
        listed.append(
            OpenTable(
                table.code,
                str(kind.label) if kind is not None else table.kind,
                table.host_name,
                len(here),
                table.seat_count,
                people,
                table.min_reliability,
                table.members_only,
                pace_line({"code": table.code, "pace": table_reads.pace_dict(table)}),
                refusal.why(table),
            )
        )
    return listed


def _friends(viewer: Player | None) -> set[int]:
    if viewer is None or not viewer.is_user:
        return set()
    return set(
        Friendship.objects.filter(from_user_id=viewer.user_id, status=Friendship.Status.FRIENDS).values_list(
            "to_user_id", flat=True
        )
    )


def _person(table: Table, seat: Seat, records: dict[int, dict], friends: set[int], viewer: Player | None) -> Person:
    found = records.get(seat.user_id) if seat.user_id and not seat.bot_level else None
    if found is not None and found["private"] and seat.user_id not in friends:
        found = None  # a private profile's record: its friends only (the viewer sits at none of these)
    record = Record(found["finished"], found["counted"], found["since"], found["left"]) if found else None
    return Person(seat.nickname, bool(seat.bot_level), seat.player_key == table.host_key, record)


class _Refusal:
    """Why the viewer may not sit at a public table (services.lobby.seat_take refuses the same,
    at more length), their pause and their own record read once for the whole list."""

    def __init__(self, viewer: Player | None) -> None:
        self.is_user = viewer is not None and viewer.is_user
        self.pause = reliability.active_pause(viewer.user_id) if viewer is not None and self.is_user else None
        self.mine: reliability.Reliability | None = None
        self.user_id = viewer.user_id if viewer is not None else None

    def _percent(self) -> int:
        if self.mine is None and self.user_id is not None:
            self.mine = reliability.of([self.user_id])[self.user_id]
        return self.mine.percent if self.mine is not None else 100

    def why(self, table: Table) -> str | None:
        if self.pause is not None:
            until = date_and_time(self.pause.until)
            count = len(self.pause.games)
            return ngettext(
                "You may sit at public tables again after %(until)s: you left %(count)d game at public tables "
                "within a week.",
                "You may sit at public tables again after %(until)s: you left %(count)d games at public tables "
                "within a week.",
                count,
            ) % {"count": count, "until": until}
        if table.members_only and not self.is_user:
            return gettext("Only signed-in players may sit here: log in first.")
        if table.min_reliability and not self.is_user:
            return gettext("This table asks for a record of finished games: log in so that yours counts.")
        if table.min_reliability and self._percent() < table.min_reliability:
            return gettext(
                "You cannot sit here: you finished %(percent)d%% of your last games, and this table asks for "
                "%(least)d%%."
            ) % {"least": table.min_reliability, "percent": self._percent()}
        return None
