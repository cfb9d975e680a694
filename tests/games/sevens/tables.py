"""Sevens tables in a known state, built through the service layer as people would build them."""

from __future__ import annotations

from contextlib import nullcontext
from unittest import mock

from game import services
from game.core.identity import Player
from game.games.sevens.engine import DECK, from_json, new_game, to_json
from game.models import Game, Table
from tests.factories import people

# A three-seat, one-round game whose deal makes a pass certain: whatever the seats choose, someone
# has nothing that fits within the first three decisions after the 7♦ (tests/games/sevens/
# test_certain_deals.py searches every line of play). A random deal can run a whole round with
# no pass at all, so a test that expects "passes: nothing fits" deals this one.
PASS_CERTAIN_SEED = 39


def sevens_table(
    names=("Ana", "Ben", "Cleo"),
    seats: int | None = None,
    bots: tuple[str, ...] = (),
    start: bool = True,
    turn_seconds: int = 30,
    rounds: int = 3,
    deck: list[str] | None = None,
    seed: int | None = None,
) -> tuple[Table, list[Player]]:
    """A Sevens table with these people seated in order (the first hosts), then bots of these
    levels, started or not; `deck` stacks round 1's deal (deck[0] to the dealer's left), `seed`
    starts the game from that seed (every deal known) instead of a random one."""
    players = people(*names)
    table = services.table_create(
        player=players[0],
        nickname=names[0],
        seat_count=seats or len(names) + len(bots),
        turn_seconds=turn_seconds,
        kind="sevens",
        options={"rounds": rounds},
    )
    for player, name in zip(players[1:], names[1:], strict=True):
        services.seat_take(code=table.code, player=player, nickname=name)
    for level in bots:
        services.bot_add(code=table.code, player=players[0], level=level)
    if start:
        with (
            # the engine's seed, as the fair deal would derive it (game.fair.seeds)
            mock.patch("game.fair.seeds.engine_seed", return_value=seed) if seed is not None else nullcontext()
        ):
            services.game_start(code=table.code, player=players[0])
        if deck is not None:
            restack(table, deck)
    table.refresh_from_db()
    return table, players


def restack(table: Table, deck: list[str]) -> None:
    """Replace the running game with one whose first round is dealt from `deck`."""
    game = game_of(table)
    state = new_game(len(game.players), seed=game.seed, rounds=table.options["rounds"], deck=deck)
    game.state = to_json(state)
    game.save(update_fields=["state"])


def game_of(table: Table) -> Game:
    return table.games.order_by("-number").first()


def state_of(table: Table) -> dict:
    return from_json(game_of(table).state)


def dealt_in_turn(seats: int) -> list[str]:
    """A deal order that gives seat 1 (left of the dealer, seat 0) the 7♦: DECK as it is, with the
    7♦ moved to the front."""
    order = [code for code in DECK if code != "7D"]
    return ["7D", *order]


def play(table: Table, player: Player, card: str, version: int | None = None) -> dict:
    return services.game_act(
        code=table.code,
        player=player,
        action={"kind": "play", "card": card},
        version=game_of(table).version if version is None else version,
    )
