"""Moderation that sticks: a mute or ban of an account holds on every device (and for the guest
key it was made from), a guest's ban follows them into their account; tables for signed-in
players only; moderators see an account's reports and sanctions in admin, and an account can be
suspended (it can no longer log in)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.test import Client
from django.utils import translation

from game import services
from game.core import staff_words
from game.core.errors import ServiceError
from game.core.identity import SESSION_KEY, Player
from game.models import ModAction, Profile, Sanction, Table
from game.services import moderation
from game.services.staff import Person
from tests.accounts.helpers import PASSWORD, log_in, sign_up
from tests.accounts.test_home import account
from tests.factories import open_table

pytestmark = pytest.mark.django_db
SUSPEND = {"action": "suspend", "apply": "1", "duration": "permanent", "reason": "spam"}


def staff(client: Client, name: str, moderator: bool = False) -> User:
    if moderator:
        user = User.objects.create_user(name, password="pw-123456", is_staff=True)
        user.groups.add(Group.objects.get(name="Moderators"))
    else:
        user = User.objects.create_superuser(name, f"{name}@example.com", "pw-123456")
    client.force_login(user, backend="allauth.account.auth_backends.AuthenticationBackend")
    return user


def test_a_ban_of_an_account_holds_in_a_second_browser(client):
    sign_up(client, "Ned")
    ned = User.objects.get(username="Ned")
    key = Profile.objects.get(user=ned).player_key
    moderation.player_ban(by=None, person=Person(key, "Ned", ned.pk), duration="24h", reason="cheating")
    other = Client()
    assert log_in(other, "Ned").status_code == 302
    response = other.post("/en/tables/new/", {"seat_count": 2, "target": 250, "turn_seconds": 0})
    assert response.status_code == 400 and not Table.objects.exists()


def test_a_guest_s_ban_follows_them_into_their_account_on_another_browser(client):
    sign_up(Client(), "Ola")
    client.get("/en/")
    client.post("/en/tables/new/", {"nickname": "Guesty", "seat_count": 2, "target": 250, "turn_seconds": 0})
    guest_key = client.session[SESSION_KEY]
    Sanction.objects.create(kind=Sanction.Kind.BAN, player_key=guest_key, nickname="Guesty", reason="spam")
    log_in(client, "Ola")  # the guest logs in: the ban is the account's
    other = Client()
    log_in(other, "Ola")
    other.post("/en/tables/new/", {"seat_count": 2, "target": 250, "turn_seconds": 0})
    assert Table.objects.count() == 1  # only the guest's table from before


def test_a_table_for_signed_in_players_only_keeps_guests_to_watching(client):
    _ana, ana_player = account("Ana")
    _ben, ben_player = account("Ben")
    table = services.table_create(player=ana_player, nickname="", seat_count=3, members_only=True)
    assert table.members_only
    with pytest.raises(ServiceError, match="Only signed-in players"):
        services.seat_take(code=table.code, player=Player(key="guest:gil"), nickname="Gil")
    services.seat_take(code=table.code, player=ben_player, nickname="")
    assert "signed-in players only" in client.get(f"/en/t/{table.code}/").content.decode()
    # a guest host cannot make one (there would be nobody to keep out for)
    assert not services.table_create(
        player=Player(key="guest:h"), nickname="H", seat_count=2, members_only=True
    ).members_only


def test_the_create_form_offers_it_to_signed_in_hosts(client):
    assert "Signed-in players only" not in client.get("/en/").content.decode()
    sign_up(client, "Pat")
    assert "Signed-in players only" in client.get("/en/").content.decode()
    client.post("/en/tables/new/", {"seat_count": 2, "target": 250, "turn_seconds": 0, "members_only": "on"})
    assert Table.objects.get().members_only


def test_moderators_see_an_account_s_reports_and_sanctions(client):
    sign_up(Client(), "Rob")
    rob = User.objects.get(username="Rob")
    key = Profile.objects.get(user=rob).player_key
    table, (ana, _ben) = open_table()
    Sanction.objects.create(kind=Sanction.Kind.MUTE, player_key=key, user=rob, nickname="Rob", reason="shouting")
    from game.models import Report

    Report.objects.create(
        table=table,
        table_code=table.code,
        reporter_key=ana.key,
        reporter_name="Ana",
        reported_key=key,
        reported_user=rob,
        reported_name="Rob",
        reason="insults",
        comment="rude words",
    )
    staff(client, "mod", moderator=True)
    page = client.get(f"/admin/auth/user/{rob.pk}/change/").content.decode()
    assert "shouting" in page and "rude words" in page
    changelist = client.get("/admin/auth/user/").content.decode()
    assert "Rob" in changelist and "Suspend the selected accounts" in changelist  # the issue: moderators suspend


def test_a_moderator_suspends_an_account_and_the_log_reads_in_each_reader_s_language(client):
    sign_up(Client(), "Sam")
    sam = User.objects.get(username="Sam")
    mod = staff(client, "mod", moderator=True)
    form = client.post("/admin/auth/user/", {"action": "suspend", "_selected_action": [sam.pk]})
    assert form.status_code == 200 and 'name="reason"' in form.content.decode()  # how long and why, first
    sam.refresh_from_db()
    assert sam.is_active
    client.post("/admin/auth/user/", {**SUSPEND, "_selected_action": [sam.pk]})
    sam.refresh_from_db()
    assert not sam.is_active and not mod.has_perm("game.ban_player")  # suspending is not banning
    line = ModAction.objects.get()
    assert staff_words.say(line.detail) == "Suspended the account"
    with translation.override("pl"):
        assert staff_words.say(line.detail) != "Suspended the account"
    looker = User.objects.create_user("looker", password="pw-123456", is_staff=True)
    looker.user_permissions.add(Permission.objects.get(codename="view_user"))
    client.force_login(looker, backend="allauth.account.auth_backends.AuthenticationBackend")
    assert "Suspend the selected accounts" not in client.get("/admin/auth/user/").content.decode()


def test_a_suspended_account_cannot_log_in_and_the_log_says_so(client):
    sign_up(Client(), "Sam")
    sam = User.objects.get(username="Sam")
    root = staff(client, "root")
    response = client.post("/admin/auth/user/", {**SUSPEND, "_selected_action": [sam.pk]})
    assert response.status_code == 302
    sam.refresh_from_db()
    assert not sam.is_active
    line = ModAction.objects.get()
    assert (line.actor, line.target_name, staff_words.say(line.detail)) == (root, "Sam", "Suspended the account")
    other = Client()
    log_in(other, "Sam", PASSWORD)
    assert "Signed in as" not in other.get("/en/").content.decode()
    client.post("/admin/auth/user/", {"action": "reinstate", "_selected_action": [sam.pk]})
    sam.refresh_from_db()
    assert sam.is_active
