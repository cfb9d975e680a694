"""A round from deal to score (rules sections 1, 4, 6, 7): deal, turns, round end, game end."""

from __future__ import annotations

from . import resolve
from .scoring import Step, score_steps
from .state import BUST, IN, PASSED, Action, Event, Frame, GameState, Pending
from .table import CLOCKWISE, clockwise_from


def start_round(state: GameState, events: list[Event]) -> None:
    """Deal the next round: one card each from the dealer's left, then turns from there."""
    state["round"] += 1
    for seat in state["seats"]:
        seat["status"] = IN
    first = (state["dealer"] + 1) % len(state["seats"])
    events.append({"type": "round_started", "round": state["round"], "dealer": state["dealer"]})
    state["stack"] += [
        {"op": "turns", "next": first},
        {"op": "deal", "order": clockwise_from(state, first)[::-1]},
    ]


def run_deal(state: GameState, frame: Frame, events: list[Event]) -> None:
    """One card to each seat still in round (a seat frozen by an earlier deal is skipped).

    Dealing stops for whatever a card brings first: a decision, or an action card's frame.
    """
    order = frame["order"]
    seats = state["seats"]
    stack = state["stack"]
    while order:
        seat = order.pop()
        if seats[seat]["status"] == IN:
            resolve.give(state, seat, "deal", events)
            if state["pending"] is not None or stack[-1] is not frame:
                return
    stack.pop()


def run_turns(state: GameState, frame: Frame, events: list[Event]) -> None:
    """Ask the next player in round to draw or pass; with nobody left in round, score."""
    seats = state["seats"]
    for seat in CLOCKWISE[len(seats)][frame["next"]]:
        if seats[seat]["status"] == IN:
            state["pending"] = {"kind": "turn", "seat": seat}
            return
    end_round(state, None, events)


def decide_turn(state: GameState, pending: Pending, action: Action, events: list[Event]) -> None:
    """Draw or pass; either way the next turn goes to the seat after this one."""
    seat = pending["seat"]
    state["stack"][-1]["next"] = (seat + 1) % len(state["seats"])
    if action["kind"] == "draw":
        resolve.give(state, seat, "turn", events)
    else:
        state["seats"][seat]["status"] = PASSED
        events.append({"type": "passed", "seat": seat})


def run_round_end(state: GameState, frame: Frame, events: list[Event]) -> None:
    """The frame resolve.py pushes on SEVN: the round ends now."""
    end_round(state, frame["sevn"], events)


def end_round(state: GameState, sevn_seat: int | None, events: list[Event]) -> None:
    """Score the round, clear the table, then end the game or deal the next round.

    Runs the moment the round ends (SEVN mid-action included): whatever is still in play
    (queued actions, the active action, revealed or pending cards) goes to the discard pile.
    """
    seats = state["seats"]
    steps: list[list[Step] | None] = []
    scores, totals = [], []
    for i, seat in enumerate(seats):
        seat_steps = None if seat["status"] == BUST else score_steps(seat["row"], i == sevn_seat)
        score = 0 if seat_steps is None else seat_steps[-1]["total"]
        seat["total"] += score
        steps.append(seat_steps)
        scores.append(score)
        totals.append(seat["total"])
    state["history"].append(scores)
    state["last_round"] = {
        "round": state["round"],
        "scores": scores,
        "steps": steps,
        "sevn": sevn_seat,
        "rows": [seat["row"] for seat in seats],  # _clear_table gives every seat a new, empty row
        "statuses": [seat["status"] for seat in seats],
    }
    events.append(
        {
            "type": "round_scored",
            "round": state["round"],
            "scores": scores,
            "steps": steps,
            "totals": totals,
            "sevn": sevn_seat,
        }
    )
    _clear_table(state)
    top = max(totals)
    if top >= state["target"]:
        leaders = [i for i, total in enumerate(totals) if total == top]
        if len(leaders) == 1:
            state["over"] = True
            state["winner"] = leaders[0]
            events.append({"type": "game_over", "winner": leaders[0], "totals": totals})
            return
        events.append({"type": "tie", "seats": leaders, "total": top})
    state["dealer"] = (state["dealer"] + 1) % len(seats)
    start_round(state, events)


def _clear_table(state: GameState) -> None:
    discard = state["discard"]
    for seat in state["seats"]:
        discard += seat["row"]
        seat["row"] = []
    discard += state["revealed"]
    if state["queue"]:
        discard += [card for card, _owner in state["queue"]]
    if state["active"] is not None:
        discard.append(state["active"])
    pending = state["pending"]
    if pending is not None and "card" in pending:
        discard.append(pending["card"])
    state["revealed"] = []
    state["queue"] = []
    state["active"] = None
    state["pending"] = None
    state["stack"].clear()
