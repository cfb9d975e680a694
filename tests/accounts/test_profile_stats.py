"""Stats on the profile (#26 item 6), per game: games, wins, average points, SEVN rate and bust
rate (SEVN), average penalty (Sevens), and the rating over time as a small SVG drawn on the
server. The game's own figures come from its Kind (seat_figures, figure_lines)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from game import registry, services
from game.core.identity import Player
from game.models import Event, GameResult, RatingChange
from game.screen.rating_chart import rating_chart
from game.services import selectors
from tests.accounts.test_home import account, signed_in
from tests.accounts.test_ratings import play_out, rated_table

pytestmark = pytest.mark.django_db


def test_sevn_figures_count_rounds_sevns_and_busts_from_the_game_s_log():
    people = [account(name)[1] for name in ("Mia", "Noa")]
    table = rated_table(people)
    game = play_out(table, people)
    events = [row.data for row in Event.objects.filter(game=game).order_by("seq")]
    rounds = sum(event["type"] == "round_scored" for event in events)
    busts = [sum(event["type"] == "bust" and event["seat"] == seat for event in events) for seat in (0, 1)]
    sevns = [sum(event["type"] == "round_scored" and event["sevn"] == seat for event in events) for seat in (0, 1)]
    assert rounds >= 1
    for seat in (0, 1):
        figures = GameResult.objects.get(game=game, seat=seat).figures
        assert figures == {"rounds": rounds, "sevns": sevns[seat], "busts": busts[seat]}
    state = registry.of(table).from_json(game.state)
    assert [row.points for row in GameResult.objects.filter(game=game).order_by("seat")] == [
        seat["total"] for seat in state["seats"]
    ]


def test_the_profile_shows_each_game_s_stats_and_rating_chart(client):
    mia_user, mia = account("Mia")
    people = [mia, account("Noa")[1], account("Oli")[1]]
    for _game in range(3):
        play_out(rated_table(people), people)
    play_out(rated_table(people, kind="sevens"), people)

    with translation.override("en"):  # the figures' labels are in the active language
        stats = {row["kind"]: row for row in selectors.game_stats(mia_user.pk)}
    results = GameResult.objects.filter(user=mia_user, kind="sevn")
    sevn = stats["sevn"]
    assert sevn["games"] == 3 and sevn["wins"] == sum(row.won for row in results)
    assert sevn["points"] == pytest.approx(sum(row.points for row in results) / 3)
    rounds = sum(row.figures["rounds"] for row in results)
    busts = sum(row.figures["busts"] for row in results)
    assert dict(sevn["lines"])["Bust rate"] == f"{round(100 * busts / rounds)}%"
    assert sevn["rated_games"] == 3 and len(sevn["history"]) == 4  # the start and after each game
    sevens = stats["sevens"]
    penalty = GameResult.objects.get(user=mia_user, kind="sevens").figures
    assert list(dict(sevens["lines"])) == ["Average penalty per round"]
    assert penalty == {"rounds": 1, "penalty": GameResult.objects.get(user=mia_user, kind="sevens").points}

    html = client.get("/en/u/Mia/").content.decode()
    section = html[html.index('id="stats-sevn"') : html.index('id="stats-sevens"')]
    for label in ("Games played", "Wins", "Average points", "SEVN rate", "Bust rate", "Rating", "Rating over time"):
        assert f">{label}<" in section, label
    assert "Average penalty per round" in html[html.index('id="stats-sevens"') :]
    chart = re.search(r'<svg class="rating-chart__svg"[^>]*aria-label="([^"]+)"[^>]*>(.*?)</svg>', section, re.S)
    assert chart and "Rating over 3 rated games" in chart.group(1)
    points = re.search(r'<polyline class="rating-chart__line" points="([^"]+)"', chart.group(2)).group(1).split()
    assert len(points) == 4
    assert "<script" not in section

    # in German, with the language's decimal comma and percent sign
    html = client.get("/de/u/Mia/").content.decode()
    svg = html[html.index("<svg") : html.index("</svg>")]
    lengths = re.findall(r' (?:x1|x2|y1|y2|cx|cy|x|y)="([^"]*)"', svg)
    assert lengths and all(re.fullmatch(r"\d+(\.\d+)?", length) for length in lengths), lengths  # never "8,0"
    assert "Raus-Quote" in html and "Wertungszahl im Verlauf" in html and "Strafpunkte pro Runde im Schnitt" in html


def test_a_private_profile_shows_no_stats_to_others(client):
    mia_user, mia = account("Mia")
    people = [mia, account("Noa")[1]]
    play_out(rated_table(people), people)
    mia_user.sevn_profile.private = True
    mia_user.sevn_profile.save()
    assert "stats-sevn" not in client.get("/en/u/Mia/").content.decode()
    signed_in(client, mia_user)
    assert "stats-sevn" in client.get("/en/u/Mia/").content.decode()


def test_the_chart_puts_the_highest_rating_at_the_top_and_the_lowest_at_the_bottom():
    start = datetime(2026, 12, 1, tzinfo=UTC)
    history = [(start + timedelta(days=day), value) for day, value in enumerate((1000, 1040, 980, 1100))]
    chart = rating_chart(history)
    ys = [float(point.split(",")[1]) for point in chart.line.split()]
    xs = [float(point.split(",")[0]) for point in chart.line.split()]
    assert xs == sorted(xs) and len(set(xs)) == 4  # oldest on the left
    assert ys[3] == min(ys) == float(chart.high_y) and ys[2] == max(ys) == float(chart.low_y)
    assert (chart.high, chart.low) == (1100, 980) and chart.last == (str(xs[3]), str(ys[3]))
    assert rating_chart(history[:1]) is None
    assert rating_chart([(start, 1000), (start, 1000)]).high_y == rating_chart([(start, 1000), (start, 1000)]).low_y


def test_a_game_with_nobody_signed_in_records_nothing():
    ana, ben = Player(key="guest:ana"), Player(key="guest:ben")
    table = services.table_create(player=ana, nickname="Ana", seat_count=2, options={"target": 50})
    services.seat_take(code=table.code, player=ben, nickname="Ben")
    services.game_start(code=table.code, player=ana)
    play_out(table, [ana, ben])
    assert not GameResult.objects.exists() and not RatingChange.objects.exists()
