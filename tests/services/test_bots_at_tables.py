"""Bots in tables: seated by the host, moving through the same services as people, taking over
for people who are away, and stopping when nobody but bots is left."""

from __future__ import annotations

from contextlib import nullcontext
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from game import screen as render
from game import services
from game.live import timers
from game.models import Presence, Seat, Table
from game.services import presence, table_reads
from game.services.play import ABANDONED_AFTER, ABSENT_TURN
from tests.factories import act, game_of, open_table, people, state_of

pytestmark = pytest.mark.django_db


def bot_table(
    levels=("easy", "medium", "hard"), bot_delay_ms: int = 0, seed: int | None = None
) -> tuple[Table, object]:
    """Ana and bots of these levels, started; `seed` starts the game from that seed (every deal
    and every bot's choice known) instead of a random one."""
    ana = people("Ana")[0]
    table = services.table_create(player=ana, nickname="Ana", seat_count=len(levels) + 1, turn_seconds=0)
    Table.objects.filter(id=table.id).update(bot_delay_ms=bot_delay_ms)
    for level in levels:
        services.bot_add(code=table.code, player=ana, level=level)
    with (
        # the engine's seed, as the fair deal would derive it (game.fair.seeds)
        mock.patch("game.fair.seeds.engine_seed", return_value=seed) if seed is not None else nullcontext()
    ):
        services.game_start(code=table.code, player=ana)
    table.refresh_from_db()
    return table, ana


def test_host_seats_bots_with_clear_names_and_levels():
    table, _ = open_table(names=("Ana",), start=False)
    ana = people("Ana")[0]
    services.bot_add(code=table.code, player=ana, level="hard")
    services.bot_add(code=table.code, player=ana, level="easy", index=3)
    seats = {s.index: s for s in table.seats.all()}
    assert seats[1].nickname == "Bot Ada" and seats[1].bot_level == "hard"
    assert seats[3].nickname == "Bot Alan" and seats[3].bot_level == "easy"
    with pytest.raises(services.ServiceError):
        services.bot_add(code=table.code, player=ana, level="genius")
    html = render.render_table(table_reads.snapshot(table), ana.key)
    assert "Bot Ada" in html and "badge--bot" in html and "hard" in html


def test_only_the_host_adds_bots():
    table, (_ana, ben) = open_table(start=False)
    with pytest.raises(services.ServiceError) as error:
        services.bot_add(code=table.code, player=ben, level="easy")
    assert error.value.code == "not_host"


# The game the test below plays, to its end in 136 bot moves. On a random seed the count is the
# deals' and the bots' draws: 52 to 192 over 4,400 seeds, seed 5244 only two above the 50 the
# test asks for.
WHOLE_GAME_SEED = 1000


def test_one_person_and_three_bots_play_to_game_over_through_the_services():
    table, ana = bot_table(seed=WHOLE_GAME_SEED)
    for _ in range(3000):
        game = game_of(table)
        if game.over:
            break
        state = state_of(table)
        assert state["pending"]["seat"] == 0, "with no pause, bots move at once until the person decides"
        action = (
            {"kind": "pass"}
            if state["pending"]["kind"] == "turn" and len(state["seats"][0]["row"]) > 2
            else services_default(state)
        )
        services.game_act(code=table.code, player=ana, action=action, version=game.version)
    game = game_of(table)
    assert game.over
    bot_moves = game.events.filter(kind="action", data__bot=True).count()
    assert bot_moves > 50


def services_default(state: dict) -> dict:
    from game.games.sevn.engine.decisions import default_action

    if state["pending"]["kind"] == "turn":
        return {"kind": "draw"}
    return default_action(state)


def test_bots_wait_their_pause_then_the_timer_moves_them():
    before = timezone.now()
    table, ana = bot_table(levels=("medium",), bot_delay_ms=800)
    game = game_of(table)
    for _ in range(10):  # make it the bot's turn first (a dealt action card may ask Ana again)
        state = state_of(table)
        if state["pending"]["seat"] == 1:
            break
        before = timezone.now()
        act(table, ana, {"kind": "pass"} if state["pending"]["kind"] == "turn" else services_default(state))
        game = game_of(table)
    assert state_of(table)["pending"]["seat"] == 1
    # due the bot's pause after the move that made it the bot's turn (however slow this machine is)
    assert before + timedelta(milliseconds=800) <= game.deadline <= timezone.now() + timedelta(milliseconds=800)
    assert timers.fire_due(now=timezone.now(), check_absent=False) == []  # not yet
    messages = timers.fire_due(now=game.deadline + timedelta(milliseconds=1), check_absent=False)
    assert messages and game_of(table).version > game.version


def test_a_player_gone_for_a_minute_is_taken_over_and_comes_back():
    # a known deal: Ben (left of the dealer) decides first; a random one may deal an action
    # card that makes Ana decide, and then Ben has nothing to be hurried for
    table, (ana, ben) = open_table(names=("Ana", "Ben"), turn_seconds=0, deck=["5", "9", "4", "1", "2", "3", "6", "7"])
    presence.arrived(code=table.code, player_key=ana.key, channel="ana-socket")
    presence.arrived(code=table.code, player_key=ben.key, channel="ben-socket")
    presence.left(channel="ben-socket")
    Seat.objects.filter(table=table, nickname="Ben").update(last_seen=timezone.now() - timedelta(seconds=5))
    assert presence.mark_absent() == []  # not gone for the grace period yet
    Seat.objects.filter(table=table, nickname="Ben").update(last_seen=timezone.now() - timedelta(seconds=30))
    hurried = presence.mark_absent()  # not a minute yet: not away, but his decision is due soon
    assert len(hurried) == 1 and not table.seats.get(nickname="Ben").away
    assert game_of(table).deadline - timezone.now() <= ABSENT_TURN
    assert presence.mark_absent() == []  # hurried once
    Seat.objects.filter(table=table, nickname="Ben").update(last_seen=timezone.now() - timedelta(seconds=61))
    messages = presence.mark_absent()
    ben_seat = table.seats.get(nickname="Ben")
    assert ben_seat.away and len(messages) == 1
    assert any(e["type"] == "away" for e in messages[0]["events"])
    html = render.render_table(messages[0]["snapshot"], ana.key)
    assert "badge--away" in html
    # Ana is still here, so the game goes on: with no pause, Ben's bot has already moved
    assert state_of(table)["pending"]["seat"] == 0 or game_of(table).over
    assert table.seats.get(nickname="Ana").away is False and Presence.objects.filter(player_key=ana.key).exists()
    # Ben comes back: his seat, score and turn are his again
    back = presence.arrived(code=table.code, player_key=ben.key, channel="ben-socket-2")
    assert back is not None and any(e["type"] == "back" for e in back["events"])
    assert not table.seats.get(nickname="Ben").away


def test_a_game_with_only_bots_left_stops_and_resumes_when_a_person_returns():
    table, ana = bot_table(levels=("easy",), bot_delay_ms=500)
    presence.arrived(code=table.code, player_key=ana.key, channel="ana")
    presence.left(channel="ana")
    presence.mark_absent(timezone.now() + timedelta(seconds=61))
    game = game_of(table)
    # nobody watching: stopped, waiting ABANDONED_AFTER for them (#39: then the bots finish it)
    assert table.seats.get(index=0).away and game.deadline > timezone.now() + ABANDONED_AFTER - timedelta(minutes=1)
    version = game.version
    assert timers.fire_due(now=game.deadline - timedelta(seconds=1), check_absent=False) == []
    assert game_of(table).version == version
    html = render.render_table(table_reads.snapshot(table), ana.key)
    assert "the game waits a few minutes for a player to come back, then the bots finish it" in html
    presence.arrived(code=table.code, player_key=ana.key, channel="ana-again")
    assert not table.seats.get(index=0).away
    game = game_of(table)
    assert game.deadline is not None or state_of(table)["pending"]["seat"] == 0


def test_the_deciding_player_sees_their_bust_chance():
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2"])
    html = render.render_table(table_reads.snapshot(table), ben.key)
    assert "Bust chance:" in html
    Table.objects.filter(id=table.id).update(options={"target": 250, "show_odds": False})
    table.refresh_from_db()
    assert "Bust chance:" not in render.render_table(table_reads.snapshot(table), ben.key)


def test_crossroads_marks_the_card_that_would_bust():
    table, (ana, ben) = open_table(deck=["5", "9", "crossroads", "5", "7", "1"])
    act(table, ben, {"kind": "draw"})
    html = render.render_table(table_reads.snapshot(table), ben.key)
    assert html.count("button--danger") == 1 and "would bust you" in html


def test_game_over_shows_the_last_round_as_it_ended():
    table, (ana, ben) = open_table(deck=["12", "13", "1", "2"])
    from tests.factories import stack

    stack(table, ["12", "13", "1", "2"], target=10)
    act(table, ben, {"kind": "pass"})
    act(table, ana, {"kind": "pass"})
    html = render.render_table(table_reads.snapshot(table), ana.key)
    assert "Ana wins!" in html and 'aria-label="13"' in html and 'aria-label="12"' in html


def test_a_crowd_gone_at_once_is_marked_away_over_a_few_sweeps(monkeypatch):
    """A sweep takes up at most SWEEP_LIMIT seats (each a transaction that locks a table, on the
    one thread that runs every database call of a process): five people gone at once, two a
    sweep, are all away after three sweeps, and no sweep holds that thread for all of them."""
    monkeypatch.setattr(presence, "SWEEP_LIMIT", 2)
    tables = [open_table(names=(f"Ana{i}", f"Ben{i}"), turn_seconds=0)[0] for i in range(5)]
    long_ago = timezone.now() - timedelta(seconds=61)
    Seat.objects.filter(table__in=tables, nickname__startswith="Ben").update(last_seen=long_ago)
    away = []
    for _sweep in range(3):
        presence.mark_absent()
        away.append(Seat.objects.filter(table__in=tables, away=True).count())
    assert away == [2, 4, 5]
    assert not Seat.objects.filter(table__in=tables, nickname__startswith="Ana", away=True).exists()
