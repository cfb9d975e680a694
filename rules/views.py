"""The rulebook pages (SEVN's two and Sevens'): prose from the translated models, pictures from the engines."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from game import registry
from rules.models import Blurb, DemoStep, EdgeCase, GlossaryEntry, Section

# Each game's rulebook pictures, computed by its engine (a Kind's `rulebook`).
demo = registry.KINDS["sevn"].rulebook
sevens_example = registry.KINDS["sevens"].rulebook
face, step_label, DECK = demo.face, demo.step_label, demo.DECK


def _sections(page: str) -> dict[str, Section]:
    return {section.key.split(".", 1)[1]: section for section in Section.objects.filter(page=page)}


def _blurbs(prefix: str) -> dict[str, str]:
    return {blurb.key[len(prefix) :]: blurb.text for blurb in Blurb.objects.filter(key__startswith=prefix)}


def _card_rules(prefix: str, codes) -> list[tuple[dict, str]]:
    """Each card with its one-line rule (blurb `prefix + code`)."""
    texts = _blurbs(prefix)
    return [(face(code), texts.get(code, "")) for code in codes]


def _cards(codes: list[str]) -> list[dict]:
    return [face(code) for code in codes]


@require_GET
def tutorial(request: HttpRequest) -> HttpResponse:
    frames = demo.demo_frames()
    captions = {step.number: step.caption for step in DemoStep.objects.all()}
    for frame in frames:
        frame["caption"] = captions.get(frame["number"], "")
        for seat in frame["seats"]:
            seat["cards"] = [
                {"face": face(code), "busting": seat["status"] == "bust" and i == len(seat["row"]) - 1}
                for i, code in enumerate(seat["row"])
            ]
    return render(
        request,
        "rules/tutorial.html",
        {
            "s": _sections("tutorial"),
            "blurbs": _blurbs("tutorial."),
            "frames": frames,
            "sample_row": _cards(demo.SAMPLE_ROW),
            "sample_draw": face(demo.SAMPLE_DRAW),
            "duplicate_row": _cards(demo.DUPLICATE_ROW),
            "duplicate_card": face(demo.DUPLICATE_CARD),
            "high_cards": [{"face": face(code), "copies": DECK[code]} for code in demo.HIGH_CARDS],
            "sevn_row": _cards(demo.SEVN_ROW),
            "specials": _card_rules("tutorial.special.", ("second_chance", "triple_draw", "freeze")),
            "other_cards": _cards(["-4", "x2", "+6", "crossroads", "storm", "featherweight", "heavyweight", "ladder"]),
            "glossary": GlossaryEntry.objects.all(),
            "glossary_heading": getattr(Section.objects.filter(key="full.glossary").first(), "heading", ""),
        },
    )


@require_GET
def full(request: HttpRequest) -> HttpResponse:
    example = demo.scoring_example()
    steps = [{"label": step_label(step["step"]), **step} for step in example["steps"]]
    groups = demo.deck_groups()
    return render(
        request,
        "rules/full.html",
        {
            "s": _sections("full"),
            "blurbs": _blurbs("full."),
            "numbers": [{"face": face(code), "copies": copies} for code, copies in groups[0]["cards"]],
            "groups": groups,
            "deck_total": sum(DECK.values()),
            "ballast": _cards([code for code, _ in groups[1]["cards"]]),
            "modifiers": _cards([code for code, _ in groups[2]["cards"]]),
            "bonus": _card_rules("full.bonus.", [code for code, _ in groups[3]["cards"]]),
            "actions": _card_rules("full.actions.", ("freeze", "second_chance", "triple_draw", "crossroads", "storm")),
            "example_row": _cards(example["row"]),
            "example_steps": steps,
            "edge_cases": EdgeCase.objects.all(),
            "glossary": GlossaryEntry.objects.all(),
        },
    )


@require_GET
def sevens(request: HttpRequest) -> HttpResponse:
    """The Sevens page: its prose, and the worked example and cases judged by the Sevens engine."""
    sections = _sections("sevens")
    blurbs = _blurbs("sevens.")
    cases = [{**case, "text": blurbs.get(f"case.{case['key']}", "")} for case in sevens_example.cases()]
    return render(
        request,
        "rules/sevens.html",
        {
            "s": sections,
            "blurbs": blurbs,
            "example": sevens_example.example(),
            "cases": cases,
            "guide": [
                sections[key]
                for key in ("guide_table", "guide_rows", "guide_passing", "guide_scoring")
                if key in sections
            ],
            "faq": [section for key, section in sections.items() if key.startswith("faq.")],
        },
    )
