"""The pictures of the rulebook, computed by the real engine: the self-playing round, the
scoring example, and the card rows the pages show."""

from __future__ import annotations

from game.engine import DECK, apply, new_game, public_view, score_steps
from game.engine.cards import ACTIONS, BALLASTS, BONUSES, MODIFIERS, NUMBERS, VALUE

# The round that plays itself: Dan deals; Ana draws a new value, Ben busts, Cleo passes,
# Dan draws, then Ana and Dan pass and the round is scored.
DEMO_NAMES = ("Dan", "Ana", "Ben", "Cleo")
DEMO_DECK = ["7", "3", "9", "5", "11", "3", "6", "1", "2", "4", "8"]
DEMO_STEPS: list[list[dict]] = [
    [],
    [{"kind": "draw"}],
    [{"kind": "draw"}],
    [{"kind": "pass"}],
    [{"kind": "draw"}],
    [{"kind": "pass"}, {"kind": "pass"}],
]

SCORING_ROW = ["3", "4", "5", "9", "12", "x2", "+4", "ladder", "heavyweight"]
DUPLICATE_ROW = ["3", "6", "9", "11"]
DUPLICATE_CARD = "9"
HIGH_CARDS = ["13", "12", "7", "3", "1"]
SEVN_ROW = ["0", "2", "4", "5", "8", "10", "13"]
SAMPLE_ROW = ["4", "8"]
SAMPLE_DRAW = "11"


def _frame(view: dict, step: int, moved: set[int]) -> dict:
    last = view["last_round"]
    scored = last is not None
    seats = []
    for index, name in enumerate(DEMO_NAMES):
        if scored:
            row, status, score = last["rows"][index], last["statuses"][index], last["scores"][index]
        else:
            seat = view["seats"][index]
            row, status, score = seat["row"], seat["status"], seat["round_score"]
        seats.append(
            {
                "name": name,
                "row": row,
                "status": status,
                "score": score,
                "dealer": index == 0,
                "turn": not scored and index == view["current"] and step > 1,
                "moved": index in moved,
                "distinct": sum(1 for code in row if code in VALUE),
            }
        )
    return {"number": step, "seats": seats, "scored": scored}


def demo_frames() -> list[dict]:
    """Six pictures of one real round, each after the moves of its step."""
    state = new_game(len(DEMO_NAMES), seed=0, deck=DEMO_DECK)
    frames = [_frame(public_view(state), 1, set(range(len(DEMO_NAMES))))]
    for number, actions in enumerate(DEMO_STEPS[1:], start=2):
        moved = set()
        for action in actions:
            moved.add(state["pending"]["seat"])
            apply(state, action)
        frames.append(_frame(public_view(state), number, moved))
    return frames


def scoring_example() -> dict:
    return {"row": SCORING_ROW, "steps": score_steps(SCORING_ROW)}


def deck_groups() -> list[dict]:
    """The deck's composition by group, counted from DECK."""
    groups = [
        ("numbers", NUMBERS),
        ("ballast", BALLASTS),
        ("modifiers", MODIFIERS),
        ("bonus", BONUSES),
        ("actions", ACTIONS),
    ]
    return [
        {"key": key, "cards": [(code, DECK[code]) for code in codes], "count": sum(DECK[code] for code in codes)}
        for key, codes in groups
    ]
