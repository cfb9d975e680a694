"""High card behind the platform's Kind: what a game must give the tables, and nothing more.
Its one partial (templates/high/_table.html) draws the table and its one piece, the board; the
kit (game.drawkit) gives it the meta, presence and rematch every table has. And what a game may give
besides, each in this folder: a setting of its own (how many hands), its own seat range, its
rulebook page (rulebook.py, prose/, templates/high/rules.html) and its look (static/games/high.css)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import NamedTuple

from django import forms

from game.core.errors import choose_int
from game.core.kind import Kind
from game.core.options import Option
from game.drawkit import common
from game.drawkit.common import TableView, seat_names, viewer_seat
from game.drawkit.pieces import Piece
from tests.games.highcard import engine, rulebook

HANDS = range(1, 6)
HANDS_OPTION = Option(
    "hands",
    lambda: forms.TypedChoiceField(
        label="Hands", coerce=int, initial=engine.ROUNDS, required=False, choices=[(n, str(n)) for n in HANDS]
    ),
    engine.ROUNDS,
    lambda asked: choose_int(
        engine.ROUNDS if asked is None else asked, HANDS, "bad_hands", "High card has 1 to 5 hands."
    ),
    lambda hands: f"{hands} hands",
)


class Frame(NamedTuple):
    game_id: int
    me: int | None
    over: bool


class Board(NamedTuple):
    """The one piece of the table: everyone's drawn card and rounds won, whose turn, and whether
    it is the viewer's, or at game over the rematch."""

    names: tuple[str, ...]
    drawn: tuple[int | None, ...]
    wins: tuple[int, ...]
    round: int
    current: int | None
    yours: bool
    rematch: common.Rematch | None


def board_context(board: Board) -> dict:
    seats = [{"name": n, "card": c, "wins": w} for n, c, w in zip(board.names, board.drawn, board.wins, strict=True)]
    return {"board": board, "seats": seats, "rematch": board.rematch}


class HighCard(Kind):
    name, label, about = "high", "High card", "draw the highest card, 2 to 10 players"
    min_seats, max_seats, max_bots, secret = 2, 10, 9, False
    illegal = engine.IllegalAction
    folder = Path(__file__).resolve().parent
    table_template = "high/_table.html"
    seat_range, start_note = "A table of high card has 2 to 10 seats.", "Two players are needed."
    actions = {"draw": ()}
    options = (HANDS_OPTION,)
    rulebook = rulebook.RULEBOOK
    stylesheet = "games/high.css"

    def new(self, table, seat_count, seed, events):
        return engine.new_game(seat_count, seed, self.table_options(table.options)["hands"])

    def apply(self, state, action, actor=None):
        return engine.apply(state, action, actor)

    def timeout(self, state):
        return engine.apply(state, {"kind": "draw"})

    def acting(self, state):
        return state["current"]

    def winner(self, state):
        winners = engine.winners(state)
        return winners[0] if state["over"] and len(winners) == 1 else None

    def views(self, state):
        return {"view": {key: value for key, value in state.items() if key != "deck"}, "seat_views": None}

    def bot_action(self, level, state, rng):
        return {"kind": "draw"}

    def bot_rng(self, seed, version, state):
        return random.Random(f"{seed}/{version}")

    def to_json(self, state):
        return json.dumps(state)

    def from_json(self, text):
        return json.loads(text)

    def lobby_line(self, table):
        return f"{table['seat_count']} seats · {self.summaries(table)['hands']}"

    def shared_pieces(self, snapshot, events):
        return tuple(seat_names(snapshot))

    def viewer_table(self, snapshot, shared, viewer_key, asked=frozenset(), online=None, recent=()):
        table, game = snapshot["table"], snapshot["game"]
        view = game["view"]
        mine = viewer_seat(snapshot, viewer_key)
        me = mine["index"] if mine is not None else None
        deadline = int(game["deadline"] * 1000) if game["deadline"] else None
        meta = common.Meta(game["number"], game["version"], view["current"], deadline, table["turn_seconds"], False)
        is_host = mine is not None and mine["who"] == table["host"]
        rematch = common.rematch(snapshot, shared, me, is_host, asked) if game["over"] else None
        yours = me is not None and view["current"] == me
        board = Board(shared, tuple(view["drawn"]), tuple(view["wins"]), view["round"], view["current"], yours, rematch)
        pieces = {
            "table-meta": common.meta_piece(meta),
            "table-presence": common.presence(online),
            "high-board": Piece("high/_table.html", board, board_context),  # one partial draws both
        }
        return TableView(Frame(game["id"], me, game["over"]), pieces)

    def log_line(self, event, names):
        if event["type"] == "drawn":
            return f"{names[event['seat']]} draws {event['card']}."
        if event["type"] == "round_won":
            return f"{names[event['seat']]} wins round {event['round']}."
        if event["type"] == "game_over":
            return "Game over: " + " and ".join(names[seat] for seat in event["winners"]) + " win."
        return None

    def card_label(self, code):
        return code

    def face(self, code):
        return {"code": code, "label": code, "name": code}


KIND = HighCard()
