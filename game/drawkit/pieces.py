"""Pieces of a table and how they are drawn: each by its template partial, from its data.

A piece is one element of a viewer's table (a seat, the bar, the controls, a card): the partial
that draws it and the plain data it shows. Equal data draws the same element, so a screen that
already shows a piece's data is not sent it again (game.screen), and the one memo below lets
every viewer of an update (and every later update that shows the same) reuse what was drawn
once: a table update usually changes one seat and the turn, and four screens or more draw it.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language


class Piece(NamedTuple):
    """One element: `template` draws it from `context(data)`.

    `data` is everything the element shows (hashable, and equal whenever the element is);
    `once` holds this update's one-off marks (a card flipping in, a bust shaking), drawn but
    not compared, so a seat is not sent again only because its card stopped flipping."""

    template: str
    data: Hashable
    context: Callable[..., dict[str, Any]]
    once: Hashable = None


class Drawings:
    """The one memo of drawn HTML, keyed on (language, partial, context, data, one-off marks)
    and bounded: least recently used drawings go first. `bench/table_latency.py` shows what it
    pays (run it with SEVN_DRAWINGS_KEPT=0 to draw everything every time)."""

    SIZE = int(os.environ.get("SEVN_DRAWINGS_KEPT", 8192))  # about 6 MB of HTML; 0: nothing kept

    def __init__(self) -> None:
        self._drawn: OrderedDict[tuple, SafeString] = OrderedDict()
        self._lock = threading.Lock()  # pages draw in Django's thread, sockets on the event loop

    def get(self, key: tuple, produce: Callable[[], str]) -> SafeString:
        with self._lock:
            html = self._drawn.get(key)
            if html is not None:
                self._drawn.move_to_end(key)
                return html
        html = mark_safe(produce())  # drawn outside the lock: two threads may both draw it, once
        if self.SIZE:
            with self._lock:
                self._drawn[key] = html
                if len(self._drawn) > self.SIZE:
                    self._drawn.popitem(last=False)
        return html


drawings = Drawings()


def draw(piece: Piece, language: str | None = None) -> SafeString:
    """The piece's HTML in the active language. A caller that knows it already (a screen draws
    in its viewer's, game.screen.table.speaking) passes it: asking Django for it (a context-local
    look-up through asgiref) costs about what the memo's look-up does, and a move's four screens
    draw some thirty pieces."""
    return drawings.get(
        (language or get_language(), piece.template, piece.context, piece.data, piece.once),
        lambda: render_to_string(piece.template, _context(piece)),
    )


def shows(piece: Piece) -> tuple:
    """What a screen compares: the element and its data, not this update's one-off marks."""
    return piece.template, piece.context, piece.data


def _context(piece: Piece) -> dict[str, Any]:
    return piece.context(piece.data, piece.once) if piece.once is not None else piece.context(piece.data)


def drawn(template: str, data: Hashable, context: Callable[[Hashable], dict[str, Any]]) -> SafeString:
    """A partial drawn through the memo without a piece of its own (a card in a row, a log line)."""
    return drawings.get(
        (get_language(), template, context, data, None), lambda: render_to_string(template, context(data))
    )
