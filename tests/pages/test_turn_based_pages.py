"""The pages of turn-based tables: the start form makes one (its pace, playing hours and time
zone), refuses a bad pace with a message and makes nothing, the lobby says the pace in place of
the live timer, "Take my seat back" gives a kept seat back, and the tab title counts the tables
waiting for your move."""

from __future__ import annotations

from datetime import time, timedelta

import pytest

from game.core.identity import SESSION_KEY
from game.live import timers
from game.models import Seat, Table
from tests.services.turn_based_tables import acting, game_of, person, turn_of, turn_table

pytestmark = pytest.mark.django_db


def _as(client, player) -> None:
    session = client.session
    session[SESSION_KEY] = player.key
    session.save()


def test_the_start_form_makes_a_turn_based_table_with_playing_hours(client):
    answer = client.post(
        "/en/tables/new/",
        {
            "kind": "sevn",
            "nickname": "Ana",
            "seat_count": "2",
            "turn_seconds": "30",
            "bot_speed": "normal",
            "pace": "bank-3d",
            "window_start": "21:00",
            "window_end": "09:00",
            "time_zone": "America/New_York",
        },
    )
    assert answer.status_code == 302
    table = Table.objects.get()
    assert (table.pace, table.move_seconds, table.bank_increment, table.bank_most) == ("bank", 259200, 43200, 432000)
    assert (table.window_start, table.window_end, table.time_zone) == (time(21), time(9), "America/New_York")
    lobby = client.get(f"/en/t/{table.code}/").content.decode()
    assert "Turn-based: Time bank: 3 days, +12 hours a move, at most 5 days" in lobby
    assert "Clocks run 21:00–09:00 (America/New_York)" in lobby
    assert "259200" not in lobby and "s per decision" not in lobby


def test_a_bad_pace_is_refused_on_the_form_and_makes_nothing(client):
    answer = client.post(
        "/en/tables/new/",
        {"kind": "sevn", "nickname": "Ana", "seat_count": "2", "turn_seconds": "30", "pace": "none"},
    )
    assert answer.status_code == 400
    assert "A table with no time limit is for friends: log in to open one for yours." in answer.content.decode()
    answer = client.post(
        "/en/tables/new/",
        {
            "kind": "sevn",
            "nickname": "Ana",
            "seat_count": "2",
            "turn_seconds": "30",
            "pace": "live",
            "window_start": "09:00",
            "window_end": "21:00",
            "time_zone": "UTC",
        },
    )
    assert answer.status_code == 400
    assert "Playing hours are for turn-based tables with a clock." in answer.content.decode()
    assert not Table.objects.exists()


def test_take_my_seat_back_from_the_table_page(client):
    table, (ana, ben) = turn_table("move-24h")
    first = acting(table)
    for _miss in range(3):
        timers.fire_due(game_of(table).deadline + timedelta(seconds=1), check_absent=False)
    owner = ana if Seat.objects.get(table=table, index=first).player_key == ana.key else ben
    _as(client, owner)
    page = client.get(f"/en/t/{table.code}/").content.decode()
    assert "Take my seat back" in page and "You missed two turns in a row" in page
    assert client.post(f"/en/t/{table.code}/back/").status_code == 302
    assert not Seat.objects.get(table=table, index=first).away
    assert "Take my seat back" not in client.get(f"/en/t/{table.code}/").content.decode()
    answer = client.post(f"/en/t/{table.code}/back/", follow=True)  # not kept any more: said so
    assert "Your seat is yours already: nobody plays it for you." in answer.content.decode()


def test_the_tab_title_counts_the_tables_waiting_for_your_move(client):
    ana, ben = person("Ana"), person("Ben")
    for _table in range(2):
        table, _ = turn_table("move-12h", players=[ana, ben])
        turn_of(table, ana, [ana, ben])
    _as(client, ana)
    for path in ("/en/", "/en/rules/"):
        page = client.get(path).content.decode()
        assert "<title>(2) " in page, path
        assert 'id="your-move-count" hidden data-count="2"' in page
    _as(client, ben)
    assert "<title>(" not in client.get("/en/").content.decode()


@pytest.mark.parametrize(("language", "hour"), [("en", "h"), ("fr", "\u202fh"), ("de", "\u202fh"), ("nl", "u")])
def test_the_clock_ring_s_units_carry_the_space_each_language_puts_before_them(language, hour):
    """turn.js writes number + unit: "23h" in English, "23 h" (a narrow no-break space) in French."""
    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override(language):
        html = render_to_string("table/_countdown.html")
    assert f'data-hour="{hour}"' in html
