"""The errors a person can cause, each with a sentence for that person (translated)."""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from game.engine import IllegalAction

# Engine refusals, by code, in the words the table uses.
ENGINE_MESSAGES = {
    "not_your_turn": _("It is not your turn."),
    "game_over": _("This game is over."),
    "malformed": _("That move was not understood."),
    "wrong_decision": _("That is not the decision being asked for."),
    "bad_target": _("That player cannot be chosen."),
    "no_card": _("There is no card left to draw: pass."),
}


class ServiceError(Exception):
    """A request refused for a reason the person who made it should read; nothing changed."""

    def __init__(self, code: str, message: str, version: int | None = None) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.version = version  # the table's version, when the refusal is that the move was stale

    @classmethod
    def from_engine(cls, error: IllegalAction) -> ServiceError:
        return cls(error.code, ENGINE_MESSAGES.get(error.code, _("That move is not allowed now.")))


def later(message, **values):
    """`message % values`, worked out when it is drawn: in the language of the screen that shows
    it (a socket's viewer), not the one active where it was refused."""
    return lazy(lambda: str(message) % {name: str(value) for name, value in values.items()}, str)()
