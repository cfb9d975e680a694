"""Set-ups for Sevens tests: stacked deals and literal positions built from the hands wanted."""

from __future__ import annotations

from game.games.sevens.engine import DECK, State
from game.games.sevens.engine.cards import RANK_INDEX, RANKS
from game.games.sevens.engine.layout import empty_layout
from game.games.sevens.engine.state import blank_state


def stacked_deck(seats: int, hands: dict[int, list[str]], dealer: int = 0) -> list[str]:
    """A deal order that gives each seat in `hands` those cards, the rest in DECK order."""
    wanted = {seat: list(cards) for seat, cards in hands.items()}
    spare = [card for card in DECK if not any(card in cards for cards in wanted.values())]
    order = []
    for index in range(len(DECK)):
        seat = (dealer + 1 + index) % seats
        order.append(wanted[seat].pop(0) if wanted.get(seat) else spare.pop(0))
    assert not any(wanted.values()), "a seat was given more cards than the deal gives it"
    return order


def table_cards(layout: dict) -> set[str]:
    return {
        RANKS[i] + suit
        for suit, row in layout.items()
        if row
        for i in range(RANK_INDEX[row[0]], RANK_INDEX[row[1]] + 1)
    }


def position(
    hands: list[list[str]],
    layout: dict,
    current: int,
    *,
    rounds: int = 1,
    totals: list[int] | None = None,
    rest_to: int | None = None,
) -> State:
    """A literal mid-round state: every card not on `layout` is in a hand (the ones not listed
    go to seat `rest_to`), so the 52 are accounted for."""
    state = blank_state(len(hands), seed=1, rounds=rounds)
    full = empty_layout() | {suit: list(row) for suit, row in layout.items() if row}
    on_table = table_cards(full)
    hands = [list(hand) for hand in hands]
    if rest_to is not None:
        listed = on_table.union(*hands)
        hands[rest_to] += [card for card in DECK if card not in listed]
    assert sorted(on_table.union(*hands)) == sorted(DECK) and sum(map(len, hands)) + len(on_table) == 52
    for seat, hand in zip(state["seats"], hands, strict=True):
        seat["hand"] = [card for card in DECK if card in hand]
    for seat, total in enumerate(totals or []):
        state["seats"][seat]["total"] = total
    state.update(round=1, current=current, layout=full)
    return state


def all_cards(state: State) -> list[str]:
    """Every card of the game: in the hands and on the table."""
    return [card for seat in state["seats"] for card in seat["hand"]] + sorted(table_cards(state["layout"]))


def play(card: str) -> dict:
    return {"kind": "play", "card": card}
