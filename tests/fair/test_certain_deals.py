"""The games the fair-deal, record, replay and verify tests play (tests/fair/play.py: a known
table code and server seed, the client seeds each test sends, `play_out`'s seeded moves) hold
what those tests read of them, for certain: a timeout, a bot's move and a person's own, and
enough moves to step through (a replay's step 7 and the one after it). A change to an engine, a
bot or the fair deal that plays them otherwise fails here, by name, not there now and then."""

from __future__ import annotations

import pytest

from game.fair import seeds
from game.models import Event
from tests.fair.play import DEALS, Unwatched, play_out, table_of

pytestmark = pytest.mark.django_db

# (game, client seeds by seat, play_out's seed): each table_of(...) + play_out(...) of the tests
GAMES = [
    ("sevn", {0: "c0ffee", 1: "Ben5"}, 1),  # test_records
    ("sevens", {0: "c0ffee", 1: "Ben5"}, 1),
    ("sevn", {0: "c0ffee", 1: "Ben5"}, 3),  # test_verify
    ("sevens", {0: "c0ffee", 1: "Ben5"}, 3),
    ("sevens", {0: "c0ffee", 1: "Ben5"}, 5),  # test_forgeries
    ("sevn", {}, 1),  # test_replay, test_records' download, the browser's replay and client modules
    ("sevens", {}, 1),
    ("sevn", {0: "f00d"}, 1),  # test_fair_deal
    ("sevens", {0: "f00d"}, 1),
    ("sevens", {0: "abc"}, 1),  # the browser's replay and verify page
]
FEWEST_MOVES = 8


@pytest.mark.parametrize("kind, client_seeds, seed", GAMES)
def test_each_game_the_fair_tests_play_has_every_kind_of_move_and_enough_of_them(kind, client_seeds, seed):
    table, players = table_of(kind, seeds=client_seeds)
    game = play_out(table, players, Unwatched(), seed=seed)
    moves = list(Event.objects.filter(game=game, kind__in=("action", "timeout")).values_list("kind", "data"))
    assert len(moves) >= FEWEST_MOVES, f"{kind} {client_seeds} {seed}: a game of {len(moves)} moves"
    assert any(what == "timeout" for what, _data in moves), "no timeout"
    assert any(what == "action" and data.get("bot") for what, data in moves), "no bot's move"
    assert any(what == "action" and not data.get("bot") for what, data in moves), "no person's move"


def test_the_deal_is_the_fair_deals_own_from_the_fixed_server_seed():
    """The table's code and server seed are fixed; the engine's seed is still derived as the site
    derives it, so its records verify (and each set of client seeds deals another game)."""
    table, players = table_of("sevens", seeds={0: "abc"})
    game = play_out(table, players, Unwatched())
    code, server_seed = DEALS["sevens"]
    assert (game.table.code, game.server_seed) == (code, server_seed)
    derived = seeds.engine_seed(
        server_seed, game="sevens", table=code, number=1, options={"rounds": 1}, client_seeds=[(0, "abc")]
    )
    assert (
        game.seed
        == derived
        != seeds.engine_seed(
            server_seed, game="sevens", table=code, number=1, options={"rounds": 1}, client_seeds=[(0, "abd")]
        )
    )
