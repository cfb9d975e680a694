"""Replays (/g/<id>/, game.screen.replay_steps): a finished game of either game, step by step, drawn by
the live table's pieces; Sevens with every hand; a game still running has none, for anyone."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from game import services
from game.core.identity import SESSION_KEY
from game.games.sevens import engine as sevens_engine
from game.games.sevens.faces import card_name
from game.services.records import game_record
from tests.fair.play import Unwatched, game_of, play_out, table_of

pytestmark = pytest.mark.django_db

GAMES = ("sevn", "sevens")


def client_for(key: str | None) -> Client:
    client = Client()
    if key:
        session = client.session
        session[SESSION_KEY] = key
        session.save()
    return client


def test_a_running_game_has_no_replay_for_anyone():
    table, players = table_of("sevens")
    services.game_start(code=table.code, player=players[0])
    game = game_of(table)
    for key in (players[0].key, players[1].key, None):  # the host, a player, a spectator
        response = client_for(key).get(f"/en/g/{game.public_id}/")
        assert response.status_code == 404
        assert client_for(key).get(f"/en/g/{game.public_id}/?step=1", headers={"X-Replay-Step": "1"}).status_code == 404


@pytest.mark.parametrize("kind", GAMES)
def test_a_finished_game_replays_step_by_step_with_the_live_table_s_pieces(kind):
    table, players = table_of(kind)
    game = play_out(table, players, Unwatched())
    record = game_record(game.id)
    steps = len(record["moves"])
    client = Client()
    first = client.get(f"/en/g/{game.public_id}/").content.decode()
    assert f'data-steps="{steps}"' in first and 'data-step="0"' in first
    assert '<section id="table"' in first and 'id="table-bar"' in first  # the live table's pieces
    assert f'max="{steps}"' in first and "A new game starts." in first
    middle = client.get(f"/en/g/{game.public_id}/?step=5").content.decode()
    assert f"Move 5 of {steps}" in middle and 'href="?step=4"' in middle and 'href="?step=6"' in middle
    last = client.get(f"/en/g/{game.public_id}/?step={steps}").content.decode()
    assert "table--over" in last and f"/en/g/{game.public_id}/record.json" in last
    assert client.get(f"/en/g/{game.public_id}/?step=99999").content.decode().count(f"Move {steps} of {steps}") == 1
    # the page's script asks for one step: its parts, swapped in by id
    part = client.get(f"/en/g/{game.public_id}/?step=3", headers={"X-Replay-Step": "1"}).content.decode()
    assert part.startswith('<p id="replay-counter"') and "<html" not in part
    assert set(re.findall(r' id="(replay-[a-z]+)"', part)) == {
        "replay-counter",
        "replay-caption",
        "replay-judgement",
        "replay-stage",
        "replay-log",
    }


def test_a_sevens_replay_shows_every_hand_at_every_step():
    table, players = table_of("sevens")
    game = play_out(table, players, Unwatched())
    record = game_record(game.id)
    state = sevens_engine.new_game(3, game.seed, rounds=1)
    for step, move in enumerate(record["moves"][:12], start=1):
        if move.get("timeout"):
            sevens_engine.timeout(state)
        else:
            sevens_engine.apply(state, move["action"], actor=move["seat"])
        html = Client().get(f"/en/g/{game.public_id}/?step={step}").content.decode()
        hands = html[html.index('id="open-hands"') :]
        for seat, held in enumerate(state["seats"]):
            shown = hands.split('class="open-hands__seat')[seat + 1]
            assert record["seats"][seat]["name"] in shown
            assert all(card_name(code) in shown for code in held["hand"]), (step, seat)
