"""Finished games of either game, played through the services as people, bots and clocks play
them (moves, timeouts, bots' answers), every update kept: what the fair-deal tests search and
what the record tests replay.

Every table here is dealt a known game: its code and its server seed are fixed, and with the
client seeds a test sends they make the engine's seed (game.fair.seeds), as the site derives it.
So what `play_out` plays from it (its people's random moves are seeded, bots draw from the
engine's seed, the clock is moved by hand) is the same game on every run, and what the tests
read of it (a timeout, a bot's move, enough moves to step through) is there for certain:
tests/fair/test_certain_deals.py says so of each. On a random deal a game of SEVN can be over
within three of the people's decisions: 1 in 20,000 simulated had no timeout at all.
"""

from __future__ import annotations

import hashlib
import json
import random
from datetime import timedelta

from django.test import Client
from django.utils import timezone

from game import registry, services
from game.core.identity import SESSION_KEY, Player
from game.fair import verify as verifier
from game.models import Game, Table
from game.screen import Screen
from game.services import table_reads
from tests.factories import people


def verify(record: object, site_key: str | None = None) -> verifier.Verdict:
    """The verifier as the site runs it: the registered games' replays (game.registry)."""
    return verifier.verify(record, site_key, replays=registry.replays())


# Each game's table code and first server seed (a fixed deal for each set of client seeds).
DEALS = {
    kind: (code, hashlib.sha256(f"{kind} test deal".encode()).hexdigest())
    for kind, code in (("sevn", "DEAL22"), ("sevens", "DEAL77"))
}


def table_of(kind: str, names=("Ana", "Ben"), bots=("easy",), seeds: dict[int, str] | None = None):
    """A table of this game with these people (the first hosts) and bots, not started; `seeds`:
    the client seed each person's seat sends (by seat), against the commitment shown. Its code and
    server seed are the game's in DEALS: one such table at a time."""
    players = people(*names)
    options = {"target": 120} if kind == "sevn" else {"rounds": 1}
    table = services.table_create(
        player=players[0], nickname=names[0], seat_count=len(names) + len(bots), kind=kind, options=options
    )
    code, server_seed = DEALS[kind]
    Table.objects.filter(id=table.id).update(code=code, next_seed=server_seed)
    for player, name in zip(players[1:], names[1:], strict=True):
        services.seat_take(code=code, player=player, nickname=name)
    for level in bots:
        services.bot_add(code=code, player=players[0], level=level)
    shown = table_reads.snapshot(Table.objects.get(id=table.id))["table"]["commitment"]
    for seat, seed in (seeds or {}).items():
        services.client_seed_set(code=code, player=players[seat], seed=seed, commitment=shown)
    return Table.objects.get(id=table.id), players


def game_of(table: Table) -> Game:
    return table.games.order_by("-number").first()


def page(table: Table, key: str | None) -> str:
    client = Client()
    if key:
        session = client.session
        session[SESSION_KEY] = key
        session.save()
    response = client.get(f"/en/t/{table.code}/")
    assert response.status_code == 200
    return response.content.decode()


class Watch:
    """Everything the table's viewers are sent: each update as the services return it, each
    viewer's screen of it, and now and then each viewer's page."""

    def __init__(self, table: Table, players: list[Player]) -> None:
        self.table = table
        self.keys = [player.key for player in players] + [None]  # the people and a spectator
        self.screens = [Screen(key, "en") for key in self.keys]
        self.sent: list[str] = []
        snapshot = table_reads.snapshot(table)
        for screen in self.screens:
            self.sent.append(screen.full(snapshot, table_reads.log_events(game_of(table))))

    def heard(self, message: dict | None) -> None:
        if message is None:
            return
        self.sent.append(json.dumps(message, default=str))
        for screen in self.screens:
            self.sent.append(screen.update(message["snapshot"], message["events"]) or "")

    def pages(self) -> None:
        self.sent += [page(self.table, key) for key in self.keys]


class Unwatched:
    """play_out's watcher, hearing nothing: for a test that reads the finished game (its record,
    its replay page) and not what its screens were sent while it was played (the screens of
    these fixed deals are checked by test_records and test_fair_deal; rendering them all again
    took 0.75 s of CPU a game of Sevens, 0.15 s of SEVN)."""

    def heard(self, message: dict | None) -> None:
        pass

    def pages(self) -> None:
        pass


def play_out(table: Table, players: list[Player], watch: Watch | Unwatched, seed: int = 1, limit: int = 3000) -> Game:
    """Start the game and play it to its end: people move at random among their legal moves,
    and every fourth decision of theirs waits for the clock (a timeout)."""
    rng = random.Random(seed)
    watch.heard(services.game_start(code=table.code, player=players[0]))
    kind = registry.of(table)
    for step in range(limit):
        game = game_of(table)
        state = kind.from_json(game.state)
        if state["over"]:
            watch.pages()
            return game
        if step % 25 == 0:
            watch.pages()
        seat = kind.acting(state)
        if step % 4 == 3 or seat >= len(players):  # a bot waits for its deadline when nobody is left
            Game.objects.filter(id=game.id).update(deadline=timezone.now() - timedelta(milliseconds=1))  # time is up
            message = services.game_expire(game_id=game.id)
        else:
            action = rng.choice(kind.engine.legal_actions(state))
            message = services.game_act(code=table.code, player=players[seat], action=action, version=game.version)
        watch.heard(message)
    raise AssertionError("the game did not end")
