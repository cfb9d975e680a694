"""SEVN behind the platform's Kind (game.core.kind): its engine, bots, pieces and log as the
tables use them. Every card is face up, so every viewer shares one view."""

from __future__ import annotations

import random
from pathlib import Path

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from game.core.errors import choose_int
from game.core.fields import flag, small_int
from game.core.kind import FolderKind, places_by, rate
from game.core.options import Option
from game.drawkit.words import percent, seat_count
from game.games.sevn import analysis, bots, engine, faces, log, pieces, review, rulebook
from game.games.sevn import record_play as replay
from game.games.sevn.engine.cards import TARGET
from game.games.sevn.engine.state import MAX_SEATS, MIN_SEATS
from game.games.sevn.faces import card_name

MIN_TARGET, MAX_TARGET = 50, 1000


def _target(asked):
    message = _("The target score is between 50 and 1000.")
    return choose_int(TARGET if asked is None else asked, range(MIN_TARGET, MAX_TARGET + 1), "bad_target", message)


TARGET_OPTION = Option(
    "target",
    lambda: forms.IntegerField(
        label=_("Target score"), initial=TARGET, min_value=MIN_TARGET, max_value=MAX_TARGET, required=False
    ),
    TARGET,
    _target,
    lambda target: gettext("first to %(target)s") % {"target": target},
)
ODDS_OPTION = Option(
    "show_odds",
    lambda: forms.BooleanField(label=_("Show bust odds to the deciding player"), initial=True, required=False),
    True,
    lambda asked: True if asked is None else bool(asked),
    lambda shown: gettext("bust odds shown") if shown else "",
)


class Sevn(FolderKind):
    name, label = "sevn", "SEVN"
    min_seats, max_seats, max_bots, secret = MIN_SEATS, MAX_SEATS, MAX_SEATS - 1, False
    about = _("push your luck, 2 to 8 players")
    illegal = engine.IllegalAction
    folder = Path(__file__).resolve().parent
    stylesheet = "games/sevn.css"
    table_template = "sevn/_table.html"
    seat_range = _("A table has 2 to 8 seats.")
    start_note = _("At least two players must be seated to start.")
    options = (TARGET_OPTION, ODDS_OPTION)
    phrases = ("good_luck", "well_played", "nice_sevn", "oops", "thinking", "rematch")
    fields = {"seat": small_int, "pick": small_int, "keep": flag}
    refusals = {
        "wrong_decision": _("That is not the decision being asked for."),
        "bad_target": _("That player cannot be chosen."),
        "no_card": _("There is no card left to draw: pass."),
    }
    showcase = ("7", "second_chance", "13", "x2", "storm")  # the start page's cards
    actions = {
        "draw": (),
        "pass": (),
        "freeze": ("seat",),
        "triple_draw": ("seat",),
        "gift": ("seat",),
        "crossroads": ("pick",),
        "ballast": ("keep",),
    }

    engine, bots, pieces, log, faces, replay = engine, bots, pieces, log, faces, replay
    analysis, review = analysis, review
    rulebook = rulebook.RULEBOOK

    def new(self, table, seat_count, seed, events):
        return replay.new(seat_count, seed, self.deal_options(table), events)

    def timeout(self, state):
        return replay.timeout(state)

    def acting(self, state):
        return None if state["pending"] is None else state["pending"]["seat"]

    def winner(self, state):
        return state["winner"]

    def views(self, state):
        return {"view": engine.public_view(state), "seat_views": None}

    def bot_rng(self, seed, version, state):
        return random.Random(f"{seed}/{version}/{len(state['history'])}/{state['round']}")

    def lobby_line(self, table):
        return f"{seat_count(table['seat_count'])} · {self.summaries(table)['target']}"

    def lobby_notes(self, table):
        return [note for note in (self.summaries(table)["show_odds"],) if note]

    figure_events = ("round_scored", "bust")

    def points(self, state):
        return [seat["total"] for seat in state["seats"]]

    def places(self, state):
        return places_by(self.points(state), higher_wins=True)

    def seat_figures(self, state, events):
        """Per seat: rounds played, rounds won with SEVN, rounds that ended in a bust."""
        figures = [{"rounds": 0, "sevns": 0, "busts": 0} for _seat in state["seats"]]
        for event in events:
            if event["type"] == "round_scored":
                for seat in figures:
                    seat["rounds"] += 1
                if event.get("sevn") is not None:
                    figures[event["sevn"]]["sevns"] += 1
            elif event["type"] == "bust":
                figures[event["seat"]]["busts"] += 1
        return figures

    def figure_lines(self, totals, games):
        rounds = totals.get("rounds", 0)
        return [
            (gettext("SEVN rate"), percent(rate(totals.get("sevns", 0), rounds))),
            (gettext("Bust rate"), percent(rate(totals.get("busts", 0), rounds))),
        ]

    def card_label(self, code):
        return card_name(code)

    def rulebook_numbers(self):
        return rulebook.numbers()


KIND = Sevn()
