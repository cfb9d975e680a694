"""A SEVN table as one viewer sees it: its arrangement (the frame) and its pieces, plain data.
(game.games.sevens.pieces is the same for Sevens; game.drawkit.common holds what both tables have.)

What every viewer shares is worked out once per update (`shared_pieces`): each seat, the bar,
the piles, the standings, the scores and the round summary. Each viewer then adds only what is
theirs: whose turn it says, the centre ("your decision"), the controls and whose sockets their
screen knows to be open. Nothing here draws: each piece names the partial that draws it and
the context it is drawn with (game.games.sevn.panels), and game.drawkit.pieces draws it when a screen needs it.
"""

from __future__ import annotations

from typing import NamedTuple

from game.core.identity import tag
from game.drawkit import common
from game.drawkit.common import TableView, seat_names, viewer_seat
from game.drawkit.pieces import Piece
from game.games.sevn import panels
from game.games.sevn.panels import SeatFacts, seat_facts


class Frame(NamedTuple):
    """The arrangement around the pieces: when it changes, a screen gets the whole table again."""

    status: str
    game_id: int
    me: int | None
    order: tuple[int, ...]  # the other seats, clockwise after the viewer's
    paused: bool  # only bots and absent people are left: the game waits
    over: bool
    summary: bool  # a round has been scored (the summary and the scores exist)


class Shared(NamedTuple):
    """One update's pieces as every viewer shares them, and what the rest is worked out from."""

    names: tuple[str, ...]
    pieces: dict[str, Piece]
    paused: bool
    summary: bool
    current_name: str | None


def shared_pieces(snapshot: dict, events: list[dict]) -> Shared:
    game, table = snapshot["game"], snapshot["table"]
    view = game["view"]
    names = tuple(seat_names(snapshot))
    current_name = names[view["current"]] if view["current"] is not None else None
    summary = bool(view.get("last_round"))
    deadline_ms = int(game["deadline"] * 1000) if game["deadline"] else None
    show_summary = not game["over"] and any(e["type"] == "round_scored" for e in events)
    turn = view["current"] if not game["over"] and view["current"] is not None else None
    pieces = {
        "table-meta": common.meta_piece(
            common.Meta(game["number"], game["version"], turn, deadline_ms, table["turn_seconds"], show_summary)
        ),
        "table-bar": Piece(
            "sevn/_bar.html", panels.Bar(table["code"], view["round"], view["target"], summary), panels.bar_context
        ),
        "pile-deck": Piece("sevn/_pile.html", panels.Pile("deck", view["deck_count"]), panels.pile_context),
        "pile-discard": Piece("sevn/_pile.html", panels.Pile("discard", view["discard_count"]), panels.pile_context),
    }
    fresh = panels.fresh_cards(events, view["round"])
    shaking = {e["seat"] for e in events if e["type"] == "bust"}
    for index in range(len(view["seats"])):
        pieces[f"seat-{index}"] = _seat(seat_facts(snapshot, index), fresh.get(index), index in shaking)
    if game["over"]:
        totals = tuple(seat["total"] for seat in view["seats"])
        standings = panels.Standings(names, totals, view["winner"], common.rating_moves(snapshot))
        pieces["standings"] = Piece("sevn/_standings.html", standings, panels.standings_context)
    if view["history"]:
        history = tuple(tuple(scores) for scores in view["history"])
        totals = tuple(seat["total"] for seat in view["seats"])
        scores = panels.Scores(names, history, totals, view["target"], game["over"])
        pieces["scores"] = Piece("sevn/_scores.html", scores, panels.scores_context)
    if summary:
        pieces["summary"] = Piece("sevn/_summary.html", panels.summary_data(view, names), panels.summary_context)
    paused = (
        not game["over"]
        and table["status"] == "playing"
        and all(s["bot_level"] or s["away"] for s in snapshot["seats"])
    )
    return Shared(names, pieces, paused, summary, current_name)


def _seat(facts: SeatFacts, fresh: set[str] | None, shake: bool) -> Piece:
    once = (tuple(sorted(fresh or ())), shake) if fresh or shake else None  # a card flipping in, a bust shaking
    return Piece("sevn/_seat.html", facts, panels.seat_context, once)


def viewer_table(
    snapshot: dict,
    shared: Shared,
    viewer_key: str | None,
    asked: frozenset = frozenset(),
    online: tuple[int, ...] | None = None,
    recent: tuple[dict, ...] = (),
) -> TableView:
    """One viewer's table (`asked`, `online`: what their screen knows of rematch requests and
    open sockets), pieces in page order: the bar, the other seats clockwise after the viewer's,
    the piles and the centre, the viewer's own seat, the controls."""
    table, game = snapshot["table"], snapshot["game"]
    view = game["view"]
    n = len(view["seats"])
    mine = viewer_seat(snapshot, viewer_key)
    me = mine["index"] if mine is not None and mine["index"] < n else None
    is_host = bool(viewer_key) and tag(viewer_key) == table["host"]
    decision = panels.decision(snapshot, me, shared.names)
    start = 0 if me is None else me + 1
    order = tuple((start + i) % n for i in range(n) if (start + i) % n != me)
    everyone = shared.pieces
    pieces = {"table-meta": everyone["table-meta"], "table-bar": everyone["table-bar"]}
    pieces["table-presence"] = common.presence(online)
    turn = common.Turn(None if game["over"] else shared.current_name, decision is not None, bool(game["deadline"]))
    pieces["table-turn"] = Piece("table/_turn.html", turn, common.turn_context)
    pieces.update({name: everyone[name] for name in ("standings", "scores", "summary") if name in everyone})
    pieces.update({f"seat-{index}": everyone[f"seat-{index}"] for index in order})
    pieces["pile-deck"], pieces["pile-discard"] = everyone["pile-deck"], everyone["pile-discard"]
    pieces["table-center"] = Piece(
        "sevn/_center.html", panels.center_data(view, shared.names, decision is not None), panels.center_context
    )
    if me is not None:
        pieces[f"seat-{me}"] = everyone[f"seat-{me}"]
    drew = panels.last_drawn(recent) if not game["over"] else None
    if drew is not None and f"seat-{drew[0]}" in pieces:  # the card drawn last at the table, marked
        seat = pieces[f"seat-{drew[0]}"]
        pieces[f"seat-{drew[0]}"] = seat._replace(data=seat.data._replace(last=drew[1]))
    pieces["controls"] = _controls(snapshot, shared, me, is_host, decision, asked)
    frame = Frame(table["status"], game["id"], me, order, shared.paused, game["over"], shared.summary)
    return TableView(frame, pieces)


def _controls(
    snapshot: dict, shared: Shared, me: int | None, is_host: bool, decision: panels.Decision | None, asked: frozenset
) -> Piece:
    """The decider's choices; at game over the rematch; otherwise who we wait for."""
    if decision is not None:
        return Piece("sevn/_controls.html", decision, panels.decision_context)
    if snapshot["game"]["over"]:
        rematch = common.rematch(snapshot, shared.names, me, is_host, asked)
        return Piece("sevn/_controls.html", rematch, common.rematch_context)
    return Piece("sevn/_controls.html", panels.Waiting(me is not None, shared.current_name), panels.waiting_context)
