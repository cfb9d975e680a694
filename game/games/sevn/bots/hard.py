"""The hard bot: counts cards and plays to win the game, not just to score points.

Each choice is rated by the chance to win it leaves (endgame.py: sampled futures of every row
still in round, then the standings model). When two choices leave nearly the same chance, as
early in a game, the expected round score of one more card decides, with a slight taste for
risk: one seat of four wins only by beating all three others, so spread is worth a little.
Everything comes from the public view (odds.py): the draw pile's composition, never its order.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .endgame import FUTURES, Futures
from .odds import NUMBER_CODES, SECOND_CHANCE, busting_share, draw_pool
from .rollout import finals
from .rows import BALLAST_CODES, PLAIN_CODES, SEVN_DISTINCT, distinct, score

RISK_TASTE = 2.0  # points of expected round score given up for the spread of one more card
CHANCE_TIE = 0.002  # win chances closer than this count as equal
ACTION_POINTS = {"freeze": 4.0, "triple_draw": 3.0}  # rough worth of using one on someone
TWO_CARD = ("crossroads", "storm")


class Picture:
    """The deciding seat's picture: the draw pool and what one more card does to a row."""

    def __init__(self, view: dict) -> None:
        self.view = view
        self.seat: int = view["current"]
        self.seats: list[dict] = view["seats"]
        self.pool = draw_pool(view)
        self.pool_size = sum(self.pool.values())
        self.futures = Futures(view, self.pool)
        self._outcomes: dict[tuple[str, ...], list[tuple[float, float]]] = {}

    @property
    def row(self) -> list[str]:
        return self.seats[self.seat]["row"]

    def take_value(self, row: list[str], card: str) -> float:
        """The round score a row is worth right after taking `card` (0 when it busts)."""
        new, sevn = after(row, card)
        if new is None:
            return 0.0
        if card == SECOND_CHANCE and SECOND_CHANCE not in row:
            return score(row) + self.protection(row)
        return float(score(new, sevn)) + ACTION_POINTS.get(card, 0.0)

    def protection(self, row: list[str]) -> float:
        """What holding a Second Chance is worth to a row: the bust it would catch next."""
        return busting_share(row, self.pool) * score(row)

    def outcomes(self, row: list[str]) -> list[tuple[float, float]]:
        """(probability, value of the row after it) for each card the pool may give next.

        A Crossroads is worth the better of two cards, a Storm about one more card.
        """
        key = tuple(row)
        if key not in self._outcomes:
            self._outcomes[key] = self._one_card(row)
        return self._outcomes[key]

    def _one_card(self, row: list[str]) -> list[tuple[float, float]]:
        if self.pool_size == 0:
            return [(1.0, float(score(row)))]
        plain = [
            (copies / self.pool_size, self.take_value(row, card))
            for card, copies in self.pool.items()
            if card not in TWO_CARD
        ]
        rest = sum(p for p, _ in plain)
        if rest == 0:
            return [(1.0, float(score(row)))]
        one_more = sum(p * v for p, v in plain) / rest
        best_of_two = expected_max([(p / rest, v) for p, v in plain])
        return plain + [
            (self.pool.get(card, 0) / self.pool_size, value)
            for card, value in zip(TWO_CARD, (best_of_two, one_more), strict=True)
            if card in self.pool
        ]

    def expected_draw(self, row: list[str]) -> float:
        """Expected value of the row after taking one card from the pool."""
        return sum(p * v for p, v in self.outcomes(row))

    def value(self, row: list[str]) -> float:
        """A row still in round: worth its score, or more if drawing again pays."""
        return max(float(score(row)), self.expected_draw(row))

    def value_after(self, card: str) -> float:
        """Expected worth of the own row after resolving `card`, drawing again if that pays."""
        new, sevn = after(self.row, card)
        if new is None:
            return 0.0
        if sevn:
            return float(score(new, sevn=True))
        return self.value(new) + ACTION_POINTS.get(card, 0.0)

    def chance(self, round_score: float) -> float:
        """Chance to win if the own row ends this round with `round_score`."""
        return self.futures.chance_with_score(self.seat, round_score)

    def chance_played_on(self, row: list[str]) -> float:
        """Chance to win with this own row still in round, played on (sampled)."""
        futures = finals(row, self.pool, FUTURES, seed=self.seat)
        return sum(self.chance(x) for x in futures) / FUTURES

    def chance_after(self, card: str) -> float:
        """Chance to win after resolving `card`, the row then played on."""
        new, sevn = after(self.row, card)
        if new is None:
            return self.chance(0)
        if sevn:
            return self.chance(score(new, sevn=True))
        return self.chance_played_on(new)


def after(row: list[str], card: str) -> tuple[list[str] | None, bool]:
    """The row after taking `card` (None when bust) and whether that makes SEVN.

    Ballast is kept when it completes SEVN or raises the score (a Featherweight); action cards
    leave the row as it is.
    """
    if card in NUMBER_CODES:
        if card not in row:
            new = row + [card]
            return new, distinct(new) == SEVN_DISTINCT
        if SECOND_CHANCE in row:
            return [c for c in row if c != SECOND_CHANCE], False
        return None, False
    if card in BALLAST_CODES:
        new = row + [card]
        if distinct(new) == SEVN_DISTINCT:
            return new, True
        return (new if score(new) > score(row) else row), False
    if card in PLAIN_CODES or (card == SECOND_CHANCE and card not in row):
        return row + [card], False
    return row, False


def expected_max(values: list[tuple[float, float]]) -> float:
    """E[max] of two independent draws from a discrete distribution of (probability, value)."""
    total = below = 0.0
    for p, v in sorted(values, key=lambda pv: pv[1]):
        upto = below + p
        total += v * (upto * upto - below * below)
        below = upto
    return total


def better(first: tuple[float, float], second: tuple[float, float]) -> bool:
    """Whether (win chance, points) `first` beats `second`: chance first, points on a near-tie."""
    if abs(first[0] - second[0]) > CHANCE_TIE:
        return first[0] > second[0]
    return first[1] > second[1]


# --- decisions ------------------------------------------------------------------------------


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The hard bot's action for whatever decision is pending.

    `rng` is not needed: the sampled futures use fixed seeds, so a position always gets the
    same answer (and a replayed game the same moves).
    """
    return DECIDE[view["pending"]["kind"]](Picture(view), legal)


def _turn(picture: Picture, legal: list[dict]) -> dict:
    if {"kind": "draw"} not in legal:
        return {"kind": "pass"}
    view, me, row = picture.view, picture.seat, picture.row
    now = score(row)
    threat = max(s["total"] + s["round_score"] for i, s in enumerate(picture.seats) if i != me)
    if threat >= view["target"] and picture.seats[me]["total"] + now < threat:
        return {"kind": "draw"}  # passing loses to a seat already past the target
    drawn = (sum(p * picture.chance(v) for p, v in picture.outcomes(row)), picture.expected_draw(row) + RISK_TASTE)
    stopped = (picture.chance(now), float(now))
    return {"kind": "draw"} if better(drawn, stopped) else {"kind": "pass"}


def _ballast(picture: Picture, legal: list[dict]) -> dict:
    row, card = picture.row, picture.view["pending"]["card"]
    kept = row + [card]
    if distinct(kept) == SEVN_DISTINCT:
        sevn = score(kept, sevn=True)
        keep = (picture.chance(sevn), float(sevn))
    else:
        keep = (picture.chance_played_on(kept), picture.value(kept))
    discard = (picture.chance_played_on(row), picture.value(row))
    return {"kind": "ballast", "keep": better(keep, discard)}


def _crossroads(picture: Picture, legal: list[dict]) -> dict:
    first, second = [
        (picture.chance_after(card), picture.value_after(card)) for card in picture.view["pending"]["cards"]
    ]
    return {"kind": "crossroads", "pick": 1 if better(second, first) else 0}


def _targeted(kind: str, change: Callable[[Picture, int], float]) -> Callable[[Picture, list[dict]], dict]:
    """A decision that names a seat: the one that leaves the best chance to win."""

    def decide(picture: Picture, legal: list[dict]) -> dict:
        return {"kind": kind, "seat": max(picture.view["pending"]["options"], key=lambda s: change(picture, s))}

    return decide


def _frozen(picture: Picture, seat: int) -> float:
    """Freeze: that seat stops now (best on a small row with many good cards to come)."""
    return picture.futures.win_chance(picture.seat, seat, frozen=True)


def _three_cards(picture: Picture, seat: int) -> float:
    """Triple Draw: three forced cards hurt a big, risky row most; they rarely help a small one."""
    return picture.futures.win_chance(picture.seat, seat, forced=3)


def _gifted(picture: Picture, seat: int) -> float:
    """Second Chance: give it where it helps our rivals least."""
    row = picture.seats[seat]["row"] + [SECOND_CHANCE]
    return picture.futures.win_chance(picture.seat, seat, row=row)


DECIDE: dict[str, Callable[[Picture, list[dict]], dict]] = {
    "turn": _turn,
    "ballast": _ballast,
    "crossroads": _crossroads,
    "freeze": _targeted("freeze", _frozen),
    "triple_draw": _targeted("triple_draw", _three_cards),
    "gift": _targeted("gift", _gifted),
}
