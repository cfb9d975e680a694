"""Medium's rule over masks, and the rest of a round played out with it: fast, and a fair
guess at how people and bots play."""

from __future__ import annotations

from .bits import BEYOND, OPENS


def keen_pick(hand: int, rest: int, options: int) -> int:
    """The card (a bit of `options`) medium plays, `rest` being the cards in other hands.

    A card with own cards behind it opens the way to them: the more, the better, and of two
    such plays the one that frees fewer rival cards. A card with none of ours behind it only
    helps others (a 6 or 8 held back blocks a whole side of its row), so it comes last, and of
    those the one that frees the fewest rival cards. Ties go to the first in DECK order.
    """
    if not options & (options - 1):
        return options
    best = card = -1 << 30
    while options:
        low = options & -options
        options ^= low
        behind = BEYOND[low.bit_length() - 1]
        own = (hand & behind).bit_count()
        keen = ((64 + own) << 6) - (rest & behind).bit_count() if own else -(rest & behind).bit_count()
        if keen > best:
            best, card = keen, low
    return card


def finish_round(hands: list[int], fitting: int, seat: int) -> list[int]:
    """Play on from `seat`'s turn until a hand is empty; the cards left in each hand.

    `hands` is changed in place. Someone always has a card that fits, so this ends. This is
    the bots' hot loop, so `keen_pick` is written out in it, its score counted from the cards
    in all hands (the rivals' cards behind are those less our own: one count fewer).
    """
    following = [*range(1, len(hands)), 0]
    opens, beyond = OPENS, BEYOND
    in_hands = 0
    for hand in hands:
        in_hands |= hand
    while True:
        hand = hands[seat]
        options = hand & fitting
        if options:
            if options & (options - 1):
                best = -1 << 30
                while options:
                    low = options & -options
                    options ^= low
                    behind = beyond[low.bit_length() - 1]
                    own = (hand & behind).bit_count()
                    if own:  # ((64 + own) << 6) less the rivals' cards behind, as in keen_pick
                        keen = 4096 + 65 * own - (in_hands & behind).bit_count()
                    else:
                        keen = -(in_hands & behind).bit_count()
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
        seat = following[seat]


def end_key(hands: list[int]) -> int:
    """A round's end as one number: each hand's count in four bits, seat 0 lowest (as the C
    rollouts write it)."""
    key = 0
    for hand in reversed(hands):
        key = key << 4 | hand.bit_count()
    return key


def counts_of(key: int, seats: int) -> list[int]:
    """The cards left in each hand at the end `key`."""
    return [key >> 4 * seat & 15 for seat in range(seats)]


def end_after(hands: list[int], fitting: int, me: int, card: int) -> int:
    """The end (`end_key`) of the round in which `me` plays `card` (a bit) with `fitting`
    fitting before it, every seat then playing medium's rule; `hands` is left as it was.
    The reference for the C rollouts (native.c), which do this for many deals at once."""
    hands = list(hands)
    hands[me] ^= card
    if hands[me]:
        finish_round(hands, (fitting ^ card) | OPENS[card.bit_length() - 1], (me + 1) % len(hands))
    return end_key(hands)
