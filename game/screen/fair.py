"""#table-fair, the "fair deal" panel every table has (game.fair): the commitment before a deal,
the client seeds a deal used, the server seed once the game is over with its record, replay and
verification, and for a seated person the client seed their browser sends for the next deal."""

from __future__ import annotations

from typing import NamedTuple

from game.drawkit.common import viewer_seat
from game.drawkit.pieces import Piece


class Fair(NamedTuple):
    code: str
    game_id: str | None  # the dealt game's public id (its record's and replay's links)
    commitment: str  # the dealt game's ("" before the first deal)
    client_seeds: tuple[tuple[str, str], ...]  # (name, seed) per contributing seat, in seat order
    server_seed: str | None  # once the game is over
    next_commitment: str  # the next deal's, while one may be asked for (lobby, game over)
    seated: bool  # a seated person: their browser sends a client seed for the next deal


def fair_data(snapshot: dict, viewer_key: str | None) -> Fair:
    table, game = snapshot["table"], snapshot["game"]
    dealt = game is not None and table["status"] != "lobby"
    fair = game["fair"] if dealt else {"commitment": "", "client_seeds": [], "server_seed": None}
    names = list(game["players"]) if dealt else []
    seeds = tuple((names[seat] if seat < len(names) else str(seat + 1), seed) for seat, seed in fair["client_seeds"])
    next_deal = table["status"] in ("lobby", "finished")
    mine = viewer_seat(snapshot, viewer_key)
    return Fair(
        table["code"],
        game["public_id"] if dealt else None,
        fair["commitment"],
        seeds,
        fair["server_seed"],
        table.get("commitment", "") if next_deal else "",
        mine is not None and not mine["bot_level"],
    )


def fair_context(fair: Fair) -> dict:
    return {"fair": fair}


def fair_piece(snapshot: dict, viewer_key: str | None) -> Piece:
    return Piece("table/_fair.html", fair_data(snapshot, viewer_key), fair_context)
