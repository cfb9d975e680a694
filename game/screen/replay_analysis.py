"""A finished game's analysis (game.services.analysis) as its replay shows it: the judgement of the
move that led to the step shown (each option with the hard bot's estimate, the chosen and the best
one, the grade), each person's accuracy and marked moves, and a chart of everyone's chances to
win over the game, with the same in words for screen readers. "Analysing…" until it is ready."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from django.template.loader import render_to_string
from django.utils.formats import number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from game import registry
from game.drawkit.words import decimal, percent
from game.screen.log import log_lines
from game.services import analysis

GRADES = {  # each grade's mark (as chess writes them), its name and its sentence
    "inaccuracy": ("?!", _("Inaccuracy"), _("an inaccuracy")),
    "mistake": ("?", _("Mistake"), _("a mistake")),
    "blunder": ("??", _("Blunder"), _("a blunder")),
}
WIDTH, HEIGHT = 600, 150  # the chart's view box
LEFT, RIGHT, TOP, BOTTOM = 30, 6, 6, 6
SEAT_COLOURS = 8  # the stylesheet's colours for the chart's lines (seat number modulo this)


def grade_mark(grade: str) -> dict[str, str] | None:
    if grade not in GRADES:
        return None
    mark, name, sentence = GRADES[grade]
    return {"grade": grade, "mark": mark, "name": str(name), "sentence": str(sentence)}


def judgement(kind, decision: dict | None, names: list[str]) -> dict[str, Any] | None:
    """One judged decision in words: each option with its estimate, which was chosen and which
    the bot rates best, the loss and the grade."""
    if decision is None:
        return None
    review = kind.review
    options = []
    for index, option in enumerate(decision["options"]):
        options.append(
            {
                "label": review.option_label(decision, option["action"], names),
                "estimate": review.estimate(option),
                "chosen": index == decision["chosen"],
                "best": index == decision["best"],
            }
        )
    options.sort(key=lambda option: not option["best"])  # the best first
    mover = names[decision["seat"]]
    loss = decision["loss"]
    mark = grade_mark(decision["grade"])
    if decision["chosen"] == decision["best"]:
        verdict = gettext("%(name)s chose the best option.") % {"name": mover}
    elif mark is None:
        verdict = gettext(
            "A close call, not marked: %(name)s gave up %(loss)s percentage points of their chance to win."
        ) % {
            "name": mover,
            "loss": decimal(loss),
        }
    else:
        verdict = gettext("%(grade)s: %(name)s gave up %(loss)s percentage points of their chance to win.") % {
            "grade": mark["name"],
            "name": mover,
            "loss": decimal(loss),
        }
    how = ""
    if decision.get("exact"):  # near a round's end, every deal that fits was solved (sevens/endgame.py)
        deals = decision["exact"]
        how = ngettext(
            "Solved exactly: only %(n)s way the others’ cards could lie, given what was known then, "
            "played out with all hands open.",
            "Solved exactly: all %(n)s ways the others’ cards could lie, given what was known then, "
            "each played out with all hands open.",
            deals,
        ) % {"n": number_format(deals, force_grouping=True)}
    return {"options": options, "mark": mark, "verdict": verdict, "mover": mover, "how": how}


def counted(grade: str, count: int) -> str:
    """ "2 mistakes", in the active language."""
    if grade == "blunder":
        return ngettext("%(n)s blunder", "%(n)s blunders", count) % {"n": count}
    if grade == "mistake":
        return ngettext("%(n)s mistake", "%(n)s mistakes", count) % {"n": count}
    return ngettext("%(n)s inaccuracy", "%(n)s inaccuracies", count) % {"n": count}


def _person(kind, seat: str, figures: dict, names: list[str]) -> dict[str, Any]:
    grades = [
        {**grade_mark(name), "count": count, "words": counted(name, count)}
        for name, count in figures["grades"].items()
        if count and name in GRADES
    ]
    kinds = sorted(figures.get("kinds", {}).items(), key=lambda item: -item[1])
    return {
        "name": names[int(seat)],
        "seat": int(seat),
        "accuracy": None if figures["accuracy"] is None else decimal(figures["accuracy"]),
        "decisions": figures["decisions"],
        "decisions_words": ngettext("%(n)s decision judged", "%(n)s decisions judged", figures["decisions"])
        % {"n": figures["decisions"]},
        "grades": grades,
        "worst": figures.get("worst"),
        "common": kind.review.mistake_kind(kinds[0][0]) if kinds else None,
    }


def _marks(kind, data: dict, names: list[str]) -> list[dict[str, Any]]:
    """Every marked move, in order: where it was, who, what they chose, and its grade."""
    marked = []
    for step, decision in sorted(data["decisions"].items(), key=lambda item: int(item[0])):
        mark = grade_mark(decision["grade"])
        if mark is None:
            continue
        chosen = decision["options"][decision["chosen"]]["action"]
        marked.append(
            {
                "step": int(step),
                "who": names[decision["seat"]],
                "chosen": kind.review.option_label(decision, chosen, names),
                **mark,
            }
        )
    return marked


def chart(points: list[list], steps: int, names: list[str]) -> dict[str, Any] | None:
    """Everyone's chance to win over the game as lines in an SVG view box, and in words."""
    if len(points) < 2:
        return None
    span = max(steps, 1)

    def x(step: int) -> str:
        return str(round(LEFT + step / span * (WIDTH - LEFT - RIGHT), 1))

    def y(chance: float) -> str:
        return str(round(TOP + (1 - chance) * (HEIGHT - TOP - BOTTOM), 1))

    lines = []
    for seat, name in enumerate(names):
        line = " ".join(f"{x(step)},{y(chances[seat])}" for step, chances in points if seat < len(chances))
        values = [chances[seat] for _step, chances in points if seat < len(chances)]
        words = gettext("%(name)s: %(start)s at the start, %(high)s at best, %(end)s at the end.") % {
            "name": name,
            "start": percent(values[0]),
            "high": percent(max(values)),
            "end": percent(values[-1]),
        }
        lines.append({"points": line, "colour": seat % SEAT_COLOURS, "name": name, "words": words})
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "lines": lines,
        "grid": [{"y": y(level), "label": percent(level)} for level in (0.0, 0.5, 1.0)],
        "left": LEFT,
        "right": WIDTH - RIGHT,
    }


def analysis_context(game_id: int, record: dict, step: int) -> dict[str, Any]:
    """What the replay's analysis shows at this step, as the template's context."""
    kind = registry.of({"kind": record["game"]})
    names = [seat["name"] for seat in record["seats"]]
    got = analysis.of_game(game_id) if kind.analysis is not None else {"status": "none", "data": None}
    data = got["data"]
    if data is None:
        return {"analysis_status": got["status"], "judgement": None}
    people = [_person(kind, seat, figures, names) for seat, figures in data["people"].items()]
    luck = data.get("luck") or {}
    for person in people:
        figures = luck.get(str(person["seat"]))
        if figures and (figures["luck"] or figures["play"]):
            person["luck"] = gettext(
                "Points lost to busts: %(luck)s to luck (the best decision would have drawn too), %(play)s to play."
            ) % {"luck": figures["luck"], "play": figures["play"]}
    return {
        "analysis_status": "done",
        "judgement": judgement(kind, data["decisions"].get(str(step)), names),
        "people": people,
        "marks": _marks(kind, data, names),
        "chart": chart(data.get("chart", []), len(record["moves"]), names),
        "complete": data.get("complete", True),
        "grades": [
            {**grade_mark(name), "threshold": decimal(threshold, 0)} for name, threshold in kind.analysis.GRADES
        ],
    }


def marked_lines(entries: list[dict], starts: list[int], marks) -> SafeString:
    """The replay's log with each marked move's first line carrying its mark (a link to that
    step, the grade in words for screen readers); `starts`: each move's first event number."""
    by_step = {mark["step"]: mark for mark in marks}
    if not by_step:
        return log_lines(entries)
    out, marked = [], set()
    for entry in entries:
        step = bisect_right(starts, entry["seq"])  # the move whose events hold this line (0: the deal)
        mark = by_step.get(step)
        if mark is None or step in marked:
            out.append(log_lines([entry]))
            continue
        marked.add(step)
        out.append(render_to_string("game/_replay_log_line.html", {"entry": entry, "mark": mark}))
    return mark_safe("".join(out))
