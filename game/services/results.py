"""How a finished game came out, as its replay and the recent-games lists show it: each seat's
final score and place, best first, and which seat was the viewer's ("2nd of 4")."""

from __future__ import annotations

from typing import NamedTuple

from game import registry
from game.core.identity import Player
from game.models import Game, GameResult, Seat


class Placed(NamedTuple):
    seat: int
    name: str
    points: int
    place: int
    winner: bool


def final_scores(game: Game, names: list[str]) -> list[Placed]:
    """Every seat's final score and place in a finished game, best place first (equal scores
    share one), named `names` (as the viewer may read them: services.privacy); [] for a game
    that is not over or keeps no scores."""
    if not game.over:
        return []
    kind = registry.of(game.table)
    state = kind.from_json(game.state)
    points = kind.points(state)
    if points is None or not state.get("over"):
        return []
    places = kind.places(state)
    rows = [
        Placed(seat, names[seat] if seat < len(names) else "", points[seat], places[seat], places[seat] == 1)
        for seat in range(len(points))
    ]
    return sorted(rows, key=lambda row: (row.place, row.seat))


def seat_in(game: Game, viewer: Player | None) -> int | None:
    """The seat this viewer played in that game: a signed-in person's by their result, a guest's
    by their key at its table (while the seat holds the name it played under); else None."""
    if viewer is None:
        return None
    if viewer.user_id is not None:
        seat = GameResult.objects.filter(game=game, user_id=viewer.user_id).values_list("seat", flat=True).first()
        if seat is not None:
            return seat
    found = Seat.objects.filter(table_id=game.table_id, player_key=viewer.key).values_list("index", "nickname").first()
    if found is not None and found[0] < len(game.players) and game.players[found[0]] == found[1]:
        return found[0]
    return None
