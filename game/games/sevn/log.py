"""SEVN's game log in words: one sentence per engine event, in the viewer's language (the
sentences of what the table itself does, someone away or back, are game.drawkit.log's)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext

from game.drawkit import log as table_log
from game.drawkit.log import name as _name
from game.games.sevn.faces import card_name

# Events that only repeat what the sentence before them said.
SILENT = {"joined", "action"}


def _card(code: str | None) -> str:
    return card_name(code) if code is not None else ""


# One sentence per kind of event (and, for a few, per variant of it), each a msgid of its own.
SENTENCES = {
    "round_started": _("Round %(round)s: %(dealer)s deals."),
    "dealt": _("%(who)s is dealt %(card)s."),
    "drawn": _("%(who)s draws %(card)s."),
    ("drawn", "triple_draw"): _("%(who)s takes %(card)s (Triple Draw)."),
    ("drawn", "storm"): _("%(who)s takes %(card)s (Storm)."),
    "bust": _("%(who)s already has %(card)s: bust!"),
    "second_chance_used": _("Second Chance catches %(who)s's duplicate %(card)s."),
    "passed": _("%(who)s passes."),
    ("ballast", "keep"): _("%(who)s keeps %(card)s."),
    ("ballast", "discard"): _("%(who)s discards %(card)s."),
    "freeze": _("%(who)s freezes %(target)s."),
    ("freeze", "self"): _("%(who)s freezes themselves."),
    "triple_draw": _("%(who)s aims Triple Draw at %(target)s."),
    ("triple_draw", "self"): _("%(who)s aims Triple Draw at themselves."),
    "gift": _("%(who)s gives a Second Chance to %(target)s."),
    "second_chance_discarded": _("Nobody can take %(who)s's extra Second Chance: it is discarded."),
    "crossroads_revealed": _("Crossroads for %(who)s: %(cards)s."),
    "crossroads_picked": _("%(who)s picks %(card)s."),
    "storm": _("%(who)s sets off a Storm: everyone in round takes a card."),
    "queued": _("%(card)s waits in the queue for %(who)s."),
    "dequeued": _("%(who)s now plays the queued %(card)s."),
    "queue_dropped": _("%(who)s is out of the round: the queued %(card)s is discarded."),
    "reshuffle": _("The deck is empty: the discard pile is shuffled into a new deck."),
    "sevn": _("SEVN! %(who)s has seven different values."),
    "round_scored": _("Round %(round)s scored: %(scores)s."),
    "tie": _("Tie at the top: everyone plays another round."),
    "game_over": ngettext_lazy(
        "Game over: %(who)s wins with %(total)s point.", "Game over: %(who)s wins with %(total)s points.", "total"
    ),
    "timeout": _("Time is up for %(who)s: the safe choice is made."),
}


def _variant(event: dict) -> str | None:
    """Which of an event's sentences it takes, when it has more than one."""
    kind = event["type"]
    if kind == "drawn":
        return event.get("via")
    if kind == "ballast":
        return "keep" if event["keep"] else "discard"
    if kind in ("freeze", "triple_draw") and event["target"] == event["seat"]:
        return "self"  # "Mia freezes themselves", never "Mia freezes Mia"
    return None


def _facts(event: dict, names: list[str]) -> dict:
    """What a sentence may name: the seats, the cards, the round, the scores."""
    facts = {
        "who": _name(names, event.get("seat")),
        "target": _name(names, event.get("target")),
        "card": _card(event.get("card")),
        "round": event.get("round"),
        "dealer": _name(names, event.get("dealer")),
    }
    if "cards" in event:
        facts["cards"] = pgettext("between the Crossroads cards", " / ").join(_card(code) for code in event["cards"])
    if "scores" in event:
        facts["scores"] = pgettext("between the round's scores", ", ").join(
            pgettext("one seat's score in the round", "%(who)s %(score)s") % {"who": names[i], "score": score}
            for i, score in enumerate(event["scores"])
        )
    if event["type"] == "game_over":
        facts["who"], facts["total"] = names[event["winner"]], event["totals"][event["winner"]]
    return facts


def line(event: dict, names: list[str]) -> str | None:
    """One sentence for one event, or None for events the log leaves out."""
    kind = event["type"]
    if kind in SILENT:
        return None
    sentence = SENTENCES.get((kind, _variant(event))) or SENTENCES.get(kind) or table_log.SENTENCES.get(kind)
    if sentence is None:
        return None
    return str(sentence % _facts(event, names))  # a plural sentence picks its form by the facts' count
