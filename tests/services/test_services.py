"""The service layer: lobby rules, moves under the version check, logging, game over."""

from __future__ import annotations

import random

import pytest

from game import services
from game.core.errors import ServiceError
from game.core.identity import Player
from game.games.sevn.engine import legal_actions
from game.models import Event, Table
from tests.factories import act, deciding, game_of, open_table, people, stack, state_of

pytestmark = pytest.mark.django_db


def refused(error_code: str, call, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        call(**kwargs)
    assert error.value.code == error_code
    return error.value


# Lobby


def test_create_seats_the_host_first():
    table, (ana, _ben) = open_table(start=False)
    assert table.host_key == ana.key and table.status == Table.Status.LOBBY
    assert [(s.index, s.nickname) for s in table.seats.order_by("index")] == [(0, "Ana"), (1, "Ben")]
    assert len(table.code) == 6


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"seat_count": 1}, "bad_seats"),
        ({"seat_count": 9}, "bad_seats"),
        ({"seat_count": "x"}, "bad_seats"),
        ({"options": {"target": 10}}, "bad_target"),
        ({"turn_seconds": 45}, "bad_timer"),
        ({"nickname": ""}, "bad_nickname"),
        ({"nickname": "x" * 21}, "bad_nickname"),
        ({"nickname": "   "}, "bad_nickname"),
    ],
)
def test_create_refuses_bad_settings(kwargs, code):
    args = {"player": people("Ana")[0], "nickname": "Ana", "seat_count": 4, **kwargs}
    refused(code, services.table_create, **args)
    assert Table.objects.count() == 0


def test_nickname_is_unique_in_the_table_ignoring_case():
    table, _ = open_table(start=False)
    refused("nickname_taken", services.seat_take, code=table.code, player=people("Cleo")[0], nickname="ana")


def test_nickname_whitespace_is_tidied():
    table, _ = open_table(start=False)
    services.seat_take(code=table.code, player=people("Cleo")[0], nickname="  Cleo   the\tgreat ")
    assert table.seats.get(index=2).nickname == "Cleo the great"


def test_full_table_refuses_another_player():
    table, _ = open_table(names=("Ana", "Ben"), seats=2, start=False)
    error = refused("table_full", services.seat_take, code=table.code, player=people("Cleo")[0], nickname="Cleo")
    assert str(error.message) == "This table is full. You can watch the game."


def test_unknown_code_is_refused():
    refused("unknown_table", services.seat_take, code="NOPE00", player=people("Cleo")[0], nickname="Cleo")


def test_a_seat_cannot_be_taken_twice():
    table, (ana, _) = open_table(start=False)
    refused("already_seated", services.seat_take, code=table.code, player=ana, nickname="Another")


def test_taking_a_named_seat_and_leaving_before_the_start():
    table, _ = open_table(start=False)
    cleo = people("Cleo")[0]
    services.seat_take(code=table.code, player=cleo, nickname="Cleo", index=3)
    refused("seat_taken", services.seat_take, code=table.code, player=people("Dan")[0], nickname="Dan", index=3)
    services.seat_leave(code=table.code, player=cleo)
    assert not table.seats.filter(nickname="Cleo").exists()


def test_only_the_host_removes_players_and_starts():
    table, (ana, ben) = open_table(start=False)
    refused("not_host", services.seat_remove, code=table.code, player=ben, index=0)
    refused("not_host", services.game_start, code=table.code, player=ben)
    services.seat_remove(code=table.code, player=ana, index=1)
    assert list(table.seats.values_list("nickname", flat=True)) == ["Ana"]


def test_start_needs_two_seated_players():
    table, (ana,) = open_table(names=("Ana",), start=False)
    refused("too_few", services.game_start, code=table.code, player=ana)


def test_after_the_start_nobody_can_join_or_leave():
    table, (ana, _) = open_table()
    refused("started", services.seat_take, code=table.code, player=people("Cleo")[0], nickname="Cleo")
    refused("started", services.seat_leave, code=table.code, player=ana)


def test_start_closes_gaps_between_seats():
    table, (ana, _) = open_table(start=False)
    services.seat_take(code=table.code, player=people("Cleo")[0], nickname="Cleo", index=3)
    services.game_start(code=table.code, player=ana)
    assert [(s.index, s.nickname) for s in table.seats.order_by("index")] == [(0, "Ana"), (1, "Ben"), (2, "Cleo")]
    assert game_of(table).players == ["Ana", "Ben", "Cleo"]


def test_start_logs_the_first_deal():
    table, _ = open_table()
    kinds = list(game_of(table).events.order_by("seq").values_list("kind", flat=True))
    assert kinds[:2] == ["game_started", "round_started"] and "dealt" in kinds


# Moves


def test_a_move_saves_state_version_and_events_before_returning_its_update():
    table, players = open_table(deck=["5", "9", "4", "1"])
    game = game_of(table)
    message = services.game_act(code=table.code, player=players[1], action={"kind": "draw"}, version=game.version)
    game.refresh_from_db()
    assert game.version == 2 and message["snapshot"]["game"]["version"] == 2
    assert [e["type"] for e in message["events"]] == ["drawn", "joined"]
    assert list(Event.objects.filter(game=game, version=2).values_list("kind", flat=True)) == [
        "action",
        "drawn",
        "joined",
    ]
    assert state_of(table)["seats"][1]["row"] == ["5", "4"]


def test_move_out_of_turn_changes_nothing():
    table, players = open_table()
    game, before = game_of(table), game_of(table).state
    idle = players[1 - state_of(table)["pending"]["seat"]]
    error = refused(
        "not_your_turn", services.game_act, code=table.code, player=idle, action={"kind": "pass"}, version=1
    )
    assert str(error.message) == "It is not your turn."
    game.refresh_from_db()
    assert game.state == before and game.version == 1


def test_spectators_cannot_move():
    table, _ = open_table()
    refused(
        "spectator",
        services.game_act,
        code=table.code,
        player=Player(key="guest:watcher"),
        action={"kind": "draw"},
        version=1,
    )


def test_stale_version_is_refused():
    table, players = open_table()
    refused(
        "stale", services.game_act, code=table.code, player=deciding(table, players), action={"kind": "pass"}, version=0
    )
    assert game_of(table).version == 1


@pytest.mark.parametrize("action", [{"kind": "fly"}, {"kind": "freeze", "seat": 9}, "draw", None])
def test_illegal_moves_change_nothing(action):
    table, players = open_table()
    before = game_of(table).state
    with pytest.raises(ServiceError):
        act(table, deciding(table, players), action)
    assert game_of(table).state == before


def test_double_click_applies_once():
    table, players = open_table(deck=["5", "9", "4", "1", "2"])
    player = deciding(table, players)
    services.game_act(code=table.code, player=player, action={"kind": "draw"}, version=1)
    refused("stale", services.game_act, code=table.code, player=player, action={"kind": "draw"}, version=1)
    assert game_of(table).version == 2


def test_closed_table_refuses_moves():
    table, players = open_table()
    services.table_close(code=table.code, reason="spam")
    error = refused("closed", services.game_act, code=table.code, player=players[0], action={"kind": "pass"}, version=1)
    assert str(error.message) == "This table was closed by staff."


def test_state_survives_a_restart_and_play_continues():
    """Nothing lives in process memory: a fresh read of the database is the whole game."""
    table, players = open_table(deck=["5", "9", "4", "1", "2", "3"])
    act(table, players[1], {"kind": "draw"})
    saved = game_of(Table.objects.get(code=table.code)).state
    act(table, players[0], {"kind": "draw"})
    assert state_of(table)["seats"][0]["row"] == ["9", "1"] and saved != game_of(table).state


def test_a_whole_game_to_game_over_through_the_services():
    table, players = open_table(names=("Ana", "Ben", "Cleo"))
    rng = random.Random(5)
    for _ in range(5000):
        game = game_of(table)
        if game.over:
            break
        state = state_of(table)
        seat = state["pending"]["seat"]
        actions = legal_actions(state)
        keep_going = [a for a in actions if a["kind"] != "pass"] if len(state["seats"][seat]["row"]) < 3 else []
        action = rng.choice(keep_going or actions)
        services.game_act(code=table.code, player=players[seat], action=action, version=game.version)
    game = game_of(table)
    table.refresh_from_db()
    assert game.over and table.status == Table.Status.FINISHED
    assert game.events.filter(kind="game_over").count() == 1
    assert max(s["total"] for s in state_of(table)["seats"]) >= 250


def test_rematch_starts_a_new_game_with_the_same_seats():
    table, players = open_table()
    stack(table, ["12", "13", "1", "2", "3", "4"], target=10)
    act(table, players[1], {"kind": "pass"})
    act(table, players[0], {"kind": "pass"})
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    refused("not_host", services.game_start, code=table.code, player=players[1])
    services.game_start(code=table.code, player=players[0])
    assert table.games.count() == 2 and game_of(table).number == 2 and game_of(table).players == ["Ana", "Ben"]


def test_a_move_made_on_another_game_is_refused_even_when_its_version_matches():
    """After a rematch the versions start anew: a screen still showing the old game sends its
    number with the move, and nothing lands in the new game."""
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    version = game_of(table).version
    with pytest.raises(ServiceError) as refused:
        services.game_act(code=table.code, player=ben, action={"kind": "draw"}, version=version, game=2)
    assert refused.value.code == "stale" and game_of(table).version == version
    applied = services.game_act(code=table.code, player=ben, action={"kind": "draw"}, version=version, game=1)
    assert applied["snapshot"]["game"]["version"] == version + 1
