"""Reliability shown (#39): beside the name at a seat while a game is played (both games; a
private profile's to its friends and itself only; guests and bots show nothing), and the home
page's list of open tables with each row's records, minimum and why the viewer cannot sit."""

from __future__ import annotations

import itertools
import random
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from game import registry, services
from game.core import pace as paces
from game.core.identity import Player, tag
from game.delivery.broadcast import Passed
from game.models import Friendship, Game, GameResult, LeavePause, Outcome, Presence, Table
from game.screen.table import Screen, table_view
from game.services import open_tables, reliability, selectors
from tests.accounts.test_home import account, signed_in

pytestmark = pytest.mark.django_db

codes = (f"R{n:05d}" for n in itertools.count())


def history(user: User, outcomes: str) -> None:
    """Finished games of `user`, oldest first: f finished, l left, t timed out, a aborted."""
    kinds = {"f": Outcome.FINISHED, "l": Outcome.LEFT, "t": Outcome.TIMED_OUT, "a": Outcome.ABORTED}
    start = timezone.now() - timedelta(days=30)
    for n, letter in enumerate(outcomes):
        table = Table.objects.create(code=next(codes), host_key="guest:h", host_name="H", seat_count=2)
        game = Game.objects.create(table=table, state="", seed=1)
        GameResult.objects.create(
            game=game,
            user=user,
            kind="sevn",
            seat=0,
            place=1,
            points=0,
            finished=start + timedelta(hours=n),
            outcome=kinds[letter],
        )


def befriend(one: User, other: User) -> None:
    for a, b in ((one, other), (other, one)):
        Friendship.objects.create(from_user=a, to_user=b, status=Friendship.Status.FRIENDS)


def naive(user_id: int) -> reliability.Reliability:
    """The figures as the profile states them, one account at a time (reliability.of's meaning)."""
    mine = GameResult.objects.filter(user_id=user_id).exclude(outcome=Outcome.ABORTED)
    recent = list(mine.order_by("-finished", "-id").values_list("outcome", flat=True)[: reliability.RECENT])
    leaves = mine.filter(outcome__in=reliability.LEAVES).order_by("-finished").values_list("finished", flat=True)
    last = leaves.first()
    return reliability.Reliability(
        finished=sum(1 for outcome in recent if outcome not in reliability.LEAVES),
        counted=len(recent),
        since_leave=mine.count() if last is None else mine.filter(finished__gt=last).count(),
        ever_left=last is not None,
    )


def test_everyone_s_figures_come_in_three_queries_and_say_what_one_at_a_time_says():
    rng = random.Random(39)
    people = []
    for n in range(6):
        user, _player = account(f"P{n}")
        history(user, "".join(rng.choice("fffffflta") for _ in range(rng.randrange(0, 45))))
        people.append(user.pk)
    with CaptureQueriesContext(connection) as queries:
        found = reliability.of(people)
    assert len(queries) == 3
    assert found == {user_id: naive(user_id) for user_id in people}
    assert any(row.counted == reliability.RECENT for row in found.values())  # more games than counted
    assert any(row.ever_left for row in found.values()) and any(row.counted < 30 for row in found.values())


@pytest.mark.parametrize("kind", ["sevn", "sevens"])
def test_a_game_s_seats_show_the_records_they_were_dealt_with_and_a_move_reads_none(kind):
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    history(mia_user, "f" * 27 + "lff")
    gus = Player(key="guest:gus")
    table = services.table_create(player=mia, nickname="", seat_count=4, kind=kind)
    services.seat_take(code=table.code, player=noa, nickname="")
    services.seat_take(code=table.code, player=gus, nickname="Gus")
    services.bot_add(code=table.code, player=mia, level="easy")
    services.game_start(code=table.code, player=mia)
    game = Game.objects.get(table=table)
    assert game.records[0] == {
        "user": mia_user.pk,
        "finished": 29,
        "counted": 30,
        "since": 2,
        "left": True,
        "private": False,
    }
    assert game.records[1:] == [None, None, None]  # Noa has no game yet; a guest; a bot
    history(mia_user, "lll")  # games ending elsewhere meanwhile: this game shows what it was dealt
    state = registry.of(table).from_json(game.state)
    acting = registry.of(table).acting(state)
    player = {0: mia, 1: noa, 2: gus}[acting]
    rng = random.Random(1)
    with CaptureQueriesContext(connection) as queries:
        update = services.game_act(
            code=table.code,
            player=player,
            action=registry.of(table).bot_action("easy", state, rng),
            version=game.version,
        )
    assert not any("gameresult" in query["sql"].lower() for query in queries)
    seats = update["snapshot"]["seats"]
    assert seats[0]["reliable"] == {"finished": 29, "counted": 30, "since": 2, "left": True, "private": False}
    assert all("reliable" not in seat for seat in seats[1:])
    html = Screen(gus.key, "en").full(update["snapshot"], [])
    mine = html.split('id="seat-0"')[1].split("</article>")[0]
    assert 'data-reliable="29/30"' in mine and "finished 29 of 30" in mine
    assert "finished 29 of the last 30 games, 2 games since the last leave" in mine  # what a screen reader hears
    assert html.count("data-reliable") == 1
    german = Screen(gus.key, "de").full(update["snapshot"], [])
    assert "29 von 30 beendet" in german


@pytest.mark.parametrize("kind", ["sevn", "sevens"])
def test_a_private_profile_s_record_is_seen_at_the_table_by_its_friends_and_itself_only(kind):
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    ola_user, ola = account("Ola")
    history(noa_user, "ffffl")
    noa_user.sevn_profile.private = True
    noa_user.sevn_profile.save()
    befriend(noa_user, ola_user)
    table = services.table_create(player=mia, nickname="", seat_count=3, kind=kind)
    services.seat_take(code=table.code, player=noa, nickname="")
    services.bot_add(code=table.code, player=mia, level="easy")
    services.game_start(code=table.code, player=mia)
    snapshot = services.table_reads.snapshot(Table.objects.get(pk=table.pk))
    assert snapshot["seats"][1]["reliable"]["private"] is True
    assert selectors.friend_tags(ola_user.pk) == {tag(noa.key)}

    def sees(viewer: Player | None, friends: frozenset = frozenset()) -> bool:
        screen = Screen(viewer and viewer.key, "en")
        screen.friends = friends
        return 'data-reliable="4/5"' in screen.full(snapshot, [])

    assert sees(noa)  # their own
    assert sees(ola, selectors.friend_tags(ola_user.pk))  # a friend, watching
    assert not sees(mia, selectors.friend_tags(mia_user.pk))  # seated, not a friend
    assert not sees(None)  # a spectator with no session
    # the pieces every viewer shares are worked out once for the friends, once for the others
    passed = Passed({"snapshot": snapshot, "events": []})
    strangers = table_view(snapshot, mia.key, passed=passed)
    friends = table_view(snapshot, ola.key, passed=passed, friends=selectors.friend_tags(ola_user.pk))
    assert passed.shared is not None and len(passed.variants) == 1
    assert strangers.pieces["seat-1"] != friends.pieces["seat-1"]
    assert table_view(snapshot, None, passed=passed).pieces["seat-1"] is strangers.pieces["seat-1"]


def test_the_table_page_shows_a_private_record_to_a_friend(client):
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    history(noa_user, "fff")
    noa_user.sevn_profile.private = True
    noa_user.sevn_profile.save()
    table = services.table_create(player=mia, nickname="", seat_count=2)
    services.seat_take(code=table.code, player=noa, nickname="")
    services.game_start(code=table.code, player=mia)
    signed_in(client, mia_user)
    assert 'data-reliable="3/3"' not in client.get(f"/en/t/{table.code}/").content.decode()
    befriend(mia_user, noa_user)
    assert 'data-reliable="3/3"' in client.get(f"/en/t/{table.code}/").content.decode()


def waiting(host: Player, **options) -> Table:
    """A public live table in its lobby with its host on its page."""
    table = services.table_create(player=host, nickname="" if host.is_user else "Host", seat_count=3, **options)
    Presence.objects.create(channel=f"c-{table.code}", table=table, player_key=host.key, seen=timezone.now())
    return table


def test_the_open_tables_are_the_public_ones_waiting_for_people():
    mia_user, mia = account("Mia")
    history(mia_user, "f" * 28 + "ll")
    listed = waiting(mia)
    nobody_there = services.table_create(player=Player(key="guest:al"), nickname="Al", seat_count=2)
    full = waiting(Player(key="guest:bo"))
    services.seat_take(code=full.code, player=Player(key="guest:cy"), nickname="Cy")
    services.seat_take(code=full.code, player=Player(key="guest:di"), nickname="Di")
    started = waiting(Player(key="guest:ed"))
    services.seat_take(code=started.code, player=Player(key="guest:fa"), nickname="Fa")
    services.game_start(code=started.code, player=Player(key="guest:ed"))
    friends_only = waiting(mia, pace=paces.UNLIMITED)
    turn_based = services.table_create(
        player=Player(key="guest:gi"), nickname="Gi", seat_count=3, pace="move-24h", kind="sevens"
    )
    old_turn_based = services.table_create(player=Player(key="guest:hu"), nickname="Hu", seat_count=2, pace="move-24h")
    Table.objects.filter(pk=old_turn_based.pk).update(created=timezone.now() - timedelta(days=4))
    rows = {row.code: row for row in open_tables.open_tables(Player(key="guest:x"))}
    assert set(rows) == {listed.code, turn_based.code}
    assert {nobody_there.code, full.code, started.code, friends_only.code}.isdisjoint(rows)
    row = rows[listed.code]
    assert (row.game, row.host, row.taken, row.seats, row.free, row.why) == ("SEVN", "Mia", 1, 3, 2, None)
    assert row.people[0].host and row.people[0].record == (28, 30, 0, True)
    assert rows[turn_based.code].game == "Sevens" and "24" in rows[turn_based.code].pace
    # not the tables one sits at: the page lists those already
    assert listed.code not in {row.code for row in open_tables.open_tables(mia)}


def row_of(html: str, code: str) -> str:
    """The open tables' row of a table, as drawn."""
    listed = html.split("data-open-tables")[1].split("</section>")[0]
    return next(row for row in re.split(r'<li class="open-table[" ]', listed) if f'data-open-table="{code}"' in row)


def test_a_row_says_why_the_viewer_cannot_sit_instead_of_join(client):
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    ola_user, ola = account("Ola")
    history(noa_user, "fffll")  # 60 %
    history(ola_user, "fffff")
    demanding = waiting(mia, min_reliability=80)
    members = waiting(mia, members_only=True)
    open_to_all = waiting(mia)

    def why(viewer: Player | None) -> dict[str, str | None]:
        return {row.code: row.why for row in open_tables.open_tables(viewer)}

    assert why(ola) == {demanding.code: None, members.code: None, open_to_all.code: None}
    low = why(noa)
    assert low[demanding.code] == (
        "You cannot sit here: you finished 60% of your last games, and this table asks for 80%."
    )
    assert low[members.code] is None and low[open_to_all.code] is None
    guest = why(None)
    assert guest[demanding.code] == "This table asks for a record of finished games: log in so that yours counts."
    assert guest[members.code] == "Only signed-in players may sit here: log in first."
    assert guest[open_to_all.code] is None
    LeavePause.objects.create(
        user=ola_user,
        level=0,
        games=[1, 2, 3],
        started=timezone.now(),
        until=timezone.now() + timedelta(minutes=10),
    )
    paused = why(ola)
    assert all(text.startswith("You may sit at public tables again after ") for text in paused.values())
    assert all("you left 3 games at public tables within a week." in text for text in paused.values())
    # the page: the row says why in place of Join (the fragment the page polls is the same list)
    signed_in(client, noa_user)
    page = client.get("/en/").content.decode()
    fragment = client.get("/en/tables/open/").content.decode()
    for html in (page, fragment):
        row = row_of(html, demanding.code)
        assert "data-cannot-sit" in row and "Join" not in row and "at least 80% of their last games" in row
        row = row_of(html, open_to_all.code)
        assert "data-cannot-sit" not in row and f'href="/en/t/{open_to_all.code}/"' in row
    assert 'hx-trigger="every 20s"' in fragment
    french = client.get("/fr/tables/open/").content.decode()
    assert "Vous ne pouvez pas vous asseoir ici\u202f: vous avez terminé 60\u202f% de vos dernières parties" in french


def test_a_private_record_in_the_open_tables_is_for_friends_only():
    mia_user, mia = account("Mia")
    ola_user, ola = account("Ola")
    ben_user, ben = account("Ben")
    history(mia_user, "ffff")
    mia_user.sevn_profile.private = True
    mia_user.sevn_profile.save()
    befriend(mia_user, ola_user)
    table = waiting(mia)
    services.seat_take(code=table.code, player=Player(key="guest:gus"), nickname="Gus")

    def records(viewer: Player | None) -> list:
        (row,) = open_tables.open_tables(viewer)
        return [person.record for person in row.people]

    assert records(ola) == [(4, 4, 4, False), None]
    assert records(ben) == [None, None] and records(None) == [None, None]


def test_the_open_tables_cost_the_same_queries_however_many_are_listed():
    viewer_user, viewer = account("Vic")
    history(viewer_user, "ffff")

    def listed() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            rows = open_tables.open_tables(viewer)
        return len(rows), len(queries)

    for n in range(3):
        host_user, host = account(f"Host{n}")
        history(host_user, "ffl")
        table = waiting(host, min_reliability=50)
        services.seat_take(code=table.code, player=account(f"Sat{n}")[1], nickname="")
    few = listed()
    for n in range(3, 12):
        host_user, host = account(f"Host{n}")
        history(host_user, "fff")
        waiting(host)
    many = listed()
    assert (few[0], many[0]) == (3, 12) and few[1] == many[1] <= 12
