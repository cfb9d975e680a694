"""A round from deal to score (rules sections 1, 4, 6, 7): deal, turns, round end, game end."""

from __future__ import annotations

from . import resolve
from .scoring import Step, score_steps
from .state import BUST, IN, PASSED, Action, Event, Frame, GameState, Pending
from .table import CLOCKWISE


def start_round(state: GameState, events: list[Event]) -> None:
    """Deal the next round: one card each from the dealer's left, then turns from there."""
    round_number = state["round"] + 1
    dealer = state["dealer"]
    seats = state["seats"]
    state["round"] = round_number
    for seat in seats:
        seat["status"] = IN
    first = (dealer + 1) % len(seats)
    events.append({"type": "round_started", "round": round_number, "dealer": dealer})
    state["stack"] += [
        {"op": "turns", "next": first},
        {"op": "deal", "order": list(CLOCKWISE[len(seats)][first][::-1])},
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
            resolve.give(state, seat, seats[seat]["row"], "deal", events)
            if state["pending"] is not None or stack[-1] is not frame:
                return
    stack.pop()


def run_turns(state: GameState, frame: Frame, events: list[Event]) -> None:
    """Ask the next player in round to draw or pass; with nobody left in round, score."""
    seats = state["seats"]
    seat = frame["next"]
    if seats[seat]["status"] != IN:  # most often the seat after the last one to decide is asked
        for seat in CLOCKWISE[len(seats)][frame["next"]]:
            if seats[seat]["status"] == IN:
                break
        else:
            end_round(state, None, events)
            return
    state["pending"] = {"kind": "turn", "seat": seat}


def decide_turn(state: GameState, frame: Frame, pending: Pending, action: Action, events: list[Event]) -> None:
    """Draw or pass; either way the next turn goes to the seat after this one."""
    seat = pending["seat"]
    seats = state["seats"]
    frame["next"] = (seat + 1) % len(seats)
    if action["kind"] == "draw":
        resolve.give(state, seat, seats[seat]["row"], "turn", events)
    else:
        seats[seat]["status"] = PASSED
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
    round_number = state["round"]
    steps: list[list[Step] | None] = []
    scores, totals, rows, statuses = [], [], [], []
    for i, seat in enumerate(seats):
        row, status = seat["row"], seat["status"]
        if status == BUST:
            seat_steps, score = None, 0
        else:
            seat_steps = score_steps(row, i == sevn_seat)
            score = seat_steps[-1]["total"]
        total = seat["total"] + score
        seat["total"] = total
        steps.append(seat_steps)
        scores.append(score)
        totals.append(total)
        rows.append(row)  # _clear_table gives every seat a new, empty row
        statuses.append(status)
    state["history"].append(scores)
    state["last_round"] = {
        "round": round_number,
        "scores": scores,
        "steps": steps,
        "sevn": sevn_seat,
        "rows": rows,
        "statuses": statuses,
    }
    events.append(
        {
            "type": "round_scored",
            "round": round_number,
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
    queue, active, pending = state["queue"], state["active"], state["pending"]
    discard += state["revealed"]
    if queue:
        discard += [card for card, _owner in queue]
    if active is not None:
        discard.append(active)
    if pending is not None and "card" in pending:
        discard.append(pending["card"])
    state["revealed"] = []
    state["queue"] = []
    state["active"] = None
    state["pending"] = None
    state["stack"].clear()
