"""The game log in words: one sentence per engine event, in the viewer's language."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from .cards_ui import card_name

# Events that only repeat what the sentence before them said.
SILENT = {"joined", "action"}


def _card(code: str | None) -> str:
    return card_name(code) if code is not None else ""


def line(event: dict, names: list[str]) -> str | None:
    """One sentence for one event, or None for events the log leaves out."""
    kind = event["type"]
    if kind in SILENT:
        return None
    who = names[event["seat"]] if "seat" in event and isinstance(event["seat"], int) else ""
    target = names[event["target"]] if isinstance(event.get("target"), int) else ""
    card = _card(event.get("card"))
    via = event.get("via")
    if kind == "game_started":
        return _("A new game starts.")
    if kind == "round_started":
        return _("Round %(round)s: %(dealer)s deals.") % {"round": event["round"], "dealer": names[event["dealer"]]}
    if kind == "dealt":
        return _("%(who)s is dealt %(card)s.") % {"who": who, "card": card}
    if kind == "drawn":
        if via == "triple_draw":
            return _("%(who)s takes %(card)s (Triple Draw).") % {"who": who, "card": card}
        if via == "storm":
            return _("%(who)s takes %(card)s (Storm).") % {"who": who, "card": card}
        return _("%(who)s draws %(card)s.") % {"who": who, "card": card}
    if kind == "bust":
        return _("%(who)s already has %(card)s: bust!") % {"who": who, "card": card}
    if kind == "second_chance_used":
        return _("Second Chance catches %(who)s's duplicate %(card)s.") % {"who": who, "card": card}
    if kind == "passed":
        return _("%(who)s passes.") % {"who": who}
    if kind == "ballast":
        if event["keep"]:
            return _("%(who)s keeps %(card)s.") % {"who": who, "card": card}
        return _("%(who)s discards %(card)s.") % {"who": who, "card": card}
    if kind == "freeze":
        if event["target"] == event["seat"]:
            return _("%(who)s freezes themselves.") % {"who": who}
        return _("%(who)s freezes %(target)s.") % {"who": who, "target": target}
    if kind == "triple_draw":
        return _("%(who)s aims Triple Draw at %(target)s.") % {"who": who, "target": target}
    if kind == "gift":
        return _("%(who)s gives a Second Chance to %(target)s.") % {"who": who, "target": target}
    if kind == "second_chance_discarded":
        return _("Nobody can take %(who)s's extra Second Chance: it is discarded.") % {"who": who}
    if kind == "crossroads_revealed":
        cards = pgettext("between the Crossroads cards", " / ").join(_card(code) for code in event["cards"])
        return _("Crossroads for %(who)s: %(cards)s.") % {"who": who, "cards": cards}
    if kind == "crossroads_picked":
        return _("%(who)s picks %(card)s.") % {"who": who, "card": card}
    if kind == "storm":
        return _("%(who)s sets off a Storm: everyone in round takes a card.") % {"who": who}
    if kind == "queued":
        return _("%(card)s waits in the queue for %(who)s.") % {"who": who, "card": card}
    if kind == "dequeued":
        return _("%(who)s now plays the queued %(card)s.") % {"who": who, "card": card}
    if kind == "queue_dropped":
        return _("%(who)s is out of the round: the queued %(card)s is discarded.") % {"who": who, "card": card}
    if kind == "reshuffle":
        return _("The deck is empty: the discard pile is shuffled into a new deck.")
    if kind == "sevn":
        return _("SEVN! %(who)s has seven different values.") % {"who": who}
    if kind == "round_scored":
        parts = pgettext("between the round's scores", ", ").join(
            pgettext("one seat's score in the round", "%(who)s %(score)s") % {"who": names[i], "score": score}
            for i, score in enumerate(event["scores"]))
        return _("Round %(round)s scored: %(scores)s.") % {"round": event["round"], "scores": parts}
    if kind == "tie":
        return _("Tie at the top: everyone plays another round.")
    if kind == "game_over":
        total = event["totals"][event["winner"]]
        return ngettext("Game over: %(who)s wins with %(total)s point.",
                        "Game over: %(who)s wins with %(total)s points.", total) % {
            "who": names[event["winner"]], "total": total}
    if kind == "timeout":
        return _("Time is up for %(who)s: the safe choice is made.") % {"who": who}
    if kind == "back":
        return _("%(who)s is back.") % {"who": who}
    if kind == "removed":
        return _("Staff removed %(who)s: a bot plays the seat.") % {"who": who}
    if kind == "rematch_asked":
        return _("%(who)s would like a rematch.") % {"who": who}
    if kind == "away":
        return _("%(who)s is away: a bot plays for them until they are back.") % {"who": who}
    return None


def lines(events: list[dict], names: list[str]) -> list[dict]:
    """Log entries {"seq", "text", "kind"} for the events that have a sentence."""
    entries = []
    for event in events:
        text = line(event, names)
        if text:
            entries.append({"seq": event.get("seq"), "text": text, "kind": event["type"]})
    return entries


