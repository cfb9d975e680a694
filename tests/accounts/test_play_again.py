"""Play again (#38 item 5): once a game is over, anyone seated opens a new table like the last,
everyone brought back: the table's settings, its computer players at their seats with their
levels and names, its asker in their own seat, the friends invited; never before a game is over."""

from __future__ import annotations

import pytest
from django.test import Client

from game import services
from game.core.errors import ServiceError
from game.core.identity import Player
from game.models import Seat, Table
from game.services import friends, invitations, selectors
from tests.accounts.test_home import account, signed_in
from tests.accounts.test_ratings import play_out

pytestmark = pytest.mark.django_db


def seats_of(table: Table) -> list[tuple[int, str, str]]:
    return list(Seat.objects.filter(table=table).order_by("index").values_list("index", "nickname", "bot_level"))


def finished_table(host: Player, others: list[Player], bots: dict[int, str], **settings) -> Table:
    """A table of these people and bots (bots at the given seats), its game played to the end."""
    table = services.table_create(player=host, nickname=host.username or "Host", **settings)
    for index, level in bots.items():
        services.bot_add(code=table.code, player=host, level=level, index=index)
    for player in others:
        services.seat_take(code=table.code, player=player, nickname=player.username or player.key[-3:])
    services.game_start(code=table.code, player=host)
    play_out(table, [host, *others])
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def test_play_again_brings_the_bots_back_at_their_seats_with_the_table_s_settings():
    ana_user, ana = account("Ana")
    ben_user, ben = account("Ben")
    friends.friend_request(user=ana_user, name="Ben")
    friends.friend_request(user=ben_user, name="Ana")
    old = finished_table(
        ana, [ben], {1: "hard", 3: "easy"}, seat_count=4, turn_seconds=60, options={"target": 50}, bot_speed="slow"
    )
    Table.objects.filter(id=old.id).update(spectator_chat=False)
    before = seats_of(old)  # the game's start closed no gaps: Ana 0, bot 1, Ben 2, bot 3
    assert [(index, level) for index, _name, level in before] == [(0, ""), (1, "hard"), (2, ""), (3, "easy")]

    again, sent, left_out = invitations.table_again(user=ben_user, player=ben, code=old.code)
    again.refresh_from_db()
    assert (again.kind, again.seat_count, again.turn_seconds, again.options) == (
        old.kind,
        old.seat_count,
        old.turn_seconds,
        old.options,
    )
    assert (again.bot_delay_ms, again.spectator_chat, again.rated, again.members_only) == (
        old.bot_delay_ms,
        False,
        False,
        False,
    )
    assert again.status == Table.Status.LOBBY and again.host_key == ben.key
    # Ben, the asker, in his own seat; the bots back at theirs, same level and name; Ana's seat free for her
    assert seats_of(again) == [before[1], (2, "Ben", ""), before[3]]
    assert [(to, row["code"]) for to, row in sent] == [(ana_user.pk, again.code)] and left_out == 0
    assert [row["from"] for row in selectors.invitations_of(ana_user.pk)] == ["Ben"]


def test_play_again_keeps_a_sevens_table_s_rounds_and_a_rated_table_rated():
    mia_user, mia = account("Mia")
    _noa_user, noa = account("Noa")
    old = finished_table(mia, [noa], {2: "medium"}, seat_count=3, kind="sevens", options={"rounds": 1}, rated=True)
    again, _sent, left_out = invitations.table_again(user=mia_user, player=mia, code=old.code)
    again.refresh_from_db()
    assert again.kind == "sevens" and again.options == {"rounds": 1} and again.rated and again.members_only
    assert seats_of(again) == [(0, "Mia", ""), (2, seats_of(old)[2][1], "medium")]
    assert left_out == 1  # Noa is no friend of Mia's: not invited, told to send the link


def test_play_again_waits_for_the_game_to_be_over():
    ana_user, ana = account("Ana")
    table = services.table_create(player=ana, nickname="", seat_count=2)
    services.bot_add(code=table.code, player=ana, level="easy")
    with pytest.raises(ServiceError, match="once the game is over"):
        invitations.table_again(user=ana_user, player=ana, code=table.code)  # a brand-new lobby
    services.game_start(code=table.code, player=ana)
    with pytest.raises(ServiceError, match="once the game is over"):
        invitations.table_again(user=ana_user, player=ana, code=table.code)  # mid-game
    assert Table.objects.count() == 1
    with pytest.raises(ServiceError, match="Only the people at a table"):
        invitations.table_again(user=None, player=Player(key="guest:someone"), code=table.code)


def test_a_guest_plays_again_from_the_game_over_screen_and_lands_at_the_new_table():
    client = Client()
    client.post("/en/tables/new/", {"nickname": "Gus", "seat_count": 3, "target": 50, "turn_seconds": 0})
    old = Table.objects.get(host_name="Gus")
    from game.core.identity import SESSION_KEY

    gus = Player(key=client.session[SESSION_KEY])
    for index in (1, 2):
        services.bot_add(code=old.code, player=gus, level="medium", index=index)
    page = client.get(f"/en/t/{old.code}/").content.decode()
    assert "data-table-again" not in page  # not in a lobby
    services.game_start(code=old.code, player=gus)
    play_out(old, [gus])
    page = client.get(f"/en/t/{old.code}/").content.decode()
    assert "data-table-again" in page  # the game-over screen has it
    assert "data-table-again" not in Client().get(f"/en/t/{old.code}/").content.decode()  # a spectator's has not
    response = client.post(f"/de/t/{old.code}/again/", HTTP_HX_REQUEST="true")
    again = Table.objects.exclude(id=old.id).get()
    assert response.status_code == 204 and response["HX-Redirect"] == f"/de/t/{again.code}/"
    assert seats_of(again) == [(0, "Gus", ""), *seats_of(old)[1:]]
    # from the new lobby it is refused, and says why (a toast), never silently
    refused = client.post(f"/en/t/{again.code}/again/", HTTP_HX_REQUEST="true")
    assert refused.status_code == 200 and "You can play again once the game is over." in refused.content.decode()


def test_play_again_signed_in_says_who_was_not_invited_in_the_viewer_s_language(client):
    lea_user, lea = account("Lea")
    _tom_user, tom = account("Tom")
    old = finished_table(lea, [tom], {}, seat_count=2, options={"target": 50})
    signed_in(client, lea_user)
    response = client.post(f"/de/t/{old.code}/again/", follow=True)
    html = response.content.decode()
    assert "1 Person wurde nicht eingeladen" in html
    assert response.redirect_chain[-1][0].startswith("/de/t/") and old.code not in response.redirect_chain[-1][0]
