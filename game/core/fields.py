"""How a move's fields arrive on the table socket (as JSON, or as a form's strings) and what they
become for a game's engine. A Kind names the converter of each field its moves carry
(`Kind.fields`), so a game with a new kind of field brings its converter with it; anything a
converter refuses (ValueError) is refused as a move not understood, before it reaches a service."""

from __future__ import annotations


def small_int(value: object) -> int:
    """A seat, a pick or a version: a whole number as JSON gives it (not a bool, not 1.9) or as a
    form gives it (a string of digits)."""
    if type(value) is int and 0 <= value < 10**9:
        return value
    if isinstance(value, str) and (value.isdigit() and value.isascii() and len(value) <= 9):
        return int(value)
    raise ValueError(value)


def flag(value: object) -> bool:
    """A yes or no (SEVN's ballast keep): a JSON bool, or the form's "true"/"false"."""
    if isinstance(value, bool):
        return value
    if value in ("true", "false"):
        return value == "true"
    raise ValueError(value)


def card_code(value: object) -> str:
    """A card as a form sends it ("8D", "10H"): two or three letters and digits; the engine says
    whether it is one."""
    if isinstance(value, str) and 2 <= len(value) <= 3 and value.isascii() and value.isalnum():
        return value.upper()
    raise ValueError(value)
