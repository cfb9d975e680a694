"""Turn-based tables in a known state, built through the services as people build them."""

from __future__ import annotations

from contextlib import nullcontext
from unittest import mock

from django.contrib.auth.models import User

from game import registry, services
from game.core.identity import Player
from game.models import Game, Table

# A two-seat SEVN deal whose first decision is a plain turn (draw or pass), and a pass hands the
# turn to the other seat (tests/games/sevn/test_certain_deals.py): a test that has the first
# person move once and then reads their turn as over (their time bank charged, "your move" told
# to the other) deals this one. On a random deal the first decision may be a dealt action card's
# (a Freeze's target, a Ballast) and the same seat still decides after it: 172 of 2,000 deals.
TURN_HANDED_ON_SEED = 0


def person(name: str) -> Player:
    """A signed-in person (an account of their own)."""
    user = User.objects.create_user(name, f"{name.lower()}@example.org", "pw-not-used-here")
    return Player(key=f"user:{user.pk}", user_id=user.pk, username=name)


def turn_table(
    pace: str = "move-24h",
    names=("Ana", "Ben"),
    window=None,
    zone: str = "",
    kind: str | None = None,
    start: bool = True,
    players: list[Player] | None = None,
    seed: int | None = None,
) -> tuple[Table, list[Player]]:
    """A turn-based table with these people seated in order (the first the host), started;
    `seed` starts the game from that seed (its deal known) instead of a random one."""
    players = players or [person(name) for name in names]
    table = services.table_create(
        player=players[0],
        nickname="",
        seat_count=max(2, len(players)),
        pace=pace,
        window=window,
        time_zone=zone,
        kind=kind,
    )
    for player in players[1:]:
        services.seat_take(code=table.code, player=player, nickname="")
    if start:
        with (
            # the engine's seed, as the fair deal would derive it (game.fair.seeds)
            mock.patch("game.fair.seeds.engine_seed", return_value=seed) if seed is not None else nullcontext()
        ):
            services.game_start(code=table.code, player=players[0])
    table.refresh_from_db()
    return table, players


def game_of(table: Table) -> Game:
    return table.games.order_by("-number").first()


def acting(table: Table) -> int:
    game = game_of(table)
    kind = registry.of(table)
    return kind.acting(kind.from_json(game.state))


def move(table: Table, player: Player) -> dict:
    """The deciding person's move: SEVN's stop, else what an easy bot would choose."""
    game = game_of(table)
    kind = registry.of(table)
    state = kind.from_json(game.state)
    if table.kind == "sevn" and state["pending"]["kind"] == "turn":
        action = {"kind": "pass"}  # stop drawing: the turn ends
    else:
        action = kind.bot_action("easy", state, kind.bot_rng(game.seed, game.version, state))
    return services.game_act(code=table.code, player=player, action=action, version=game.version)


def turn_of(table: Table, player: Player, others: list[Player], others_in: bool = False) -> None:
    """Whoever decides moves until it is `player`'s turn (at SEVN, a plain one: draw or pass;
    `others_in`: with everyone else still in the round, so that their pass hands the turn on)."""
    from game.models import Seat

    by_index = {seat.index: seat.player_key for seat in Seat.objects.filter(table=table)}
    everyone = {p.key: p for p in [player, *others]}
    kind = registry.of(table)
    for _move in range(200):
        state = kind.from_json(game_of(table).state)
        plain = table.kind != "sevn" or state["pending"]["kind"] == "turn"
        if plain and others_in:
            plain = all(seat["status"] == "in" for seat in state["seats"])
        if by_index[acting(table)] == player.key and plain:
            return
        move(table, everyone[by_index[acting(table)]])
    raise AssertionError(f"never {player.username}'s turn at {table.code}")
