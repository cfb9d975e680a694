"""No viewer ever receives another seat's cards before the round is over.

Complete games of Sevens with two people, bots and a spectator: every socket message each
viewer receives and the table page each of them loads are searched for the cards still in the
other seats' hands (as codes, as names, as the log writes them). Cards shown after a round
(the round's leftovers, in its result `#summary`) are public by then and are taken out before searching.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import translation

from game.core.identity import SESSION_KEY
from game.games.sevens.engine import playable
from game.games.sevens.faces import card_name, short_name
from tests.games.sevens.tables import game_of, sevens_table, state_of
from tests.live.test_consumers import connect, drain, online
from tests.waiting import until_async

pytestmark = pytest.mark.django_db(transaction=True)

LAST_ROUND = re.compile(r'<section class="summary sevens-summary" id="summary".*?</section>', re.S)
# Why a card of the viewer's own hand fits or not names the cards its row waits for: worked out
# from that card and the layout alone (panels.reason), public both, so whoever holds them is not in it.
WHY = re.compile(r' data-why="[^"]*"')


def spoken(code: str) -> list[str]:
    """Every way a page could name a card: its code in an attribute, its name, its log form."""
    return [f'"{code}"', card_name(code), short_name(code)]


LOG_LIST = re.compile(r'(<ol id="log-list"[^>]*>)(.*?)(</ol>)', re.S)


def this_rounds_log(match: re.Match) -> str:
    """A page's log from the current round's deal on: earlier rounds' lines name cards that
    were played then (public) and may be in someone's hand again now."""
    lines = match.group(2)
    start = lines.rfind('<li class="log__line log__line--dealt"')
    return match.group(1) + (lines[start:] if start >= 0 else lines) + match.group(3)


def leaks(html: str, state: dict, viewer: int | None) -> list[str]:
    """The cards of other seats' hands this HTML names."""
    html = LOG_LIST.sub(this_rounds_log, WHY.sub("", LAST_ROUND.sub("", html)))
    found = []
    with translation.override("en"):
        for seat, held in enumerate(state["seats"]):
            if seat == viewer:
                continue
            found += [f"seat {seat}: {code}" for code in held["hand"] if any(way in html for way in spoken(code))]
    return found


def page_for(table, key: str | None) -> str:
    client = Client()
    if key:
        session = client.session
        session[SESSION_KEY] = key
        session.save()
    response = client.get(f"/en/t/{table.code}/")
    assert response.status_code == 200
    return response.content.decode()


LOG_APPEND = re.compile(r'<ol hx-swap-oob="beforeend:#log-list">.*?</ol>|<div id="announce".*?</div>', re.S)


async def settled(table, version: int) -> tuple[dict, int]:
    """The state and its version once the move sent on `version` (and the bots' answers) is saved."""

    async def moved():
        game = await database_sync_to_async(game_of)(table)
        return game.version if game.version != version else None

    moved_to = await until_async(moved, "the move was applied")
    return await database_sync_to_async(state_of)(table), moved_to


def checked(messages: list[str], state: dict, seat: int | None, new_round: bool) -> int:
    """Search what one viewer was sent for the hands of the others. When the update dealt a new
    round, its log lines name the last round's cards (public by then) and are left out."""
    for message in messages:
        if new_round:
            message = LOG_APPEND.sub("", message)
        assert not leaks(message, state, seat), (seat, leaks(message, state, seat))
    return len(messages)


@pytest.mark.parametrize("seed", [1, 2])
async def test_no_viewer_receives_another_seats_cards_in_complete_games(seed):
    rng = random.Random(seed)
    table, (ana, ben) = await database_sync_to_async(sevens_table)(
        names=("Ana", "Ben"), bots=("easy", "hard"), rounds=2, turn_seconds=0
    )
    viewers = {0: ana.key, 1: ben.key, None: None}
    sockets = {seat: await connect(table.code, key) for seat, key in viewers.items()}
    state = await database_sync_to_async(state_of)(table)
    sent = sum([checked(await drain(socket, online(0, 1)), state, seat, False) for seat, socket in sockets.items()])
    moves = 0
    while not state["over"]:
        assert moves < 200
        if moves % 7 == 0:
            for seat, key in viewers.items():
                html = await database_sync_to_async(page_for)(table, key)
                assert not leaks(html, state, seat)
                if seat is not None:
                    assert all(f'data-code="{code}"' in html for code in state["seats"][seat]["hand"])
        seat = state["current"]
        card = rng.choice(playable(state["seats"][seat]["hand"], state["layout"]))
        version = (await database_sync_to_async(game_of)(table)).version
        await sockets[seat].send_to(text_data=json.dumps({"kind": "play", "card": card, "version": version}))
        before, (state, now) = state, await settled(table, version)
        moves += 1
        new_round = state["round"] != before["round"] or state["over"]
        shown = f'data-version="{now}"'  # what every screen is sent of the move (and the bots' answers)
        sent += sum([checked(await drain(socket, shown), state, seat, new_round) for seat, socket in sockets.items()])
    for seat, key in viewers.items():  # game over: the last round's cards are shown to everyone
        assert not leaks(await database_sync_to_async(page_for)(table, key), state, seat)
    assert moves > 10 and sent > 3 * moves
    for socket in sockets.values():
        await socket.disconnect()


def test_the_search_finds_a_hand_where_one_is_drawn():
    """The test above can fail: a page that drew another seat's hand would be caught."""
    table, (ana, ben, cleo) = sevens_table()
    state = state_of(table)
    someone_else = state["seats"][1]["hand"][0]
    assert leaks(f'<span data-code="{someone_else}"></span>', state, 0)
    assert leaks(f"<li>Ben plays {short_name(someone_else)}.</li>", state, 0)
    assert not leaks(f'<span data-code="{state["seats"][0]["hand"][0]}"></span>', state, 0)
