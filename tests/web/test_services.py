"""The service layer: lobby rules, moves under the version check, logging, game over."""

from __future__ import annotations

import random

import pytest

from game import services
from game.engine import legal_actions
from game.errors import ServiceError
from game.identity import Player
from game.models import Event, Room

from .factories import act, deciding, game_of, people, stack, state_of, table

pytestmark = pytest.mark.django_db


def refused(error_code: str, call, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        call(**kwargs)
    assert error.value.code == error_code
    return error.value


# Lobby


def test_create_seats_the_host_first():
    room, (ana, _ben) = table(start=False)
    assert room.host_key == ana.key and room.status == Room.Status.LOBBY
    assert [(s.index, s.nickname) for s in room.seats.order_by("index")] == [(0, "Ana"), (1, "Ben")]
    assert len(room.code) == 6


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"seat_count": 1}, "bad_seats"),
        ({"seat_count": 9}, "bad_seats"),
        ({"seat_count": "x"}, "bad_seats"),
        ({"target": 10}, "bad_target"),
        ({"turn_seconds": 45}, "bad_timer"),
        ({"nickname": ""}, "bad_nickname"),
        ({"nickname": "x" * 21}, "bad_nickname"),
        ({"nickname": "   "}, "bad_nickname"),
    ],
)
def test_create_refuses_bad_settings(kwargs, code):
    args = {"player": people("Ana")[0], "nickname": "Ana", "seat_count": 4, **kwargs}
    refused(code, services.room_create, **args)
    assert Room.objects.count() == 0


def test_nickname_is_unique_in_the_room_ignoring_case():
    room, _ = table(start=False)
    refused("nickname_taken", services.seat_take, code=room.code, player=people("Cleo")[0], nickname="ana")


def test_nickname_whitespace_is_tidied():
    room, _ = table(start=False)
    services.seat_take(code=room.code, player=people("Cleo")[0], nickname="  Cleo   the\tgreat ")
    assert room.seats.get(index=2).nickname == "Cleo the great"


def test_full_room_refuses_another_player():
    room, _ = table(names=("Ana", "Ben"), seats=2, start=False)
    error = refused("room_full", services.seat_take, code=room.code, player=people("Cleo")[0], nickname="Cleo")
    assert str(error.message) == "This table is full. You can watch the game."


def test_unknown_code_is_refused():
    refused("unknown_room", services.seat_take, code="NOPE00", player=people("Cleo")[0], nickname="Cleo")


def test_a_seat_cannot_be_taken_twice():
    room, (ana, _) = table(start=False)
    refused("already_seated", services.seat_take, code=room.code, player=ana, nickname="Another")


def test_taking_a_named_seat_and_leaving_before_the_start():
    room, _ = table(start=False)
    cleo = people("Cleo")[0]
    services.seat_take(code=room.code, player=cleo, nickname="Cleo", index=3)
    refused("seat_taken", services.seat_take, code=room.code, player=people("Dan")[0], nickname="Dan", index=3)
    services.seat_leave(code=room.code, player=cleo)
    assert not room.seats.filter(nickname="Cleo").exists()


def test_only_the_host_removes_players_and_starts():
    room, (ana, ben) = table(start=False)
    refused("not_host", services.seat_remove, code=room.code, player=ben, index=0)
    refused("not_host", services.game_start, code=room.code, player=ben)
    services.seat_remove(code=room.code, player=ana, index=1)
    assert list(room.seats.values_list("nickname", flat=True)) == ["Ana"]


def test_start_needs_two_seated_players():
    room, (ana,) = table(names=("Ana",), start=False)
    refused("too_few", services.game_start, code=room.code, player=ana)


def test_after_the_start_nobody_can_join_or_leave():
    room, (ana, _) = table()
    refused("started", services.seat_take, code=room.code, player=people("Cleo")[0], nickname="Cleo")
    refused("started", services.seat_leave, code=room.code, player=ana)


def test_start_closes_gaps_between_seats():
    room, (ana, _) = table(start=False)
    services.seat_take(code=room.code, player=people("Cleo")[0], nickname="Cleo", index=3)
    services.game_start(code=room.code, player=ana)
    assert [(s.index, s.nickname) for s in room.seats.order_by("index")] == [(0, "Ana"), (1, "Ben"), (2, "Cleo")]
    assert game_of(room).players == ["Ana", "Ben", "Cleo"]


def test_start_logs_the_first_deal():
    room, _ = table()
    kinds = list(game_of(room).events.order_by("seq").values_list("kind", flat=True))
    assert kinds[:2] == ["game_started", "round_started"] and "dealt" in kinds


# Moves


def test_a_move_saves_state_version_and_events_before_returning_the_broadcast():
    room, players = table(deck=["5", "9", "4", "1"])
    game = game_of(room)
    message = services.game_act(code=room.code, player=players[1], action={"kind": "draw"}, version=game.version)
    game.refresh_from_db()
    assert game.version == 2 and message["snapshot"]["game"]["version"] == 2
    assert [e["type"] for e in message["events"]] == ["drawn", "joined"]
    assert list(Event.objects.filter(game=game, version=2).values_list("kind", flat=True)) == [
        "action",
        "drawn",
        "joined",
    ]
    assert state_of(room)["seats"][1]["row"] == ["5", "4"]


def test_move_out_of_turn_changes_nothing():
    room, players = table()
    game, before = game_of(room), game_of(room).state
    idle = players[1 - state_of(room)["pending"]["seat"]]
    error = refused("not_your_turn", services.game_act, code=room.code, player=idle, action={"kind": "pass"}, version=1)
    assert str(error.message) == "It is not your turn."
    game.refresh_from_db()
    assert game.state == before and game.version == 1


def test_spectators_cannot_move():
    room, _ = table()
    refused(
        "spectator",
        services.game_act,
        code=room.code,
        player=Player(key="guest:watcher"),
        action={"kind": "draw"},
        version=1,
    )


def test_stale_version_is_refused():
    room, players = table()
    refused(
        "stale", services.game_act, code=room.code, player=deciding(room, players), action={"kind": "pass"}, version=0
    )
    assert game_of(room).version == 1


@pytest.mark.parametrize("action", [{"kind": "fly"}, {"kind": "freeze", "seat": 9}, "draw", None])
def test_illegal_moves_change_nothing(action):
    room, players = table()
    before = game_of(room).state
    with pytest.raises(ServiceError):
        act(room, deciding(room, players), action)
    assert game_of(room).state == before


def test_double_click_applies_once():
    room, players = table(deck=["5", "9", "4", "1", "2"])
    player = deciding(room, players)
    services.game_act(code=room.code, player=player, action={"kind": "draw"}, version=1)
    refused("stale", services.game_act, code=room.code, player=player, action={"kind": "draw"}, version=1)
    assert game_of(room).version == 2


def test_closed_room_refuses_moves():
    room, players = table()
    services.room_close(code=room.code, reason="spam")
    error = refused("closed", services.game_act, code=room.code, player=players[0], action={"kind": "pass"}, version=1)
    assert str(error.message) == "This table was closed by staff."


def test_state_survives_a_restart_and_play_continues():
    """Nothing lives in process memory: a fresh read of the database is the whole game."""
    room, players = table(deck=["5", "9", "4", "1", "2", "3"])
    act(room, players[1], {"kind": "draw"})
    saved = game_of(Room.objects.get(code=room.code)).state
    act(room, players[0], {"kind": "draw"})
    assert state_of(room)["seats"][0]["row"] == ["9", "1"] and saved != game_of(room).state


def test_a_whole_game_to_game_over_through_the_services():
    room, players = table(names=("Ana", "Ben", "Cleo"))
    rng = random.Random(5)
    for _ in range(5000):
        game = game_of(room)
        if game.over:
            break
        state = state_of(room)
        seat = state["pending"]["seat"]
        actions = legal_actions(state)
        keep_going = [a for a in actions if a["kind"] != "pass"] if len(state["seats"][seat]["row"]) < 3 else []
        action = rng.choice(keep_going or actions)
        services.game_act(code=room.code, player=players[seat], action=action, version=game.version)
    game = game_of(room)
    room.refresh_from_db()
    assert game.over and room.status == Room.Status.FINISHED
    assert game.events.filter(kind="game_over").count() == 1
    assert max(s["total"] for s in state_of(room)["seats"]) >= 250


def test_rematch_starts_a_new_game_with_the_same_seats():
    room, players = table()
    stack(room, ["12", "13", "1", "2", "3", "4"], target=10)
    act(room, players[1], {"kind": "pass"})
    act(room, players[0], {"kind": "pass"})
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    refused("not_host", services.game_start, code=room.code, player=players[1])
    services.game_start(code=room.code, player=players[0])
    assert room.games.count() == 2 and game_of(room).number == 2 and game_of(room).players == ["Ana", "Ben"]
