"""The rest of a round played out in masks: every seat plays as medium would (basic.py),
which is fast, and a fair guess at how people and bots play."""

from __future__ import annotations

from .bits import BEYOND, OPENS


def finish_round(hands: list[int], fitting: int, seat: int) -> list[int]:
    """Play on from `seat`'s turn until a hand is empty; the cards left in each hand.

    `hands` is changed in place. Someone always has a card that fits, so this ends.
    """
    seats = len(hands)
    beyond, opens = BEYOND, OPENS
    in_hands = 0
    for hand in hands:
        in_hands |= hand
    while True:
        hand = hands[seat]
        options = hand & fitting
        if options:
            if options & (options - 1):
                best = -1 << 30
                rest = in_hands & ~hand
                bits = options
                while bits:
                    low = bits & -bits
                    bits ^= low
                    behind = beyond[low.bit_length() - 1]
                    own = (hand & behind).bit_count()
                    keen = ((64 + own) << 6) - (rest & behind).bit_count() if own else -(rest & behind).bit_count()
                    if keen > best:
                        best, card = keen, low
            else:
                card = options
            hand ^= card
            hands[seat] = hand
            in_hands ^= card
            fitting = (fitting ^ card) | opens[card.bit_length() - 1]
            if not hand:
                return [h.bit_count() for h in hands]
        seat += 1
        if seat == seats:
            seat = 0
