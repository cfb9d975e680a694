"""Sevens behind the platform's Kind (game.core.kind): its engine, bots, pieces and log as the
tables use them. Hands are secret: each seat gets the engine's `view(state, seat)`, a spectator
`view(state, None)`."""

from __future__ import annotations

import random
from pathlib import Path

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from game.core.errors import choose_int
from game.core.fields import card_code
from game.core.kind import FolderKind, places_by, rate
from game.core.options import Option
from game.drawkit.words import decimal, seat_count
from game.games.sevens import analysis, bots, engine, faces, log, pieces, review, rulebook
from game.games.sevens import record_play as replay
from game.games.sevens.engine.state import MAX_ROUNDS, MAX_SEATS, MIN_ROUNDS, MIN_SEATS
from game.games.sevens.faces import short_name

MAX_BOTS = 5
ROUNDS = range(MIN_ROUNDS, MAX_ROUNDS + 1)
DEFAULT_ROUNDS = 3
ROUNDS_OPTION = Option(
    "rounds",
    lambda: forms.TypedChoiceField(
        label=_("Rounds"), coerce=int, initial=DEFAULT_ROUNDS, required=False, choices=[(n, str(n)) for n in ROUNDS]
    ),
    DEFAULT_ROUNDS,
    lambda asked: choose_int(
        DEFAULT_ROUNDS if asked is None else asked, ROUNDS, "bad_rounds", _("A game of Sevens has 1 to 10 rounds.")
    ),
    lambda rounds: ngettext("%(n)s round", "%(n)s rounds", rounds) % {"n": rounds},
)


class Sevens(FolderKind):
    name, label = "sevens", _("Sevens")
    min_seats, max_seats, max_bots, secret = MIN_SEATS, MAX_SEATS, MAX_BOTS, True
    about = _("Fan Tan: play your cards onto the sevens, 3 to 7 players")
    illegal = engine.IllegalAction
    folder = Path(__file__).resolve().parent
    stylesheet = "games/sevens.css"
    table_template = "sevens/_table.html"
    seat_range = _("A table of Sevens has 3 to 7 seats.")
    start_note = _("At least three players must be seated to start a game of Sevens.")
    options = (ROUNDS_OPTION,)
    actions = {"play": ("card",), "pass": ()}
    fields = {"card": card_code}
    refusals = {
        "must_play": _("A card of yours fits, so you must play one: you pass only when nothing fits."),
        "not_a_card": _("That is not a card."),
        "not_in_hand": _("The %(card)s is not in your hand."),  # %(card)s: "8♠"
        "does_not_fit": _("The %(card)s does not fit the layout: play one of your highlighted cards."),
        "too_many_bots": _("Sevens takes at most five computer players: the other seats are for people."),
    }
    own_seat_apart = False  # every seat in one list around the layout, yours marked

    engine, bots, pieces, log, faces, replay = engine, bots, pieces, log, faces, replay
    analysis, review = analysis, review
    rulebook = rulebook.RULEBOOK

    def new(self, table, seat_count, seed, events):
        return replay.new(seat_count, seed, self.deal_options(table), events)

    def timeout(self, state):
        return replay.timeout(state)

    def acting(self, state):
        return state["current"]

    def winner(self, state):
        winners = state["winners"]
        return winners[0] if state["over"] and len(winners) == 1 else None

    def views(self, state):
        return {
            "view": engine.view(state, None),
            "seat_views": [engine.view(state, seat) for seat in range(len(state["seats"]))],
        }

    def bot_rng(self, seed, version, state):
        return random.Random(f"{seed}/{version}/{len(state['moves'])}/{state['round']}")

    def lobby_line(self, table):
        return " · ".join((gettext("Sevens"), seat_count(table["seat_count"]), self.summaries(table)["rounds"]))

    def points(self, state):
        return [seat["total"] for seat in state["seats"]]  # penalty points: the fewest win

    def places(self, state):
        return places_by(self.points(state), higher_wins=False)

    def seat_figures(self, state, events):
        """Per seat: rounds played and penalty points taken in them."""
        history = state["history"]
        seats = range(len(state["seats"]))
        return [{"rounds": len(history), "penalty": sum(row[seat] for row in history)} for seat in seats]

    def figure_lines(self, totals, games):
        return [
            (gettext("Average penalty per round"), decimal(rate(totals.get("penalty", 0), totals.get("rounds", 0))))
        ]

    def card_label(self, code):
        return short_name(code)

    def rulebook_numbers(self):
        return rulebook.numbers(self.max_bots)


KIND = Sevens()
