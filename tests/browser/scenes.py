"""Tables set up in a known moment (a pending Freeze, a round just scored, game over) through
the service layer, and a browser seated at them as one of the players."""

from __future__ import annotations

from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore

from game.core.identity import SESSION_KEY
from game.games.sevens.engine import playable
from game.games.sevn.engine import from_json, to_json
from tests.factories import act, game_of, open_table
from tests.games.sevens.tables import play as sevens_play
from tests.games.sevens.tables import sevens_table
from tests.games.sevens.tables import state_of as sevens_state

NAMES = ("Ana", "Ben", "Cleo", "Dan")
# Dealt to Ben, Cleo, Dan, Ana; then each draws once (Cleo a Second Chance, Ana a Ladder) and
# Ben draws a Freeze.
DECK = [
    "5",
    "9",
    "4",
    "1",
    "7",
    "second_chance",
    "11",
    "ladder",
    "freeze",
    "6",
    "8",
    "10",
    "12",
    "3",
    "2",
    "13",
    "0",
    "x2",
    "+4",
    "9",
    "10",
    "11",
    "12",
    "13",
]


def seat_as(context, live_url: str, player) -> None:
    """The browser context is this player (their session holds the player's key)."""
    session = SessionStore()
    session[SESSION_KEY] = player.key
    session.create()
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key, "url": live_url}])


def freeze_pending():
    """Four seats, everyone has drawn; Ben has drawn a Freeze and must choose its target."""
    table, players = open_table(names=NAMES, seats=4, turn_seconds=0, deck=DECK)
    game_of(table).events.all().delete()  # the log of the game the stacked deck replaced
    ana, ben, cleo, dan = players
    for player in (ben, cleo, dan, ana, ben):
        act(table, player, {"kind": "draw"})
    return table, players


def round_scored():
    """Round 1 just scored after everyone passed: round 2 is dealt and Cleo decides first."""
    table, players = freeze_pending()
    ana, ben, cleo, dan = players
    act(table, ben, {"kind": "freeze", "seat": 1})
    for player in (cleo, dan, ana):
        act(table, player, {"kind": "pass"})
    return table, players


EARLIER_ROUNDS = [[22, 35, 0, 18], [31, 0, 44, 25], [12, 41, 30, 0]]


def game_over():
    """Three rounds played before this one (their scores in the history); Ben freezes himself,
    everyone else passes, and Ben's total passes the target: Ben wins."""
    table, players = freeze_pending()
    ana, ben, cleo, dan = players
    game = game_of(table)
    state = from_json(game.state)
    state["history"] = [list(scores) for scores in EARLIER_ROUNDS]
    for seat, total in enumerate(map(sum, zip(*EARLIER_ROUNDS, strict=True))):
        state["seats"][seat]["total"] = total
    state["target"], state["round"] = 80, len(EARLIER_ROUNDS) + 1
    game.state = to_json(state)
    game.save(update_fields=["state"])
    act(table, ben, {"kind": "freeze", "seat": 1})
    for player in (cleo, dan, ana):
        act(table, player, {"kind": "pass"})
    return table, players


def two_players():
    """Ana and Ben, dealt a 5 (Ben) and a 9 (Ana); Ben decides first, draws a 4, Ana a 1."""
    table, players = open_table(names=NAMES[:2], seats=2, turn_seconds=0, deck=["5", "9", "4", "1", "2", "3", "6", "7"])
    game_of(table).events.all().delete()
    return table, players


def _sevens_play_until(table, players, done) -> None:
    """Whoever decides plays their first playable card until done(events) says stop."""
    for _move in range(400):
        state = sevens_state(table)
        seat = state["current"]
        events = sevens_play(table, players[seat], playable(state["seats"][seat]["hand"], state["layout"])[0])["events"]
        if done(events):
            return
    raise AssertionError("the Sevens game never got there")


def sevens_round_scored(seed: int = 7):
    """Four seats of Sevens dealt from `seed`: round 1 just scored, round 2 dealt."""
    table, players = sevens_table(names=NAMES, turn_seconds=0, rounds=3, seed=seed)
    _sevens_play_until(table, players, lambda events: any(event["type"] == "round_over" for event in events))
    return table, players


def sevens_game_over(seed: int = 7):
    """Four seats of Sevens dealt from `seed`, the game's only round played to the end."""
    table, players = sevens_table(names=NAMES, turn_seconds=0, rounds=1, seed=seed)
    _sevens_play_until(table, players, lambda events: any(event["type"] == "game_over" for event in events))
    return table, players


def current_seat(table) -> int:
    """The seat that decides now, in either game."""
    state = from_json(game_of(table).state)
    return state["pending"]["seat"] if "pending" in state else state["current"]


def sevens_hand_to_choose():
    """Three seats of Sevens dealt from a known seed: the first to choose holds two cards that fit
    (7♥, 8♦) among fifteen that do not, the first of them one that does not."""
    return sevens_table(turn_seconds=0, seed=1)
