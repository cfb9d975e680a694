"""Moderation in admin: the reports queue, acting from a report, who may do what (Moderators,
superusers, everybody else), the moderators' log that nobody edits, chat search."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from game import services
from game.core import staff_words
from game.core.identity import Player, staff_tag
from game.models import ChatMessage, ModAction, Report, Sanction
from tests.factories import game_of, open_table

pytestmark = pytest.mark.django_db


def login(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def superuser() -> Client:
    return login(User.objects.create_superuser("root", "root@example.com", "pw-123456"))


@pytest.fixture
def moderator() -> Client:
    user = User.objects.create_user("mod", password="pw-123456", is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return login(user)


@pytest.fixture
def reported():
    """Ben insults Ana at a running table; Ana reports the line."""
    table, (ana, ben) = open_table()
    services.chat_post(code=table.code, player=ana, text="good luck all")
    line = services.chat_post(code=table.code, player=ben, text="you are all idiots")["body"]["line"]
    report = services.report_create(
        code=table.code, player=ana, reason="insults", comment="rude", message_id=line["id"]
    )
    return table, ana, ben, report


def act(client: Client, report: Report, action: str, **fields):
    data = {f"{action}-{name}": value for name, value in fields.items()}
    return client.post(f"/admin/game/report/{report.id}/act/{action}/", data)


def test_the_moderators_group_is_made_by_a_migration_with_its_permissions():
    codes = set(Group.objects.get(name="Moderators").permissions.values_list("codename", flat=True))
    assert {"view_report", "handle_report", "warn_player", "mute_player", "remove_player"} <= codes
    assert not codes & {"ban_player", "close_table", "view_game", "view_event", "change_game"}


def test_the_queue_lists_open_reports_first(superuser, reported):
    table, ana, ben, report = reported
    older = services.report_create(code=table.code, player=ben, reason="spam", seat_index=0)
    older.status = Report.Status.HANDLED
    older.save()
    html = superuser.get("/admin/game/report/").content.decode()
    assert html.index("you are all idiots") < html.index("Spam")


def test_the_report_page_shows_evidence_other_reports_tables_and_the_actions(superuser, reported):
    table, ana, ben, report = reported
    other, _ = open_table(names=("Cleo", "Ben"), start=False)
    services.report_create(code=other.code, player=Player("guest:cleo"), reason="nickname", seat_index=1)
    html = superuser.get(f"/admin/game/report/{report.id}/change/").content.decode()
    assert "good luck all" in html and "you are all idiots" in html and "moderation__reported" in html
    assert other.code in html and "Offensive nickname" in html  # the other report
    assert f"/admin/game/table/{table.id}/change/" in html  # Ben's tables
    assert "/admin/game/chatmessage/?who=guest%C2%B7" in html  # his chat at every table, by his tag
    assert "guest:ben" not in html and "guest%3Aben" not in html
    for action in ("warn", "mute", "remove", "rename", "ban", "close", "handle"):
        assert f"/act/{action}/" in html


def test_a_moderator_warns_mutes_and_removes_but_cannot_ban_nor_close(moderator, reported):
    table, ana, ben, report = reported
    html = moderator.get(f"/admin/game/report/{report.id}/change/").content.decode()
    assert "/act/warn/" in html and "/act/mute/" in html and "/act/remove/" in html
    assert "/act/ban/" not in html and "/act/close/" not in html
    assert act(moderator, report, "ban", duration="7d", reason="x").status_code == 403
    assert act(moderator, report, "close", reason="x").status_code == 403
    assert not Sanction.objects.filter(kind="ban").exists() and table.seats.filter(player_key=ben.key).exists()
    assert act(moderator, report, "warn", warning="insults").status_code == 302
    assert act(moderator, report, "mute", duration="1h", scope="everywhere", reason="insults").status_code == 302
    assert act(moderator, report, "remove", reason="insults").status_code == 302
    assert list(ModAction.objects.order_by("id").values_list("action", "actor_name", "target_name")) == [
        ("warn", "mod", "Ben"),
        ("mute", "mod", "Ben"),
        ("remove", "mod", "Ben"),
    ]
    report.refresh_from_db()
    assert (
        report.status == "handled"
        and report.handled_by.username == "mod"
        and staff_words.say(report.resolution).startswith("Warned (Insults); Muted in chat (1 hour, everywhere)")
    )
    with pytest.raises(services.ServiceError, match="You are muted in chat"):
        services.chat_post(code=table.code, player=ben, text="hi")


def test_a_moderator_cannot_see_a_running_games_secrets(moderator, superuser, reported):
    table, *_ = reported
    game = game_of(table)
    assert moderator.get(f"/admin/game/game/{game.id}/change/").status_code == 403
    assert moderator.get("/admin/game/event/").status_code == 403
    html = moderator.get(f"/admin/game/table/{table.id}/change/").content.decode()
    assert str(game.seed) not in html and game.state[:40] not in html
    assert superuser.get(f"/admin/game/game/{game.id}/change/").status_code == 200


def test_a_superuser_bans_the_player_leaves_the_table_and_a_lift_lets_them_back(superuser, reported):
    table, ana, ben, report = reported
    assert act(superuser, report, "ban", duration="permanent", reason="abuse").status_code == 302
    seat = table.seats.get(index=1)
    assert seat.player_key == "" and seat.away
    lobby, _ = open_table(names=("Cleo", "Dan"), start=False)
    with pytest.raises(services.ServiceError, match="You are banned from tables. Reason: abuse"):
        services.seat_take(code=lobby.code, player=ben, nickname="Ben")
    ban = Sanction.objects.get(kind="ban")
    superuser.post("/admin/game/sanction/", {"action": "lift", "_selected_action": [ban.id]})
    services.seat_take(code=lobby.code, player=ben, nickname="Ben")
    assert list(ModAction.objects.order_by("id").values_list("action", flat=True)) == ["ban", "lift"]


def test_a_moderator_cannot_lift_a_ban(moderator, reported):
    _table, _ana, ben, _report = reported
    ban = Sanction.objects.create(kind="ban", player_key=ben.key, nickname="Ben", reason="x")
    moderator.post("/admin/game/sanction/", {"action": "lift", "_selected_action": [ban.id]})
    ban.refresh_from_db()
    assert ban.lifted is None and not ModAction.objects.exists()


def test_rename_close_and_handled_from_the_report_page(superuser, reported):
    table, ana, ben, report = reported
    act(superuser, report, "rename", nickname="Player 2")
    assert table.seats.get(index=1).nickname == "Player 2"
    act(superuser, report, "handle", note="renamed, nothing else")
    act(superuser, report, "close", reason="abuse")
    table.refresh_from_db()
    assert table.status == "closed"
    assert list(ModAction.objects.order_by("id").values_list("action", flat=True)) == ["rename", "handle", "close"]


def test_the_existing_close_and_remove_actions_write_the_log(superuser):
    table, _ = open_table(names=("Ana", "Ben", "Cleo"))
    seat = table.seats.get(nickname="Cleo")
    superuser.post("/admin/game/seat/", {"action": "remove_players", "_selected_action": [seat.id]})
    superuser.post("/admin/game/table/", {"action": "close_tables", "_selected_action": [table.id]})
    assert list(ModAction.objects.order_by("id").values_list("action", "actor_name", "target_name", "table_code")) == [
        ("remove", "root", "Cleo", table.code),
        ("close", "root", "", table.code),
    ]


def test_nobody_changes_or_deletes_the_moderators_log_not_even_a_superuser(superuser, reported):
    *_, report = reported
    act(superuser, report, "warn", warning="insults")
    row = ModAction.objects.get()
    assert superuser.get("/admin/game/modaction/").status_code == 200
    assert superuser.get("/admin/game/modaction/add/").status_code == 403
    superuser.post(f"/admin/game/modaction/{row.id}/change/", {"reason": "nothing happened"})
    assert superuser.post(f"/admin/game/modaction/{row.id}/delete/", {"post": "yes"}).status_code == 403
    superuser.post("/admin/game/modaction/", {"action": "delete_selected", "_selected_action": [row.id], "post": "yes"})
    assert ModAction.objects.get().reason == row.reason and ModAction.objects.count() == 1


def test_a_user_who_is_not_staff_sees_nothing(reported):
    *_, report = reported
    client = login(User.objects.create_user("someone", password="pw-123456"))
    for url in (
        "/admin/game/report/",
        f"/admin/game/report/{report.id}/change/",
        "/admin/game/modaction/",
        "/admin/game/chatmessage/",
        "/admin/game/sanction/",
    ):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert act(client, report, "warn", warning="insults").status_code == 302
    assert not ModAction.objects.exists()


def test_staff_search_the_chat_and_read_one_persons_chat_across_tables(moderator, reported):
    table, ana, ben, _report = reported
    other, _ = open_table(names=("Ben", "Cleo"), start=False)
    services.chat_post(code=other.code, player=ben, text="hello from elsewhere")
    html = moderator.get("/admin/game/chatmessage/", {"q": "idiots"}).content.decode()
    assert "you are all idiots" in html and "good luck all" not in html
    html = moderator.get("/admin/game/chatmessage/", {"who": staff_tag(ben.key)}).content.decode()
    assert "you are all idiots" in html and "hello from elsewhere" in html and "good luck all" not in html
    assert ChatMessage.objects.count() == 3


def test_a_malformed_report_address_is_not_a_server_error(moderator, reported):
    *_, report = reported
    response = moderator.get(f"/admin/game/report/{report.id}/change/widgets.css/change/")
    assert response.status_code in (302, 404)
