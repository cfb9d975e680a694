"""The errors a person can cause, each with a sentence for that person (translated)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

# Engine refusals (either game's), by code, in the words the table uses.
ENGINE_MESSAGES = {
    "not_your_turn": _("It is not your turn."),
    "game_over": _("This game is over."),
    "malformed": _("That move was not understood."),
    "wrong_decision": _("That is not the decision being asked for."),
    "bad_target": _("That player cannot be chosen."),
    "no_card": _("There is no card left to draw: pass."),
    "must_play": _("A card of yours fits, so you must play one: you pass only when nothing fits."),
    "not_a_card": _("That is not a card."),
    "bad_seat": _("It is not your turn."),
}
# Sevens refusals that name the card (%(card)s: "8♠").
CARD_MESSAGES = {
    "not_in_hand": _("The %(card)s is not in your hand."),
    "does_not_fit": _("The %(card)s does not fit the layout: play one of your highlighted cards."),
}


class ServiceError(Exception):
    """A request refused for a reason the person who made it should read; nothing changed."""

    def __init__(self, code: str, message: str, version: int | None = None) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.version = version  # the table's version, when the refusal is that the move was stale

    @classmethod
    def from_engine(cls, error: ValueError, card_label: Callable[[str], str] = str) -> ServiceError:
        """An engine's IllegalAction (its `code` and `params`) in the table's words; a card it
        names is named by `card_label` (the game's Kind knows how its cards read)."""
        code = getattr(error, "code", "illegal")
        card = getattr(error, "params", {}).get("card")
        if code in CARD_MESSAGES and isinstance(card, str):
            message = CARD_MESSAGES[code]
            return cls(code, lazy(lambda: str(message) % {"card": card_label(card)}, str)())
        return cls(code, ENGINE_MESSAGES.get(code, _("That move is not allowed now.")))


def later(message, **values):
    """`message % values`, worked out when it is drawn: in the language of the screen that shows
    it (a socket's viewer), not the one active where it was refused."""
    return lazy(lambda: str(message) % {name: str(value) for name, value in values.items()}, str)()


def choose_int(raw: object, allowed, code: str, message: str) -> int:
    """`raw` as a whole number among `allowed`, or the refusal `code` with `message`."""
    try:
        value = int(raw)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise ServiceError(code, message) from None
    if value not in allowed:
        raise ServiceError(code, message)
    return value
