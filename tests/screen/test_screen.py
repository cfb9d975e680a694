"""A socket's screen: the whole table first, then only the pieces that changed, in order."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from game import services
from game.delivery.broadcast import Passed
from game.drawkit import common as common_module
from game.drawkit import pieces as pieces_module
from game.drawkit.pieces import Drawings, Piece, draw, drawings
from game.games.sevn.panels import Pile
from game.screen import Screen, table_view
from game.services import table_reads
from tests.factories import open_table
from tests.live.swaps import swapped_ids

pytestmark = pytest.mark.django_db


def snapshot_of(table):
    table.refresh_from_db()
    return table_reads.snapshot(table)


def move(table, player, action):
    version = table_reads.current_game(table).version
    return services.game_act(code=table.code, player=player, action=action, version=version)


def test_the_first_draw_is_the_whole_table_then_only_what_changed():
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    screen = Screen(ana.key, "en")
    first = screen.full(snapshot_of(table), [])
    assert 'id="table"' in first and 'id="log"' in first

    update = move(table, ben, {"kind": "draw"})  # Ben draws the 4
    html = screen.update(update["snapshot"], update["events"], Passed(update))
    assert 'id="table"' not in html
    swapped = swapped_ids(html)
    assert "table-meta" in swapped and "seat-1" in swapped and "controls" in swapped  # now Ana decides
    assert "seat-0" not in swapped and 'data-turn="0"' in html  # Ana's turn: her row is not redrawn for it
    assert "summary" not in swapped and "standings" not in swapped

    # the same table again: nothing on the screen is redrawn
    again = screen.update(update["snapshot"], [], Passed(update))
    assert again == ""


def test_with_a_clock_running_a_move_redraws_the_turn_and_the_deck_not_the_bar():
    """The clock's time travels on #table-meta: the bar (table, round, target) stays as it is,
    the turn is new when the decider changes, and only the pile whose count moved is redrawn."""
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"], turn_seconds=30)
    screen = Screen(ana.key, "en")
    first = screen.full(snapshot_of(table), [])
    assert 'class="countdown"' in first and "Ben decides" in first
    for player, now_deciding in ((ben, "Your turn"), (ana, "Ben decides")):
        update = move(table, player, {"kind": "draw"})
        html = screen.update(update["snapshot"], update["events"], Passed(update))
        swapped = swapped_ids(html)
        assert {"table-meta", "table-turn", "pile-deck"} <= set(swapped)
        assert "table-bar" not in swapped and "pile-discard" not in swapped
        assert now_deciding in html and 'class="countdown"' in html


def test_an_older_update_overtaken_by_a_newer_one_is_not_drawn():
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    screen = Screen(None, "en")
    screen.full(snapshot_of(table), [])
    older = move(table, ben, {"kind": "draw"})
    newer = move(table, ana, {"kind": "draw"})
    assert screen.update(newer["snapshot"], newer["events"], Passed(newer))
    # its table is already shown; its log lines need the whole log again (the socket re-reads it)
    assert screen.update(older["snapshot"], older["events"], Passed(older)) is None
    assert screen.update(older["snapshot"], [], Passed(older)) == ""


def test_a_new_arrangement_sends_the_whole_table_again():
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    screen = Screen(ana.key, "en")
    screen.full(snapshot_of(table), [])
    message = services.table_close(code=table.code, reason="spam")
    html = screen.update(message["snapshot"], message["events"], Passed(message))
    assert 'id="table"' in html and "This table was closed by staff." in html


def test_every_piece_is_one_element_with_its_id():
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    pieces = table_view(snapshot_of(table), ben.key).pieces
    assert {"table-meta", "table-bar", "seat-0", "seat-1", "controls"} <= set(pieces)
    for name, piece in pieces.items():
        html = draw(piece)
        assert re.match(rf'<\w+[^>]* id="{name}"', html) and html.count(f'id="{name}"') == 1, name


def test_spectators_share_one_working_out_and_see_the_same_update():
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    watchers = [Screen(None, "en") for _ in range(3)]
    for screen in watchers:
        screen.full(snapshot_of(table), [])
    update = move(table, ben, {"kind": "draw"})
    passed = Passed(update)
    drawn = [screen.update(update["snapshot"], update["events"], passed) for screen in watchers]
    clockless = {re.sub(r'data-now="\d+"', "", html) for html in drawn}
    assert len(clockless) == 1 and "seat-1" in swapped_ids(drawn[0])
    shared = passed.shared  # what every viewer shares was worked out once, by the first screen
    assert shared is not None
    assert table_view(update["snapshot"], ana.key, passed=passed).pieces["seat-1"] is shared.pieces["seat-1"]


def test_each_distinct_view_is_worked_out_once_per_update(monkeypatch):
    """Screens of one update that see the same (spectators, whoever they are; one person's two
    tabs) share one view; each seat's own is worked out apart, once."""
    from game import registry

    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    screens = [Screen(key, "en") for key in (None, "guest:watcher-one", "guest:watcher-two", ana.key, ana.key, ben.key)]
    log = []  # every screen heard the same log (in a socket: the same update objects)
    for screen in screens:
        screen.full(snapshot_of(table), log)
    update = move(table, ben, {"kind": "draw"})
    kind = registry.of(table)
    worked_out = []
    real = type(kind).viewer_table

    def counted(self, snapshot, shared, viewer_key, *args, **kwargs):
        worked_out.append(viewer_key)
        return real(self, snapshot, shared, viewer_key, *args, **kwargs)

    monkeypatch.setattr(type(kind), "viewer_table", counted)
    passed = Passed(update)
    drawn = [screen.update(update["snapshot"], update["events"], passed) for screen in screens]
    assert worked_out == [None, ana.key, ben.key]  # the spectators' view, Ana's, Ben's
    clockless = [re.sub(r'data-now="\d+"', "", html) for html in drawn]
    assert len(set(clockless[:3])) == 1 and clockless[3] == clockless[4] != clockless[0]
    assert clockless[5] not in (clockless[0], clockless[3])


def test_screens_drawn_within_one_clock_step_share_the_meta_drawing(monkeypatch):
    """The meta element carries the server's clock; screens of one update drawn milliseconds
    apart read it to the same step and share one drawing, a later step draws it again."""
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    update = move(table, ben, {"kind": "draw"})
    meta = table_view(update["snapshot"], ana.key).pieces["table-meta"]
    rendered = []
    monkeypatch.setattr(pieces_module, "render_to_string", lambda name, context: rendered.append(context) or "<div>")
    monkeypatch.setattr(drawings, "_drawn", type(drawings._drawn)())
    clock = iter([1_000_000.004, 1_000_000.031, 1_000_000.049, 1_000_000.180])
    monkeypatch.setattr(common_module, "time", SimpleNamespace(time=lambda: next(clock)))
    for _ in range(4):
        draw(common_module.meta_piece(meta.data))
    assert [context["now_ms"] for context in rendered] == [1_000_000_000, 1_000_000_200]


def test_a_seat_is_drawn_once_for_everyone_and_marked_yours_by_where_it_sits():
    table, (ana, ben) = open_table(deck=["5", "9", "4", "1", "2", "3"])
    update = move(table, ben, {"kind": "draw"})
    passed = Passed(update)
    bens = table_view(update["snapshot"], ben.key, passed=passed)
    anas = table_view(update["snapshot"], ana.key, passed=passed)
    assert bens.pieces["seat-1"] == anas.pieces["seat-1"] and bens.frame.me == 1 and anas.frame.me == 0
    html = Screen(ben.key, "en").full(update["snapshot"], [])
    mine = html.split('class="table__mine"')[1]
    assert 'id="seat-1"' in mine and 'id="seat-0"' not in mine


def test_the_one_memo_is_bounded_and_draws_each_look_once(monkeypatch):
    monkeypatch.setattr(Drawings, "SIZE", 4)
    monkeypatch.setattr(drawings, "_drawn", type(drawings._drawn)())
    calls = []

    def context(pile):
        calls.append(pile.count)
        return {"pile": pile}

    for count in (1, 2, 1, 3, 4, 5, 6):
        draw(Piece("sevn/_pile.html", Pile("deck", count), context))
    assert len(drawings._drawn) == 4 and calls == [1, 2, 3, 4, 5, 6]  # the second 1 was drawn already


def test_a_seat_is_read_out_with_its_name_status_and_points_in_the_viewers_language():
    table, (ana, ben) = open_table(names=('Ana "<b>"', "Ben"), deck=["5", "9", "4", "1", "2", "3"])
    english = Screen(ben.key, "en").full(snapshot_of(table), [])
    assert 'aria-label="Ana &quot;&lt;b&gt;&quot;: In round, 0 points"' in english
    german = Screen(ben.key, "de").full(snapshot_of(table), [])
    assert 'aria-label="Ana &quot;&lt;b&gt;&quot;: Noch in der Runde, 0 Punkte"' in german
    assert "<b>" not in english.split('id="log"')[0]
