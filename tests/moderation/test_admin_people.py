"""Staff see people as people (#38 item 7): a person with an account is named by it, with a
link to it, on every admin page about them (reports, mutes and bans, chat, the moderators' log),
also for what happened while they were still a guest; and what was done reads as words in the
staff member's language, on the report and on the account's page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game import services
from game.core.identity import Player, staff_tag
from game.models import ModAction, Report, Sanction
from game.services import accounts
from tests.factories import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw-123456"))
    return client


def act(client: Client, report: Report, action: str, **fields):
    data = {f"{action}-{name}": value for name, value in fields.items()}
    response = client.post(f"/admin/game/report/{report.id}/act/{action}/", data)
    assert response.status_code == 302
    return response


@pytest.fixture
def signed_up_since(staff):
    """Ben insults Ana as a guest; Ana reports him; staff mute and ban him from the report; then
    Ben signs up as "benjamin" (his guest key becomes the account's)."""
    table, (ana, ben) = open_table()
    line = services.chat_post(code=table.code, player=ben, text="you are all idiots")["body"]["line"]
    report = services.report_create(code=table.code, player=ana, reason="insults", message_id=line["id"])
    act(staff, report, "mute", duration="1h", scope="everywhere", reason="insults")
    act(staff, report, "ban", duration="24h", reason="insults again")
    user = User.objects.create_user("benjamin", "ben@example.com", "pw-123456")
    accounts.account_signed_in(user=user, guest_key=ben.key)
    report.refresh_from_db()
    return report, user, ben


def account_link(user: User) -> str:
    return f'<a href="/admin/auth/user/{user.pk}/change/">{user.username}</a>'


def test_a_report_made_while_the_person_was_a_guest_names_their_account(staff, signed_up_since):
    report, user, ben = signed_up_since
    Report.objects.filter(id=report.id).update(reported_user=None)  # as reports made before sign-ups linked them
    page = staff.get(f"/admin/game/report/{report.id}/change/").content.decode()
    assert f"Ana reported Ben ({account_link(user)})" in page  # the summary
    assert f"Ben ({account_link(user)})" in page.split("field-reported")[1]  # the "reported player" row
    assert staff_tag(ben.key) not in page
    queue = staff.get("/admin/game/report/").content.decode()
    assert account_link(user) in queue and staff_tag(ben.key) not in queue
    assert staff_tag(Player("guest:ana").key) in queue  # Ana, still a guest, by her tag


def test_signing_up_links_the_reports_about_the_guest_to_the_account(signed_up_since):
    report, user, ben = signed_up_since
    assert report.reported_user == user


def test_mutes_bans_and_the_log_name_the_account_and_link_to_it(staff, signed_up_since):
    report, user, ben = signed_up_since
    for page in ("/admin/game/sanction/", "/admin/game/modaction/"):
        html = staff.get(page).content.decode()
        assert html.count(account_link(user)) >= 2, page  # the mute and the ban
        assert staff_tag(ben.key) not in html, page
    sanction = Sanction.objects.get(kind="ban")
    html = staff.get(f"/admin/game/sanction/{sanction.id}/change/").content.decode()
    assert account_link(user) in html and staff_tag(ben.key) not in html
    assert all(sanction.user == user for sanction in Sanction.objects.all())


def test_an_account_that_played_under_another_guest_key_is_named_on_rows_of_that_key(staff):
    """Ben has an account, played as a guest on another device, was warned there, then logged in:
    the log line names the old guest key, which is the account's now."""
    user = User.objects.create_user("benjamin", "ben@example.com", "pw-123456")
    accounts.account_signed_in(user=user, guest_key=None)
    table, (ana, phone) = open_table(names=("Ana", "Bennie"))
    report = services.report_create(code=table.code, player=ana, reason="nickname", seat_index=1)
    act(staff, report, "warn", warning="nickname")
    about_ana = services.report_create(code=table.code, player=phone, reason="spam", seat_index=0)
    act(staff, about_ana, "warn", warning="spam")
    accounts.account_signed_in(user=user, guest_key=phone.key)
    assert ModAction.objects.get(report=report).target_key == phone.key
    log = staff.get("/admin/game/modaction/").content.decode()
    assert account_link(user) in log and staff_tag(phone.key) not in log
    assert staff_tag(ana.key) in log  # Ana, a guest, by her tag
    of_account = staff.get(f"/admin/game/modaction/?account={user.pk}").content.decode()
    assert of_account.count('class="field-person"') == 1 and account_link(user) in of_account


def test_the_search_box_finds_a_person_by_their_account_name(staff, signed_up_since):
    report, user, ben = signed_up_since
    Report.objects.filter(id=report.id).update(reported_user=None)
    html = staff.get("/admin/game/report/?q=benjamin").content.decode()
    assert f"/admin/game/report/{report.id}/change/" in html
    assert f"/admin/game/report/{report.id}/change/" not in staff.get("/admin/game/report/?q=nobody").content.decode()
    listed = staff.get(f"/admin/game/sanction/?account={user.pk}").content.decode()
    assert listed.count(account_link(user)) == 2


def test_how_it_was_handled_reads_as_words_in_the_staff_members_language(staff, signed_up_since):
    report, user, ben = signed_up_since
    Report.objects.filter(id=report.id).update(reported_user=None)
    for language, muted, banned in (
        ("en", "Muted in chat (1 hour, everywhere)", "Banned from tables (24 hours)"),
        ("de", "Im Chat stummgeschaltet (1 Stunde, überall)", "Von Tischen gesperrt (24 Stunden)"),
    ):
        for url in (f"/admin/game/report/{report.id}/change/", f"/admin/auth/user/{user.pk}/change/"):
            html = staff.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            assert f"{muted}; {banned}" in html, (language, url)
            assert '"code"' not in html and "&quot;code&quot;" not in html, (language, url)


def test_the_accounts_page_lists_the_reports_and_sanctions_of_its_guest_days(staff, signed_up_since):
    report, user, ben = signed_up_since
    Report.objects.filter(id=report.id).update(reported_user=None)
    Sanction.objects.update(user=None)
    html = staff.get(f"/admin/auth/user/{user.pk}/change/").content.decode()
    assert f"/admin/game/report/{report.id}/change/" in html
    for sanction in Sanction.objects.all():
        assert f"/admin/game/sanction/{sanction.id}/change/" in html
    # the page still saves: the lists are read only and change nothing
    form = {
        "username": "benjamin",
        "email": "ben@example.com",
        "is_active": "on",
        "date_joined_0": "2026-12-01",
        "date_joined_1": "10:00:00",
    }
    for tag_ in re.findall(r"<input[^>]*>", html):  # the lists' management forms and rows, as a browser posts them
        name, value = re.search(r'name="([^"]+)"', tag_), re.search(r'value="([^"]*)"', tag_)
        if name and "hidden" in tag_ and name.group(1) != "csrfmiddlewaretoken":
            form[name.group(1)] = value.group(1) if value else ""
    assert any(name.endswith("-0-id") for name in form)  # the rows were posted too
    response = staff.post(f"/admin/auth/user/{user.pk}/change/", form)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Report.objects.get(id=report.id).reported_user is None  # nothing written by reading it


def test_a_report_s_comment_and_title_are_written_as_the_reader_s_language_writes_them(staff, signed_up_since):
    """French quotes a person's words « so » and puts a narrow no-break space before a colon,
    also in the titles admin takes from the row itself."""
    report, _user, _ben = signed_up_since
    Report.objects.filter(id=report.id).update(comment="He keeps insulting")
    staff.cookies["django_language"] = "fr"
    page = staff.get(f"/admin/game/report/{report.id}/change/").content.decode()
    assert "«\u202fHe keeps insulting\u202f»" in page
    assert f"{report.table_code}\u202f: Ben" in page
    staff.cookies["django_language"] = "de"
    assert "„He keeps insulting“" in staff.get(f"/admin/game/report/{report.id}/change/").content.decode()
