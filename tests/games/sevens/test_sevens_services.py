"""A Sevens table through its services and its socket: moves out of turn, cards not in your
hand, cards that do not fit and stale versions are each refused with a clear sentence and
change nothing; bots and timeouts play on; rematch and staff work as for SEVN."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone, translation

from game import registry, services
from game import screen as render
from game.core.errors import ServiceError
from game.drawkit import log
from game.games.sevens.engine import playable
from game.live import timers
from game.models import Seat, Table
from game.services import presence, table_reads
from game.services.play import ABSENT_TURN
from tests.games.sevens.tables import game_of, play, sevens_table, state_of
from tests.live.test_consumers import WHOLE_TABLE, connect, drain, last_word


async def first_with(socket, *texts: str, timeout: float = 10) -> str:
    """The first message on `socket` that holds all of `texts`, waited for."""
    while True:
        message = await socket.receive_from(timeout=timeout)
        if all(text in message for text in texts):
            return message


pytestmark = pytest.mark.django_db


def seat_of(players, state):
    return players[state["current"]]


def unchanged(table, before_state, before_version):
    game = game_of(table)
    return game.version == before_version and state_of(table) == before_state


def refused(table, player, card, version=None) -> ServiceError:
    before, version_before = state_of(table), game_of(table).version
    with pytest.raises(ServiceError) as caught:
        play(table, player, card, version)
    assert unchanged(table, before, version_before)
    return caught.value


def test_a_sevens_table_takes_three_to_seven_seats_and_one_to_ten_rounds():
    for seats, rounds in ((2, 3), (8, 3), (4, 0), (4, 11)):
        with pytest.raises(ServiceError) as caught:
            sevens_table(names=("Ana",), seats=seats, rounds=rounds, start=False)
        assert caught.value.code in ("bad_seats", "bad_rounds")
    table, _players = sevens_table(names=("Ana",), seats=7, rounds=10, start=False)
    assert (table.kind, table.seat_count, table.options["rounds"]) == ("sevens", 7, 10)


def test_seven_seats_need_two_people_at_least_five_bots_at_most():
    table, (ana,) = sevens_table(names=("Ana",), seats=7, start=False)
    for _ in range(5):
        services.bot_add(code=table.code, player=ana, level="easy")
    with pytest.raises(ServiceError) as caught:
        services.bot_add(code=table.code, player=ana, level="easy")
    assert caught.value.code == "too_many_bots" and "five" in str(caught.value.message)


def test_a_game_needs_three_seated_players():
    table, (ana, ben) = sevens_table(names=("Ana", "Ben"), seats=4, start=False)
    with pytest.raises(ServiceError) as caught:
        services.game_start(code=table.code, player=ana)
    assert caught.value.code == "too_few" and "three" in str(caught.value.message)


def test_a_move_out_of_turn_is_refused_and_changes_nothing():
    table, players = sevens_table()
    state = state_of(table)
    waiting = players[(state["current"] + 1) % 3]
    card = playable(state["seats"][state["current"]]["hand"], state["layout"])[0]
    error = refused(table, waiting, card)
    assert error.code == "not_your_turn" and str(error.message) == "It is not your turn."


def test_a_card_not_in_your_hand_is_refused_by_name():
    table, players = sevens_table()
    state = state_of(table)
    other = state["seats"][(state["current"] + 1) % 3]["hand"][0]
    error = refused(table, seat_of(players, state), other)
    assert error.code == "not_in_hand"
    assert other[-1] in "SHDC" and str(error.message).startswith("The ") and "is not in your hand" in str(error.message)
    with translation.override("de"):
        assert (
            "♠" in str(error.message)
            or "♥" in str(error.message)
            or "♦" in str(error.message)
            or "♣" in str(error.message)
        )


def test_a_card_that_does_not_fit_is_refused():
    table, players = sevens_table()
    state = state_of(table)
    hand = state["seats"][state["current"]]["hand"]
    misfit = next(card for card in hand if card not in playable(hand, state["layout"]))
    error = refused(table, seat_of(players, state), misfit)
    assert error.code == "does_not_fit" and "does not fit" in str(error.message)


def test_a_stale_version_is_refused_with_the_current_one():
    table, players = sevens_table()
    state = state_of(table)
    card = playable(state["seats"][state["current"]]["hand"], state["layout"])[0]
    error = refused(table, seat_of(players, state), card, version=game_of(table).version - 1)
    assert error.code == "stale" and error.version == game_of(table).version


def test_a_pass_or_a_malformed_play_is_refused():
    table, players = sevens_table()
    player = seat_of(players, state_of(table))
    for action in ({"kind": "pass"}, {"kind": "play"}, {"kind": "play", "card": "ZZ"}, {"kind": "draw"}, "x"):
        before, version = state_of(table), game_of(table).version
        with pytest.raises(ServiceError):
            services.game_act(code=table.code, player=player, action=action, version=version)
        assert unchanged(table, before, version)


def test_a_legal_play_moves_the_turn_on_and_bots_answer_at_once():
    table, players = sevens_table(names=("Ana", "Ben"), bots=("medium",))
    state = state_of(table)
    player = seat_of(players, state)
    card = playable(state["seats"][state["current"]]["hand"], state["layout"])[0]
    message = play(table, player, card)
    after = state_of(table)
    assert card not in after["seats"][players.index(player)]["hand"]
    assert after["current"] != 2  # the bot never keeps the turn: it played at once
    assert any(event["type"] == "played" and event["card"] == card for event in message["events"])


def test_the_clock_plays_a_card_that_fits_for_whoever_runs_out_of_time():
    table, players = sevens_table(turn_seconds=15)
    state = state_of(table)
    seat = state["current"]
    fits = playable(state["seats"][seat]["hand"], state["layout"])
    messages = timers.fire_due(now=timezone.now() + timezone.timedelta(seconds=16), check_absent=False)
    after = state_of(table)
    played = [e for m in messages for e in m["events"] if e["type"] == "played" and e["seat"] == seat]
    assert played and played[0]["card"] in fits
    assert any(e["type"] == "timeout" and e["seat"] == seat for m in messages for e in m["events"])
    with translation.override("en"):
        events = [e for m in messages for e in m["events"]]
        lines = log.lines(events, ["Ana", "Ben", "Cleo"], registry.KINDS["sevens"].log_line)
    assert any(line["text"].startswith("Time is up for") for line in lines)
    assert len(after["seats"][seat]["hand"]) < len(state["seats"][seat]["hand"])


def test_a_whole_game_with_bots_ends_lowest_total_first_and_a_rematch_deals_again():
    table, (ana,) = sevens_table(names=("Ana",), bots=("easy", "medium", "hard"), rounds=2)
    for _ in range(200):
        state = state_of(table)
        if state["over"]:
            break
        play(table, ana, playable(state["seats"][0]["hand"], state["layout"])[0])
    table.refresh_from_db()
    state = state_of(table)
    assert state["over"] and table.status == Table.Status.FINISHED and len(state["history"]) == 2
    lowest = min(seat["total"] for seat in state["seats"])
    assert state["winners"] == [i for i, seat in enumerate(state["seats"]) if seat["total"] == lowest]
    services.game_start(code=table.code, player=ana)
    assert game_of(table).number == 2 and not state_of(table)["over"]


def test_staff_remove_a_player_and_a_bot_plays_their_seat():
    table, (ana, ben, cleo) = sevens_table()
    services.seat_remove_by_staff(seat_id=table.seats.get(index=1).id)
    table.refresh_from_db()
    assert table.seats.get(index=1).is_bot or table.seats.get(index=1).away
    snapshot = table_reads.snapshot(table)
    assert snapshot["game"]["seat_views"][1]["hand"] is not None


@pytest.mark.django_db(transaction=True)
async def test_the_socket_refuses_a_card_that_does_not_fit_to_the_sender_only():
    table, players = await database_sync_to_async(sevens_table)()
    state = await database_sync_to_async(state_of)(table)
    mover = players[state["current"]]
    other = players[(state["current"] + 1) % 3]
    hand = state["seats"][state["current"]]["hand"]
    misfit = next(card for card in hand if card not in playable(hand, state["layout"]))
    version = (await database_sync_to_async(game_of)(table)).version
    mover_socket, other_socket = await connect(table.code, mover.key), await connect(table.code, other.key)
    await drain(mover_socket, WHOLE_TABLE)
    await drain(other_socket, WHOLE_TABLE)
    await mover_socket.send_to(text_data=json.dumps({"kind": "play", "card": misfit, "version": version}))
    await first_with(mover_socket, "does not fit", "toast")
    # the other screen hears no refusal before a line said after it (a frame of its own opening
    # may still come in late)
    heard = await drain(other_socket, await last_word(table.code, other))
    assert not any("toast" in message and "does not fit" in message for message in heard)
    await mover_socket.send_to(text_data=json.dumps({"kind": "play", "card": {"x": 1}, "version": version}))
    await first_with(mover_socket, "not understood")
    fits = playable(hand, state["layout"])[0]
    await mover_socket.send_to(text_data=json.dumps({"kind": "play", "card": fits, "version": str(version)}))
    await first_with(other_socket, f'data-code="{fits}"')
    for socket in (mover_socket, other_socket):
        await socket.disconnect()


def test_a_player_gone_for_a_minute_is_played_for_by_a_bot_until_they_come_back():
    table, players = sevens_table(turn_seconds=0)
    state = state_of(table)
    gone = players[state["current"]]  # the one whose turn it is goes away
    name = ("Ana", "Ben", "Cleo")[state["current"]]
    for player in players:
        presence.arrived(code=table.code, player_key=player.key, channel=f"{player.key}-socket")
    presence.left(channel=f"{gone.key}-socket")
    Seat.objects.filter(table=table, nickname=name).update(last_seen=timezone.now() - timedelta(seconds=30))
    hurried = presence.mark_absent()
    assert len(hurried) == 1 and game_of(table).deadline - timezone.now() <= ABSENT_TURN
    Seat.objects.filter(table=table, nickname=name).update(last_seen=timezone.now() - timedelta(seconds=61))
    messages = presence.mark_absent()
    assert table.seats.get(nickname=name).away and any(e["type"] == "away" for e in messages[0]["events"])
    assert state_of(table)["current"] != players.index(gone)  # the bot played the seat's card at once
    assert "badge--away" in render.render_table(messages[0]["snapshot"], players[0].key)
    back = presence.arrived(code=table.code, player_key=gone.key, channel=f"{gone.key}-socket-2")
    assert back is not None and not table.seats.get(nickname=name).away


def test_staff_close_a_sevens_table_and_every_screen_says_so():
    table, (ana, ben, cleo) = sevens_table()
    message = services.table_close(code=table.code, reason="Spam")
    html = render.render_table(message["snapshot"], ben.key)
    assert "closed by staff" in html and "Spam" in html and "sevens-layout" not in html
