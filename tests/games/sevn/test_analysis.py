"""SEVN's judgement after a game (game/games/sevn/analysis.py) checked where the answer is known:
bust odds by exact count of the cards nobody can see, the right choice where that count makes it
clear, the deck's real order never used, the hard bot's own games without a blunder, and the
same grades whatever the analysis' seed."""

from __future__ import annotations

import copy

from game.games.sevn import analysis
from game.games.sevn.bots import POLICIES
from game.games.sevn.engine import DECK, legal_actions, public_view

from .engine.helpers import start

DRAW, PASS = {"kind": "draw"}, {"kind": "pass"}


def position(row: list[str], other: list[str], deck_order: list[str] | None = None, target: int = 120) -> dict:
    """Seat 1 to decide with `row`, seat 0 holding `other`; the rest of the real cards in the
    draw pile in `deck_order` (any order: nothing judged may depend on it)."""
    state, _events = start(["5", "6"], seats=2, target=target)
    assert state["pending"] == {"kind": "turn", "seat": 1}
    state["seats"][1]["row"], state["seats"][0]["row"] = list(row), list(other)
    rest = [card for card, copies in DECK.items() for _ in range(copies)]
    for card in row + other:
        rest.remove(card)
    state["deck"] = rest if deck_order is None else deck_order(rest)
    return state


def exact_bust(row: list[str], other: list[str]) -> float:
    """The chance the next card busts `row`, counted: copies of its values nobody can see, over
    every card nobody can see."""
    seen = row + other
    unseen = sum(DECK.values()) - len(seen)
    if "second_chance" in row:
        return 0.0
    return sum(DECK[value] - seen.count(value) for value in set(row) if value.isdigit()) / unseen


def judged(state: dict, chosen: dict, seed: int = 0) -> dict:
    return analysis.judge(public_view(state), legal_actions(state), chosen, seed)


def option(decision: dict, kind: str) -> dict:
    return next(o for o in decision["options"] if o["action"]["kind"] == kind)


def test_the_bust_chance_shown_is_the_exact_count_of_the_unseen_cards():
    for row, other in (
        (["12", "11", "10", "9", "8", "7"], ["6"]),
        (["3", "5"], ["5", "12"]),
        (["0"], ["4"]),
        (["13", "second_chance"], ["13"]),
        (["4", "x2", "-2"], ["4", "4"]),
    ):
        decision = judged(position(row, other), DRAW)
        assert option(decision, "draw")["bust"] == round(exact_bust(row, other), 4), row


def test_where_the_count_makes_the_choice_clear_the_judgement_agrees():
    # 57 points on six values, 45 % of the unseen cards bust it: a draw risks a winning row for a
    # few points more. Passing is best, and drawing is marked.
    row, other = ["12", "11", "10", "9", "8", "7"], ["6"]
    assert exact_bust(row, other) > 0.45
    drew = judged(position(row, other), DRAW)
    assert drew["options"][drew["best"]]["action"] == PASS
    assert drew["grade"] in ("mistake", "blunder") and drew["loss"] >= 5
    passed = judged(position(row, other), PASS)
    assert passed["chosen"] == passed["best"] and passed["grade"] == "" and passed["loss"] == 0
    # The only 0 is in the row: no unseen card can bust it, so drawing cannot lose. Drawing is best.
    row = ["0"]
    assert exact_bust(row, ["9"]) == 0
    stopped = judged(position(row, ["9"]), PASS)
    assert stopped["options"][stopped["best"]]["action"] == DRAW and option(stopped, "draw")["bust"] == 0
    assert stopped["grade"] != "" and stopped["loss"] > 0
    # With a Second Chance held, a duplicate is caught: no bust either way.
    caught = judged(position(["13", "12", "second_chance"], ["1"]), DRAW)
    assert option(caught, "draw")["bust"] == 0 and caught["grade"] == ""


def test_the_deck_s_real_order_never_changes_a_judgement():
    row, other = ["9", "7", "3"], ["10", "2"]
    orders = (list, lambda cards: list(reversed(cards)), lambda cards: sorted(cards, key=lambda c: hash(c) % 7))
    seen = [judged(position(row, other, order), DRAW) for order in orders]
    assert seen[0] == seen[1] == seen[2]


def test_the_hard_bot_s_own_games_show_no_blunder_nor_mistake():
    graded = []
    for seed in range(3):
        policies = [POLICIES[name] for name in ("hard", "easy", "hard", "medium")]
        record = analysis.bot_record(policies, 500 + seed)
        result = analysis.analyse(record, seats={0, 2})
        assert result["decisions"], "the hard seats' decisions were judged"
        graded += [d["grade"] for d in result["decisions"].values() if d["grade"]]
    assert "blunder" not in graded and "mistake" not in graded, graded


def test_two_analysis_seeds_give_the_same_grades():
    same = total = 0
    for seed in range(3):
        policies = [POLICIES[name] for name in ("easy", "medium", "threshold25")]
        record = analysis.bot_record(policies, 700 + seed)
        first, second = analysis.analyse(record, seed=1), analysis.analyse(record, seed=2)
        assert first["decisions"].keys() == second["decisions"].keys()
        for step, decision in first["decisions"].items():
            total += 1
            same += decision["grade"] == second["decisions"][step]["grade"]
    assert same / total >= 0.97, f"{same}/{total}"


def test_an_analysis_is_plain_data_and_judges_only_people():
    import json

    policies = [POLICIES[name] for name in ("easy", "medium")]
    record = analysis.bot_record(policies, 3)
    record["seats"][1]["player"] = "bot"
    first = next(step for step, move in enumerate(record["moves"], start=1) if move["seat"] == 0)
    record["moves"][first - 1]["bot"] = True  # a computer player moved for the person once
    result = json.loads(json.dumps(analysis.analyse(copy.deepcopy(record))))
    assert {d["seat"] for d in result["decisions"].values()} == {0}
    assert str(first) not in result["decisions"]
    assert set(result["people"]) == {"0"} and 0 <= result["people"]["0"]["accuracy"] <= 100
    assert result["chart"][-1][1] in ([1.0, 0.0], [0.0, 1.0])
