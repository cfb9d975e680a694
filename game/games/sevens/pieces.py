"""A Sevens table for one viewer, as pieces drawn from that viewer's view alone.

The snapshot of a Sevens game carries a spectator's view and each seat's own (`Sevens.views` in
game.games.sevens.kind, the engine's `view(state, viewer)`); `viewer_view` picks the one this viewer
may see, and every piece's data comes from it and nothing else of the game. So another seat's
hand cannot be drawn by mistake: it is in no piece.

The shape is SEVN's (game.games.sevn.pieces): the pieces every viewer shares are worked out once per
update (`shared_pieces`: the bar, the layout, the seats, the last round's result, the standings), each
viewer adds their own (the turn, their hand or what they wait for, their seat marked "you").
What each piece shows and how it is drawn is in game.games.sevens.panels.
"""

from __future__ import annotations

from typing import NamedTuple

from game.core.identity import tag
from game.drawkit import common
from game.drawkit.common import TableView, seat_names, viewer_seat
from game.drawkit.pieces import Piece
from game.games.sevens import panels
from game.games.sevens.engine import playable as fits
from game.games.sevens.engine.cards import SUITS


def viewer_view(game: dict, me: int | None) -> dict:
    """What this viewer may see: their seat's view, or a spectator's."""
    seat_views = game.get("seat_views")
    if me is not None and seat_views is not None and me < len(seat_views):
        return seat_views[me]
    return game["view"]


class Frame(NamedTuple):
    """The arrangement around a Sevens table's pieces: when it changes, the whole table is sent."""

    status: str
    game_id: int
    me: int | None
    seats: int
    over: bool
    last_round: bool


class Shared(NamedTuple):
    names: tuple[str, ...]
    pieces: dict[str, Piece]
    seats: dict[int, panels.SeatFacts]


def shared_pieces(snapshot: dict, events: list[dict]) -> Shared:
    """The pieces every viewer of this update shares, from the spectator's view (which holds
    no hand)."""
    table, game = snapshot["table"], snapshot["game"]
    view = game["view"]
    names = tuple(seat_names(snapshot))
    turn = view["current"] if view["current"] is not None and not view["over"] else None
    deadline_ms = int(game["deadline"] * 1000) if game["deadline"] else None
    show_summary = not view["over"] and any(event["type"] == "round_over" for event in events)
    meta = common.Meta(game["number"], game["version"], turn, deadline_ms, table["turn_seconds"], show_summary)
    by_index = {seat["index"]: seat for seat in snapshot["seats"]}
    winners = set(view["winners"])
    seats = {}
    for index, public in enumerate(view["seats"]):
        seat = by_index.get(index, {"bot_level": "", "away": False})
        seats[index] = panels.SeatFacts(
            index,
            names[index],
            public["count"],
            public["passes"],
            public["total"],
            index == view["dealer"],
            seat["bot_level"],
            seat["away"],
            game["over"] and index in winners,
            record=common.seat_record(by_index.get(index)),
        )
    layout = tuple(None if view["layout"][suit] is None else tuple(view["layout"][suit]) for suit in SUITS)
    pieces = {
        "table-meta": common.meta_piece(meta),
        "table-bar": Piece(
            "sevens/_bar.html",
            panels.Bar(table["code"], view["round"], view["rounds"], bool(view["last_round"])),
            panels.bar_context,
        ),
    }
    if view["over"]:
        pieces["standings"] = Piece(
            "sevens/_standings.html",
            panels.standings_data(view, names, common.rating_moves(snapshot)),
            panels.standings_context,
        )
    if view["last_round"]:
        pieces["summary"] = Piece(
            "sevens/_summary.html", panels.last_round_data(view, names), panels.last_round_context
        )
    pieces.update(
        {f"seat-{index}": Piece("sevens/_seat.html", seat, panels.seat_context) for index, seat in seats.items()}
    )
    pieces["sevens-layout"] = Piece("sevens/_layout.html", (layout, ()), panels.layout_context)
    return Shared(names, pieces, seats)


def played_since(recent: tuple[dict, ...], seat: int | None) -> tuple[str, ...]:
    """The cards played onto the layout since `seat` last played (this round only; everything
    this round for a seat that has not played yet).

    A pass is not a turn taken: it happens by itself, often in the same update as the play
    before it, so counting it would clear that play's mark before its viewer ever saw it."""
    cards: list[str] = []
    for event in reversed(recent):
        if event["type"] == "dealt" or (event["type"] == "played" and event["seat"] == seat):
            break
        if event["type"] == "played":
            cards.append(event["card"])
    return tuple(sorted(cards))


def viewer_table(
    snapshot: dict,
    shared: Shared,
    viewer_key: str | None,
    asked: frozenset = frozenset(),
    online: tuple[int, ...] | None = None,
    recent: tuple[dict, ...] = (),
) -> TableView:
    """One viewer's Sevens table: the shared pieces, their own seat marked, the turn as they
    see it and their hand (from their own view: nobody else's)."""
    table, game = snapshot["table"], snapshot["game"]
    names = shared.names
    mine = viewer_seat(snapshot, viewer_key)
    me = mine["index"] if mine is not None and mine["index"] < len(names) else None
    view = viewer_view(game, me)
    yours = me is not None and view["current"] == me and not view["over"]
    current_name = names[view["current"]] if view["current"] is not None and not view["over"] else None
    everyone = shared.pieces
    pieces = {
        "table-meta": everyone["table-meta"],
        "table-presence": common.presence(online),
        "table-bar": everyone["table-bar"],
        "table-turn": Piece(
            "sevens/_turn.html", common.Turn(current_name, yours, bool(game["deadline"])), common.turn_context
        ),
    }
    pieces.update({name: everyone[name] for name in ("standings", "summary") if name in everyone})
    pieces.update({f"seat-{index}": everyone[f"seat-{index}"] for index in range(len(names))})
    if me is not None:
        pieces[f"seat-{me}"] = Piece("sevens/_seat.html", shared.seats[me]._replace(is_you=True), panels.seat_context)
    # marked on the layout: what was played since this viewer last played (a spectator's: since
    # the seat that decides now last did)
    marked = played_since(recent, me if me is not None else view["current"]) if not view["over"] else ()
    layout = everyone["sevens-layout"]
    pieces["sevens-layout"] = layout._replace(data=(layout.data[0], marked)) if marked else layout
    if view["over"]:
        is_host = bool(viewer_key) and tag(viewer_key) == table["host"]
        rematch = common.rematch(snapshot, names, me, is_host, asked)
        pieces["controls"] = Piece("sevens/_hand.html", rematch, common.rematch_context)
    else:
        hand = view["hand"] or ()
        playable = set(view["playable"]) if yours else set()
        fitting = set(fits(list(hand), view["layout"]))  # each card's reason says whether it fits, turn or not
        cards = tuple((code, code in playable, code in fitting) for code in hand)
        rows = everyone["sevens-layout"].data[0]
        pieces["controls"] = Piece(
            "sevens/_hand.html", panels.Hand(me, yours, current_name, cards, rows), panels.hand_context
        )
    frame = Frame(table["status"], game["id"], me, len(names), view["over"], "summary" in everyone)
    return TableView(frame, pieces)


def open_hands(snapshot: dict) -> Piece:
    """Every seat's hand face up, from each seat's own view: a finished game's replay (game.screen
    .replay) shows them all, the game being over; a live table never draws this piece."""
    names = seat_names(snapshot)
    game = snapshot["game"]
    hands = tuple(
        (names[seat], tuple(view["hand"] or ()), game["view"]["current"] == seat)
        for seat, view in enumerate(game["seat_views"] or ())
    )
    return Piece("sevens/_open_hands.html", hands, panels.open_hands_context)
