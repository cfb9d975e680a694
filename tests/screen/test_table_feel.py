"""What the table says to each viewer: counted words in their plural forms, "Your turn" (never
"Ben decides" to Ben), the scores and their chart, game over and a rematch request, keys from
the labels of the viewer's language, presence marks and quick timeouts for the absent."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from game.core.errors import ServiceError
from game.games.sevn import log
from game.games.sevn.engine import from_json, to_json
from game.games.sevn.panels import access_keys, points
from game.live import timers
from game.models import Presence, Seat
from game.screen import Screen, render_table
from game.services import presence, table_reads
from game.services.play import ABSENT_TURN, rematch_ask
from tests.factories import act, game_of, open_table

pytestmark = pytest.mark.django_db


def snapshot_of(table):
    table.refresh_from_db()
    return table_reads.snapshot(table)


@pytest.mark.parametrize(
    ("language", "one", "few", "many"),
    [
        ("en", "1 point", "3 points", "5 points"),
        ("de", "1 Punkt", "3 Punkte", "5 Punkte"),
        ("nl", "1 punt", "3 punten", "5 punten"),
        ("pl", "1 punkt", "3 punkty", "5 punktów"),
        ("fr", "1 point", "3 points", "5 points"),
    ],
)
def test_points_are_counted_in_each_languages_plural_forms(language, one, few, many):
    with translation.override(language):
        assert [points(1), points(3), points(5)] == [one, few, many]


def test_a_seat_with_one_point_is_read_out_as_one_point_and_french_spaces_its_colon():
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    game = game_of(table)
    state = from_json(game.state)
    state["seats"][0]["total"] = 1
    game.state = to_json(state)
    game.save(update_fields=["state"])
    english = Screen(ben.key, "en").full(snapshot_of(table), [])
    assert 'aria-label="Ana: In round, 1 point"' in english and "1 points" not in english
    french = Screen(ben.key, "fr").full(snapshot_of(table), [])
    assert 'aria-label="Ana\u202f: ' in french and ', 1 point"' in french


def test_the_decider_reads_your_turn_and_never_their_own_name_deciding():
    """Ben holds a Ballast to decide on: his screen says it is his decision; Ana's says Ben decides."""
    table, (ana, ben) = open_table(deck=["5", "9", "-4", "1", "2", "3"])
    act(table, ben, {"kind": "draw"})  # Ben draws the Ballast: his decision
    bens, anas = Screen(ben.key, "en").full(snapshot_of(table), []), Screen(ana.key, "en").full(snapshot_of(table), [])
    assert "Your turn" in bens and "Your decision" in bens and "Ben decides" not in bens
    assert "Ben decides" in anas and "Your turn" not in anas


def test_freeze_targets_say_what_their_number_is():
    table, (ana, ben) = open_table(deck=["5", "9", "freeze", "1", "2", "3"])
    act(table, ben, {"kind": "draw"})
    html = Screen(ben.key, "en").full(snapshot_of(table), [])
    assert "row: 5 points" in html and "row: 9 points" in html and 'button__meta">+' not in html
    polish = Screen(ben.key, "pl").full(snapshot_of(table), [])
    assert "rząd: 5 punktów" in polish and "rząd: 9 punktów" in polish


def test_keys_come_from_the_labels_of_the_viewers_language():
    assert access_keys(["Draw", "Pass"]) == ["d", "p"]
    assert access_keys(["Ziehen", "Passen"]) == ["z", "p"]
    assert access_keys(["Piocher", "Passer"]) == ["p", "a"]
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    german = Screen(ben.key, "de").full(snapshot_of(table), [])
    assert 'data-key="z"' in german and "<kbd>Z</kbd>" in german and "<kbd>D</kbd>" not in german
    assert '<span class="chip chip--dealer" title="Geber" aria-label="Geber">G</span>' in german


def finished(table, ana, ben):
    """Ana and Ben pass their way through one round after two earlier ones; Ben wins."""
    game = game_of(table)
    state = from_json(game.state)
    state["history"] = [[10, 30], [20, 0]]
    state["seats"][0]["total"], state["seats"][1]["total"], state["target"] = 30, 30, 35
    game.state = to_json(state)
    game.save(update_fields=["state"])
    act(table, ben, {"kind": "pass"})
    return act(table, ana, {"kind": "pass"})


def test_the_scoreboard_lists_every_round_with_running_totals_and_a_chart():
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    message = finished(table, ana, ben)
    html = render_table(message["snapshot"], ana.key)
    board = html[html.index('id="scores"') : html.index("</section>", html.index('id="scores"'))]
    rows = re.findall(r'<tr><th scope="row">(\d+)</th>(.*?)</tr>', board)
    assert [number for number, _ in rows] == ["1", "2", "3"]
    totals = [re.findall(r'class="scoreboard__total">(\d+)<', cells) for _, cells in rows]
    assert totals == [["10", "30"], ["30", "30"], ["39", "35"]]  # Ana 9 and Ben 5 in the last round
    chart = board[board.index("<svg") : board.index("</svg>")]
    assert chart.count("<polyline") == 2 and "Ana: 39 points" in chart and "<script" not in board


def test_game_over_names_the_winner_and_the_host_hears_a_rematch_request():
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    finished(table, ana, ben)
    bens = Screen(ben.key, "en")
    html = bens.full(snapshot_of(table), table_reads.log_events(game_of(table)))
    assert "Ana wins!" in html and "Waiting for Ana to start a rematch." in html and 'data-action="ask-rematch"' in html
    anas = Screen(ana.key, "en")
    anas.full(snapshot_of(table), [])
    asked = rematch_ask(code=table.code, player=ben)
    assert "Ben would like a rematch." in anas.update(asked["snapshot"], asked["events"])
    assert "You asked Ana for a rematch." in bens.update(asked["snapshot"], asked["events"])
    assert log.line(asked["events"][0], ["Ana", "Ben"]) == "Ben would like a rematch."
    with pytest.raises(ServiceError, match="already"):
        rematch_ask(code=table.code, player=ben)
    # a screen that connects later reads the request from the log
    later = Screen(ana.key, "en").full(snapshot_of(table), table_reads.log_events(game_of(table)))
    assert "Ben would like a rematch." in later


def test_a_lobby_action_is_answered_by_the_socket_alone():
    """The clicker's socket redraws the lobby like everyone's: the answer has no #table of its
    own (htmx would look for its target in a lobby the socket has replaced already)."""
    table, (ana, ben) = open_table(start=False)
    client = Client()
    session = client.session
    session["sevn_player"] = ana.key
    session.save()
    response = client.post(f"/en/t/{table.code}/bot/", {"index": "2", "level": "easy"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 204 and table.seats.count() == 3


def test_presence_is_broadcast_when_a_socket_opens_and_when_the_last_one_closes():
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    arrived = presence.arrived(code=table.code, player_key=ben.key, channel="ben-1")
    told = arrived["events"][0]["told"]  # numbered: the game's start told who was here first
    assert arrived["events"] == [{"type": "presence", "online": [1], "told": told}]
    presence.arrived(code=table.code, player_key=ben.key, channel="ben-2")
    assert presence.left(channel="ben-1") is None  # another of Ben's sockets is still open
    gone = presence.left(channel="ben-2")  # announced to every screen, and returned
    assert gone["events"] == [{"type": "presence", "online": [], "told": told + 2}]
    screen = Screen(ana.key, "en")
    screen.full(snapshot_of(table), [])
    html = screen.update(arrived["snapshot"], arrived["events"])
    # Ben's, and Ana's own: a screen is its viewer's open socket
    assert '<div id="table-presence" hidden data-online="0 1" data-known></div>' == html


def test_a_sweep_tells_each_table_where_a_stale_socket_was_someone_s_last():
    """Rows no process vouched for lately go; a table is told only where that was someone's
    last socket (Cy has a live one beside his stale one)."""
    first, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    second, (cy, di) = open_table(names=("Cy", "Di"), deck=["5", "9", "4", "1", "2", "3"])
    for table, player, channel in ((first, ana, "ana"), (first, ben, "ben"), (second, cy, "cy"), (second, cy, "cy-2")):
        presence.arrived(code=table.code, player_key=player.key, channel=channel)
    Presence.objects.filter(channel__in=["ben", "cy"]).update(seen=timezone.now() - presence.STALE_AFTER * 2)
    told = [m for m in presence.mark_absent() if any(e["type"] == "presence" for e in m["events"])]
    assert [(m["snapshot"]["table"]["code"], m["events"][-1]["online"]) for m in told] == [(first.code, [0])]
    assert sorted(Presence.objects.values_list("channel", flat=True)) == ["ana", "cy-2"]
    assert presence.mark_absent() == []  # nothing stale left: nothing told


def test_sockets_closing_together_make_one_presence_message_per_table():
    """A crowd closing at once: every row gone, every seat's last visit noted, one message for
    each table where someone's last socket closed (none where another of theirs is open)."""
    first, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    second, (cy, di) = open_table(names=("Cy", "Di"), deck=["5", "9", "4", "1", "2", "3"])
    Seat.objects.update(last_seen=None)
    for table, player, channel in (
        (first, ana, "ana"),
        (first, ben, "ben-1"),
        (first, ben, "ben-2"),
        (second, cy, "cy"),
        (second, di, "di"),
    ):
        presence.arrived(code=table.code, player_key=player.key, channel=channel)
    Seat.objects.update(last_seen=None)
    messages = presence.left_all(channels=["ana", "ben-1", "cy", "di", "nobody"])
    assert sorted(m["snapshot"]["table"]["code"] for m in messages) == sorted([first.code, second.code])
    online = {m["snapshot"]["table"]["code"]: m["events"] for m in messages}
    assert [event["online"] for event in online[first.code]] == [[1]]  # Ben's other socket is open
    assert [event["online"] for event in online[second.code]] == [[]]
    assert list(Presence.objects.values_list("channel", flat=True)) == ["ben-2"]
    seen = dict(Seat.objects.values_list("player_key", "last_seen"))
    assert seen[ana.key] and seen[cy.key] and seen[di.key] and seen[ben.key]
    assert presence.left_all(channels=["ana", "cy"]) == []  # closed already: nothing to tell


def test_an_absent_players_next_decisions_wait_only_a_few_seconds():
    table, (ana, ben) = open_table(deck=["5", "9", "freeze", "1", "2", "3", "4", "6"], turn_seconds=30)
    presence.arrived(code=table.code, player_key=ben.key, channel="ben")
    presence.left(channel="ben")
    Seat.objects.filter(table=table, index=1).update(last_seen=timezone.now() - timedelta(seconds=20))
    timers.fire_due(check_absent=True)  # Ben's turn: due within seconds, not the 30 s clock
    assert game_of(table).deadline - timezone.now() <= ABSENT_TURN
    messages = timers.fire_due(now=timezone.now() + ABSENT_TURN, check_absent=False)
    assert any(e["type"] == "timeout" for m in messages for e in m["events"])
    state = from_json(game_of(table).state)
    if state["pending"] and state["pending"]["seat"] == 1:  # a queued decision of his comes next
        assert game_of(table).deadline - timezone.now() <= ABSENT_TURN


def test_a_move_does_not_ask_whether_its_next_decider_is_here_while_their_socket_lives():
    """The heartbeat marks the seats of people with a socket open as seen (more often than an
    absence counts): the move that hands Ana the turn reads no presence, and her clock is the
    table's, as it is for anyone here."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"], turn_seconds=30)
    presence.arrived(code=table.code, player_key=ana.key, channel="ana")  # a minute ago
    Seat.objects.filter(table=table).update(last_seen=timezone.now() - timedelta(minutes=1))
    presence.heartbeat(sockets={"ana": (table.code, ana.key)})
    assert presence.HEARTBEAT < timedelta(seconds=15)  # shorter than an absence (services.play.GRACE)
    with CaptureQueriesContext(connection) as queries:
        act(table, ben, {"kind": "draw"})  # Ben draws; Ana decides next
    assert not [query["sql"] for query in queries if "game_presence" in query["sql"]]
    assert game_of(table).deadline - timezone.now() > timedelta(seconds=20)


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Mia aims Triple Draw at themselves."),
        ("de", "Mia wählt sich selbst für Triple Draw."),
        ("fr", "Mia joue Triple pioche et se désigne comme cible."),
    ],
)
def test_a_card_aimed_at_its_own_player_says_so_never_the_name_twice(language, sentence):
    """ "Mia wählt Mia für Triple Draw" read as two Mias: a Triple Draw (like a Freeze) aimed at
    its own player has a sentence of its own."""
    names = ["Mia", "Noa"]
    with translation.override(language):
        assert log.line({"type": "triple_draw", "seat": 0, "target": 0}, names) == sentence
        assert "Noa" in log.line({"type": "triple_draw", "seat": 0, "target": 1}, names)
