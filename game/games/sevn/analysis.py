"""After a game: the hard bot's judgement on every decision a person made, pure Python.

Each decision is replayed from the game record (its seed and moves, through the engine alone) and
judged from the public view of that moment only: the rows, the discard pile, the cards revealed,
and the draw pile's composition (every card not in sight), never its order. For each option the
hard bot's estimate (bots/hard.py): the chance to win it leaves (sampled ends of the rows in
round, then the standings model) and, where they mean something, the expected round score and the
chance to bust. The loss of a choice is the win chance it gave up against the best option, in
percentage points; a loss is graded when it reaches a threshold (`GRADES`), calibrated on the
bots' own games (bench/analysis_cpu.py prints the spread; the rules page says what they mean).
Anything smaller is a close call and is not marked.

`analyse(record)` gives a plain JSON-able dict: every judged decision by move number, each
person's accuracy, a chart of everyone's chances over the game and the points lost to busts
apart from play ("luck"). `seed` changes the sampled futures, so two seeds show how stable the
grades are.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter

from game.games.sevn import record_play
from game.games.sevn.bots.endgame import FUTURES, Futures
from game.games.sevn.bots.hard import Picture, after
from game.games.sevn.bots.odds import busting_share
from game.games.sevn.bots.rollout import finals
from game.games.sevn.bots.rows import score
from game.games.sevn.engine import legal_actions, public_view

VERSION = "sevn-hard/1"  # a new estimate (the hard bot changed) gets a new one: stored analyses are redone
# Loss in percentage points of the chance to win: at least this much is marked with that grade.
GRADES = (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))
SAMPLES = 4  # sets of the hard bot's sampled futures each estimate is the mean of (its noise, quartered)
BUDGET_S = 60.0  # CPU seconds a game may take at most; decisions past it are left unjudged


class _Futures(Futures):
    """The hard bot's sampled futures, their luck drawn from the analysis' own seed."""

    def __init__(self, view: dict, pool: dict[str, int], seed: int) -> None:
        super().__init__(view, pool)
        self.seed = seed

    def column(self, seat, *, row=None, frozen=False, forced=0):
        usual = row is None and not frozen and not forced
        if usual and seat in self._columns:
            return self._columns[seat]
        s = self.seats[seat]
        if s["status"] == "in" and not frozen:
            sampled = finals(
                s["row"] if row is None else row, self.pool, FUTURES, forced=forced, seed=self.seed * 1009 + seat
            )
            column = [s["total"] + final for final in sampled]
        else:
            column = [float(s["total"] + s["round_score"])] * FUTURES
        if usual:
            self._columns[seat] = column
        return column


class _Picture(Picture):
    def __init__(self, view: dict, seed: int) -> None:
        super().__init__(view)
        self.seed = seed
        self.futures = _Futures(view, self.pool, seed)

    def chance_played_on(self, row):
        sampled = finals(row, self.pool, FUTURES, seed=self.seed * 1009 + self.seat)
        return sum(self.chance(x) for x in sampled) / FUTURES


def options(view: dict, legal: list[dict], seed: int = 0) -> list[dict]:
    """Every legal answer to the decision pending in `view`, with the hard bot's estimate:
    `chance` (to win, 0..1; the mean over `SAMPLES` sets of sampled futures), and `points`
    (expected round score) and `bust` (0..1) where they apply."""
    kind = view["pending"]["kind"]
    rated = [{"action": action} for action in legal]
    for sample in range(SAMPLES):
        picture = _Picture(view, seed * SAMPLES + sample)
        for option in rated:
            estimate = _estimate(picture, kind, option["action"], picture.row)
            option["chance"] = option.get("chance", 0.0) + estimate.pop("chance") / SAMPLES
            option.update(estimate)
    for option in rated:
        option["chance"] = round(option["chance"], 5)
        for key in ("points", "bust"):
            if key in option:
                option[key] = round(option[key], 4)
    return rated


def _estimate(picture: _Picture, kind: str, action: dict, row: list[str]) -> dict:
    if kind == "turn":
        if action["kind"] == "pass":
            now = score(row)
            return {"chance": picture.chance(now), "points": float(now)}
        outcomes = picture.outcomes(row)
        return {
            "chance": sum(p * picture.chance(v) for p, v in outcomes),
            "points": picture.expected_draw(row),
            "bust": busting_share(row, picture.pool),
        }
    if kind == "ballast":
        kept = row + [picture.view["pending"]["card"]] if action["keep"] else row
        new, sevn = after(row, picture.view["pending"]["card"]) if action["keep"] else (row, False)
        if sevn and new is not None:
            points = score(new, sevn=True)
            return {"chance": picture.chance(points), "points": float(points)}
        return {"chance": picture.chance_played_on(kept), "points": picture.value(kept)}
    if kind == "crossroads":
        card = picture.view["pending"]["cards"][action["pick"]]
        return {"chance": picture.chance_after(card), "points": picture.value_after(card)}
    seat = action["seat"]
    futures = picture.futures
    if kind == "freeze":
        return {"chance": futures.win_chance(picture.seat, seat, frozen=True)}
    if kind == "triple_draw":
        return {"chance": futures.win_chance(picture.seat, seat, forced=3)}
    gifted = picture.seats[seat]["row"] + ["second_chance"]
    return {"chance": futures.win_chance(picture.seat, seat, row=gifted)}


def grade(loss: float) -> str:
    """The grade of a loss in percentage points of the chance to win ("" for a close call)."""
    for name, threshold in GRADES:
        if loss >= threshold:
            return name
    return ""


def move_accuracy(loss: float) -> float:
    """One decision's accuracy, 0..100: 100 without loss, halved by a blunder's loss."""
    return 100.0 * math.exp(-math.log(2) * max(loss, 0.0) / GRADES[0][1])


def judge(view: dict, legal: list[dict], chosen: dict, seed: int = 0) -> dict | None:
    """One decision judged: its options, the chosen and the best one, the loss and its grade;
    None when there was nothing to choose."""
    if len(legal) < 2:
        return None
    rated = options(view, legal, seed)
    best = max(range(len(rated)), key=lambda i: rated[i]["chance"])
    picked = next((i for i, option in enumerate(rated) if option["action"] == chosen), None)
    if picked is None:
        return None
    loss = 100.0 * (rated[best]["chance"] - rated[picked]["chance"])
    if loss < 1e-9:  # options estimated equal: the choice is as good as the best
        best, loss = picked, 0.0
    judged = {
        "seat": view["current"],
        "kind": view["pending"]["kind"],
        "options": rated,
        "chosen": picked,
        "best": best,
        "loss": round(loss, 3),
        "grade": grade(loss),
    }
    if "cards" in view["pending"]:
        judged["cards"] = list(view["pending"]["cards"])
    return judged


def _chances(view: dict, seed: int) -> list[float]:
    """Everyone's chance to win from this position, as the hard bot sees it."""
    futures = _Futures(view, Picture(view).pool, seed)
    return [round(futures.win_chance(seat), 4) for seat in range(len(view["seats"]))]


def analyse(record: dict, *, seed: int = 0, seats: set[int] | None = None, budget_s: float = BUDGET_S) -> dict:
    """The analysis of a finished game from its record: every decision of a person (or of the
    seats in `seats`) judged, move by move. Moves a computer player made for someone, and clocks
    that ran out, are not theirs and are not judged."""
    started = time.process_time()
    people = {s["seat"] for s in record["seats"] if s.get("player") != "bot"} if seats is None else set(seats)
    state = record_play.new(len(record["seats"]), record["fair"]["engine_seed"], dict(record["options"]), [])
    judged: dict[str, dict] = {}
    chart: list[list] = []
    luck = {seat: {"luck": 0, "play": 0} for seat in people}
    complete = True
    for step, move in enumerate(record["moves"], start=1):
        seat = move["seat"]
        mine = not move.get("timeout") and not move.get("bot") and seat in people
        if mine and time.process_time() - started > budget_s:
            complete = False
            mine = False
        view = public_view(state) if mine or state["pending"]["kind"] == "turn" else None
        if view is not None and state["pending"]["kind"] == "turn":
            if not chart or state["round"] != chart[-1][2] or step - chart[-1][0] >= 4:
                chart.append([step - 1, _chances(view, seed), state["round"]])
        decision = judge(view, legal_actions(state), move["action"], seed) if mine else None
        before = public_view(state)["seats"][seat]["round_score"] if decision else 0
        if move.get("timeout"):
            record_play.timeout(state)
        else:
            record_play.apply(state, move["action"], seat)
        if decision is None:
            continue
        judged[str(step)] = decision
        if decision["kind"] == "turn" and move["action"]["kind"] == "draw":
            if any(e.get("type") == "bust" and e.get("seat") == seat for e in move.get("events", [])):
                luck[seat]["play" if decision["grade"] else "luck"] += before
    if state["over"]:
        final = [1.0 if seat == state["winner"] else 0.0 for seat in range(len(state["seats"]))]
        chart.append([len(record["moves"]), final, state["round"]])
    return {
        "game": record_play.NAME,
        "version": VERSION,
        "seed": seed,
        "decisions": judged,
        "people": summary(judged, people),
        "chart": [[step, chances] for step, chances, _round in chart],
        "luck": {str(seat): figures for seat, figures in luck.items()},
        "complete": complete,
        "cpu_s": round(time.process_time() - started, 3),
    }


def summary(judged: dict[str, dict], people: set[int]) -> dict[str, dict]:
    """Each person's accuracy (mean of their decisions' accuracy), grades counted, worst move."""
    out = {}
    for seat in sorted(people):
        mine = [(int(step), d) for step, d in judged.items() if d["seat"] == seat]
        counted = Counter(d["grade"] for _step, d in mine if d["grade"])
        worst = max(mine, key=lambda item: item[1]["loss"], default=None)
        out[str(seat)] = {
            "decisions": len(mine),
            "accuracy": round(sum(move_accuracy(d["loss"]) for _s, d in mine) / len(mine), 1) if mine else None,
            "grades": {name: counted.get(name, 0) for name, _t in GRADES},
            "worst": worst[0] if worst and worst[1]["grade"] else None,
            "kinds": _mistake_kinds(mine),
        }
    return out


def _mistake_kinds(mine: list[tuple[int, dict]]) -> dict[str, int]:
    """The kinds of graded decisions, counted: what a person gets wrong most often."""
    kinds: Counter = Counter()
    for _step, d in mine:
        if not d["grade"]:
            continue
        chosen = d["options"][d["chosen"]]["action"]
        if d["kind"] == "turn":
            kinds["drew_too_far" if chosen["kind"] == "draw" else "stopped_too_soon"] += 1
        else:
            kinds[d["kind"]] += 1
    return dict(kinds)


def bot_record(policies: list, seed: int, *, target: int = 250) -> dict:
    """A game of computer players (bots.POLICIES) as far as a record goes for `analyse`: the
    seats, the deal's seed and settings and every move with its events. What the analysis is
    calibrated, checked and measured on (tests, bench/analysis_cpu.py)."""
    state = record_play.new(len(policies), seed, {"target": target}, [])
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(len(policies))]
    moves = []
    while not state["over"]:
        seat = state["pending"]["seat"]
        action = policies[seat](public_view(state), legal_actions(state), rngs[seat])
        moves.append({"seat": seat, "action": action, "events": record_play.apply(state, action, seat)})
    return {
        "seats": [{"seat": seat, "player": "person"} for seat in range(len(policies))],
        "options": {"target": target},
        "fair": {"engine_seed": seed},
        "moves": moves,
    }
