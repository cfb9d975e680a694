"""Sevens' game log in words: one sentence per engine event, in the viewer's language (the
sentences of what the table itself does, someone away or back, are game.drawkit.log's)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext

from game.drawkit import log as table_log
from game.drawkit.log import name as _name
from game.drawkit.words import names_list
from game.games.sevens.faces import short_name

# One sentence per kind of Sevens event (and, for a few, per variant of it); the table's own
# events (a game starting, someone away, back or removed, a rematch request) are game.drawkit.log's.
# Cards are named as printed: "8♠".
SENTENCES = {
    "dealt": _("Round %(round)s: %(dealer)s deals."),
    "played": _("%(who)s plays %(card)s."),
    ("played", "opener"): _("%(who)s holds the 7♦ and opens the layout with it."),
    "passed": _("%(who)s passes: nothing fits."),
    "round_over": _("Round %(round)s is over: %(who)s has no cards left. Penalty points: %(scores)s."),
    "game_over": ngettext_lazy(
        "Game over: %(who)s wins with %(total)s penalty point.",
        "Game over: %(who)s wins with %(total)s penalty points.",
        "total",
    ),
    ("game_over", "shared"): ngettext_lazy(
        "Game over: %(who)s share the win with %(total)s penalty point each.",
        "Game over: %(who)s share the win with %(total)s penalty points each.",
        "total",
    ),
    "timeout": _("Time is up for %(who)s: a card that fits is played for them."),
}


def _variant(event: dict) -> str | None:
    kind = event["type"]
    if kind == "played" and event["card"] == "7D":
        return "opener"
    if kind == "game_over" and len(event["winners"]) > 1:
        return "shared"
    return None


def _facts(event: dict, names: list[str]) -> dict:
    facts = {
        "who": _name(names, event.get("seat")),
        "round": event.get("round"),
        "dealer": _name(names, event.get("dealer")),
    }
    if "card" in event:
        facts["card"] = short_name(event["card"])
    if event["type"] == "round_over":
        facts["who"] = _name(names, event["out"])
        facts["scores"] = pgettext("between the round's scores", ", ").join(
            pgettext("one seat's score in the round", "%(who)s %(score)s") % {"who": names[i], "score": score}
            for i, score in enumerate(event["penalties"])
        )
    if event["type"] == "game_over":
        winners = event["winners"]
        facts["who"] = names_list(names[i] for i in winners)
        facts["total"] = event["totals"][winners[0]]
    return facts


def line(event: dict, names: list[str]) -> str | None:
    """One sentence for one event of a Sevens game."""
    kind = event["type"]
    sentence = SENTENCES.get((kind, _variant(event))) or SENTENCES.get(kind) or table_log.SENTENCES.get(kind)
    if sentence is None:
        return None
    return str(sentence % _facts(event, names))
