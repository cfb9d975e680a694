"""Table chat and moderation through the services: channels, quick phrases, limits, reports,
mutes, bans and the moderators' log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.translation import override

from game import services
from game.core.errors import ServiceError
from game.core.identity import SESSION_KEY, Player, tag
from game.models import ChatMessage, ModAction, Report, Sanction, Table
from game.runtime import limits
from game.screen import chat as chat_render
from game.services import moderation
from game.services.chat import CHAT_KEPT
from game.services.staff import Person
from tests.factories import game_of, open_table

pytestmark = pytest.mark.django_db
WATCHER = Player(key="guest:watcher")


def say(table, player, text="", phrase="", nickname=""):
    return services.chat_post(code=table.code, player=player, text=text, phrase=phrase, nickname=nickname)


def refusal(call, *args, **kwargs) -> str:
    with pytest.raises(ServiceError) as caught:
        call(*args, **kwargs)
    return str(caught.value.message)


@pytest.fixture
def clock(monkeypatch):
    """The chat allowance's clock, moved by hand (behaviour, not timing)."""
    now = [1_000_000.0]
    monkeypatch.setattr(limits.time, "time", lambda: now[0])
    return now


def test_a_seated_player_speaks_at_the_table_and_a_spectator_in_their_channel():
    table, (ana, _ben) = open_table(start=False)
    line = say(table, ana, "hello")["body"]["line"]
    assert (line["channel"], line["nickname"], line["text"]) == ("table", "Ana", "hello")
    watched = say(table, WATCHER, "go Ana!", nickname="Zoe")["body"]["line"]
    assert (watched["channel"], watched["nickname"]) == ("spectators", "Zoe")
    assert list(ChatMessage.objects.values_list("channel", flat=True).order_by("id")) == ["table", "spectators"]


def test_the_line_says_nothing_of_its_authors_key():
    table, (ana, _ben) = open_table(start=False)
    message = say(table, ana, "hi")
    assert ana.key not in str(message) and "guest:" not in str(message)


def test_a_spectator_must_choose_a_nickname_first():
    table, _ = open_table(start=False)
    assert refusal(say, table, WATCHER, "hi") == "Choose a nickname to chat."
    assert refusal(say, table, None, "hi") == "Choose a nickname to chat."


def test_blank_and_long_messages_are_refused():
    table, (ana, _ben) = open_table(start=False)
    assert refusal(say, table, ana, "   \n\t ") == "Write something first."
    assert refusal(say, table, ana, "\u200b\u2800") == "Write something first."
    assert refusal(say, table, ana, "x" * 201) == "A chat message has at most 200 characters."
    assert say(table, ana, "x" * 200)["body"]["line"]["text"] == "x" * 200
    assert say(table, ana, "  two\n\nlines\x00 ")["body"]["line"]["text"] == "two lines"


def test_a_quick_phrase_is_kept_as_a_key_and_read_in_each_viewers_language():
    table, (ana, _ben) = open_table(start=False)
    line = say(table, ana, phrase="nice_sevn")["body"]["line"]
    assert line["phrase"] == "nice_sevn" and line["text"] == ""
    drawn = {language: chat_render.line_html(line, language, None) for language in ("en", "de", "fr", "pl", "nl")}
    assert "Nice SEVN!" in drawn["en"] and "Nice SEVN!" not in drawn["de"] and "Nice SEVN!" not in drawn["fr"]
    assert len(set(drawn.values())) == 5
    assert refusal(say, table, ana, phrase="insult") == "That message was not understood."


def test_an_emoji_reaction_is_named_in_the_viewers_language():
    table, (ana, _ben) = open_table(start=False)
    line = say(table, ana, phrase="laugh")["body"]["line"]
    with override("de"):
        html = chat_render.line_html(line, "de", None)
    assert "😂" in html and 'aria-label="Lachend"' in html


def test_text_is_escaped_and_links_are_not_clickable():
    table, (ana, _ben) = open_table(start=False)
    line = say(table, ana, '<script>alert(1)</script> https://evil.example <a href="x">y</a>')["body"]["line"]
    html = chat_render.line_html(line, "en", None)
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<a " not in html and "&lt;a href=&quot;x&quot;&gt;y&lt;/a&gt;" in html and "https://evil.example" in html


def test_a_table_keeps_its_last_200_lines(clock):
    table, (ana, _ben) = open_table(start=False)
    for n in range(CHAT_KEPT + 5):
        clock[0] += 3
        say(table, ana, f"line {n}")
    kept = list(ChatMessage.objects.filter(table=table).order_by("id").values_list("text", flat=True))
    assert len(kept) == CHAT_KEPT and kept[0] == "line 5" and kept[-1] == f"line {CHAT_KEPT + 4}"


def test_a_person_sending_too_fast_is_slowed_with_a_clear_message(clock):
    table, (ana, ben) = open_table(start=False)
    for _ in range(limits.CHAT_MESSAGES):
        say(table, ana, "spam")
    assert refusal(say, table, ana, "spam") == "Slow down: you can send another message in 10 s."
    say(table, ben, "I may still talk")  # the allowance is each person's own
    clock[0] += 4
    assert refusal(say, table, ana, "spam") == "Slow down: you can send another message in 6 s."
    clock[0] += 6.5
    say(table, ana, "calm again")
    assert ChatMessage.objects.filter(author_key=ana.key).count() == limits.CHAT_MESSAGES + 1


def test_the_allowance_counts_every_table_of_a_person(clock):
    table, (ana, _ben) = open_table(start=False)
    other, _ = open_table(names=("Ana", "Cleo"), start=False)
    for _ in range(limits.CHAT_MESSAGES):
        say(table, ana, "hi")
    assert refusal(say, other, ana, "hi").startswith("Slow down")


def test_the_host_turns_spectator_chat_off_and_on():
    table, (ana, ben) = open_table(start=False)
    assert refusal(services.spectator_chat_set, code=table.code, player=ben, on=False) == "Only the host can do that."
    message = services.spectator_chat_set(code=table.code, player=ana, on=False)
    assert message["chat"] == "settings" and message["body"] == {"spectator_chat": False}
    assert refusal(say, table, WATCHER, "hi", nickname="Zoe") == "The host has turned the spectators' chat off."
    say(table, ben, "players still talk")
    services.spectator_chat_set(code=table.code, player=ana, on=True)
    say(table, WATCHER, "back", nickname="Zoe")


def mute(person: Player, name: str, duration="1h", table=None, reason="spam"):
    return moderation.player_mute(
        by=None, person=Person(person.key, name, person.user_id), duration=duration, reason=reason, table=table
    )


def test_a_muted_player_is_refused_with_the_reason_and_the_time_left():
    table, (ana, ben) = open_table(start=False)
    mute(ben, "Ben")
    assert refusal(say, table, ben, "hi") == "You are muted in chat for 59\xa0minutes more. Reason: spam"
    say(table, ana, "Ana is not muted")
    Sanction.objects.update(expires=None)
    assert refusal(say, table, ben, "hi") == "You are muted in chat. Reason: spam"


def test_a_mute_at_one_table_leaves_the_others_and_ends_on_its_own():
    table, (ana, ben) = open_table(start=False)
    other, _ = open_table(names=("Cleo", "Ben"), start=False)
    mute(ben, "Ben", duration="15m", table=table)
    assert refusal(say, table, ben, "hi").startswith("You are muted in chat for 14")
    say(other, ben, "here I may")
    Sanction.objects.update(expires=timezone.now() - timedelta(seconds=1))
    say(table, ben, "it ended")


def test_a_mute_or_ban_of_a_user_holds_for_the_account():
    user = User.objects.create_user("dora", password="pw-123456")
    dora = Player(key=f"user:{user.pk}", user_id=user.pk, username="dora")
    table, _ = open_table(start=False)
    services.seat_take(code=table.code, player=dora, nickname="")
    Sanction.objects.create(
        kind=Sanction.Kind.MUTE, player_key="guest:an-old-key", user=user, nickname="dora", reason="insults"
    )
    assert refusal(say, table, dora, "hi") == "You are muted in chat. Reason: insults"


def test_a_banned_guest_cannot_join_by_link_nor_create_a_table(client):
    table, _ = open_table(start=False)
    zed = Player(key="guest:zed")
    moderation.player_ban(by=None, person=Person(zed.key, "Zed"), duration="24h", reason="cheating")
    session = client.session
    session[SESSION_KEY] = zed.key
    session.save()
    response = client.post(f"/en/t/{table.code}/join/", {"nickname": "Zed"}, follow=True)
    assert (
        "You are banned from tables for 23\xa0hours, 59\xa0minutes more. Reason: cheating" in response.content.decode()
    )
    assert not table.seats.filter(player_key=zed.key).exists()
    assert refusal(services.table_create, player=zed, nickname="Zed", seat_count=2).startswith(
        "You are banned from tables"
    )


def test_a_banned_player_leaves_every_table_at_once_and_may_come_back_when_lifted():
    lobby, (ana, ben) = open_table(start=False)
    playing, _ = open_table(names=("Cleo", "Ben"))
    sent = moderation.player_ban(by=None, person=Person(ben.key, "Ben"), duration="permanent", reason="cheating")
    assert not lobby.seats.filter(player_key=ben.key).exists()
    bot = playing.seats.get(nickname="Ben")
    assert bot.player_key == "" and bot.away  # a bot finishes the game for the seat
    assert {code for code, message in sent if "snapshot" in message} == {lobby.code, playing.code}
    assert refusal(say, lobby, ben, "hi", nickname="Ben") == "You are banned from tables. Reason: cheating"
    moderation.sanction_lift(by=None, sanction_id=Sanction.objects.get().id)
    services.seat_take(code=lobby.code, player=ben, nickname="Ben")


def test_a_banned_host_hosts_nothing_the_next_person_seated_hosts_or_the_table_closes():
    kept, (ana, ben, cleo) = open_table(names=("Ana", "Ben", "Cleo"), start=False)
    alone, _players = open_table(names=("Ana",), start=False)
    sent = moderation.player_ban(by=None, person=Person(ana.key, "Ana"), duration="24h", reason="spam")
    kept.refresh_from_db()
    alone.refresh_from_db()
    assert (kept.host_key, kept.host_name, kept.status) == (ben.key, "Ben", Table.Status.LOBBY)
    assert alone.status == Table.Status.CLOSED and alone.closed_reason
    services.game_start(code=kept.code, player=ben)  # Ben runs the table now
    with pytest.raises(ServiceError):
        services.game_start(code=kept.code, player=ana)
    assert {code for code, _message in sent} >= {kept.code, alone.code}
    assert ModAction.objects.filter(action=ModAction.Action.BAN).count() == ModAction.objects.count() == 1


def test_a_report_of_a_message_stores_who_whom_where_why_and_the_evidence():
    table, (ana, ben) = open_table(start=False)
    say(table, ana, "good luck")
    line = say(table, ben, "you are an idiot")["body"]["line"]
    say(table, WATCHER, "wow", nickname="Zoe")
    report = services.report_create(
        code=table.code, player=ana, reason="insults", comment="  rude \n again ", message_id=line["id"]
    )
    assert (report.reporter_name, report.reported_name, report.reported_key, report.table_code) == (
        "Ana",
        "Ben",
        ben.key,
        table.code,
    )
    assert (report.reason, report.comment, report.message_text, report.status) == (
        "insults",
        "rude again",
        "you are an idiot",
        "open",
    )
    assert [(e["nickname"], e["text"]) for e in report.evidence] == [
        ("Ana", "good luck"),
        ("Ben", "you are an idiot"),
        ("Zoe", "wow"),
    ]
    ChatMessage.objects.all().delete()  # the lines may be pruned: the report keeps its copy
    report.refresh_from_db()
    assert len(report.evidence) == 3


def test_nobody_reports_the_same_thing_twice_nor_themselves_nor_a_bot():
    table, (ana, ben) = open_table(start=False)
    line = say(table, ben, "spam spam")["body"]["line"]
    services.report_create(code=table.code, player=ana, reason="spam", message_id=line["id"])
    assert (
        refusal(services.report_create, code=table.code, player=ana, reason="insults", message_id=line["id"])
        == "You have reported this already: staff will look at it."
    )
    services.report_create(code=table.code, player=ana, reason="nickname", seat_index=1)  # the seat is another thing
    assert (
        refusal(services.report_create, code=table.code, player=ana, reason="other", seat_index=1)
        == "You have reported this already: staff will look at it."
    )
    assert (
        refusal(services.report_create, code=table.code, player=ben, reason="spam", message_id=line["id"])
        == "You cannot report yourself."
    )
    services.bot_add(code=table.code, player=ana, level="easy")
    assert (
        refusal(services.report_create, code=table.code, player=ben, reason="cheating", seat_index=2)
        == "Computer players cannot be reported."
    )
    assert (
        refusal(services.report_create, code=table.code, player=ben, reason="bad", seat_index=0)
        == "Choose a reason for your report."
    )
    # the line and the seat are two reports of Ben at this table: one entry in the queue, counted twice
    assert Report.objects.count() == 1 and Report.objects.get().count == 2


def _report(table, reporter, reported_seat=1):
    return services.report_create(code=table.code, player=reporter, reason="insults", seat_index=reported_seat)


STAFF_ACTIONS = {
    "warn": lambda table, report: moderation.player_warn(
        by=None, person=Person.reported_in(report), warning="insults", report=report
    ),
    "mute": lambda table, report: moderation.player_mute(
        by=None, person=Person.reported_in(report), duration="1h", reason="insults", report=report
    ),
    "ban": lambda table, report: moderation.player_ban(
        by=None, person=Person.reported_in(report), duration="7d", reason="insults", report=report
    ),
    "rename": lambda table, report: moderation.player_rename(
        by=None, table_id=table.id, person=Person.reported_in(report), nickname="Player 2", report=report
    ),
    "remove": lambda table, report: services.seat_remove_by_staff(seat_id=table.seats.get(index=1).id, report=report),
    "close": lambda table, report: services.table_close(code=table.code, reason="abuse", report=report),
    "handle": lambda table, report: moderation.report_handle(by=None, report_id=report.id, note="nothing wrong"),
    "lift": lambda table, report: moderation.sanction_lift(
        by=None,
        sanction_id=Sanction.objects.create(kind="mute", player_key=report.reported_key, nickname="Ben", reason="x").id,
    ),
}


@pytest.mark.parametrize("action", list(STAFF_ACTIONS))
def test_every_staff_action_writes_exactly_one_log_row(action):
    table, (ana, _ben, _cleo) = open_table(names=("Ana", "Ben", "Cleo"))
    report = _report(table, ana)
    STAFF_ACTIONS[action](table, report)
    assert list(ModAction.objects.values_list("action", flat=True)) == [action]
    row = ModAction.objects.get()
    assert row.actor_name == "system" and (row.target_name == "Ben" or action == "close")
    if action != "lift":
        report.refresh_from_db()
        assert report.status == "handled" and report.resolution


def test_a_rename_changes_the_seat_the_game_and_the_chat_lines():
    table, (ana, ben) = open_table()
    say(table, ben, "hi")
    moderation.player_rename(by=None, table_id=table.id, person=Person(ben.key, "Ben"), nickname="Player 2")
    assert table.seats.get(index=1).nickname == "Player 2" and game_of(table).players[1] == "Player 2"
    assert ChatMessage.objects.get().nickname == "Player 2"


def test_a_warning_reaches_every_table_where_the_person_sits():
    table, (ana, ben) = open_table(start=False)
    other, _ = open_table(names=("Cleo", "Ben"), start=False)
    sent = moderation.player_warn(by=None, person=Person(ben.key, "Ben"), warning="spam")
    assert sorted(code for code, _message in sent) == sorted([table.code, other.code])
    assert all(
        message["body"]["to"] == tag(ben.key) and message["body"]["notice"] == {"kind": "warning", "warning": "spam"}
        for _code, message in sent
    )
    with override("de"):
        assert "Eine Verwarnung der Moderation" in chat_render.notice(sent[0][1]["body"]["notice"], "de")


def test_closed_tables_take_no_chat():
    table, (ana, _ben) = open_table(start=False)
    services.table_close(code=table.code, reason="")
    assert Table.objects.get().status == "closed"
    assert refusal(say, table, ana, "hi") == "This table was closed by staff."


def test_people_listed_in_the_chat_are_the_seated_persons_only():
    table, (ana, ben) = open_table(start=False)
    services.bot_add(code=table.code, player=ana, level="easy")
    from game.services import table_reads

    frame = chat_render.frame(table_reads.snapshot(table), ana.key)
    assert frame[:2] == (True, True) and [name for _i, name, _k in frame[2]] == ["Ana", "Ben"]
    html = chat_render.parts(
        code=table.code, chat_frame=frame, viewer_key=ana.key, has_name=True, spectator_chat=True, language="en"
    )
    assert ana.key not in html and ben.key not in html and 'data-report-seat="1"' in html
    assert 'data-report-seat="0"' not in html  # not yourself


def test_a_chat_line_travels_between_processes_as_one_json_payload():
    from game.delivery import broadcast

    table, (ana, _ben) = open_table(start=False)
    message = say(table, ana, "over redis")
    wire, local = broadcast.pack(table.code, message), broadcast.pack(table.code, message, local=True)
    assert wire["type"] == "chat.line" and wire["code"] == table.code and "over redis" in wire["payload"]
    assert broadcast.unpack(broadcast.from_wire(wire)) == broadcast.unpack(local) == message["body"]


def test_the_refusal_shown_is_the_longest_sanction_here_read_in_one_query():
    """A ban before a mute, for good before any end, else the last to run out; another table's
    mute does not count here. Both kinds come from one query: every table socket asks as it opens."""
    table, (ana, ben) = open_table(start=False)
    other, _ = open_table(names=("Cleo", "Dan"), start=False)
    mute(ben, "Ben", duration="15m", reason="spam")
    mute(ben, "Ben", duration="24h", reason="insults")
    mute(ben, "Ben", duration="permanent", table=other, reason="elsewhere")
    with CaptureQueriesContext(connection) as queries:
        shown = services.chat_recent(table.code, ben)["refusal"]
    assert (shown["kind"], shown["reason"]) == ("mute", "insults")
    assert len([query for query in queries if "game_sanction" in query["sql"]]) == 1
    mute(ben, "Ben", duration="permanent", reason="for good")
    assert services.chat_recent(table.code, ben)["refusal"] == {"kind": "mute", "until": None, "reason": "for good"}
    moderation.player_ban(by=None, person=Person(ben.key, "Ben"), duration="7d", reason="cheating")
    shown = services.chat_recent(table.code, ben)["refusal"]
    assert (shown["kind"], shown["reason"]) == ("ban", "cheating") and shown["until"] is not None
    assert services.chat_recent(table.code, ana)["refusal"] is None
