"""Who is at the table right now: sockets of seated people, and taking over for the absent.

Every screen marks each seat connected or not: a socket opening or closing broadcasts which
seats have one open (an event of its own, "presence", that changes no game). A person whose
last socket closed more than GRACE ago has their decisions time out after ABSENT_TURN (not the
table's whole turn clock); more than AWAY_AFTER ago, they are marked away (a bot plays for them).
When they come back, the away mark goes and the game (paused if only bots were left) goes on.
All of this is for live tables only: at a turn-based table the clock of the move decides
(services.play), and a seat the bot kept is taken back by its person's choice (play.seat_reclaim).
Each change is announced to the table's screens as it commits (common.announced).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from game import services
from game.core import pace as paces
from game.models import Game, Presence, Seat, Table
from game.services import held, table_reads
from game.services.common import announced, presence_event, table_update
from game.services.play import ABSENT_TURN, GRACE, gone, hurry, unhurry
from game.services.store import locked_table_and_game, put_row, take_rows

logger = logging.getLogger(__name__)

AWAY_AFTER = timedelta(seconds=60)
# Each process says every HEARTBEAT which of its sockets live, and their people's seats were
# last seen then: shorter than GRACE, so a move never asks whether its next decider is here.
HEARTBEAT = timedelta(seconds=10)
STALE_AFTER = HEARTBEAT * 3
# Seats a sweep takes up at most, for each of its two steps (the second takes the tables of that
# many gone seats, each table's gone seats together): each is a transaction that locks a table,
# on the one thread that runs every database call of the process. A crowd gone at once
# (people a full server keeps turning away, a process killed) is worked through over a few
# sweeps, never in one hold of that thread that every move and every new screen waits behind.
SWEEP_LIMIT = 50


def online(table_id: int) -> list[int]:
    """The seats of people with a socket open at the table (bots have none)."""
    return table_reads.online(table_id)


def _presence_message(table: Table, seats: list[Seat] | None = None) -> dict | None:
    """Which seats have a socket open, announced to every screen of a running or finished game
    (`seats`: the table's, in order, if the caller has them as they are now)."""
    if table.status not in (Table.Status.PLAYING, Table.Status.FINISHED):
        return None
    if seats is None:
        seats = sorted(table.seats.all(), key=lambda seat: seat.index)
    message = table_update(table, seats, table_reads.current_game(table))
    message["events"] = [presence_event(table.id)]
    return announced(table.code, message)


def arrived(*, code: str, player_key: str, channel: str) -> dict | None:
    """A socket opened; a seated person who was away is back, and one who was gone (no socket
    for GRACE) has their pending decision due by the table's clock again (play.unhurry, which
    says so). Announces whose sockets are open now (the new screen learns it too), with the
    return if they were away, and returns that update (None at a lobby: none shows it)."""
    table = table_reads.table_by_code(code)
    if table is None:
        return None
    now = timezone.now()
    seats = sorted(table.seats.all(), key=lambda seat: seat.index)
    seat = next((seat for seat in seats if seat.player_key == player_key), None)
    was_gone = seat is not None and gone(table, seat, now)  # asked before this socket counts
    put_row(Presence, channel=channel, table=table.id, player_key=player_key, seen=now)
    if seat is not None:
        Seat.objects.filter(id=seat.id).update(last_seen=now)
        seat.last_seen = now
        held.seen({table.code: {player_key}}, now)
    if seat is not None and seat.away and not table.turn_based:  # turn-based: "Take my seat back" (play.seat_reclaim)
        message = _back(table.id, seat.id)
        if message is not None:
            message["events"] = [*message["events"], presence_event(table.id)]
            return announced(table.code, message)
    if was_gone:  # (the clock it gives back is in the game, read with the presence message)
        unhurry(table_id=table.id, seat_index=seat.index, now=now)
    return _presence_message(table, seats)


@transaction.atomic
def _back(table_id: int, seat_id: int) -> dict | None:
    table, _game = locked_table_and_game(table_id=table_id)
    seat = Seat.objects.get(id=seat_id)
    if not seat.away or table.status == Table.Status.CLOSED:
        return None
    seat.away, seat.timeouts_in_row, seat.let_go_by = False, 0, []
    seat.save(update_fields=["away", "timeouts_in_row", "let_go_by"])
    return services.refresh_deadline(table, events=[{"type": "back", "seat": seat.index}])


def left(*, channel: str) -> dict | None:
    """A socket closed; the seat remembers when its person was last here. If it was their last
    socket at the table, every screen is told the seat is not connected (and that is returned)."""
    messages = left_all(channels=[channel])
    return messages[0] if messages else None


def left_all(*, channels: list[str]) -> list[dict]:
    """Sockets closed together (a crowd leaving, a process stopping): a few statements for all of
    them, and one update for each table where a seated person's last socket closed, whoever
    else's closed with it. One socket at a time, four sockets of a table closing at once made
    four messages and a dozen statements each, queued on the one thread that runs every database
    call of the process: hundreds closing at once held up every move behind them."""
    gone = take_rows(Presence, "channel", list(channels), ("channel", "table", "player_key"))
    if not gone:
        return []
    people = {(table_id, key) for _channel, table_id, key in gone}
    keys = {key for _table, key in people}
    candidates = Seat.objects.filter(table_id__in={table_id for table_id, _key in people}, player_key__in=keys)
    seats = [
        (id_, table_id, key)
        for id_, table_id, key in candidates.values_list("id", "table_id", "player_key")
        if (table_id, key) in people
    ]
    if not seats:
        return []
    now = timezone.now()
    Seat.objects.filter(id__in=[id_ for id_, _table, _key in seats]).update(last_seen=now)
    by_table: dict[int, set[str]] = {}
    for _id, table_id, key in seats:
        by_table.setdefault(table_id, set()).add(key)
    held.seen_at(by_table, now)
    tables = {table_id for _id, table_id, _key in seats}
    still_here = set(
        Presence.objects.filter(table_id__in=tables, player_key__in=keys).values_list("table_id", "player_key")
    )
    told = {table_id for _id, table_id, key in seats if (table_id, key) not in still_here}
    messages = [_presence_message(table) for table in Table.objects.filter(id__in=told).order_by("id")]
    return [message for message in messages if message is not None]


def heartbeat(*, sockets: dict[str, tuple[str, str]]) -> list[dict]:
    """This process's sockets are alive (channel: (table code, player key)), and their seated
    people were seen now: a statement each for all of them. A live socket's row that a sweep took
    for stale (a process too busy to beat in time) is made again: without it the person would
    count as gone while at their screen, their turn hurried, then played for them. Returns what
    what the screens of the tables where someone was brought back were told (the sweep told
    them gone)."""
    if not sockets:
        return []
    now = timezone.now()
    messages = []
    if Presence.objects.filter(channel__in=sockets).update(seen=now) < len(sockets):
        messages = _bring_back(sockets, now)
    here = Presence.objects.filter(
        channel__in=sockets, table_id=OuterRef("table_id"), player_key=OuterRef("player_key")
    )
    Seat.objects.filter(Exists(here)).update(last_seen=now)
    by_code: dict[str, set[str]] = {}
    for code, key in sockets.values():
        by_code.setdefault(code, set()).add(key)
    held.seen(by_code, now)
    return messages


def _bring_back(sockets: dict[str, tuple[str, str]], now) -> list[dict]:
    """The rows of live sockets that are missing, made again (a table since deleted has none)."""
    kept = set(Presence.objects.filter(channel__in=sockets).values_list("channel", flat=True))
    missing = {channel: owner for channel, owner in sockets.items() if channel not in kept}
    codes = {code for code, _key in missing.values()}
    tables = dict(Table.objects.filter(code__in=codes).values_list("code", "id"))
    rows = [
        Presence(channel=channel, table_id=tables[code], player_key=key, seen=now)
        for channel, (code, key) in missing.items()
        if code in tables
    ]
    # a row made meanwhile is kept; one for a socket that closed meanwhile goes stale (STALE_AFTER)
    Presence.objects.bulk_create(rows, ignore_conflicts=True)
    if not rows:
        return []
    logger.info("brought back %d presence rows a sweep had taken for stale", len(rows))
    back = Table.objects.filter(id__in={row.table_id for row in rows}).order_by("id")[:SWEEP_LIMIT]
    return [message for message in map(_presence_message, back) if message is not None]


def _forget_stale(now) -> list[dict]:
    """The rows of sockets no process has vouched for in STALE_AFTER (a process killed, its
    machine gone), removed, and the screens of each table where that was someone's last socket
    told so: nobody else would tell them, and the seat would show connected for good. A few
    tables a sweep (SWEEP_LIMIT), as the rest of the sweep: a crowd gone at once takes a few."""
    stale = Presence.objects.filter(seen__lt=now - STALE_AFTER)
    tables = list(stale.order_by("table_id").values_list("table_id", flat=True).distinct()[:SWEEP_LIMIT])
    if not tables:
        return []
    stale = stale.filter(table_id__in=tables)
    gone = set(stale.values_list("table_id", "player_key"))
    stale.delete()
    still_here = set(Presence.objects.filter(table_id__in=tables).values_list("table_id", "player_key"))
    told = {table_id for table_id, key in gone if (table_id, key) not in still_here}
    messages = map(_presence_message, Table.objects.filter(id__in=told).order_by("id"))
    return [message for message in messages if message is not None]


def mark_absent(now=None) -> list[dict]:
    """Seated people in running games with no live socket for GRACE have their pending decision
    due within ABSENT_TURN; with none for AWAY_AFTER they become away. Returns what the tables'
    screens were told."""
    now = now or timezone.now()
    messages = _forget_stale(now)
    hurried = Game.objects.filter(table_id=OuterRef("table_id"), over=False, deadline__lte=now + ABSENT_TURN)
    absent = (
        Seat.objects.filter(
            table__status=Table.Status.PLAYING,
            table__pace=paces.LIVE,  # at a turn-based table nobody is taken for being away
            away=False,
            bot_level="",
            last_seen__lt=now - GRACE,
            last_seen__gte=now - AWAY_AFTER,
        )
        .exclude(player_key="")
        .exclude(Exists(_socket_open()))
        .exclude(Exists(hurried))  # its table's decision is due soon already: nothing to hurry
        .order_by("?")  # more than a sweep takes: each sweep some others
    )
    for seat in absent[:SWEEP_LIMIT]:  # who has a socket open is asked of these seats only
        message = hurry(table_id=seat.table_id, seat_index=seat.index, now=now)
        if message:
            messages.append(message)
    tables = _gone_seats(now).order_by("id").values_list("table_id", flat=True)[:SWEEP_LIMIT]
    for table_id in dict.fromkeys(tables):  # each table once, in the order of its first gone seat
        message = _away(table_id, now)
        if message:
            messages.append(message)
    return messages


def _socket_open():
    """A seat's person has a socket open at its table (for a filter of seats)."""
    return Presence.objects.filter(table_id=OuterRef("table_id"), player_key=OuterRef("player_key"))


def _gone_seats(now):
    """Seats of running live games whose person has had no socket open for AWAY_AFTER."""
    long_ago = now - AWAY_AFTER
    return (
        Seat.objects.filter(table__status=Table.Status.PLAYING, table__pace=paces.LIVE, away=False, bot_level="")
        .exclude(player_key="")
        .filter(Q(last_seen__lt=long_ago) | Q(last_seen__isnull=True, joined__lt=long_ago))
        .exclude(Exists(_socket_open()))
    )


@transaction.atomic
def _away(table_id: int, now) -> dict | None:
    """Every gone seat of the table marked away at once, then the bots move for them. One at a
    time, the first seat's bot played its turns while the others still counted as people who
    must decide, and could finish the game (about one deal in 740, two people, to 50) before they
    were marked: a game everyone left is one nobody but bots play, which waits ABANDONED_AFTER
    for them (play._deadline), whichever seat the sweep came to first."""
    table, _game = locked_table_and_game(table_id=table_id)
    if table.status != Table.Status.PLAYING or table.turn_based:
        return None
    seats = list(_gone_seats(now).filter(table_id=table_id).order_by("index"))  # looked at again, locked
    if not seats:
        return None
    for seat in seats:
        seat.away = True
        seat.save(update_fields=["away"])  # through the ORM: the table held in memory is read again
    events = [{"type": "away", "seat": seat.index} for seat in seats]
    return announced(table.code, services.refresh_deadline(table, events=events))
