"""What one seat knows: its view and the round's public moves, nothing else.

From the moves it learns more than the view says: a seat that passed held none of the cards
that fitted at that moment, and hands only shrink, so it holds none of them now.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.games.sevens.engine import View

from .bits import ALL, BIT, OPENS, SEVENS, index_of, mask


@dataclass(frozen=True)
class Sight:
    seat: int
    hand: int  # my cards
    playable: list[str]  # my legal plays, DECK order
    fitting: int  # every card that fits the layout now
    unseen: int  # cards in other hands (not mine, not on the table)
    counts: list[int]  # cards in each hand
    lacks: list[int]  # per seat, cards it is known not to hold (from its passes)
    plays: list[tuple[int, int, int, int]]  # each chosen play: (seat, card, fitting and table before it)
    totals: list[int] = field(default_factory=list)  # each seat's penalty total before this round
    rounds_after: int = 0  # rounds still to come after this one


def read_sight(view: View, moves: list[list]) -> Sight:
    """The seat's knowledge from its `view` and this round's public `moves` ([seat, card|None])."""
    seats, cards, me = view["seats"], view["hand"], view["current"]
    if cards is None or me is None:
        raise ValueError("a sight is a seated player's view while a seat must act")
    hand = mask(cards)
    fitting = SEVENS
    table = 0
    lacks = [0] * len(seats)
    plays = []
    for index, (seat, card) in enumerate(moves):
        if card is None:
            lacks[seat] |= fitting
            continue
        if index:  # the 7♦ that opens is forced, not chosen
            plays.append((seat, BIT[card], fitting, table))
        fitting = (fitting & ~BIT[card]) | OPENS[index_of(card)]
        table |= BIT[card]
    return Sight(
        seat=me,
        hand=hand,
        playable=list(view["playable"]),
        fitting=fitting,
        unseen=ALL & ~hand & ~table,
        counts=[s["count"] for s in seats],
        lacks=lacks,
        plays=plays,
        totals=[s["total"] for s in seats],
        rounds_after=view["rounds"] - view["round"],
    )


def round_moves(events: list[dict]) -> list[list]:
    """The current round's public moves from a game log's events (the same as the state's
    `moves`), for callers that keep the log rather than the state."""
    moves: list[list] = []
    for event in events:
        if event["type"] == "dealt":
            moves = []
        elif event["type"] == "played":
            moves.append([event["seat"], event["card"]])
        elif event["type"] == "passed":
            moves.append([event["seat"], None])
    return moves


Evidence = list[tuple[int, int, tuple[tuple[int, int, int], ...]]]
"""A seat's chosen plays, each as (card played, cards it has played since, candidates): the
cards that fitted then and that it may have held, each with what medium's rule weighs
(see `inference.evidence_by_seat`; native.c reads the same)."""
