"""A round from deal to score: the deal, the forced 7♦, automatic passes, and the end.

Play runs on by itself until a seat with a card that fits must choose: a seat with none passes
(an event), and a round won by someone going out is scored and the next one dealt at once.
"""

from __future__ import annotations

from .cards import OPENER, in_deck_order
from .layout import empty_layout, fitting_cards, place
from .state import State, shuffled_deck


def deal_round(state: State, deck: list[str], events: list[dict]) -> None:
    """Deal `deck` one card at a time from the dealer's left, then let the 7♦ open."""
    seats = state["seats"]
    count = len(seats)
    first = (state["dealer"] + 1) % count
    hands: list[list[str]] = [[] for _ in seats]
    for index, card in enumerate(deck):
        hands[(first + index) % count].append(card)
    for seat, hand in zip(seats, hands, strict=True):
        seat["hand"] = in_deck_order(hand)
        seat["passes"] = 0
    state["round"] += 1
    state["layout"] = empty_layout()
    state["moves"] = []
    events.append(
        {"type": "dealt", "round": state["round"], "dealer": state["dealer"], "counts": [len(hand) for hand in hands]}
    )
    opener = next(seat for seat, hand in enumerate(hands) if OPENER in hand)
    play_card(state, opener, OPENER, events)


def play_card(state: State, seat: int, card: str, events: list[dict]) -> None:
    """One card from a hand to the layout (already checked to fit), then play runs on."""
    state["seats"][seat]["hand"].remove(card)
    place(state["layout"], card)
    state["moves"].append([seat, card])
    events.append({"type": "played", "seat": seat, "card": card})
    if state["seats"][seat]["hand"]:
        _next_with_a_choice(state, seat, events)
    else:
        _end_round(state, seat, events)


def _next_with_a_choice(state: State, seat: int, events: list[dict]) -> None:
    """Move left past every seat with nothing that fits (each passes) to one that must play.

    Someone always holds a card that fits: the cards that fit are not on the table, so they are
    in hands, so the loop stops within one lap.
    """
    seats = state["seats"]
    fitting = fitting_cards(state["layout"])
    while True:
        seat = (seat + 1) % len(seats)
        if not fitting.isdisjoint(seats[seat]["hand"]):
            state["current"] = seat
            return
        seats[seat]["passes"] += 1
        state["moves"].append([seat, None])
        events.append({"type": "passed", "seat": seat})


def _end_round(state: State, out: int, events: list[dict]) -> None:
    """Score: one penalty point per card left; then the next deal, or the end of the game."""
    seats = state["seats"]
    penalties = [len(seat["hand"]) for seat in seats]
    for seat, penalty in zip(seats, penalties, strict=True):
        seat["total"] += penalty
    totals = [seat["total"] for seat in seats]
    state["history"].append(penalties)
    state["last_round"] = {"penalties": penalties, "hands": [list(seat["hand"]) for seat in seats]}
    events.append({"type": "round_over", "round": state["round"], "out": out, "penalties": penalties, "totals": totals})
    if state["round"] < state["rounds"]:
        state["dealer"] = (state["dealer"] + 1) % len(seats)
        deal_round(state, shuffled_deck(state), events)
        return
    lowest = min(totals)
    state["over"] = True
    state["current"] = None
    state["winners"] = [seat for seat, total in enumerate(totals) if total == lowest]
    events.append({"type": "game_over", "winners": list(state["winners"]), "totals": totals})
