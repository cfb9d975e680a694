"""Game records (game.fair.record, docs/fair-deal.md): a finished game of either game gives a
record with its game and rules version, seats and names, the commitment, client seeds and the
revealed seed, every move with its version and time, and the results; downloadable from the
game-over screen, never while the game runs."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime

import pytest
from django.test import Client

from game.fair import record as records
from game.fair import signature
from game.services.records import game_record, site_public_key
from tests.fair.play import Watch, game_of, page, play_out, table_of

pytestmark = pytest.mark.django_db

GAMES = ("sevn", "sevens")


def finished(kind: str, seed: int = 1):
    table, players = table_of(kind, seeds={0: "c0ffee", 1: "Ben5"})
    watch = Watch(table, players)
    game = play_out(table, players, watch, seed=seed)
    return table, players, game


@pytest.mark.parametrize("kind", GAMES)
def test_a_finished_game_s_record_holds_everything_to_check_and_replay_it(kind):
    table, players, game = finished(kind)
    record = game_record(game.id)
    assert list(record) == [
        "format", "format_version", "game", "rules", "table", "number", "options", "started", "finished",
        "seats", "fair", "deal", "moves", "result", "seal", "signature",
    ]  # fmt: skip
    assert (record["format"], record["format_version"]) == ("sevn-record", 2)
    assert (record["game"], record["rules"], record["table"], record["number"]) == (kind, f"{kind}/1", table.code, 1)
    assert record["options"] == ({"target": 120} if kind == "sevn" else {"rounds": 1})
    assert record["seats"] == [
        {"seat": 0, "name": "Ana", "player": "person"},
        {"seat": 1, "name": "Ben", "player": "person"},
        {"seat": 2, "name": "Bot Ada", "player": "bot", "level": "easy"},
    ]
    fair = record["fair"]
    assert fair["server_seed"] == game.server_seed and fair["engine_seed"] == game.seed
    assert fair["commitment"] == hashlib.sha256(bytes.fromhex(game.server_seed)).hexdigest()
    assert fair["client_seeds"] == [[0, "c0ffee"], [1, "Ben5"]]
    # every move: each action row, and each time the clock ran out, with its version and time
    rows = list(game.events.order_by("seq").values_list("kind", flat=True))
    moves = record["moves"]
    assert len(moves) == rows.count("action") + rows.count("timeout")
    assert any(move.get("timeout") for move in moves) and any(move.get("bot") for move in moves)
    assert any(not move.get("bot") and not move.get("timeout") for move in moves)
    versions = [move["version"] for move in moves]
    times = [datetime.fromisoformat(move["time"]) for move in moves]
    assert versions == sorted(versions) and versions[0] >= 0 and times == sorted(times)
    assert all(isinstance(move["events"], list) and move["events"] for move in moves)
    assert record["deal"]["notes"][0]["type"] == "game_started"  # the platform's notes kept apart
    assert not any(event["type"] == "game_started" for event in record["deal"]["events"])
    state = json.loads(game.state)
    totals = [seat["total"] for seat in state["seats"]]
    assert record["result"]["totals"] == totals and record["result"]["winners"]
    assert record["seal"] == records.seal(record)
    # signed with the site's key, over every field (the seal too), the public key named
    signed = record["signature"]
    assert signed["scheme"] == "ed25519" and signed["key"] == site_public_key()
    assert signature.valid(records.signed_message(record), signed["key"], signed["value"])
    assert game_record(game.id) == record  # the same bytes signed the same way each time


@pytest.mark.parametrize("kind", GAMES)
def test_the_record_is_downloaded_from_the_game_over_screen_and_never_while_the_game_runs(kind):
    table, players = table_of(kind)
    watch = Watch(table, players)
    from game import services

    services.game_start(code=table.code, player=players[0])
    running = game_of(table)
    assert Client().get(f"/en/g/{running.public_id}/record.json").status_code == 404
    assert game_record(running.id) is None
    assert f"/g/{running.public_id}/record.json" not in page(table, players[0].key)
    table.games.all().delete()
    table.status = "lobby"
    table.save()
    game = play_out(table, players, watch)
    html = page(table, players[1].key)
    link = f"/en/g/{game.public_id}/record.json"
    assert f'class="controls__record"><a href="{link}" download' in html  # on the game-over screen
    response = Client().get(link)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"] == f'attachment; filename="{kind}-{table.code}-{game.number}.json"'
    assert json.loads(response.content) == game_record(game.id)
