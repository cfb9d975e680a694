"""The rules of turn-based tables, through the services and the deadline loop's own entry point
(game.live.timers.fire_due with a given time): a clock that runs out has a bot play that one
turn and a missed turn kept; two in a row and the bot keeps the seat until its person takes it
back; nobody is taken for being away; the playing window stops the clock; the time bank; the
limit of tables; the no-limit table for friends; the your-move list."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone, translation

from game import services
from game.core.errors import ServiceError
from game.live import timers
from game.models import Event, Friendship, MissedTurn, Seat
from game.services import presence, your_move
from game.services.play import _turn_deadline
from tests.services.turn_based_tables import (
    TURN_HANDED_ON_SEED,
    acting,
    game_of,
    move,
    person,
    turn_of,
    turn_table,
)

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def test_a_move_has_its_time_and_nothing_fires_before_it():
    table, players = turn_table("move-24h")
    game = game_of(table)
    assert table.pace == "move" and table.move_seconds == 86400
    assert game.acting == acting(table) and game.turn_started is not None
    assert game.deadline == game.turn_started + DAY
    assert timers.fire_due(game.deadline - timedelta(seconds=1), check_absent=True) == []
    assert game_of(table).version == game.version  # nothing moved
    assert not MissedTurn.objects.exists()


def test_a_clock_that_runs_out_has_a_bot_play_that_one_turn():
    table, players = turn_table("move-12h")
    game = game_of(table)
    late = acting(table)
    fired = timers.fire_due(game.deadline + timedelta(seconds=1), check_absent=False)
    assert len(fired) == 1
    after = game_of(table)
    assert after.version > game.version and acting(table) != late  # the turn was played for them
    seat = Seat.objects.get(table=table, index=late)
    assert seat.timeouts_in_row == 1 and not seat.away  # one miss: the seat is still theirs
    missed = MissedTurn.objects.get()
    assert (missed.seat, missed.player_key, missed.user_id, missed.in_row) == (late, seat.player_key, seat.user_id, 1)
    assert missed.due == game.deadline
    assert Event.objects.filter(game=after, kind="missed", data__seat=late).exists()
    assert Event.objects.filter(game=after, kind="action", data__seat=late, data__bot=True).exists()
    # the next person's clock starts when their turn did
    assert after.deadline == after.turn_started + timedelta(hours=12)


def _miss(table) -> int:
    seat = acting(table)
    timers.fire_due(game_of(table).deadline + timedelta(seconds=1), check_absent=False)
    return seat


def test_two_misses_in_a_row_and_the_bot_keeps_the_seat_until_taken_back():
    table, (ana, ben) = turn_table("move-24h")
    first = _miss(table)
    # the other person lets theirs run out too; then the first misses a second time
    _miss(table)
    assert _miss(table) == first
    seat = Seat.objects.get(table=table, index=first)
    assert seat.away and seat.timeouts_in_row == 2
    assert MissedTurn.objects.filter(seat=first).count() == 2
    assert Event.objects.filter(kind="away", data__seat=first).exists()
    # their turns are the bot's now: whose move it is never waits for them
    who = ana if Seat.objects.get(table=table, index=first).player_key == ana.key else ben
    assert all(w.seat != first for w in your_move.waiting_for(who.key))
    # opening the table does not take the seat back: only the button does
    presence.arrived(code=table.code, player_key=who.key, channel="page-1")
    assert Seat.objects.get(table=table, index=first).away
    services.seat_reclaim(code=table.code, player=who)
    seat = Seat.objects.get(table=table, index=first)
    assert not seat.away and seat.timeouts_in_row == 0
    assert Event.objects.filter(kind="back", data__seat=first).exists()
    with pytest.raises(ServiceError) as refused:
        services.seat_reclaim(code=table.code, player=who)
    assert refused.value.code == "not_away"


def test_a_move_of_ones_own_clears_the_misses():
    table, players = turn_table("move-24h")
    first = _miss(table)
    _miss(table)  # the other's
    assert acting(table) == first
    owner = next(p for p in players if Seat.objects.get(table=table, index=first).player_key == p.key)
    move(table, owner)
    assert Seat.objects.get(table=table, index=first).timeouts_in_row == 0


def test_nobody_is_taken_for_being_away_at_a_turn_based_table():
    table, players = turn_table("move-24h")
    long_ago = timezone.now() - timedelta(hours=5)
    Seat.objects.filter(table=table).update(last_seen=long_ago)
    before = game_of(table)
    assert presence.mark_absent(timezone.now()) == []
    assert not Seat.objects.filter(table=table, away=True).exists()
    assert game_of(table).deadline == before.deadline  # no hurried clock either


def test_a_live_table_keeps_its_away_rule():
    host, guest = person("Liv"), person("Leo")
    table = services.table_create(player=host, nickname="", seat_count=2, turn_seconds=30)
    services.seat_take(code=table.code, player=guest, nickname="")
    services.game_start(code=table.code, player=host)
    Seat.objects.filter(table=table).update(last_seen=timezone.now() - timedelta(minutes=5))
    presence.mark_absent(timezone.now())
    assert Seat.objects.filter(table=table, away=True).count() == 2


def test_outside_the_playing_window_nothing_happens():
    berlin = ZoneInfo("Europe/Berlin")
    table, players = turn_table("move-12h", window=("09:00", "21:00"), zone="Europe/Berlin")
    assert (table.window_start, table.window_end, table.time_zone) == (time(9), time(21), "Europe/Berlin")
    game = game_of(table)
    # the turn began now; whatever the hour, twelve hours of clock end inside a window
    local = game.deadline.astimezone(berlin)
    assert time(9) <= local.time() <= time(21)
    # Set the turn's start to 20:00 Berlin: one hour runs tonight, eleven from 09:00 tomorrow
    started = datetime(2026, 1, 12, 20, tzinfo=berlin)
    game.turn_started = started
    game.deadline = datetime(2026, 1, 13, 20, tzinfo=berlin)  # what services.play works out (below)
    game.save(update_fields=["turn_started", "deadline"])
    table.refresh_from_db()
    seat = Seat.objects.get(table=table, index=game.acting)
    assert _turn_deadline(table, seat, game, started) == datetime(2026, 1, 13, 20, tzinfo=berlin)
    # through the night (twelve hours after the start, the raw clock's end) nothing fires
    for hour in (21, 23):
        assert timers.fire_due(datetime(2026, 1, 12, hour, tzinfo=berlin), check_absent=True) == []
    assert timers.fire_due(datetime(2026, 1, 13, 8, 59, tzinfo=berlin), check_absent=True) == []
    assert game_of(table).version == game.version
    assert len(timers.fire_due(datetime(2026, 1, 13, 20, 0, 1, tzinfo=berlin), check_absent=False)) == 1
    assert MissedTurn.objects.count() == 1


def test_a_time_bank_is_charged_for_the_clock_a_turn_took_and_grows_by_the_increment():
    table, players = turn_table("bank-3d", seed=TURN_HANDED_ON_SEED)  # the first move ends the turn
    assert (table.move_seconds, table.bank_increment, table.bank_most) == (3 * 86400, 12 * 3600, 5 * 86400)
    assert set(Seat.objects.filter(table=table).values_list("bank_seconds", flat=True)) == {3 * 86400}
    game = game_of(table)
    assert game.deadline == game.turn_started + timedelta(days=3)
    first = game.acting
    # the turn began two hours ago
    game.turn_started -= timedelta(hours=2)
    game.save(update_fields=["turn_started"])
    owner = next(p for p in players if Seat.objects.get(table=table, index=first).player_key == p.key)
    move(table, owner)
    bank = Seat.objects.get(table=table, index=first).bank_seconds
    assert abs(bank - (3 * 86400 - 2 * 3600 + 12 * 3600)) <= 2
    # a bank that runs out: the bot plays, and the next turn starts with one increment
    other = acting(table)
    _miss(table)
    assert Seat.objects.get(table=table, index=other).bank_seconds == 12 * 3600


def test_no_limit_tables_are_for_friends_and_never_fire():
    host, friend, stranger = person("Hana"), person("Femi"), person("Sten")
    Friendship.objects.bulk_create(
        [
            Friendship(from_user_id=host.user_id, to_user_id=friend.user_id, status=Friendship.Status.FRIENDS),
            Friendship(from_user_id=friend.user_id, to_user_id=host.user_id, status=Friendship.Status.FRIENDS),
        ]
    )
    table, _players = turn_table("none", players=[host], start=False)
    with pytest.raises(ServiceError) as refused:
        services.seat_take(code=table.code, player=stranger, nickname="")
    assert refused.value.code == "friends_only"
    services.seat_take(code=table.code, player=friend, nickname="")
    services.game_start(code=table.code, player=host)
    game = game_of(table)
    assert game.deadline is None
    assert timers.fire_due(timezone.now() + timedelta(days=365), check_absent=True) == []
    with pytest.raises(ServiceError) as refused:
        services.table_create(player=type(host)(key="guest:g"), nickname="Gus", seat_count=2, pace="none")
    assert refused.value.code == "unlimited_guest"


@pytest.mark.parametrize(
    "asked, code",
    [
        ({"pace": "move-7y"}, "bad_pace"),
        ({"pace": "live", "window": ("09:00", "21:00"), "time_zone": "UTC"}, "window_without_clock"),
        ({"pace": "move-24h", "window": ("09:00", ""), "time_zone": "UTC"}, "bad_window"),
        ({"pace": "move-24h", "window": ("09:00", "09:00"), "time_zone": "UTC"}, "bad_window"),
        ({"pace": "move-24h", "window": ("nine", "21:00"), "time_zone": "UTC"}, "bad_window"),
        ({"pace": "move-24h", "window": ("09:00", "21:00"), "time_zone": "Mars/Olympus"}, "bad_zone"),
    ],
)
def test_bad_paces_are_refused_and_make_nothing(asked, code):
    host = person("Hugo")
    with pytest.raises(ServiceError) as refused:
        services.table_create(player=host, nickname="", seat_count=2, **asked)
    assert refused.value.code == code
    assert not Seat.objects.exists()


def test_a_person_sits_at_so_many_turn_based_tables_at_once(settings):
    settings.SEVN_MAX_TURN_BASED_TABLES = 2
    ana, ben = person("Ana"), person("Ben")
    for _ in range(2):
        turn_table("move-24h", players=[ana], start=False)
    with pytest.raises(ServiceError) as refused:
        services.table_create(player=ana, nickname="", seat_count=2, pace="move-24h")
    assert refused.value.code == "too_many_turn_based"
    assert "2 turn-based tables" in str(refused.value.message)
    # a live table is no turn-based one
    services.table_create(player=ana, nickname="", seat_count=2)
    # nor may she take a seat at someone else's
    table, _ = turn_table("move-24h", players=[ben], start=False)
    with pytest.raises(ServiceError) as refused:
        services.seat_take(code=table.code, player=ana, nickname="")
    assert refused.value.code == "too_many_turn_based"


def test_your_move_lists_the_tables_waiting_for_you_least_time_first():
    ana, ben = person("Ana"), person("Ben")
    tables = []
    for pace in ("move-3d", "move-12h", "move-24h"):
        table, _ = turn_table(pace, players=[ana, ben])
        tables.append(table)
    waiting = your_move.waiting_for(ana.key) + your_move.waiting_for(ben.key)
    assert len(waiting) == 3  # each table waits for one of the two
    for who in (ana, ben):
        mine = your_move.waiting_for(who.key)
        assert [w.deadline for w in mine] == sorted(w.deadline for w in mine)
        assert your_move.waiting_count(who.key) == len(mine)
        assert all(w.player_key == who.key and w.user_id == who.user_id for w in mine)
    everyone = your_move.all_waiting()
    assert [w.deadline for w in everyone] == sorted(w.deadline for w in everyone)
    assert your_move.all_waiting(due_before=timezone.now() + timedelta(hours=13))[0].code == tables[1].code


def test_a_turn_starting_is_told_to_the_person_at_the_commit(monkeypatch, django_capture_on_commit_callbacks):
    told = []
    monkeypatch.setattr("game.delivery.broadcast.send_your_move", lambda user_id, what: told.append((user_id, what)))
    with django_capture_on_commit_callbacks(execute=True):
        table, (ana, ben) = turn_table("move-24h", seed=TURN_HANDED_ON_SEED)  # the first move ends the turn
    first = acting(table)
    starter = ana if Seat.objects.get(table=table, index=first).player_key == ana.key else ben
    assert told[-1][0] == starter.user_id and told[-1][1]["yours"] and told[-1][1]["count"] == 1
    assert told[-1][1]["deadline"] == pytest.approx(game_of(table).deadline.timestamp())
    with django_capture_on_commit_callbacks(execute=True):
        move(table, starter)
    other = ben if starter is ana else ana
    ends = {user_id: what for user_id, what in told[-2:]}
    assert ends[starter.user_id]["count"] == 0 and not ends[starter.user_id]["yours"]
    assert ends[other.user_id]["yours"] and ends[other.user_id]["count"] == 1


def test_both_games_play_turn_based():
    table, players = turn_table("move-24h", kind="sevens", players=[person(n) for n in ("Sam", "Sue", "Sid")])
    game = game_of(table)
    assert game.deadline == game.turn_started + DAY
    _miss(table)
    assert MissedTurn.objects.filter(table=table).count() == 1
    assert datetime.now(UTC) < game_of(table).deadline


def test_a_rated_turn_based_table_everyone_left_ends_as_a_live_one_does():
    """Rated turn-based tables follow the live rule for leavers: once the bot keeps every
    person's seat, the game waits ABANDONED_AFTER for one of them, then the computer players
    finish it and it is rated."""
    from game.models import GameResult, Table
    from game.services.play import ABANDONED_AFTER

    ana, ben = person("Ana"), person("Ben")
    table = services.table_create(player=ana, nickname="", seat_count=2, pace="move-12h", rated=True)
    services.seat_take(code=table.code, player=ben, nickname="")
    services.game_start(code=table.code, player=ana)
    for _miss in range(4):  # each misses twice, in turns
        at = game_of(table).deadline + timedelta(seconds=1)
        timers.fire_due(at, check_absent=False)
    assert Seat.objects.filter(table=table, away=True).count() == 2
    game = game_of(table)
    assert game.deadline == at + ABANDONED_AFTER  # nobody is resigned: the game waits for them
    timers.fire_due(game.deadline - timedelta(seconds=1), check_absent=False)
    assert Table.objects.get(id=table.id).status == Table.Status.PLAYING
    timers.fire_due(game.deadline + timedelta(seconds=1), check_absent=False)
    assert Table.objects.get(id=table.id).status == Table.Status.FINISHED
    results = GameResult.objects.filter(game=game_of(table))
    assert results.count() == 2 and all(result.away for result in results)


def test_the_home_list_has_your_moves_first_then_the_others_with_who_decides():
    ana, ben = person("Ana"), person("Ben")
    lobby, _ = turn_table("move-24h", players=[ana], start=False)
    soon, _ = turn_table("move-12h", players=[ana, ben])
    later, _ = turn_table("move-3d", players=[ana, ben])
    others, _ = turn_table("move-24h", players=[ana, ben])
    for table, who in ((soon, ana), (later, ana), (others, ben)):
        turn_of(table, who, [ana, ben])
    rows = your_move.turn_based_tables(ana.key)
    assert [row.code for row in rows] == [soon.code, later.code, others.code, lobby.code]
    assert [row.yours for row in rows] == [True, True, False, False]
    assert rows[2].whose == "Ben" and rows[2].deadline == game_of(others).deadline
    assert rows[3].status == "lobby" and rows[3].whose is None and rows[3].deadline is None
    assert all(row.deadline.tzinfo is not None for row in rows[:3])
    # a live table is not listed; nor one the bot keeps the seat of as waiting for her move
    services.table_create(player=ana, nickname="", seat_count=2)
    Seat.objects.filter(table=soon, player_key=ana.key).update(away=True)
    rows = your_move.turn_based_tables(ana.key)
    assert len(rows) == 4 and [row.code for row in rows if row.kept_by_bot] == [soon.code]
    assert not next(row for row in rows if row.code == soon.code).yours
