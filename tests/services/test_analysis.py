"""A finished game's analysis (game.services.analysis): queued when the game ends and never before,
worked out once per estimate version in the background, shown in the replay with "Analysing…"
until then, and nothing of it in any update a table's viewers are sent while the game runs."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from game import registry, services
from game.models import GameAnalysis
from game.services import analysis

from ..fair.play import Unwatched, Watch, game_of, play_out, table_of

pytestmark = pytest.mark.django_db

GAMES = ("sevn", "sevens")
# What an analysis says, in keys and words: none of it may reach a table's viewers during play.
ANALYSIS_WORDS = re.compile(
    r"analys|accura|inaccura|blunder|mistake|judgement|chance to win|share of the win|expected|\"loss\"|\"grade\"",
    re.IGNORECASE,
)


@pytest.mark.parametrize("kind", GAMES)
def test_nothing_of_it_exists_or_is_sent_before_the_game_ends(kind):
    table, players = table_of(kind)
    watch = Watch(table, players)
    game = play_out(table, players, watch)
    sent_during_play = watch.sent[: -len(watch.keys)]  # the last pages were read once it was over
    for message in sent_during_play:
        assert not ANALYSIS_WORDS.search(message), ANALYSIS_WORDS.search(message).group(0)
    rows = GameAnalysis.objects.filter(game=game)
    assert [row.status for row in rows] == ["queued"]  # queued by the move that ended it, not worked out
    assert rows[0].version == registry.of(table).analysis.VERSION


def test_a_running_game_is_never_queued_nor_claimed():
    table, players = table_of("sevn")
    services.game_start(code=table.code, player=players[0])
    game = game_of(table)
    assert analysis.queue(game) is None
    GameAnalysis.objects.create(game=game, version=registry.of(table).analysis.VERSION)  # as if by mistake
    assert analysis.claim_next() is None  # only a game that is over is worked on


@pytest.mark.parametrize("kind", GAMES)
def test_the_replay_says_analysing_then_shows_each_judged_move(kind):
    table, players = table_of(kind)
    game = play_out(table, players, Unwatched())
    client = Client()
    page = client.get(f"/en/g/{game.public_id}/").content.decode()
    assert "Analysing…" in page and 'hx-trigger="every 3s"' in page
    assert analysis.run_one() is True
    assert analysis.run_one() is False  # stored once: nothing left to do
    row = GameAnalysis.objects.get(game=game)
    assert row.status == "done" and row.data["version"] == registry.of(table).analysis.VERSION
    judged = row.data["decisions"]
    assert judged, "a person's decisions were judged"
    step = min(judged, key=int)
    decision = judged[step]
    assert decision["seat"] in (0, 1)  # only people (the bot's seat is 2) are judged
    panel = client.get(f"/en/g/{game.public_id}/analysis/?step={step}").content.decode()
    assert "hx-trigger" not in panel and 'data-analysis="done"' in panel
    assert "accuracy" in panel
    shown = client.get(f"/en/g/{game.public_id}/?step={step}", headers={"X-Replay-Step": "1"}).content.decode()
    assert 'id="replay-judgement"' in shown
    assert shown.count("judgement__option") >= len(decision["options"])
    word = "Play " if kind == "sevens" else ""
    assert word in shown and "to win" in shown or "share of the win" in shown
    # each name and option before its figures, with the colon as the reader's language writes it
    french = client.get(f"/fr/g/{game.public_id}/analysis/?step={step}").content.decode()
    assert "\u202f:</strong>" in french and ":</strong>" in panel and " :</strong>" not in panel


def test_a_new_estimate_version_queues_the_game_again(monkeypatch):
    table, players = table_of("sevn")
    game = play_out(table, players, Unwatched())
    assert analysis.run_one()
    module = registry.of(table).analysis
    first = module.VERSION
    assert analysis.of_game(game.id)["status"] == "done"
    assert analysis.run_one() is False  # the same version is never worked out twice
    monkeypatch.setattr(module, "VERSION", first + "-next")
    assert analysis.of_game(game.id)["status"] == "queued"
    assert analysis.run_one()
    versions = set(GameAnalysis.objects.filter(game=game).values_list("version", "status"))
    assert versions == {(first, "done"), (first + "-next", "done")}


def test_an_analysis_that_fails_is_tried_again_once_then_left_failed():
    table, players = table_of("sevn")
    game = play_out(table, players, Unwatched())

    def broken(name, record):
        raise RuntimeError("no")

    assert analysis.run_one(broken)
    assert GameAnalysis.objects.get(game=game).status == "queued"
    assert analysis.run_one(broken)
    assert GameAnalysis.objects.get(game=game).status == "failed"
    page = Client().get(f"/en/g/{game.public_id}/").content.decode()
    assert "could not be analysed" in page and "hx-trigger" not in page


def test_the_background_works_in_a_low_priority_process_of_its_own_with_the_same_result():
    from game.registry.analysing import analyse, analyse_apart

    table, players = table_of("sevens")
    play_out(table, players, Unwatched())
    _id, name, record = analysis.claim_next()
    apart, here = analyse_apart(name, record), analyse(name, record)
    for result in (apart, here):
        result.pop("cpu_s")
    assert apart == here and apart["decisions"]


@pytest.mark.django_db(transaction=True)  # the loop reads and writes on Channels' database thread
def test_the_loop_stores_what_the_process_worked_out():
    import asyncio

    from game.live import analysing

    table, players = table_of("sevn")
    game = play_out(table, players, Unwatched())
    assert asyncio.run(analysing.run_once()) is True
    assert GameAnalysis.objects.get(game=game).status == "done"
    assert asyncio.run(analysing.run_once()) is False


def test_the_replay_s_log_marks_each_marked_move_beside_its_line():
    table, players = table_of("sevn")
    game = play_out(table, players, Unwatched())
    assert analysis.run_one()
    data = GameAnalysis.objects.get(game=game).data
    marked = sorted(int(step) for step, decision in data["decisions"].items() if decision["grade"])
    assert marked, "random play makes mistakes"
    last = max(int(step) for step in data["decisions"])  # the log shows the moves up to the step shown
    html = Client().get(f"/en/g/{game.public_id}/?step={last}", headers={"X-Replay-Step": "1"}).content.decode()
    log = html[html.index('id="replay-log"') :]
    shown = [int(step) for step in re.findall(r'class="log__line[^"]*log__line--marked"><a href="\?step=(\d+)"', log)]
    assert shown == marked  # one mark per marked move, in order
    for step in shown[:3]:
        grade = data["decisions"][str(step)]["grade"]
        assert f'judgement__mark--{grade}" aria-hidden="true">' in log
