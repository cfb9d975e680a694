"""The table as players asked for it, screen by screen: presence from the first second of a game,
the cards played since your last turn marked (per viewer), a Sevens round's result, a shared win
in one sentence and quick phrases per game."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from game import registry, services
from game.core.phrases import QUICK_PHRASES
from game.games.sevens.engine import playable
from game.games.sevens.panels import Standing, standings_context
from game.games.sevn.panels import Standings
from game.games.sevn.panels import standings_context as sevn_standings_context
from game.screen import Screen
from game.screen import chat as chat_render
from game.services import presence, table_reads
from tests.factories import act, open_table
from tests.games.sevens.tables import game_of, play, sevens_table, state_of

pytestmark = pytest.mark.django_db

MARKED = re.compile(r'sevens-cell--recent">\s*<span class="card[^"]*"[^>]*data-code="(\w+)"')
LAST = re.compile(r'class="card [^"]*is-last[^"]*"[^>]*data-code="(\w+)"')


def snapshot_of(table):
    table.refresh_from_db()
    return table_reads.snapshot(table)


def test_the_start_of_a_game_tells_every_screen_who_is_connected_since_the_lobby():
    """A lobby's screens hear no presence, and a screen opened there knew only who came before
    it: the game's first update says whose sockets are open."""
    table, (ana, ben) = open_table(start=False, seats=2)
    screens = {}
    for index, player in enumerate((ana, ben)):
        screen = Screen(player.key, "en")
        screen.full(snapshot_of(table), [], presence.online(table.id))  # read before it counts
        assert presence.arrived(code=table.code, player_key=player.key, channel=f"c{index}") is None  # a lobby
        screens[player] = screen
    started = services.game_start(code=table.code, player=ana)
    assert started["events"][-1] == {"type": "presence", "online": [0, 1], "told": 1}
    for screen in screens.values():
        html = screen.update(started["snapshot"], started["events"])
        assert '<div id="table-presence" hidden data-online="0 1" data-known></div>' in html


def test_a_screen_marks_its_own_seat_online_whatever_it_heard():
    table, (ana, ben) = open_table(seats=2)
    screen = Screen(ben.key, "en")
    html = screen.full(snapshot_of(table), [], [])  # the reading came a moment before Ben's socket counted
    assert 'data-online="1" data-known' in html


def move(table, players) -> dict:
    """Whoever decides plays their first playable card (a seat with none passes by itself)."""
    state = state_of(table)
    seat = state["current"]
    return play(table, players[seat], playable(state["seats"][seat]["hand"], state["layout"])[0])


# A deal where Cleo (seat 2) passes by herself in the same update as Ben's 7♠, the first play
# after the opener: the cards she never had a turn to answer stay marked for her (a pass
# counted as her turn wiped them before she saw them).
MARKS_SEED = 2


def test_sevens_marks_the_cards_played_since_each_viewers_own_last_turn():
    table, players = sevens_table(turn_seconds=0, seed=MARKS_SEED)
    snapshot = snapshot_of(table)
    screens = [Screen(player.key, "en") for player in players] + [Screen(None, "en")]
    for screen in screens:
        screen.full(snapshot, table_reads.log_events(game_of(table)), [0, 1, 2])
    passed_unseen = 0  # updates that brought a play and the pass right after it
    for _ in range(7):
        round_number = state_of(table)["round"]
        message = move(table, players)
        if state_of(table)["round"] != round_number:
            break
        kinds = [event["type"] for event in message["events"]]
        passed_unseen += kinds[:2] == ["played", "passed"]
        history = [tuple(move) for move in state_of(table)["moves"]]  # (seat, card or None) this round
        pages = [screen.update(message["snapshot"], message["events"]) for screen in screens]
        current = state_of(table)["current"]
        for viewer, html in enumerate(pages):
            shown = screens[viewer]
            whose = viewer if viewer < 3 else current  # a spectator: since the decider last played
            since = []
            for by, card in reversed(history):
                if by == whose and card:
                    break
                if card:
                    since.append(card)
            marked = set(MARKED.findall(shown._whole(message["snapshot"], shown._view(message["snapshot"], []))))
            assert marked == set(since), (viewer, history)
            assert html is not None
    assert passed_unseen, "the deal no longer has a pass right after a play"


def test_sevn_marks_the_card_drawn_last_at_the_table_for_every_viewer():
    table, (ana, ben) = open_table(seats=2, deck=["5", "9", "4", "1", "2", "3", "6", "7"])
    screen = Screen(ana.key, "en")
    screen.full(snapshot_of(table), table_reads.log_events(game_of(table)), [0, 1])
    message = act(table, ben, {"kind": "draw"})  # Ben draws the 4
    html = screen.update(message["snapshot"], message["events"])
    assert LAST.findall(html) == ["4"]
    assert '<p id="table-last-move" class="last-move" aria-hidden="true">Ben draws 4.</p>' in html
    message = act(table, ana, {"kind": "draw"})  # Ana draws the 1: Ben's 4 is no longer the last
    html = screen.update(message["snapshot"], message["events"])
    assert LAST.findall(html) == ["1"]
    message = act(table, ben, {"kind": "pass"})  # nobody drew: the 1 stays marked
    html = screen.update(message["snapshot"], message["events"])
    again = Screen(ana.key, "en")  # a reload finds the same in the log
    assert LAST.findall(again.full(snapshot_of(table), table_reads.log_events(game_of(table)), [0, 1])) == ["1"]
    assert "Ben passes." in html


def test_a_sevens_round_result_shows_who_went_out_each_penalty_and_the_new_totals():
    table, players = sevens_table(turn_seconds=0, rounds=2)
    screen = Screen(players[0].key, "en")
    screen.full(snapshot_of(table), [], [0, 1, 2])
    for _ in range(400):
        message = move(table, players)
        html = screen.update(message["snapshot"], message["events"])
        if any(event["type"] == "round_over" for event in message["events"]):
            break
    over = next(event for event in message["events"] if event["type"] == "round_over")
    names = [seat["nickname"] for seat in sorted(message["snapshot"]["seats"], key=lambda seat: seat["index"])]
    assert 'id="summary"' in html and "data-show-summary" in html  # the sheet opens once
    assert f"{names[over['out']]} went out: no cards left." in html
    for seat, (penalty, total) in enumerate(zip(over["penalties"], over["totals"], strict=True)):
        assert re.search(rf"<h3>{names[seat]} <span class=\"summary__score\">\+{penalty} penalty points?</span>", html)
        assert f"Total: {total}" in html
    assert "data-open-summary" in html and "Round 1: result" in html
    assert html.count('<span class="seat__total-label">penalty</span>') == 3


@pytest.mark.parametrize("language", ["en", "de", "pl"])
def test_a_shared_win_is_one_sentence_in_either_game(language):
    sevens = [Standing(1, "Bert", 12, True), Standing(1, "Bot Alan", 12, True), Standing(3, "Cleo", 30, False)]
    with translation.override(language):
        title = standings_context(tuple(sevens))["title"]
        sevn_title = sevn_standings_context(Standings(("Bert", "Bot Alan", "Cleo"), (260, 260, 100), None))["title"]
        alone = standings_context((sevens[0]._replace(place=1), sevens[2]))["title"]
    expected = {
        "en": "Bert and Bot Alan share the win!",
        "de": "Bert und Bot Alan teilen sich den Sieg!",
        "pl": "Bert i Bot Alan dzielą się zwycięstwem!",
    }[language]
    assert title == sevn_title == expected
    assert alone.count("Bert") == 1 and "Cleo" not in alone


def test_quick_phrases_are_each_games_own():
    sevn, sevens = registry.KINDS["sevn"], registry.KINDS["sevens"]
    assert "nice_sevn" in sevn.phrases and "nice_sevn" not in sevens.phrases
    assert all(key in QUICK_PHRASES for kind in registry.KINDS.values() for key in kind.phrases)
    for kind, (table, players) in (("sevn", open_table(seats=2)), ("sevens", sevens_table())):
        snapshot = snapshot_of(table)
        html = chat_render.parts(
            code=table.code,
            chat_frame=chat_render.frame(snapshot, players[0].key),
            viewer_key=players[0].key,
            has_name=True,
            spectator_chat=True,
            language="en",
        )
        assert ('data-phrase="nice_sevn"' in html) == (kind == "sevn"), kind
        assert 'data-phrase="good_luck"' in html


def test_a_sevens_hand_says_why_a_card_cannot_be_played_and_never_of_a_playable_one():
    """Each card you cannot play carries the rulebook's reason (shown when it is tapped or chosen
    with Enter); a card you may play carries none, it plays."""
    table, players = sevens_table(turn_seconds=0, seed=1)  # seat 2 chooses first: 7♥ and 8♦ fit
    hands = [
        re.findall(
            r'<li class="sevens-hand__card([^"]*)" data-hand-card([^>]*)>',
            Screen(player.key, language).full(snapshot_of(table), [], [0, 1, 2]),
        )
        for player, language in ((players[2], "en"), (players[0], "de"))
    ]
    mine, theirs = hands
    assert [extra for playable, extra in mine if playable] == ["", ""]
    assert (" is-playable", "") not in theirs  # not their turn: nothing to play
    assert ("", ' data-why="8♠ does not fit: it waits for 7♠, which starts its row."') in mine
    assert ("", ' data-why="9♦ does not fit: the next card up in its row is 8♦."') in mine
    assert ("", ' data-why="6♠ passt nicht: Die Karte wartet auf die 7♠, die ihre Reihe beginnt."') in theirs
    assert len(mine) == 17 and all(extra.startswith(' data-why="') for playable, extra in theirs)


def test_a_sevens_hand_is_one_tab_stop_as_drawn_before_any_script_runs():
    """Only the first playable card is in the Tab order as the server draws the hand: a keyboard
    that arrives before the page's scripts have run still finds the hand one stop, not several."""
    table, players = sevens_table(turn_seconds=0, seed=1)  # seat 2 chooses first: 7♥ and 8♦ fit
    html = Screen(players[2].key, "en").full(snapshot_of(table), [], [0, 1, 2])
    buttons = re.findall(r'<button class="button--card sevens-play" tabindex="(-?\d)"', html)
    assert buttons == ["0", "-1"]
