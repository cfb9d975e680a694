"""The errors a person can cause, each with a sentence for that person (translated)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

# Engine refusals any game's engine may give, by code, in the words the table uses; each game's
# own are its Kind's (`Kind.refusals`).
ENGINE_MESSAGES = {
    "not_your_turn": _("It is not your turn."),
    "game_over": _("This game is over."),
    "malformed": _("That move was not understood."),
    "bad_seat": _("It is not your turn."),
}
NOT_ALLOWED = _("That move is not allowed now.")


class ServiceError(Exception):
    """A request refused for a reason the person who made it should read; nothing changed."""

    def __init__(self, code: str, message: str, version: int | None = None) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.version = version  # the table's version, when the refusal is that the move was stale

    @classmethod
    def from_engine(
        cls, error: ValueError, refusals: Mapping[str, Any] | None = None, card_label: Callable[[str], str] = str
    ) -> ServiceError:
        """An engine's IllegalAction (its `code` and `params`) in the table's words: the game's own
        (its Kind's `refusals`) or any game's (ENGINE_MESSAGES); a card it names is named by
        `card_label` (the game's Kind knows how its cards read)."""
        code = getattr(error, "code", "illegal")
        message = (refusals or {}).get(code) or ENGINE_MESSAGES.get(code) or NOT_ALLOWED
        card = getattr(error, "params", {}).get("card")
        if isinstance(card, str):
            return cls(code, lazy(lambda: str(message) % {"card": card_label(card)}, str)())
        return cls(code, message)


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
