"""The hard bot: counts cards, weighs the expected value of each choice, plays the scoreboard.

Everything comes from the public view: the draw pile's composition is known exactly (see
odds.py), only its order is not. Values are in round points for the deciding seat; harm done
to an opponent counts at a weight that grows with how dangerous that opponent is.
"""

from __future__ import annotations

import random

from .endgame import FinalRound, decisive, win_chance
from .odds import NUMBER_CODES, SECOND_CHANCE, busting_share, draw_pool
from .rollout import expected_final
from .rows import BALLAST_CODES, SEVN_DISTINCT, distinct, score
from .standings import WinModel

ACTION_BONUS = {"freeze": 4.0, "triple_draw": 3.0, "second_chance": 0.0}
DRAW_MARGIN = -2.0
USE_WIN_MODEL = False
USE_ENDGAME = True
LATE_WINDOW = 80
W_TIE = 0.002
SEVN_DENIAL = 1.0
TWO_STEP = False
EXPOSURE = 0.0
WEIGHT_BASE = 0.25
WEIGHT_LEADER = 0.5
WEIGHT_HALF = 20.0
SPREAD_LIKING = 0.0
ROUND_MEAN = 23.0
BEHIND_SLOPE = 0.0
MARGIN_CAP = 4.0


class Table:
    """The deciding seat's picture of the table: the draw pool and every seat's situation."""

    def __init__(self, view: dict) -> None:
        self.view = view
        self.seat: int = view["current"]
        self.seats: list[dict] = view["seats"]
        self.target: int = view["target"]
        self.pool = draw_pool(view)
        self.pool_size = sum(self.pool.values())
        self._denial: float | None = None
        self._outcomes: dict[tuple[str, ...], list[tuple[float, float]]] = {}

    def row(self, seat: int) -> list[str]:
        return self.seats[seat]["row"]

    def projected(self, seat: int) -> int:
        """The seat's total if the round ended now."""
        return self.seats[seat]["total"] + self.seats[seat]["round_score"]

    def opponents(self) -> list[int]:
        return [s for s in range(len(self.seats)) if s != self.seat]

    def weight(self, seat: int) -> float:
        """How much a point taken from this opponent is worth to us (the leader matters most)."""
        lead = max(self.projected(s) for s in self.opponents())
        return WEIGHT_BASE + WEIGHT_LEADER * 2.0 ** (-(lead - self.projected(seat)) / WEIGHT_HALF)

    # --- one card -------------------------------------------------------------------------

    def take_value(self, row: list[str], card: str) -> float:
        """The round score the row is worth right after taking `card` (0 when it busts)."""
        if card in NUMBER_CODES:
            if card in row:
                return score(row) if SECOND_CHANCE in row else 0.0
            return self.finished(row + [card])
        if card in BALLAST_CODES:
            return max(score(row), self.finished(row + [card]))
        if card in ACTION_BONUS:
            if card == SECOND_CHANCE and SECOND_CHANCE not in row:
                return score(row) + self.protection(row)
            return score(row) + ACTION_BONUS[card]
        if card in ("crossroads", "storm"):
            return float(score(row))  # replaced by the two-card values in expected_draw
        return float(score(row + [card]))

    def finished(self, row: list[str]) -> float:
        """Value of a row that just took a scoring card: SEVN scores +17 and ends the round,
        which also stops every opponent still hoping to add to a row."""
        if distinct(row) < SEVN_DISTINCT:
            return float(score(row))
        if self._denial is None:
            self._denial = SEVN_DENIAL * sum(
                self.weight(s) * (expected_final(self.row(s), self.pool) - self.seats[s]["round_score"])
                for s in self.opponents() if self.seats[s]["status"] == "in"
            )
        return score(row, sevn=True) + self._denial

    def protection(self, row: list[str]) -> float:
        """What holding a Second Chance is worth to a row: the bust it would catch next."""
        return busting_share(row, self.pool) * score(row)

    def outcomes(self, row: list[str]) -> list[tuple[float, float]]:
        """(probability, value of the row after it) for each card the pool may give next.

        A Crossroads is worth the better of two cards, a Storm about one more card.
        """
        key = tuple(row)
        if key in self._outcomes:
            return self._outcomes[key]
        if self.pool_size == 0:
            return [(1.0, float(score(row)))]
        values = [(copies / self.pool_size, self.take_value(row, card), card) for card, copies in self.pool.items()]
        plain = [(p, v) for p, v, card in values if card not in ("crossroads", "storm")]
        rest = sum(p for p, _ in plain)
        if rest > 0:
            plain_mean = sum(p * v for p, v in plain) / rest
            best_of_two = expected_max([(p / rest, v) for p, v in plain])
        else:
            plain_mean = best_of_two = float(score(row))
        result = plain + [
            (p, best_of_two if card == "crossroads" else plain_mean)
            for p, _, card in values if card in ("crossroads", "storm")
        ]
        self._outcomes[key] = result
        return result

    def expected_draw(self, row: list[str]) -> float:
        """Expected value of the row after taking one card from the pool."""
        return sum(p * v for p, v in self.outcomes(row))

    def value(self, row: list[str]) -> float:
        """A row still in round: worth its score, or more if drawing again pays."""
        return max(float(score(row)), self.expected_draw(row))




def expected_max(values: list[tuple[float, float]]) -> float:
    """E[max] of two independent draws from a discrete distribution of (probability, value)."""
    total = 0.0
    below = 0.0
    for p, v in sorted(values, key=lambda pv: pv[1]):
        upto = below + p
        total += v * (upto * upto - below * below)
        below = upto
    return total


# --- decisions ------------------------------------------------------------------------------

def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The hard bot's action for whatever decision is pending."""
    table = Table(view)
    return DECIDE[view["pending"]["kind"]](table, legal)


def _turn(table: Table, legal: list[dict]) -> dict:
    if {"kind": "draw"} not in legal:
        return {"kind": "pass"}
    me = table.seat
    row = table.row(me)
    now = score(row)
    mine = table.seats[me]["total"] + now
    threat = max(table.projected(s) for s in table.opponents())
    if threat >= table.target and mine < threat:
        return {"kind": "draw"}  # passing loses to a seat already past the target
    if USE_ENDGAME and decisive(table.view):
        final = FinalRound(table.view, me, table.pool)
        if TWO_STEP:
            drawn = two_step(table, row, final.chance)
        else:
            drawn = sum(p * final.chance(v) for p, v in table.outcomes(row))
        passed = final.chance(now)
        if abs(drawn - passed) > W_TIE:
            return {"kind": "draw"} if drawn > passed else {"kind": "pass"}
    elif mine >= table.target and mine > threat:
        return {"kind": "pass"}
    late = max(table.projected(s) for s in range(len(table.seats))) + LATE_WINDOW >= table.target
    if USE_WIN_MODEL and late:
        model = WinModel(table.view, me)
        drawn = sum(p * model.chance(v) for p, v in table.outcomes(row))
        passed = model.chance(now)
        if abs(drawn - passed) > W_TIE:
            return {"kind": "draw"} if drawn > passed else {"kind": "pass"}
    if SPREAD_LIKING:
        def utility(x: float) -> float:
            return x + SPREAD_LIKING * (x - ROUND_MEAN) ** 2
        gain = sum(p * utility(v) for p, v in table.outcomes(row)) - utility(now)
    else:
        gain = table.expected_draw(row) - now
    behind = max(table.seats[s]["total"] for s in table.opponents()) - table.seats[me]["total"]
    margin = DRAW_MARGIN - max(-MARGIN_CAP, min(MARGIN_CAP, behind * BEHIND_SLOPE))
    if EXPOSURE:
        others_in = sum(1 for s in table.opponents() if table.seats[s]["status"] == "in")
        margin += EXPOSURE * now * busting_share(row, table.pool) * others_in
    return {"kind": "draw"} if gain > margin else {"kind": "pass"}


def after(row: list[str], card: str) -> tuple[list[str] | None, bool]:
    """The row after taking `card` (None when bust) and whether that is SEVN."""
    if card in NUMBER_CODES:
        if card in row:
            return ([c for c in row if c != SECOND_CHANCE], False) if SECOND_CHANCE in row else (None, False)
        new = row + [card]
        return new, distinct(new) == SEVN_DISTINCT
    if card in BALLAST_CODES:
        new = row + [card]
        return (new, True) if distinct(new) == SEVN_DISTINCT else (row, False)
    if card == SECOND_CHANCE:
        return (row if card in row else row + [card]), False
    if card in ("freeze", "triple_draw", "crossroads", "storm"):
        return row, False
    return row + [card], False


def two_step(table: Table, row: list[str], chance) -> float:
    """Expected chance after one card, drawing once more where that is better than stopping."""
    total = 0.0
    for card, copies in table.pool.items():
        new, sevn = after(row, card)
        if new is None:
            value = chance(0)
        elif sevn:
            value = chance(table.finished(new))
        else:
            stop = chance(score(new))
            again = sum(p * chance(v) for p, v in table.outcomes(new))
            value = max(stop, again)
        total += copies / table.pool_size * value
    return total


def _ballast(table: Table, legal: list[dict]) -> dict:
    row = table.row(table.seat)
    kept = row + [table.view["pending"]["card"]]
    keep_value = table.finished(kept) if distinct(kept) == SEVN_DISTINCT else table.value(kept)
    return {"kind": "ballast", "keep": keep_value > table.value(row)}


def _crossroads(table: Table, legal: list[dict]) -> dict:
    row = table.row(table.seat)
    values = [after_taking(table, row, card) for card in table.view["pending"]["cards"]]
    return {"kind": "crossroads", "pick": 0 if values[0] >= values[1] else 1}


def after_taking(table: Table, row: list[str], card: str) -> float:
    """Value of the row after resolving `card`, with the option to draw again."""
    if card in NUMBER_CODES:
        if card in row:
            return table.value([c for c in row if c != SECOND_CHANCE]) if SECOND_CHANCE in row else 0.0
        new = row + [card]
        return table.finished(new) if distinct(new) == SEVN_DISTINCT else table.value(new)
    if card in BALLAST_CODES:
        new = row + [card]
        kept = table.finished(new) if distinct(new) == SEVN_DISTINCT else table.value(new)
        return max(kept, table.value(row))
    if card in ("x2", "+2", "+4", "+6", "+8", "+10", "featherweight", "heavyweight", "ladder"):
        return table.value(row + [card])
    if card == SECOND_CHANCE and SECOND_CHANCE not in row:
        return table.value(row) + table.protection(row)
    return table.value(row) + ACTION_BONUS.get(card, 0.0)


def _freeze(table: Table, legal: list[dict]) -> dict:
    """Freeze whoever loses most by stopping now: a small row with many cards to come."""
    def worth(seat: int) -> float:
        if USE_ENDGAME and decisive(table.view):
            return win_chance(table.view, table.seat, table.pool, seat, frozen=True)
        row = table.row(seat)
        lost = expected_final(row, table.pool) - score(row)
        return -lost if seat == table.seat else table.weight(seat) * lost

    return {"kind": "freeze", "seat": max(table.view["pending"]["options"], key=worth)}


def _triple_draw(table: Table, legal: list[dict]) -> dict:
    """Three forced cards hurt a big, risky row most; they rarely help even a small one."""
    def worth(seat: int) -> float:
        if USE_ENDGAME and decisive(table.view):
            return win_chance(table.view, table.seat, table.pool, seat, forced=3)
        row = table.row(seat)
        change = expected_final(row, table.pool, 3) - expected_final(row, table.pool)
        return change if seat == table.seat else -table.weight(seat) * change

    return {"kind": "triple_draw", "seat": max(table.view["pending"]["options"], key=worth)}


def _gift(table: Table, legal: list[dict]) -> dict:
    def help_given(seat: int) -> float:
        if USE_ENDGAME and decisive(table.view):
            row = table.row(seat) + [SECOND_CHANCE]
            return -win_chance(table.view, table.seat, table.pool, seat, row=row)
        row = table.row(seat)
        return table.weight(seat) * (table.protection(row) + 2)

    return {"kind": "gift", "seat": min(table.view["pending"]["options"], key=help_given)}


DECIDE = {
    "turn": _turn, "ballast": _ballast, "crossroads": _crossroads,
    "freeze": _freeze, "triple_draw": _triple_draw, "gift": _gift,
}
