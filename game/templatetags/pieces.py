"""`{% draw piece %}`: a piece inside another one's partial (a seat's head and status line),
drawn by its own partial through the one memo of drawn HTML (game.drawkit.pieces). A seat's row changes
with every card, its head only between rounds and its status line takes few values."""

from __future__ import annotations

from django import template

from game.drawkit.pieces import Piece
from game.drawkit.pieces import draw as draw_piece

register = template.Library()


@register.simple_tag
def draw(piece: Piece) -> str:
    return draw_piece(piece)
