"""A move is refused as stale only when the game itself moved on since the table it was made
on. Someone marked away or coming back takes a version of its own (every screen draws it in
order), but the person who decides still decides the same game: their move is applied. Of two
identical moves exactly one is still applied, and a move made before a rematch never lands in
the new game."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from game import services
from game.core.errors import ServiceError
from game.games.sevn.engine import legal_actions
from game.models import Seat
from game.services import presence
from game.services.play import ABANDONED_AFTER, hurry
from tests.factories import deciding, game_of, open_table, stack, state_of
from tests.live.test_consumers import WHOLE_TABLE, connect, drain, first_with

NAMES = ("Ana", "Ben", "Cleo")


def three_at_a_table():
    """A started table of three, its people in seat order, who decides, and someone else."""
    table, players = open_table(names=NAMES, seats=3)
    return (table, players, *decider_and_other(table, players))


def decider_and_other(table, players):
    decider = deciding(table, players)
    return decider, next(player for player in players if player != decider)


def a_move(table) -> dict:
    return legal_actions(state_of(table))[0]


def goes_away(table, player) -> None:
    """Their socket closed more than a minute ago: the deadline loop marks them away."""
    presence.arrived(code=table.code, player_key=player.key, channel=f"{player.key}-socket")
    presence.left(channel=f"{player.key}-socket")
    Seat.objects.filter(table=table, player_key=player.key).update(last_seen=timezone.now() - timedelta(seconds=61))
    presence.mark_absent()
    assert Seat.objects.get(table=table, player_key=player.key).away


def comes_back(table, player) -> None:
    assert presence.arrived(code=table.code, player_key=player.key, channel=f"{player.key}-again") is not None


def refused_as_stale(table, player, action, version, game=1) -> None:
    with pytest.raises(ServiceError) as refused:
        services.game_act(code=table.code, player=player, action=action, version=version, game=game)
    assert refused.value.code == "stale" and refused.value.version == game_of(table).version


@pytest.mark.django_db
def test_a_move_made_before_others_went_away_and_came_back_is_applied():
    table, _players, decider, other = three_at_a_table()
    shown, move = game_of(table).version, a_move(table)
    goes_away(table, other)
    comes_back(table, other)
    assert game_of(table).version == shown + 2  # two seat changes, each drawn in order
    applied = services.game_act(code=table.code, player=decider, action=move, version=shown, game=1)
    assert applied["snapshot"]["game"]["version"] == shown + 3
    assert game_of(table).events.filter(kind="action", version=shown + 3, data__action=move).exists()


@pytest.mark.django_db
def test_of_two_identical_moves_across_a_seat_change_exactly_one_is_applied():
    table, _players, decider, other = three_at_a_table()
    shown, move = game_of(table).version, a_move(table)
    goes_away(table, other)
    services.game_act(code=table.code, player=decider, action=move, version=shown, game=1)
    for version in (shown, shown + 1):  # the table it was made on, and the one after the seat change
        refused_as_stale(table, decider, move, version)
    # the person's move once (a bot playing for the one away may follow it, depending on the deal)
    people_moves = [event for event in game_of(table).events.filter(kind="action") if not event.data.get("bot")]
    assert len(people_moves) == 1


@pytest.mark.django_db
@pytest.mark.parametrize("moved_on", ["a move", "a timeout"])
def test_a_move_made_before_the_game_moved_on_is_refused_even_after_a_seat_change(moved_on):
    table, players, decider, _other = three_at_a_table()
    shown, move = game_of(table).version, a_move(table)
    if moved_on == "a move":
        services.game_act(code=table.code, player=decider, action=move, version=shown, game=1)
    else:
        game = game_of(table)
        assert services.game_expire(game_id=game.id, now=game.deadline + timedelta(seconds=1)) is not None
    now_deciding, someone_else = decider_and_other(table, players)
    goes_away(table, someone_else)
    refused_as_stale(table, now_deciding, a_move(table), shown)
    refused_as_stale(table, decider, move, shown)


@pytest.mark.django_db
def test_a_move_that_does_not_name_its_game_must_be_on_the_current_version():
    """Its version alone could be another game's (the versions start anew at a rematch)."""
    table, _players, decider, other = three_at_a_table()
    shown = game_of(table).version
    goes_away(table, other)
    refused_as_stale(table, decider, a_move(table), shown, game=None)
    services.game_act(code=table.code, player=decider, action=a_move(table), version=shown + 1)


@pytest.mark.django_db
def test_a_move_naming_the_game_before_a_rematch_never_lands_in_the_new_one():
    table, (ana, ben) = open_table()
    stack(table, ["12", "13", "1", "2", "3", "4"], target=10)
    for player in (ben, ana):  # two passes end this short game
        services.game_act(code=table.code, player=player, action={"kind": "pass"}, version=game_of(table).version)
    services.game_start(code=table.code, player=ana)
    assert game_of(table).number == 2
    decider, other = decider_and_other(table, [ana, ben])
    goes_away(table, other)
    for version in range(1, game_of(table).version + 1):  # each a version the new game has had
        refused_as_stale(table, decider, a_move(table), version, game=1)


async def shown_until(socket, text: str, seconds: float = 10.0) -> str:
    """What the socket receives until `text` is among it (a busy machine may take more than a
    moment to broadcast), or the test fails after `seconds`."""
    received = ""
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while text not in received:
        left = until - loop.time()
        assert left > 0, f"{text!r} never arrived; received: {received[-300:]!r}"
        received += await socket.receive_from(timeout=left)
    return received


@pytest.mark.django_db(transaction=True)
async def test_the_decider_s_move_lands_while_another_player_comes_back_over_the_socket():
    """The load benchmark's case: everyone was marked away before their sockets opened. The
    decider's screen shows a table, and before their move arrives the others' sockets open and
    bring them back (a version each): the move is applied, not refused as stale."""
    table, _players, decider, other = await database_sync_to_async(three_at_a_table)()
    await database_sync_to_async(Seat.objects.filter(table=table, player_key=other.key).update)(
        joined=timezone.now() - timedelta(seconds=61)
    )
    await database_sync_to_async(presence.mark_absent)()
    socket = await connect(table.code, decider.key)
    shown = await database_sync_to_async(lambda: game_of(table).version)()
    await shown_until(socket, f'data-version="{shown}"')  # its first table (after its arrival is noted)
    move = {**await database_sync_to_async(a_move)(table), "version": shown, "game": 1}
    back = await connect(table.code, other.key)  # the other's socket: back, a version of its own
    await shown_until(socket, f'data-version="{shown + 1}"')
    await socket.send_to(text_data=json.dumps(move))
    answer = await shown_until(socket, f'data-version="{shown + 2}"')
    assert 'class="toast"' not in answer
    for sock in (socket, back):
        await sock.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_screen_that_saw_the_game_move_still_refuses_older_moves_without_the_database(monkeypatch):
    table, _players, decider, _other = await database_sync_to_async(three_at_a_table)()
    socket = await connect(table.code, decider.key)
    await drain(socket, WHOLE_TABLE)
    shown = await database_sync_to_async(lambda: game_of(table).version)()
    move = {**await database_sync_to_async(a_move)(table), "version": shown, "game": 1}
    await socket.send_to(text_data=json.dumps(move))
    await drain(socket, f'data-version="{shown + 1}"')
    calls = []
    real = services.game_act
    monkeypatch.setattr(services, "game_act", lambda **kwargs: calls.append(kwargs) or real(**kwargs))
    await socket.send_to(text_data=json.dumps(move))  # the same move again: a double click
    reply = await first_with(socket, 'class="toast"')
    assert "The table changed before your move arrived." in reply and calls == []
    assert await database_sync_to_async(lambda: game_of(table).version)() == shown + 1
    await socket.disconnect()


@pytest.mark.django_db
def test_a_person_counted_gone_has_their_turn_back_when_their_socket_opens():
    """No socket for GRACE (a full server kept turning them away, say): their decision was made
    due within ABSENT_TURN. Back, it is due by the table's clock again: no timeout takes the
    decision they are about to answer, and their move on the table shown is applied."""
    table, _players, decider, _other = three_at_a_table()
    presence.arrived(code=table.code, player_key=decider.key, channel="first-socket")
    presence.left(channel="first-socket")
    now = timezone.now()
    Seat.objects.filter(table=table, player_key=decider.key).update(last_seen=now - timedelta(seconds=20))
    presence.mark_absent(now)
    hurried = game_of(table)
    assert hurried.deadline <= now + presence.ABSENT_TURN
    shown, move = hurried.version, a_move(table)
    assert presence.arrived(code=table.code, player_key=decider.key, channel="second-socket") is not None
    back = game_of(table)
    assert back.version == shown and back.deadline >= timezone.now() + timedelta(seconds=table.turn_seconds - 5)
    assert services.game_expire(game_id=back.id, now=now + timedelta(seconds=10)) is None  # nothing due
    applied = services.game_act(code=table.code, player=decider, action=move, version=shown, game=1)
    assert applied["snapshot"]["game"]["version"] == shown + 1


@pytest.mark.django_db
def test_a_sweep_that_counted_someone_gone_hurries_nothing_once_their_socket_opened():
    """The sweep read the seats, then the person's socket opened (in another process, say)
    before it locked their table: their decision is not hurried after all."""
    table, _players, decider, _other = three_at_a_table()
    presence.arrived(code=table.code, player_key=decider.key, channel="first-socket")
    presence.left(channel="first-socket")
    swept = timezone.now()
    Seat.objects.filter(table=table, player_key=decider.key).update(last_seen=swept - timedelta(seconds=20))
    seat = Seat.objects.get(table=table, player_key=decider.key)  # what the sweep read: gone
    presence.arrived(code=table.code, player_key=decider.key, channel="second-socket")
    due = game_of(table).deadline
    assert hurry(table_id=table.id, seat_index=seat.index, now=swept) is None
    assert game_of(table).deadline == due


@pytest.mark.django_db
def test_a_person_on_time_keeps_the_clock_they_had_when_a_second_socket_opens():
    """Only someone counted gone has their clock set again: a person who opens another tab
    while deciding does not win a fresh turn clock by it."""
    table, _players, decider, _other = three_at_a_table()
    presence.arrived(code=table.code, player_key=decider.key, channel="first-socket")
    due = game_of(table).deadline
    presence.arrived(code=table.code, player_key=decider.key, channel="second-tab")
    assert game_of(table).deadline == due


@pytest.mark.django_db(transaction=True)
async def test_a_person_back_from_away_is_shown_a_decision_no_bot_takes_from_them(monkeypatch):
    """Everyone at the table was away (nobody got in: a full server turning them all away), the
    game paused on the decider's turn. The decider's socket opens, and as their table is being
    read another person's opens too: bots play for whoever is still away. The decider is back
    before their table is read, so the decision they are shown stays theirs and their move on
    it is applied (they were shown it as away before, a bot took it, and the move was refused
    as stale)."""
    from game.live import consumers

    table, players, decider, other = await database_sync_to_async(three_at_a_table)()
    third = next(player for player in players if player not in (decider, other))
    for person in (other, third, decider):  # the decider last: nobody left to play for, it waits
        await database_sync_to_async(goes_away)(table, person)
    paused = await database_sync_to_async(game_of)(table)
    assert paused.deadline > timezone.now() + ABANDONED_AFTER - timedelta(minutes=1)  # waits for them (#39)
    move = await database_sync_to_async(a_move)(table)
    read_table = consumers._read_table

    @database_sync_to_async
    def read_as_another_comes_back(code):
        read = read_table.func(code)
        presence.arrived(code=code, player_key=other.key, channel="other-socket")
        return read

    monkeypatch.setattr(consumers, "_read_table", read_as_another_comes_back)
    socket = await connect(table.code, decider.key)
    first = await socket.receive_from(timeout=10)
    shown = int(re.search(r'id="table-meta"[^>]*data-version="(\d+)"', first).group(1))
    await socket.send_to(text_data=json.dumps({**move, "version": shown, "game": 1}))
    await socket.send_to(text_data="not json")  # answered in turn: a refusal of the move came before
    answer = "".join((await drain(socket, "That move was not understood."))[:-1])
    assert 'class="toast"' not in answer, answer[-400:]
    moves = await database_sync_to_async(
        lambda: list(game_of(table).events.filter(kind="action", data__seat=decider_seat(table, decider)))
    )()
    assert [event.data.get("bot", False) for event in moves] == [False]  # the decider's own, once
    await socket.disconnect()


def decider_seat(table, person) -> int:
    return Seat.objects.get(table=table, player_key=person.key).index
