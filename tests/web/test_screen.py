"""A socket's screen: the whole table first, then only the pieces that changed, in order."""

from __future__ import annotations

import re

import pytest

from game import selectors, services
from game.render import Screen, game_pieces

from .factories import table
from .swaps import swapped_ids

pytestmark = pytest.mark.django_db


def snapshot_of(room):
    room.refresh_from_db()
    return selectors.snapshot(room)


def move(room, player, action):
    version = selectors.current_game(room).version
    return services.game_act(code=room.code, player=player, action=action, version=version)


def test_the_first_draw_is_the_whole_table_then_only_what_changed():
    room, (ana, ben) = table(deck=["5", "9", "4", "1", "2", "3"])
    screen = Screen(ana.key, "en")
    first = screen.full(snapshot_of(room), [])
    assert 'id="table"' in first and 'id="log"' in first

    update = move(room, ben, {"kind": "draw"})  # Ben draws the 4
    html = screen.update(update["snapshot"], update["events"], key=update["id"])
    assert 'id="table"' not in html
    swapped = swapped_ids(html)
    assert "table-meta" in swapped and "seat-1" in swapped and "controls" in swapped  # now Ana decides
    assert "seat-0" not in swapped and 'data-turn="0"' in html  # Ana's turn: her row is not redrawn for it
    assert "summary" not in swapped and "standings" not in swapped

    # the same table again: nothing on the screen is redrawn
    again = screen.update(update["snapshot"], [], key=update["id"])
    assert again == ""


def test_with_a_clock_running_a_move_redraws_the_turn_and_the_deck_not_the_bar():
    """The clock's time travels on #table-meta: the bar (table, round, target) stays as it is,
    the turn is new when the decider changes, and only the pile whose count moved is redrawn."""
    room, (ana, ben) = table(deck=["5", "9", "4", "1", "2", "3"], turn_seconds=30)
    screen = Screen(ana.key, "en")
    first = screen.full(snapshot_of(room), [])
    assert 'class="countdown"' in first and "Ben decides" in first
    for player, now_deciding in ((ben, "Your turn"), (ana, "Ben decides")):
        update = move(room, player, {"kind": "draw"})
        html = screen.update(update["snapshot"], update["events"], key=update["id"])
        swapped = swapped_ids(html)
        assert {"table-meta", "table-turn", "pile-deck"} <= set(swapped)
        assert "table-bar" not in swapped and "pile-discard" not in swapped
        assert now_deciding in html and 'class="countdown"' in html


def test_an_older_update_overtaken_by_a_newer_one_is_not_drawn():
    room, (ana, ben) = table(deck=["5", "9", "4", "1", "2", "3"])
    screen = Screen(None, "en")
    screen.full(snapshot_of(room), [])
    older = move(room, ben, {"kind": "draw"})
    newer = move(room, ana, {"kind": "draw"})
    assert screen.update(newer["snapshot"], newer["events"], key=newer["id"])
    # its table is already shown; its log lines need the whole log again (the socket re-reads it)
    assert screen.update(older["snapshot"], older["events"], key=older["id"]) is None
    assert screen.update(older["snapshot"], [], key=older["id"]) == ""


def test_a_new_arrangement_sends_the_whole_table_again():
    room, (ana, ben) = table(deck=["5", "9", "4", "1", "2", "3"])
    screen = Screen(ana.key, "en")
    screen.full(snapshot_of(room), [])
    message = services.room_close(code=room.code, reason="spam")
    html = screen.update(message["snapshot"], message["events"], key=message["id"])
    assert 'id="table"' in html and "This table was closed by staff." in html


def test_every_piece_is_one_element_with_its_id():
    room, (ana, ben) = table(deck=["5", "9", "4", "1", "2", "3"])
    frame, pieces = game_pieces(snapshot_of(room), ben.key)
    assert frame is not None and {"table-meta", "table-bar", "seat-0", "seat-1", "controls"} <= set(pieces)
    for name, piece in pieces.items():
        html = piece.draw()
        if html:
            assert re.match(rf'<\w+[^>]* id="{name}"', html) and html.count(f'id="{name}"') == 1, name


def test_spectators_share_one_set_of_pieces_and_see_the_same_update():
    room, (ana, ben) = table(deck=["5", "9", "4", "1", "2", "3"])
    watchers = [Screen(None, "en") for _ in range(3)]
    for screen in watchers:
        screen.full(snapshot_of(room), [])
    update = move(room, ben, {"kind": "draw"})
    drawn = [screen.update(update["snapshot"], update["events"], key=update["id"]) for screen in watchers]
    clockless = {re.sub(r'data-now="\d+"', "", html) for html in drawn}
    assert len(clockless) == 1 and "seat-1" in swapped_ids(drawn[0])
    assert (
        game_pieces(update["snapshot"], None, update["events"], key=update["id"])[1]
        is game_pieces(update["snapshot"], "guest:somebody-else", update["events"], key=update["id"])[1]
    )


def test_an_old_draw_is_freed_without_waiting_for_the_garbage_collector():
    """Pieces point back at their draw; a draw pushed out of the recent ones must not linger as
    a reference cycle (only a full collection would free it: a pause for every table)."""
    import gc
    import weakref

    from game.render import TableDraw

    room, (ana, ben) = table(deck=["5", "9", "4", "1", "2", "3"])
    update = move(room, ben, {"kind": "draw"})
    gc.disable()
    try:
        game_pieces(update["snapshot"], ana.key, update["events"], key="first")
        first = weakref.ref(TableDraw.of(update["snapshot"], update["events"], "first"))
        for n in range(TableDraw.KEPT):
            game_pieces(update["snapshot"], ana.key, update["events"], key=f"later-{n}")
        assert first() is None
    finally:
        gc.enable()


def test_a_seat_is_read_out_with_its_name_status_and_points_in_the_viewers_language():
    room, (ana, ben) = table(names=('Ana "<b>"', "Ben"), deck=["5", "9", "4", "1", "2", "3"])
    english = Screen(ben.key, "en").full(snapshot_of(room), [])
    assert 'aria-label="Ana &quot;&lt;b&gt;&quot;: In round, 0 points"' in english
    german = Screen(ben.key, "de").full(snapshot_of(room), [])
    assert 'aria-label="Ana &quot;&lt;b&gt;&quot;: Noch in der Runde, 0 Punkte"' in german
    assert "<b>" not in english.split('id="log"')[0]
