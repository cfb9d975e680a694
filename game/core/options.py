"""A table setting a game offers (SEVN's target score, Sevens' rounds): its field on the start
page's form, its default, how a value asked for is checked, and how it reads in the lobby's
summary line. A Kind lists its own (`Kind.options`); a table keeps the values its Kind checked
in one JSON field (`Table.options`), so a game's new setting is a line in its own folder, not a
column, a migration and a form field of the platform's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from django import forms


class Option(NamedTuple):
    # Its key in Table.options and its field's name in the start page's form (two games may not
    # both use one name: game.registry.checks says so at start).
    name: str
    field: Callable[[], forms.Field]  # a new form field for it (each form gets its own)
    default: Any  # a table's value when its host asked for none
    clean: Callable[[Any], Any]  # what the host asked for (None: nothing) -> the value kept, or a ServiceError
    summary: Callable[[Any], str] | None = None  # its value in words for the lobby's line ("first to 250")
