"""The chat panel on the table page and its forms: reports, a spectator's nickname, the host's
switch for the spectators' chat."""

from __future__ import annotations

import pytest
from django.test import Client

from game import services
from game.core.identity import NICKNAME_KEY, SESSION_KEY
from game.models import Report, Table
from tests.factories import open_table

pytestmark = pytest.mark.django_db


def as_player(key: str, nickname: str = "") -> Client:
    client = Client()
    session = client.session
    session[SESSION_KEY] = key
    if nickname:
        session[NICKNAME_KEY] = nickname
    session.save()
    return client


def test_the_table_page_shows_the_chat_with_its_lines_and_quick_phrases():
    table, (ana, ben) = open_table()
    services.chat_post(code=table.code, player=ben, text="<img src=x onerror=alert(1)>")
    services.chat_post(code=table.code, player=ben, phrase="well_played")
    html = as_player(ana.key).get(f"/de/t/{table.code}/").content.decode()
    assert 'id="chat-table-list"' in html and "&lt;img src=x onerror=alert(1)&gt;" in html and "<img src=x" not in html
    assert "Gut gespielt!" in html and 'data-phrase="nice_sevn"' in html and "Nachricht an den Tisch" in html
    assert 'data-report-seat="1"' in html and ana.key not in html and ben.key not in html


def test_a_visitor_is_offered_a_nickname_to_chat_and_gets_one():
    table, _ = open_table()
    client = Client()
    html = client.get(f"/en/t/{table.code}/").content.decode()
    assert "Chat as a spectator" in html
    response = client.post(f"/en/t/{table.code}/chat/name/", {"nickname": "Zoe"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and response["HX-Refresh"] == "true"
    assert client.session[NICKNAME_KEY] == "Zoe" and client.session[SESSION_KEY].startswith("guest:")
    assert "Message to the spectators" in client.get(f"/en/t/{table.code}/").content.decode()
    response = client.post(f"/en/t/{table.code}/chat/name/", {"nickname": "Bot Zoe"}, HTTP_HX_REQUEST="true")
    assert "kept for computer players and staff" in response.content.decode()


def test_a_report_over_htmx_is_thanked_and_a_second_one_refused():
    table, (ana, ben) = open_table()
    line = services.chat_post(code=table.code, player=ben, text="spam spam")["body"]["line"]
    client = as_player(ana.key)
    fields = {"message": line["id"], "seat": "", "reason": "spam", "comment": "again and again"}
    answer = client.post(f"/en/t/{table.code}/report/", fields, HTTP_HX_REQUEST="true").content.decode()
    assert "toast--ok" in answer and "Thank you: staff will look at your report." in answer
    again = client.post(f"/fr/t/{table.code}/report/", fields, HTTP_HX_REQUEST="true").content.decode()
    assert "toast--ok" not in again and "Vous l’avez déjà signalé" in again
    assert Report.objects.get().comment == "again and again"


def test_only_the_host_switches_the_spectators_chat():
    table, (ana, ben) = open_table()
    answer = as_player(ben.key).post(f"/en/t/{table.code}/chat/spectators/", {"on": "0"}, HTTP_HX_REQUEST="true")
    assert "Only the host can do that." in answer.content.decode()
    assert (
        as_player(ana.key).post(f"/en/t/{table.code}/chat/spectators/", {"on": "0"}, HTTP_HX_REQUEST="true").status_code
        == 204
    )
    assert not Table.objects.get().spectator_chat
    html = as_player("guest:zoe", "Zoe").get(f"/en/t/{table.code}/").content.decode()
    assert "The host has turned the spectators' chat off." in html and 'name="text"' not in html


def test_a_line_sent_as_a_plain_form_is_said_like_one_from_the_socket():
    table, (ana, _ben) = open_table()
    client = as_player(ana.key)
    response = client.post(f"/en/t/{table.code}/chat/", {"kind": "chat", "text": "before the script started"})
    assert response.status_code == 302 and response["Location"] == f"/en/t/{table.code}/"
    response = client.post(f"/en/t/{table.code}/chat/", {"kind": "chat", "text": "  "}, follow=True)
    assert "Write something first." in response.content.decode()
    assert "before the script started" in client.get(f"/en/t/{table.code}/").content.decode()
