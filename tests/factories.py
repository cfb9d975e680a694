"""Tables in a known state, built through the service layer as people would build them."""

from __future__ import annotations

from game import registry, services
from game.core.identity import Player
from game.games.sevn.engine import from_json, new_game, to_json
from game.models import Game, Table


def people(*names: str) -> list[Player]:
    return [Player(key=f"guest:{name.lower()}") for name in names]


def open_table(
    names=("Ana", "Ben"), seats: int = 4, start: bool = True, turn_seconds: int = 30, deck: list[str] | None = None
) -> tuple[Table, list[Player]]:
    """A table with these people seated in order (the first is the host), started or not."""
    players = people(*names)
    table = services.table_create(player=players[0], nickname=names[0], seat_count=seats, turn_seconds=turn_seconds)
    for player, name in zip(players[1:], names[1:], strict=True):
        services.seat_take(code=table.code, player=player, nickname=name)
    if start:
        services.game_start(code=table.code, player=players[0])
        if deck is not None:
            stack(table, deck)
    table.refresh_from_db()
    return table, players


def stack(table: Table, deck: list[str], target: int | None = None) -> None:
    """Replace the running game with one dealt from a stacked deck (top card first); whose
    decision it is (Game.acting) follows, as every move keeps it (services.play)."""
    game = table.games.order_by("-number").first()
    state = new_game(len(game.players), seed=game.seed, target=target or table.options["target"], deck=deck)
    game.state = to_json(state)
    game.acting = None if state["over"] else registry.of(table).acting(state)
    game.save(update_fields=["state", "acting"])


def game_of(table: Table) -> Game:
    return table.games.order_by("-number").first()


def state_of(table: Table) -> dict:
    return from_json(game_of(table).state)


def deciding(table: Table, players: list[Player]) -> Player:
    return players[state_of(table)["pending"]["seat"]]


def act(table: Table, player: Player, action: object) -> dict:
    """A move on the table's current version, as a screen showing it would send it."""
    return services.game_act(code=table.code, player=player, action=action, version=game_of(table).version)
