"""The one error type the engine raises for input it refuses."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action (or game set-up) that is malformed or not legal now.

    `str(error)` is a sentence a player can read; `code` names the reason for callers that
    translate it, `params` fills the sentence's blanks.
    """

    def __init__(self, message: str, code: str = "illegal", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
