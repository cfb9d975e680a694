"""The home page's lists as the your-move bench (bench/turn_based_load.py) reads them: a live
table stays listed however many turn-based ones a person sits at, the page asks the same number
of questions at one table as at many, whose decision a table waits for is read from the game's
kept seat (its state only for a game begun before that was kept), and the time zone select is
Django's markup drawn in one pass."""

from __future__ import annotations

import pytest
from django import forms
from django.db import connection
from django.test.utils import CaptureQueriesContext

from game import services
from game.models import Game
from game.pages.alerts import NotificationSettingsForm
from game.pages.forms import CreateTableForm
from game.services import selectors
from tests.accounts.test_home import signed_in
from tests.factories import open_table, stack
from tests.services.turn_based_tables import person, turn_of, turn_table

pytestmark = pytest.mark.django_db


def _login(client, player) -> None:
    from django.contrib.auth.models import User

    signed_in(client, User.objects.get(pk=player.user_id))


def test_a_live_table_stays_listed_beside_twenty_turn_based_ones(client, settings):
    settings.SEVN_MAX_TURN_BASED_TABLES = 30
    ana = person("Ana")
    live = services.table_create(player=ana, nickname="", seat_count=4)  # the oldest: listed last
    turn_based = [turn_table("move-24h", players=[ana], start=False)[0] for _table in range(21)]
    _login(client, ana)
    page = client.get("/en/")
    assert [row["table"].code for row in page.context["tables"]] == [live.code]
    assert {row["code"] for row in page.context["turn_based"]} == {table.code for table in turn_based}
    assert f"/t/{live.code}/" in page.content.decode()


def test_the_home_page_asks_as_many_questions_at_one_table_as_at_five(client):
    ana, ben = person("Ana"), person("Ben")
    table, _ = turn_table("move-12h", players=[ana, ben])
    turn_of(table, ana, [ana, ben])
    services.table_create(player=ana, nickname="", seat_count=4)  # and a live one
    _login(client, ana)
    client.get("/en/")  # the session and caches warm
    with CaptureQueriesContext(connection) as one:
        page = client.get("/en/").content.decode()
    assert "<title>(1) " in page
    for _table in range(4):
        table, _ = turn_table("move-12h", players=[ana, ben])
        turn_of(table, ana, [ana, ben])
    with CaptureQueriesContext(connection) as five:
        page = client.get("/en/").content.decode()
    assert "<title>(5) " in page and 'data-count="5"' in page
    assert len(five.captured_queries) == len(one.captured_queries), [q["sql"][:90] for q in five.captured_queries]


def test_whose_move_is_the_game_s_kept_seat_or_its_state_for_an_older_game():
    table, (ana, ben) = open_table(names=("Ana", "Ben"), seats=2, deck=["5", "9", "4", "1", "2"])
    game = Game.objects.get(table=table)
    deciding = game.acting
    assert deciding is not None
    players = {0: ana, 1: ben}
    rows = {key: selectors.your_tables(player.key)[0]["your_move"] for key, player in players.items()}
    assert rows == {deciding: True, 1 - deciding: False}
    Game.objects.filter(id=game.id).update(acting=None)  # begun before the seat was kept
    rows = {key: selectors.your_tables(player.key)[0]["your_move"] for key, player in players.items()}
    assert rows == {deciding: True, 1 - deciding: False}
    stack(table, ["9", "5", "4", "1", "2"])
    again = Game.objects.get(id=game.id).acting
    assert again is not None
    assert selectors.your_tables(players[again].key)[0]["your_move"]


@pytest.mark.parametrize(
    "form",
    [
        lambda: CreateTableForm(initial={"nickname": "Ana"}),
        lambda: CreateTableForm({"time_zone": "America/Argentina/Buenos_Aires"}),
        lambda: CreateTableForm({"time_zone": '"><script>'}),
        lambda: NotificationSettingsForm(initial={"time_zone": "Europe/Warsaw"}),
        lambda: NotificationSettingsForm({"time_zone": "Pacific/Chatham"}),
    ],
)
def test_the_time_zone_select_is_django_s_markup(form):
    made = form()
    field = made["time_zone"]
    django_s = forms.Select(attrs=dict(field.field.widget.attrs), choices=field.field.choices)
    drawn = str(field)
    assert drawn == field.as_widget(widget=django_s)
    assert drawn.count("<option ") == len(field.field.choices) > 400
    if made.is_bound and field.value() != '"><script>':
        assert f'<option value="{field.value()}" selected>' in drawn
