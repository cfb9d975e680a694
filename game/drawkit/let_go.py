""" "Let Ana go", the same in every game: for each person away (a bot plays their seat), the
people still playing may agree that the leave is excused (services.play.seat_let_go); once all
of them agreed, it counts as finished (services.reliability). Drawn for each viewer (the button
is theirs): nothing for a spectator, a bot's seat or someone away themselves."""

from __future__ import annotations

from typing import NamedTuple

from game.drawkit.pieces import Piece


class Away(NamedTuple):
    index: int
    name: str
    you_agreed: bool
    everyone: bool  # everyone still playing agreed: the leave is excused


class LetGo(NamedTuple):
    code: str
    away: tuple[Away, ...]


def let_go(snapshot: dict, me: int | None, names) -> Piece:
    """The piece (empty when there is nobody the viewer could let go)."""
    table, game, seats = snapshot["table"], snapshot["game"], snapshot["seats"]
    away: tuple[Away, ...] = ()
    mine = next((seat for seat in seats if seat["index"] == me), None)
    under_way = game is not None and table["status"] == "playing" and not game["over"]
    if under_way and mine is not None and not mine["away"] and not mine["bot_level"]:
        playing = {seat["index"] for seat in seats if not seat["away"] and not seat["bot_level"]}
        away = tuple(
            Away(
                seat["index"],
                names[seat["index"]] if seat["index"] < len(names) else seat["nickname"],
                me in seat.get("let_go_by", ()),
                playing <= set(seat.get("let_go_by", ())),
            )
            for seat in sorted(seats, key=lambda seat: seat["index"])
            if seat["away"] and not seat["bot_level"] and seat["index"] != me
        )
    return Piece("table/_let_go.html", LetGo(table["code"], away), let_go_context)


def let_go_context(data: LetGo) -> dict:
    return {"let_go": data}
