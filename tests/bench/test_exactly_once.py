"""The load bench's count of doubled moves (bench/exactly_once.py): a person's move on a version
they never answered, except one answered before versions that only changed who plays a seat,
which the server applies on the version it finds (game.services.play._stale)."""

from __future__ import annotations

from bench.exactly_once import SEAT_CHANGES, answered_before
from game.services.play import SEAT_CHANGES as SERVERS_SEAT_CHANGES


def test_the_bench_and_the_server_agree_on_what_only_changes_a_seat():
    assert SEAT_CHANGES == SERVERS_SEAT_CHANGES


def test_a_move_on_the_version_answered_is_not_doubled():
    assert answered_before({(1, 7)}, 1, 7, {})


def test_a_move_answered_before_someone_came_back_is_not_doubled():
    # answered on version 7; versions 8 and 9 were a "back" and an "away": applied on 9
    kinds = {8: {"back"}, 9: {"away"}}
    assert answered_before({(1, 7)}, 1, 9, kinds)


def test_a_move_after_a_game_move_or_a_silent_version_is_doubled():
    assert not answered_before({(1, 7)}, 1, 9, {8: {"back"}, 9: {"action", "draw"}})  # a move came between
    assert not answered_before({(1, 7)}, 1, 9, {9: {"away"}})  # version 8 logged nothing: a move
    assert not answered_before({(2, 7)}, 1, 8, {8: {"back"}})  # answered in another game
    assert not answered_before(set(), 1, 3, {1: {"back"}, 2: {"back"}, 3: {"back"}})  # never answered
