"""Chat on the table socket: lines live on every screen, each in its channel and its viewer's
language; refusals (muted, too fast, blank) to the sender only; a moderator's warning to its
person only."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from game.runtime import limits
from game.services import moderation
from game.services.staff import Person
from tests.factories import open_table
from tests.live.test_consumers import WHOLE_TABLE, connect, drain, first_with, last_word


async def heard_none_of(socket, code: str, speaker, *words: str) -> bool:
    """Nothing this socket heard before a line `speaker` says after it says any of the words (a
    loaded machine may still deliver an earlier update late: presence, a redraw)."""
    heard = await drain(socket, await last_word(code, speaker))
    return not any(word in message for message in heard[:-1] for word in words)


pytestmark = pytest.mark.django_db(transaction=True)


async def chat(socket, **fields) -> None:
    await socket.send_to(text_data=json.dumps({"kind": "chat", **fields, "HEADERS": {"HX-Request": "true"}}))


@database_sync_to_async
def lobby(names=("Ana", "Ben")):
    return open_table(names=names, start=False)


async def test_a_line_reaches_every_screen_in_the_tables_channel():
    table, (ana, ben) = await lobby()
    sockets = [await connect(table.code, ana.key), await connect(table.code, ben.key), await connect(table.code, None)]
    for socket in sockets:
        await drain(socket, WHOLE_TABLE)
    await chat(sockets[0], text="hello <b>all</b>")
    lines = [await first_with(socket, "chat-table-list") for socket in sockets]
    for html in lines:
        assert 'hx-swap-oob="beforeend:#chat-table-list"' in html and "hello &lt;b&gt;all&lt;/b&gt;" in html
        assert 'id="table"' not in html and ana.key not in html  # not the table, never a key
    assert "data-report-message" not in lines[0] and "data-report-message" in lines[1]  # nobody reports themselves
    said = await last_word(table.code, ben)
    for socket in sockets:  # the line once: the next thing each screen is sent is a line said after it
        assert len(await drain(socket, said)) == 1
        await socket.disconnect()


async def test_each_screen_reads_a_quick_phrase_in_its_own_language():
    table, (ana, ben) = await lobby()
    sockets = [
        await connect(table.code, ana.key, "en"),
        await connect(table.code, ben.key, "de"),
        await connect(table.code, None, "fr"),
    ]
    for socket in sockets:
        await drain(socket, WHOLE_TABLE)
    await chat(sockets[1], phrase="good_luck")
    english, german, french = [await first_with(socket, "chat-table-list") for socket in sockets]
    assert "Good luck!" in english and "Viel Glück!" in german and "Bonne chance\u202f!" in french
    for socket in sockets:
        await socket.disconnect()


async def test_a_spectators_line_stays_in_the_spectators_channel():
    table, (ana, _ben) = await lobby()
    player = await connect(table.code, ana.key)
    watcher = await connect(table.code, "guest:zoe", nickname="Zoe")
    for socket in (player, watcher):
        await drain(socket, WHOLE_TABLE)
    await chat(watcher, text="go go go")
    for socket in (player, watcher):
        html = await first_with(socket, "go go go")
        assert "beforeend:#chat-spectators-list" in html and "#chat-table-list" not in html and "Zoe" in html
    await player.disconnect()
    await watcher.disconnect()


async def test_a_spectator_without_a_nickname_is_asked_for_one():
    table, _ = await lobby()
    watcher = await connect(table.code, None)
    opened = "".join(await drain(watcher, 'id="chat-compose"'))
    assert 'name="nickname"' in opened and "Chat as a spectator" in opened
    await chat(watcher, text="hi")
    assert "Choose a nickname to chat." in await first_with(watcher, "toast")
    await watcher.disconnect()


async def test_blank_long_and_malformed_lines_are_refused_to_the_sender_only():
    table, (ana, ben) = await lobby()
    sender, other = await connect(table.code, ana.key), await connect(table.code, ben.key)
    for socket in (sender, other):
        await drain(socket, WHOLE_TABLE)
    await chat(sender, text="   ")
    assert "Write something first." in await first_with(sender, "toast")
    await chat(sender, text="y" * 201)
    assert "A chat message has at most 200 characters." in await first_with(sender, "toast")
    await chat(sender, text=["a list"])
    assert "That message was not understood." in await first_with(sender, "toast")
    await chat(sender, phrase="not_a_phrase")
    assert "That message was not understood." in await first_with(sender, "toast")
    assert await heard_none_of(other, table.code, ben, "Write something", "at most 200", "not understood")
    await sender.disconnect()
    await other.disconnect()


async def test_a_person_over_the_chat_allowance_is_told_to_slow_down_and_others_still_talk():
    table, (ana, ben) = await lobby()
    sender, other = await connect(table.code, ana.key), await connect(table.code, ben.key)
    for socket in (sender, other):
        await drain(socket, WHOLE_TABLE)
    for n in range(limits.CHAT_MESSAGES):
        await chat(sender, text=f"line {n}")
    last = f"line {limits.CHAT_MESSAGES - 1}"
    heard = await drain(other, last)
    assert sum("line" in html for html in heard) == limits.CHAT_MESSAGES
    await drain(sender, last)
    await chat(sender, text="one too many")
    assert "Slow down: you can send another message in" in await first_with(sender, "toast")
    assert await heard_none_of(other, table.code, ben, "Slow down", "one too many")
    await chat(other, text="I may")
    assert "I may" in "".join(await drain(sender, "I may"))
    await sender.disconnect()
    await other.disconnect()


async def test_a_muted_player_is_refused_live_with_the_reason_and_time_left():
    table, (ana, ben) = await lobby()
    sender, other = await connect(table.code, ben.key), await connect(table.code, ana.key)
    for socket in (sender, other):
        await drain(socket, WHOLE_TABLE)
    await database_sync_to_async(moderation.player_mute)(
        by=None, person=Person(ben.key, "Ben"), duration="1h", reason="insults"
    )
    notice = await first_with(sender, "You are muted")
    assert "You are muted in chat for" in notice and "Reason: insults" in notice
    # the notice is the muted person's only
    assert await heard_none_of(other, table.code, ana, "muted", "insults")
    await chat(sender, text="still here?")
    refused = await first_with(sender, "toast")
    assert "You are muted in chat for 59\xa0minutes more. Reason: insults" in refused
    assert await heard_none_of(other, table.code, ana, "muted", "still here?")
    await sender.disconnect()
    await other.disconnect()


async def test_a_warning_is_shown_to_its_person_in_their_language():
    table, (ana, ben) = await lobby()
    warned, other = await connect(table.code, ben.key, "nl"), await connect(table.code, ana.key)
    for socket in (warned, other):
        await drain(socket, WHOLE_TABLE)
    await database_sync_to_async(moderation.player_warn)(by=None, person=Person(ben.key, "Ben"), warning="insults")
    await drain(warned, "Een moderator waarschuwt je")
    assert await heard_none_of(other, table.code, ana, "moderator", "insults")
    await warned.disconnect()
    await other.disconnect()


async def test_a_warning_given_while_its_person_was_away_is_shown_when_they_come_back_once():
    table, (ana, ben) = await lobby()
    await database_sync_to_async(moderation.player_warn)(by=None, person=Person(ben.key, "Ben"), warning="insults")
    back = await connect(table.code, ben.key, "de")  # Ben had no table open: the warning waited
    assert "Verwarnung der Moderation" in "".join(await drain(back, WHOLE_TABLE))  # with the table
    await back.disconnect()
    again = await connect(table.code, ben.key, "de")
    assert "Verwarnung der Moderation" not in "".join(await drain(again, await last_word(table.code, ana)))
    other = await connect(table.code, ana.key)
    assert "A moderator warns you" not in "".join(await drain(other, await last_word(table.code, ana, "once more")))
    for socket in (again, other):
        await socket.disconnect()


async def test_a_reconnecting_screen_gets_the_chat_it_missed():
    table, (ana, ben) = await lobby()
    sender = await connect(table.code, ana.key)
    await drain(sender, WHOLE_TABLE)
    await chat(sender, text="while you were away")
    await drain(sender, "while you were away")
    late = await connect(table.code, ben.key)
    opened = await first_with(late, WHOLE_TABLE)  # its first screen
    assert 'id="chat-table-list"' in opened and "while you were away" in opened
    await sender.disconnect()
    await late.disconnect()


async def test_the_host_turning_spectator_chat_off_reaches_the_spectators_at_once():
    from game import services

    table, (ana, _ben) = await lobby()
    watcher = await connect(table.code, "guest:zoe", nickname="Zoe")
    await drain(watcher, WHOLE_TABLE)
    await database_sync_to_async(services.spectator_chat_set)(code=table.code, player=ana, on=False)
    swapped = await first_with(watcher, 'id="chat-compose"')
    assert "The host has turned the spectators' chat off." in swapped
    assert 'name="text"' not in swapped
    await chat(watcher, text="hello?")
    assert "The host has turned the spectators&#x27; chat off." in await first_with(watcher, "toast")
    await watcher.disconnect()


async def test_a_spectator_who_sits_down_gets_the_players_composer():
    from game import services
    from game.core.identity import Player

    table, _ = await lobby()
    watcher = await connect(table.code, "guest:cleo", nickname="Cleo")
    assert "Message to the spectators" in "".join(await drain(watcher, WHOLE_TABLE))
    await database_sync_to_async(services.seat_take)(code=table.code, player=Player("guest:cleo"), nickname="Cleo")
    redrawn = "".join(await drain(watcher, 'id="chat-compose"'))
    assert 'id="chat-compose"' in redrawn and "Message to the table" in redrawn
    await watcher.disconnect()


async def test_a_refused_move_is_told_in_the_sockets_language():
    table, _ = await database_sync_to_async(open_table)()
    watcher = await connect(table.code, None, "de")
    await drain(watcher, WHOLE_TABLE)
    await watcher.send_to(text_data=json.dumps({"kind": "draw", "version": "1"}))
    assert "Du schaust an diesem Tisch nur zu" in await first_with(watcher, "toast")
    await watcher.disconnect()


async def test_staff_closing_the_table_closes_every_chat_box_with_the_reason_in_each_language():
    from game import services

    table, (ana, ben) = await lobby()
    sockets = [await connect(table.code, ana.key, "en"), await connect(table.code, ben.key, "pl")]
    for socket in sockets:
        await drain(socket, WHOLE_TABLE)
    await database_sync_to_async(services.table_close)(code=table.code, reason="")
    english, polish = ["".join(await drain(socket, 'id="chat-refused"')) for socket in sockets]
    for html in (english, polish):
        assert 'id="chat-compose"' in html and 'id="chat-refused"' in html and "disabled" in html
    assert "This table was closed by staff." in english
    assert "This table was closed by staff." not in polish
    for socket in sockets:
        await socket.disconnect()
