"""Ratings (#26 item 5): a rated table is for signed-in players; each finished rated game moves
its people's openskill ratings by their places (bots unrated, a person who left ranks last);
leaderboards per game, everyone's and among friends."""

from __future__ import annotations

import random
from contextlib import nullcontext
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from game import registry, services
from game.core.errors import ServiceError
from game.core.identity import Player
from game.models import Event, Game, GameResult, Rating, RatingChange, Seat, Table
from game.services import friends, invitations, presence, ratings, selectors
from tests.accounts.test_home import account, signed_in

pytestmark = pytest.mark.django_db


def rated_table(
    players: list[Player],
    *,
    bots: tuple[str, ...] = (),
    rated: bool = True,
    kind: str = "sevn",
    target: int = 50,
    seed: int | None = None,
    turn_seconds: int = 30,
):
    """A table of these people (the first hosts) and bots, started; `seed` starts the game from
    that seed (its deals and the bots' choices known) instead of a random one; `turn_seconds` 0
    for no turn timer (a test that moves for the people itself, and must not race the clock)."""
    host = players[0]
    table = services.table_create(
        player=host,
        nickname="",
        seat_count=len(players) + len(bots),
        options={"target": target} if kind == "sevn" else {"rounds": 1},
        turn_seconds=turn_seconds,
        rated=rated,
        kind=kind,
    )
    for player in players[1:]:
        services.seat_take(code=table.code, player=player, nickname="")
    for level in bots:
        services.bot_add(code=table.code, player=host, level=level)
    with (
        # the engine's seed, as the fair deal would derive it (game.fair.seeds)
        mock.patch("game.fair.seeds.engine_seed", return_value=seed) if seed is not None else nullcontext()
    ):
        services.game_start(code=table.code, player=host)
    return table


def play_out(table: Table, players: list[Player], *, moves_each: int | None = None) -> Game:
    """Every person moves as the medium bot would, through the play service, to the game's end
    (or, with `moves_each`, until each seated person has made that many moves of their own)."""
    kind = registry.of(table)
    by_key = {player.key: player for player in players}
    rng = random.Random(7)
    for _move in range(5000):
        game = Game.objects.get(table=table)
        if game.over:
            return game
        if moves_each is not None and all(
            Event.objects.filter(game=game, kind="action", data__seat=seat, data__bot__isnull=True).count()
            >= moves_each
            for seat in range(len(game.players))
        ):
            return game
        state = kind.from_json(game.state)
        seat = Seat.objects.get(table=table, index=kind.acting(state))
        services.game_act(
            code=table.code,
            player=by_key[seat.player_key],
            action=kind.bot_action("medium", state, rng),
            version=game.version,
        )
    raise AssertionError("the game did not end")


def test_a_rated_table_is_for_signed_in_players_only():
    _mia, mia = account("Mia")
    table = services.table_create(player=mia, nickname="", seat_count=3, rated=True)
    assert table.rated and table.members_only
    with pytest.raises(ServiceError) as refused:
        services.seat_take(code=table.code, player=Player(key="guest:ann"), nickname="Ann")
    assert refused.value.code == "members_only"
    guest_table = services.table_create(player=Player(key="guest:bo"), nickname="Bo", seat_count=2, rated=True)
    assert not guest_table.rated  # a guest cannot ask for ratings


def test_a_finished_rated_game_rates_its_people_by_place_and_leaves_bots_out():
    people = [account(name)[1] for name in ("Mia", "Noa", "Oli")]
    table = rated_table(people, bots=("hard",))
    game = play_out(table, people)
    places = registry.of(table).places(registry.of(table).from_json(game.state))
    results = {row.seat: row for row in GameResult.objects.filter(game=game)}
    assert sorted(results) == [0, 1, 2]  # the bot (seat 3) has no result
    assert all(row.rated and row.place == places[row.seat] for row in results.values())
    rows = {row.user.username: row for row in Rating.objects.filter(kind="sevn").select_related("user")}
    assert sorted(rows) == ["Mia", "Noa", "Oli"] and all(row.games == 1 for row in rows.values())
    by_seat = [rows[name] for name in ("Mia", "Noa", "Oli")]
    # openskill's expectation: the better place, the higher the new mean
    order = sorted(range(3), key=lambda seat: places[seat])
    if len({places[seat] for seat in range(3)}) == 3:
        assert by_seat[order[0]].mu > by_seat[order[1]].mu > by_seat[order[2]].mu
    assert abs(sum(row.mu for row in by_seat) - 3 * ratings.MODEL.mu) < 1e-6  # what one wins another loses
    changes = RatingChange.objects.filter(game=game)
    assert changes.count() == 3 and {change.before for change in changes} == {ratings.shown(25.0, 25 / 3)}


def test_an_unrated_table_keeps_results_but_moves_no_rating():
    people = [account(name)[1] for name in ("Mia", "Noa")]
    table = rated_table(people, rated=False)
    play_out(table, people)
    assert GameResult.objects.filter(rated=False).count() == 2
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_person_who_left_ranks_last_and_the_others_are_still_rated():
    people = [account(name)[1] for name in ("Mia", "Noa", "Oli")]
    table = rated_table(people, target=1000)  # a long game: never over before it is well under way
    play_out(table, people, moves_each=ratings.UNDER_WAY_MOVES)
    # Oli's socket is gone for long: the platform marks the seat away and a bot plays it
    Seat.objects.filter(table=table, index=2).update(last_seen=timezone.now() - timedelta(hours=1))
    presence.mark_absent()
    assert Seat.objects.get(table=table, index=2).away
    game = play_out(table, people[:2])
    oli = Rating.objects.get(user__username="Oli")
    others = Rating.objects.exclude(user__username="Oli")
    assert others.count() == 2 and all(row.mu > oli.mu for row in others)
    assert oli.mu < ratings.MODEL.mu and GameResult.objects.get(game=game, seat=2).away
    # exactly openskill's update with Oli third, whatever place the bot reached in his seat
    places = [row.place for row in GameResult.objects.filter(game=game).order_by("seat")]
    ranks = [1 + (places[1] < places[0]), 1 + (places[0] < places[1]), 3]
    expected = ratings.rate_places([(ratings.MODEL.mu, ratings.MODEL.sigma)] * 3, ranks)
    mus = [Rating.objects.get(user__username=name).mu for name in ("Mia", "Noa", "Oli")]
    assert mus == pytest.approx([mu for mu, _sigma in expected])


def test_standings_put_those_who_left_after_everyone_who_stayed():
    assert ratings.standings([1, 2, 3, 4], [False, True, False, False]) == [1, 4, 2, 3]
    assert ratings.standings([2, 1, 2], [False, False, True]) == [2, 1, 3]
    assert ratings.standings([1, 1, 3], [False, False, False]) == [1, 1, 2]


def test_a_sevens_game_is_rated_with_the_fewest_penalty_points_first():
    people = [account(name)[1] for name in ("Mia", "Noa", "Oli")]
    table = rated_table(people, kind="sevens")
    game = play_out(table, people)
    state = registry.of(table).from_json(game.state)
    totals = [seat["total"] for seat in state["seats"]]
    best = min(range(3), key=lambda seat: totals[seat])
    row = GameResult.objects.get(game=game, seat=best)
    assert row.place == 1 and row.won and row.points == totals[best]
    assert Rating.objects.filter(kind="sevens").count() == 3


def test_leaderboards_everyone_a_private_player_unnamed_and_among_friends(client):
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    _oli_user, oli = account("Oli")
    for name, mu in (("Mia", 30.0), ("Noa", 20.0), ("Oli", 26.0)):
        user = {"Mia": mia_user, "Noa": noa_user}.get(name) or _oli_user
        Rating.objects.create(user=user, kind="sevn", mu=mu, sigma=2.0, value=ratings.shown(mu, 2.0), games=5)
    everyone = selectors.leaderboard("sevn")
    assert [row["name"] for row in everyone] == ["Mia", "Oli", "Noa"]
    friends.friend_request(user=mia_user, name="Noa")
    friends.friend_accept(user=noa_user, from_id=mia_user.pk)
    among = selectors.leaderboard("sevn", mia_user.pk, friends=True)
    assert [(row["name"], row["you"]) for row in among] == [("Mia", True), ("Noa", False)]
    assert selectors.leaderboard("sevens") == []
    noa_user.sevn_profile.private = True
    noa_user.sevn_profile.save()
    assert [row["name"] for row in selectors.leaderboard("sevn", mia_user.pk, friends=True)] == ["Mia", "Noa"]
    # the page: to a stranger Noa is a private player, in her place, with no link to her profile
    html = client.get("/en/ratings/sevn/").content.decode()
    board = html.split("<tbody>")[1]
    assert board.index("Mia") < board.index("Oli") < board.index("a private player")
    assert "Noa" not in board and "/u/Noa/" not in board
    assert "jemand mit privatem Profil" in client.get("/de/ratings/sevn/").content.decode().split("<tbody>")[1]
    signed_in(client, mia_user)
    board = client.get("/en/ratings/sevn/").content.decode().split("<tbody>")[1]  # her friend's name, for her
    assert 'href="/en/u/Noa/"' in board and "a private player" not in board
    html = client.get("/de/ratings/sevn/?among=friends").content.decode()
    assert "Unter deinen Freunden" in html and "Noa" in html and "Oli" not in html.split("<tbody>")[1]
    assert client.get("/en/ratings/nope/").status_code == 404
    assert client.get("/en/ratings/").status_code == 302


def test_play_again_keeps_the_table_rated():
    mia_user, mia = account("Mia")
    noa = account("Noa")[1]
    table = rated_table([mia, noa])
    play_out(table, [mia, noa])
    again, _sent, _left_out = invitations.table_again(user=mia_user, player=mia, code=table.code)
    again.refresh_from_db()
    assert again.rated and again.members_only
