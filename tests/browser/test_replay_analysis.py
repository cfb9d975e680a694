"""The analysis in a finished game's replay, in a browser: "Analysing…" while the server's
background loop works it out, then the judgement fills in without a reload; the marked moves
lead to their step, and each step shows its options with the hard bot's estimates in words."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from game import registry
from game.models import GameAnalysis

from ..fair.play import Unwatched, play_out, table_of
from ..waiting import until

pytestmark = pytest.mark.django_db(transaction=True)


def held_back(game) -> None:
    """The game's analysis as if a process were working on it: the loop leaves it alone."""
    version = registry.of(game.table).analysis.VERSION
    GameAnalysis.objects.filter(game=game).delete()
    GameAnalysis.objects.create(game=game, version=version, status="running", started=timezone.now())


@pytest.mark.parametrize("kind", ["sevn", "sevens"])
def test_the_replay_says_analysing_then_fills_in_without_a_reload(page, live_url, kind, shoot):
    table, players = table_of(kind, names=("Ana", "Ben", "Cleo"), bots=("hard",))
    game = play_out(table, players, Unwatched())
    held_back(game)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_url}/en/g/{game.public_id}/?step=0")
    expect(page.locator("#replay-analysis")).to_contain_text("Analysing…")
    page.evaluate("window.sameLoad = true")
    GameAnalysis.objects.filter(game=game).update(status="queued")  # the server's loop takes it now
    try:  # the server's one loop may first finish an analysis a test before this one queued
        expect(page.locator('#replay-analysis[data-analysis="done"]')).to_be_visible(timeout=150_000)
    except AssertionError as failed:
        rows = list(GameAnalysis.objects.values_list("game_id", "status", "queued", "started", "finished"))
        raise AssertionError(f"not analysed; the analyses now: {rows}") from failed
    assert page.evaluate("window.sameLoad") is True  # filled in without a reload
    expect(page.locator("#replay-analysis")).to_contain_text("accuracy")
    data = GameAnalysis.objects.get(game=game).data
    step = min(int(step) for step in data["decisions"])
    marked = sorted(int(step) for step, d in data["decisions"].items() if d["grade"])
    page.keyboard.press("End")
    page.locator("#replay-slider").fill(str(step))
    expect(page.locator("#replay-counter")).to_have_text(re.compile(f"^Move {step} of"))
    judgement = page.locator("#replay-judgement")
    expect(judgement.locator(".judgement__option")).to_have_count(len(data["decisions"][str(step)]["options"]))
    expect(judgement).to_contain_text("share of the win" if kind == "sevens" else "to win")
    if marked:  # a marked move in the list leads to its step, its mark said in words
        page.locator(f'#replay-analysis [data-replay-jump="{marked[0]}"]').first.click()
        expect(page.locator("#replay-counter")).to_have_text(re.compile(f"^Move {marked[0]} of"))
        expect(judgement.locator(".judgement__verdict")).to_contain_text(re.compile("Inaccuracy|Mistake|Blunder"))
    shoot(page, f"replay-analysis-{kind}-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    shoot(page, f"replay-analysis-{kind}-phone")
    page.goto(f"{live_url}/de/g/{game.public_id}/?step={step}")
    expect(page.locator("#replay-analysis")).to_contain_text("Analyse durch den Bot")
    shoot(page, f"replay-analysis-{kind}-phone-de")


def test_the_profile_shows_accuracy_over_time(page, live_url, shoot):
    from game.services import analysis

    from ..accounts.test_home import account
    from ..accounts.test_ratings import play_out as play_rated
    from ..accounts.test_ratings import rated_table

    people = [account(name)[1] for name in ("Mia", "Noa", "Oli")]
    # three deals that each give Mia choices to judge (a deal that freezes her at once, and a
    # round 1 someone wins to 50, would leave a game with nothing of hers analysed)
    games = [play_rated(rated_table(people, seed=seed), people) for seed in (0, 1, 2)]
    while analysis.run_one():  # here, or by the server's own loop meanwhile: both are waited for
        pass
    until(
        lambda: GameAnalysis.objects.filter(game__in=games, status="done").count() == len(games),
        "every game analysed",
        seconds=120,
    )
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_url}/en/u/Mia/")
    section = page.locator("#stats-sevn").locator("xpath=..")
    expect(section).to_contain_text("Average accuracy")
    expect(section).to_contain_text("Accuracy over time")
    expect(section.locator('svg[aria-label^="Accuracy over 3 analysed games"]')).to_have_count(1)
    shoot(section, "profile-accuracy-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_url}/fr/u/Mia/")
    expect(page.locator("#stats-sevn").locator("xpath=..")).to_contain_text("Précision moyenne")
    shoot(page.locator("#stats-sevn").locator("xpath=.."), "profile-accuracy-phone-fr")
    page.goto(f"{live_url}/en/rules/sevn/full/#analysis")
    expect(page.locator("#analysis")).to_contain_text("percentage points")
    shoot(page.locator("#analysis"), "rules-analysis-phone")


def test_a_step_on_its_way_when_the_analysis_comes_is_the_step_shown(page, live_url):
    """The analysis arriving while a step asked for (End) is still on its way used to ask for the
    step shown before it, and the page dropped the step asked for: the replay stayed at the deal.
    Here the step's answer is held back until the analysis is in, then let go."""
    from game.registry.analysing import analyse
    from game.services import analysis
    from game.services.records import full_record

    table, players = table_of("sevens", seeds={0: "abc"})
    game = play_out(table, players, Unwatched())
    held_back(game)
    record = full_record(game)
    data = analyse("sevens", record, budget_s=5)
    steps = len(record["moves"])
    page.set_viewport_size({"width": 1280, "height": 800})
    held, holding = [], [True]

    def hold_steps(route):
        if holding[0] and route.request.headers.get("x-replay-step"):
            held.append(route)
        else:
            route.continue_()

    page.route(re.compile(r"/g/"), hold_steps)
    page.goto(f"{live_url}/en/g/{game.public_id}/?step=0")
    expect(page.locator("#replay-analysis")).to_contain_text("Analysing…")
    with page.expect_request(lambda request: bool(request.headers.get("x-replay-step"))):
        page.keyboard.press("End")
    analysis.finish(GameAnalysis.objects.get(game=game).id, data)
    expect(page.locator('#replay-analysis[data-analysis="done"]')).to_be_visible()
    holding[0] = False
    for route in held:
        route.continue_()
    expect(page.locator("#replay-counter")).to_have_text(f"Move {steps} of {steps}")
    expect(page).to_have_url(f"{live_url}/en/g/{game.public_id}/?step={steps}")
