"""Ratings cannot be farmed (#35 item 5). A host whose second account joined rated games and left
at once went from 1000 to #1 in three games: now a game someone left before it was well under
way rates only whoever left; leaving again and again, and rated games that always end the same
way between two accounts, are flagged for moderators (admin, where they mark them handled); and
a rated game whose people all left is finished after ABANDONED_AFTER and counts as a loss for
each, not a tie that lifts them all."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import timezone

from game.core.identity import Player
from game.live import timers
from game.models import Game, GameResult, LeavePause, Rating, RatingChange, RatingFlag, Seat, Table
from game.services import play, ratings
from tests.accounts.test_home import account
from tests.accounts.test_ratings import play_out, rated_table

pytestmark = pytest.mark.django_db
NEW = ratings.shown(ratings.MODEL.mu, ratings.MODEL.sigma)  # what a new player shows (1000)


def leaves_at_once(table: Table, index: int) -> None:
    """The person of this seat closed their screen right after the start: the platform's own
    sweep (the deadline loop's) finds them gone long enough and a bot takes the seat over."""
    Seat.objects.filter(table=table, index=index).update(last_seen=timezone.now() - timedelta(hours=1))
    timers.fire_due()
    assert Seat.objects.get(table=table, index=index).away


def farmed_game(host: Player, second: Player) -> Game:
    table = rated_table([host, second])
    leaves_at_once(table, 1)
    return play_out(table, [host])


def moderator(name: str) -> Client:
    client = Client()
    user = User.objects.create_user(name, password="pw-123456", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    client.force_login(user, backend="allauth.account.auth_backends.AuthenticationBackend")
    return client


def test_a_second_account_that_leaves_at_once_lifts_nobody_and_both_are_flagged(client):
    hal_user, hal = account("Hal")
    alt_user, alt = account("Alt")
    games = [farmed_game(hal, alt) for _game in range(3)]
    for game in games:
        results = {row.user_id: row for row in GameResult.objects.filter(game=game)}
        assert not results[hal_user.pk].rated and not results[hal_user.pk].away
        assert results[alt_user.pk].rated and results[alt_user.pk].away
        assert list(RatingChange.objects.filter(game=game).values_list("user_id", flat=True)) == [alt_user.pk]
    assert not Rating.objects.filter(user=hal_user).exists()  # the host's rating never moved
    alt_rating = Rating.objects.get(user=alt_user)
    assert alt_rating.games == 3 and alt_rating.value < NEW  # whoever left loses as before
    board = client.get("/en/ratings/sevn/").content.decode().split("<tbody>")[1]
    assert "Hal" not in board
    # flagged for moderators: Alt keeps leaving, and always ends behind Hal
    leaving = RatingFlag.objects.get(kind=RatingFlag.Kind.LEAVING)
    assert (leaving.user, leaving.other, leaving.count) == (alt_user, None, 3)
    assert leaving.games == sorted(game.id for game in games)
    one_sided = RatingFlag.objects.get(kind=RatingFlag.Kind.ONE_SIDED)
    assert (one_sided.user, one_sided.other, one_sided.count, one_sided.game_kind) == (alt_user, hal_user, 3, "sevn")
    # a moderator sees them in admin, each game linked to its replay, and marks them handled
    staff = moderator("Mo")
    listed = staff.get("/admin/game/ratingflag/")
    assert listed.status_code == 200
    page = listed.content.decode()
    assert "Leaves rated games again and again" in page and "Always loses rated games to the same account" in page
    detail = staff.get(f"/admin/game/ratingflag/{one_sided.pk}/change/").content.decode()
    assert all(f"/en/g/{game.public_id}/" in detail for game in games)
    answer = staff.post("/admin/game/ratingflag/", {"action": "handle", "_selected_action": [leaving.pk, one_sided.pk]})
    assert answer.status_code == 302
    assert RatingFlag.objects.filter(status=RatingFlag.Status.HANDLED).count() == 2
    assert not RatingFlag.objects.filter(status=RatingFlag.Status.OPEN).exists()
    # once handled, only later games count towards a new flag: one more is not three (the three
    # leaves paused Alt's joining public tables, services.reliability: moderators clear it first)
    LeavePause.objects.filter(user=alt_user).update(cleared_at=timezone.now())
    farmed_game(hal, alt)
    assert not RatingFlag.objects.filter(status=RatingFlag.Status.OPEN).exists()


def test_a_game_left_once_it_was_well_under_way_still_rates_those_who_stayed():
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    table = rated_table([mia, noa], target=1000)
    play_out(table, [mia, noa], moves_each=ratings.UNDER_WAY_MOVES)
    leaves_at_once(table, 1)
    game = play_out(table, [mia])
    assert set(RatingChange.objects.filter(game=game).values_list("user_id", flat=True)) == {mia_user.pk, noa_user.pk}
    assert Rating.objects.get(user=mia_user).value > NEW > Rating.objects.get(user=noa_user).value
    assert not RatingFlag.objects.exists()  # one game left is no pattern


def test_a_rated_game_everyone_left_ends_after_the_deadline_as_a_loss_for_each():
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    table = rated_table([mia, noa])
    Seat.objects.filter(table=table).update(last_seen=timezone.now() - timedelta(hours=1))
    timers.fire_due()
    assert all(Seat.objects.filter(table=table).values_list("away", flat=True))
    game = Game.objects.get(table=table)
    assert not game.over and game.deadline is not None
    assert game.deadline > timezone.now() + play.ABANDONED_AFTER - timedelta(minutes=1)  # it waits for them
    timers.fire_due(now=game.deadline - timedelta(seconds=1), check_absent=False)
    assert not Game.objects.get(id=game.id).over
    timers.fire_due(now=game.deadline + timedelta(seconds=1), check_absent=False)
    game.refresh_from_db()
    assert game.over and Table.objects.get(id=table.id).status == Table.Status.FINISHED
    results = GameResult.objects.filter(game=game)
    assert results.count() == 2 and all(row.away and row.rated for row in results)
    for user in (mia_user, noa_user):
        rating = Rating.objects.get(user=user)
        assert rating.games == 1 and rating.value < NEW  # a loss each: a tie would have lifted both
        change = RatingChange.objects.get(game=game, user=user)
        assert change.value < change.before == NEW


def test_an_unrated_game_everyone_left_ends_after_the_same_deadline():
    """It waited for them for good (#39 item 6): now it ends as a rated one does, unrated."""
    table = rated_table([account("Mia")[1], account("Noa")[1]], rated=False)
    Seat.objects.filter(table=table).update(last_seen=timezone.now() - timedelta(hours=1))
    timers.fire_due()
    game = Game.objects.get(table=table)
    assert not game.over and game.deadline > timezone.now() + play.ABANDONED_AFTER - timedelta(minutes=1)
    timers.fire_due(now=game.deadline + timedelta(seconds=1), check_absent=False)
    game.refresh_from_db()
    assert game.over and GameResult.objects.filter(game=game).count() == 2
    assert not Rating.objects.exists()


def test_the_ratings_page_says_when_a_game_counts(client):
    english = client.get("/en/ratings/sevn/").content.decode()
    assert "well under way once every player in it has made 3 moves of their own" in english
    assert "nobody is back within 5 minutes" in english and "shown to moderators" in english
    german = client.get("/de/ratings/sevens/").content.decode()
    assert "3 eigene Züge" in german and "innerhalb von 5 Minuten" in german and "der Moderation gemeldet" in german
    for language, words in (("nl", "3 eigen zetten"), ("pl", "3 własne ruchy"), ("fr", "3 coups lui-même")):
        assert words in client.get(f"/{language}/ratings/sevn/").content.decode()


def test_a_rated_game_left_by_all_before_this_change_gets_its_deadline_from_the_migration():
    mia_user, mia = account("Mia")
    table = rated_table([mia, account("Noa")[1]])
    Seat.objects.filter(table=table).update(away=True)  # as such games stayed: every seat away, no deadline
    Game.objects.filter(table=table).update(deadline=None)
    migration = importlib.import_module("game.migrations.0016_rating_flags")
    migration.abandoned_get_a_deadline(django_apps, None)
    game = Game.objects.get(table=table)
    assert game.deadline is not None and game.deadline > timezone.now() + timedelta(minutes=4)
    timers.fire_due(now=game.deadline + timedelta(seconds=1), check_absent=False)
    assert Game.objects.get(id=game.id).over and Rating.objects.get(user=mia_user).value < NEW


def test_rated_games_between_two_accounts_are_flagged_only_when_one_is_always_ahead():
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    ahead = []
    for _game in range(3):
        game = play_out(rated_table([mia, noa]), [mia, noa])  # both play every move to the end
        places = dict(GameResult.objects.filter(game=game).values_list("user_id", "place"))
        ahead.append(None if places[mia_user.pk] == places[noa_user.pk] else min(places, key=lambda user: places[user]))
    flags = list(RatingFlag.objects.values_list("kind", "user_id", "other_id", "count"))
    if ahead[0] is not None and ahead.count(ahead[0]) == 3:
        behind = noa_user.pk if ahead[0] == mia_user.pk else mia_user.pk
        assert flags == [(RatingFlag.Kind.ONE_SIDED, behind, ahead[0], 3)]
    else:
        assert flags == []  # results that went both ways are no pattern
    assert not RatingFlag.objects.filter(kind=RatingFlag.Kind.LEAVING).exists()  # nobody left
