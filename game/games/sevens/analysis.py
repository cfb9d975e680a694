"""After a game: the hard bot's judgement on every card a person chose to play, pure Python.

Each decision is replayed from the game record (its seed and moves, through the engine alone) and
judged from what that seat knew then: its own hand, the layout, everyone's counts and the round's
public moves (bots/sight.py), never the others' real hands. As the hard bot does (bots/hard.py),
the hidden hands are imagined many ways that fit all the seat had seen (the passes as facts, the
plays as evidence: bots/inference.py), every option is played out to the end of the round in each
imagined deal with the same deals for every option (bots/rollout.py, in C when built), and each
end is worth the share of the win the totals then promise (bots/standing.py), less a small
tie-break for the round's relative penalty. Its estimate of an option is the mean over the deals.
Near a round's end, where few cards and few deals are left (endgame.applies), nothing is sampled:
every deal that fits is taken, weighed as the sampler would weigh it, and the round is solved
exactly in each with all hands open (endgame.py); such a decision says how many deals it took
(`exact`) and has no sampling error.

The loss of a choice is what it gave up against the best option, in percentage points of that
share; it is graded when it reaches a threshold (`GRADES`, calibrated on the bots' own games:
bench/analysis_cpu.py prints the spread) and when it is more than `SURE` standard errors of the
deal-by-deal difference above nothing, so that the sampling's noise never marks a close call.

`analyse(record)` gives a plain JSON-able dict: every judged decision by move number, each
person's accuracy, and a chart of each seat's chance to win: at each judged decision as the seat
to act imagined the hidden hands (after its choice), and after every round from the totals. `seed` changes the imagined
deals, so two seeds show how stable the grades are.
"""

from __future__ import annotations

import math
import random
import time
from array import array
from collections import Counter
from itertools import chain, islice

from game.games.sevens import endgame, record_play
from game.games.sevens.bots.bits import BIT
from game.games.sevens.bots.hard import TIE_BREAK
from game.games.sevens.bots.inference import likely_deals
from game.games.sevens.bots.native import deal_ends
from game.games.sevens.bots.rollout import counts_of
from game.games.sevens.bots.sight import Sight, read_sight
from game.games.sevens.bots.standing import win_share
from game.games.sevens.bots.worlds import Dealer
from game.games.sevens.engine import apply, new_game, view

VERSION = "sevens-hard/2"  # a new estimate (the hard bot changed) gets a new one: stored analyses are redone
DEALS = 4800  # imagined deals per decision (twice what the hard bot imagines in play)
# Loss in percentage points of the share of the win: at least this much is marked with that grade.
GRADES = (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))
SURE = 2.0  # a loss is graded only when it is this many standard errors above nothing
BUDGET_S = 60.0  # CPU seconds a game may take at most; decisions past it are left unjudged


def options(sight: Sight, seed: int = 0, deals: int = DEALS) -> tuple[list[dict], dict[str, list[float]], dict]:
    """Each card the seat may play with the hard bot's estimate over `deals` imagined deals:
    `chance` (the share of the win, 0..1) and `cards` (own cards expected left at the round's end);
    each option's value deal by deal (for the paired standard error), and its ends of the round
    (rollout.end_key) deal by deal."""
    imagined = likely_deals(sight, Dealer(sight), random.Random(seed))
    hands = array("Q", chain.from_iterable(islice(imagined, deals)))
    seats = len(sight.counts)
    me = sight.seat
    worth: dict[int, tuple[float, float, int]] = {}
    rated, values, ends = [], {}, {}
    for card in sight.playable:
        keys = ends[card] = deal_ends(hands, seats, sight.fitting, me, BIT[card])
        for key in set(keys).difference(worth):
            worth[key] = _worth(sight, counts_of(key, seats))
        seen = [worth[key] for key in keys]
        values[card] = [value for value, _share, _left in seen]
        rated.append(
            {
                "action": {"kind": "play", "card": card},
                "chance": sum(share for _v, share, _l in seen) / len(seen),
                "cards": sum(left for _v, _s, left in seen) / len(seen),
                "value": sum(values[card]) / len(seen),
            }
        )
    return rated, values, ends


def everyone(sight: Sight, keys: list[int]) -> list[float]:
    """Every seat's share of the win over these ends of the round (as the seat to act imagines
    the hidden hands): the chart's point at its decision."""
    seats = len(sight.counts)
    shares = [0.0] * seats
    for key, copies in Counter(keys).items():
        left = counts_of(key, seats)
        totals = [total + cards for total, cards in zip(sight.totals, left, strict=True)]
        for seat in range(seats):
            shares[seat] += copies * win_share(totals, seat, sight.rounds_after)
    return [round(share / len(keys), 4) for share in shares]


def _worth(sight: Sight, left: list[int]) -> tuple[float, float, int]:
    """An end of the round: (the bot's value of it, the share of the win, own cards left)."""
    me = sight.seat
    relative = left[me] - (sum(left) - left[me]) / (len(left) - 1)
    totals = [total + cards for total, cards in zip(sight.totals, left, strict=True)]
    share = win_share(totals, me, sight.rounds_after)
    return share - TIE_BREAK * relative, share, left[me]


def grade(loss: float, error: float = 0.0) -> str:
    """The grade of a loss in percentage points ("" for a close call, or one the noise may explain)."""
    if loss <= SURE * error:
        return ""
    for name, threshold in GRADES:
        if loss >= threshold:
            return name
    return ""


def move_accuracy(loss: float) -> float:
    """One decision's accuracy, 0..100: 100 without loss, halved by a blunder's loss."""
    return 100.0 * math.exp(-math.log(2) * max(loss, 0.0) / GRADES[0][1])


def judge(sight: Sight, chosen: dict, seed: int = 0, deals: int = DEALS) -> dict | None:
    """One decision judged from the seat's sight: its options, the chosen and the best, the loss
    and its grade; None when there was nothing to choose."""
    if len(sight.playable) < 2 or chosen.get("kind") != "play":
        return None
    if chosen.get("card") not in sight.playable:
        return None
    if endgame.applies(sight):
        return _judge_exactly(sight, chosen)
    rated, values, ends = options(sight, seed, deals)
    best = max(range(len(rated)), key=lambda i: rated[i]["value"])
    picked = sight.playable.index(chosen["card"])
    gaps = [b - c for b, c in zip(values[sight.playable[best]], values[sight.playable[picked]], strict=True)]
    mean = sum(gaps) / len(gaps)
    spread = math.sqrt(sum((gap - mean) ** 2 for gap in gaps) / max(len(gaps) - 1, 1))
    loss, error = 100.0 * mean, 100.0 * spread / math.sqrt(len(gaps))
    return _decision(sight, rated, picked, best, loss, error, everyone(sight, ends[sight.playable[picked]]))


def _judge_exactly(sight: Sight, chosen: dict) -> dict:
    """A decision near the round's end judged by the exact solve (endgame.py): every deal that
    fits, each played out perfectly; no sampling, so no noise to allow for."""
    rated, values, chances, count = endgame.options(sight)
    picked = sight.playable.index(chosen["card"])
    best = max(range(len(rated)), key=lambda i: rated[i]["value"])
    loss = 100.0 * (values[sight.playable[best]] - values[chosen["card"]])
    decision = _decision(sight, rated, picked, best, loss, 0.0, [round(c, 4) for c in chances[chosen["card"]]])
    decision["exact"] = count
    return decision


def _decision(
    sight: Sight, rated: list[dict], picked: int, best: int, loss: float, error: float, chances: list[float]
) -> dict:
    if loss < 1e-9:
        best, loss, error = picked, 0.0, 0.0
    for option in rated:
        option["chance"] = round(option["chance"], 4)
        option["cards"] = round(option["cards"], 2)
        option["value"] = round(option["value"], 5)
    return {
        "seat": sight.seat,
        "kind": "play",
        "options": rated,
        "chosen": picked,
        "best": best,
        "loss": round(loss, 3),
        "error": round(error, 3),
        "grade": grade(loss, error),
        "chances": chances,
    }


def judge_at(state: dict, chosen: dict, seed: int = 0, deals: int = DEALS) -> dict | None:
    """The decision of the seat to act in `state`, judged from its view and the round's public
    moves alone (its sight): the same for every deal of the others' hands that fits them."""
    if chosen.get("kind") != "play":
        return None
    return judge(read_sight(view(state, state["current"]), state["moves"]), chosen, seed, deals)


def analyse(
    record: dict, *, seed: int = 0, seats: set[int] | None = None, budget_s: float = BUDGET_S, deals: int = DEALS
) -> dict:
    """The analysis of a finished game from its record: every card a person (or a seat in
    `seats`) chose to play, judged. Plays a computer player made for someone, clocks that ran out
    and plays without a choice are not judged."""
    started = time.process_time()
    people = {s["seat"] for s in record["seats"] if s.get("player") != "bot"} if seats is None else set(seats)
    count = len(record["seats"])
    state = record_play.new(count, record["fair"]["engine_seed"], dict(record["options"]), [])
    judged: dict[str, dict] = {}
    chart: list[list] = [[0, [round(win_share([0] * count, s, state["rounds"]), 4) for s in range(count)]]]
    complete = True
    for step, move in enumerate(record["moves"], start=1):
        seat = move["seat"]
        mine = not move.get("timeout") and not move.get("bot") and seat in people
        if mine and time.process_time() - started > budget_s:
            complete, mine = False, False
        decision = judge_at(state, move["action"], seed * 100_003 + step, deals) if mine else None
        round_before = state["round"]
        if move.get("timeout"):
            record_play.timeout(state)
        else:
            record_play.apply(state, move["action"], seat)
        if decision is not None:
            judged[str(step)] = decision
            chart.append([step, decision["chances"]])
        if state["round"] != round_before or state["over"]:
            chart.append([step, _standing(state)])
    return {
        "game": record_play.NAME,
        "version": VERSION,
        "seed": seed,
        "decisions": judged,
        "people": summary(judged, people),
        "chart": chart,
        "complete": complete,
        "cpu_s": round(time.process_time() - started, 3),
    }


def _standing(state: dict) -> list[float]:
    """Each seat's share of the win from the totals after a round (exact once the game is over)."""
    totals = [seat["total"] for seat in state["seats"]]
    if state["over"]:
        winners = state["winners"]
        return [1 / len(winners) if seat in winners else 0.0 for seat in range(len(totals))]
    after = state["rounds"] - state["round"] + 1
    return [round(win_share(totals, seat, after), 4) for seat in range(len(totals))]


def summary(judged: dict[str, dict], people: set[int]) -> dict[str, dict]:
    """Each person's accuracy (mean of their decisions' accuracy), grades counted, worst move."""
    out = {}
    for seat in sorted(people):
        mine = [(int(step), d) for step, d in judged.items() if d["seat"] == seat]
        counted = Counter(d["grade"] for _step, d in mine if d["grade"])
        worst = max(mine, key=lambda item: item[1]["loss"], default=None)
        kinds = Counter(_kind_of(d) for _s, d in mine if d["grade"])
        out[str(seat)] = {
            "decisions": len(mine),
            "accuracy": round(sum(move_accuracy(d["loss"]) for _s, d in mine) / len(mine), 1) if mine else None,
            "grades": {name: counted.get(name, 0) for name, _t in GRADES},
            "worst": worst[0] if worst and worst[1]["grade"] else None,
            "kinds": dict(kinds),
        }
    return out


def _kind_of(decision: dict) -> str:
    """What kind of mistake: a card that opened a row for others when keeping it would have
    blocked them, or the wrong one of several useful cards."""
    chosen = decision["options"][decision["chosen"]]
    best = decision["options"][decision["best"]]
    rank = chosen["action"]["card"][:-1]
    if rank in ("6", "8") and best["action"]["card"][:-1] not in ("6", "8"):
        return "opened_for_others"
    return "wrong_card"


def bot_record(policies: list, seed: int, *, rounds: int = 3) -> dict:
    """A game of computer players (bots.POLICIES) as far as a record goes for `analyse`: the
    seats, the deal's seed and settings and every move with its events. What the analysis is
    calibrated, checked and measured on (tests, bench/analysis_cpu.py)."""
    state = new_game(len(policies), seed, rounds=rounds)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(len(policies))]
    moves = []
    while not state["over"]:
        seat = state["current"]
        action = policies[seat](read_sight(view(state, seat), state["moves"]), rngs[seat])
        moves.append({"seat": seat, "action": action, "events": apply(state, action, actor=seat)})
    return {
        "seats": [{"seat": seat, "player": "person"} for seat in range(len(policies))],
        "options": {"rounds": rounds},
        "fair": {"engine_seed": seed},
        "moves": moves,
    }
