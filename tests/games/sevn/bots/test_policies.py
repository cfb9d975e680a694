"""Every bot level decides every kind of decision, legally, from the public view alone."""

from __future__ import annotations

import ast
import random
import sys
from collections import Counter
from pathlib import Path

from game.games.sevn.bots import LEVELS, POLICIES, decide, hard
from game.games.sevn.engine import legal_actions, timeout, to_json
from tests.games.sevn.bots.helpers import PENDING_KINDS, make_view, random_positions
from tests.purity import loads_without_django

BOTS = Path(__file__).resolve().parents[4] / "game" / "games" / "sevn" / "bots"


def test_the_levels_and_the_baseline():
    assert LEVELS == ("easy", "medium", "hard")
    assert set(POLICIES) == {*LEVELS, "threshold25"}


def test_every_level_makes_only_legal_decisions_of_every_kind():
    seen: Counter[str] = Counter()
    for state in random_positions(100, every_turn=20):
        legal = legal_actions(state)
        seen[state["pending"]["kind"]] += 1
        before = to_json(state)
        for level in POLICIES:
            action = decide(level, state, random.Random(seen.total()))
            assert action in legal, (level, state["pending"], action)
        assert to_json(state) == before  # deciding never changes the game
    assert set(seen) == PENDING_KINDS, seen
    assert seen.total() > 1500


def test_decisions_do_not_depend_on_the_hidden_deck_order():
    checked = 0
    for index, state in enumerate(random_positions(60, every_turn=25)):
        if index % 3 or len(set(state["deck"])) < 2:
            continue
        shuffled, rng = state.clone(), random.Random(index)
        while shuffled["deck"] == state["deck"]:
            rng.shuffle(shuffled["deck"])
        for level in POLICIES:
            assert decide(level, state, random.Random(index)) == decide(level, shuffled, random.Random(index))
        checked += 1
    assert checked > 200


def test_bots_import_nothing_but_the_standard_library_and_the_engine():
    for path in BOTS.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                root = name.split(".")[0]
                assert root in sys.stdlib_module_names or name.startswith("game.games.sevn.engine"), (path.name, name)


def test_bots_import_without_django():
    ok, error = loads_without_django("game.games.sevn.bots")
    assert ok, error


# --- the hard bot on positions built by hand ----------------------------------------------------


def hard_choice(view: dict, legal: list[dict] | None = None) -> dict:
    return hard.choose(view, legal or [], random.Random(0))


def test_hard_freezes_the_small_row_with_most_to_come():
    view = make_view(
        [["10"], ["2"], ["13", "12", "11"]], totals=[100, 100, 100], pending={"kind": "freeze", "options": [0, 1, 2]}
    )
    assert hard_choice(view) == {"kind": "freeze", "seat": 1}


def test_hard_aims_triple_draw_at_the_big_risky_row():
    view = make_view(
        [["10"], ["2"], ["13", "12", "11"]],
        totals=[100, 100, 100],
        pending={"kind": "triple_draw", "options": [0, 1, 2]},
    )
    assert hard_choice(view) == {"kind": "triple_draw", "seat": 2}


def test_hard_keeps_ballast_for_sevn_or_featherweight_and_otherwise_discards_it():
    def keeps(row: list[str], card: str) -> bool:
        view = make_view([row, ["2"]], pending={"kind": "ballast", "card": card})
        return hard_choice(view)["keep"]

    assert keeps(["8", "9", "10", "11", "12", "13"], "-6")  # SEVN: 63 - 6 + 17
    assert keeps(["1", "2", "3", "featherweight"], "-2")  # four light cards: +15
    assert not keeps(["13", "12", "featherweight"], "-2")


def test_hard_never_picks_a_crossroads_duplicate_when_the_other_card_is_safe():
    view = make_view([["5", "9"], ["2"]], pending={"kind": "crossroads", "cards": ["9", "3"]})
    assert hard_choice(view) == {"kind": "crossroads", "pick": 1}


def test_hard_draws_when_passing_loses_to_a_seat_past_the_target():
    view = make_view(
        [["13", "12", "11", "10"], ["5"], ["3"]], totals=[200, 250, 100], statuses=["in", "passed", "passed"]
    )
    assert hard_choice(view, [{"kind": "draw"}, {"kind": "pass"}]) == {"kind": "draw"}


def test_hard_passes_when_passing_wins_the_game():
    view = make_view([["13", "12"], ["5"], ["3"]], totals=[230, 200, 100], statuses=["in", "passed", "passed"])
    assert hard_choice(view, [{"kind": "draw"}, {"kind": "pass"}]) == {"kind": "pass"}


def test_hard_draws_a_small_row_and_stops_a_big_risky_one():
    legal = [{"kind": "draw"}, {"kind": "pass"}]
    assert hard_choice(make_view([["4"], ["5"]]), legal) == {"kind": "draw"}
    assert hard_choice(make_view([["13", "12", "11", "10", "x2"], ["5"]]), legal) == {"kind": "pass"}


# --- the simple levels -------------------------------------------------------------------------


def test_threshold25_takes_the_engine_timeout_default_for_everything_but_turns():
    checked = 0
    for state in random_positions(60, every_turn=1000):
        if state["pending"]["kind"] == "turn":
            continue
        expected = timeout(state.clone())[0]["action"]
        assert decide("threshold25", state, random.Random(0)) == expected
        checked += 1
    assert checked > 500


def test_threshold25_draws_under_25_and_passes_from_25():
    legal = [{"kind": "draw"}, {"kind": "pass"}]
    assert POLICIES["threshold25"](make_view([["13", "11"], ["1"]]), legal, random.Random(0)) == {"kind": "draw"}
    assert POLICIES["threshold25"](make_view([["13", "12"], ["1"]]), legal, random.Random(0)) == {"kind": "pass"}


def test_medium_draws_while_the_bust_chance_is_low():
    legal = [{"kind": "draw"}, {"kind": "pass"}]
    assert POLICIES["medium"](make_view([["13"], ["1"]]), legal, random.Random(0)) == {"kind": "draw"}
    assert POLICIES["medium"](make_view([["13", "12"], ["1"]]), legal, random.Random(0)) == {"kind": "pass"}


def test_simple_levels_avoid_a_crossroads_bust():
    view = make_view([["5", "9"], ["2"]], pending={"kind": "crossroads", "cards": ["9", "3"]})
    for seed in range(5):
        assert POLICIES["easy"](view, [], random.Random(seed))["pick"] == 1
    # medium does not waste a Second Chance on a duplicate either
    view["seats"][0]["row"].append("second_chance")
    assert POLICIES["medium"](view, [], random.Random(0))["pick"] == 1
