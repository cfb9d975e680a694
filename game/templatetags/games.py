"""`{{ name|game_kind }}`: the game (its Kind, game.registry) a form's choice names, so that a
template can say what the game says of itself (the create form's seat range, which the page's
script reads: static/sevn/js/game_choice.js) without a copy of it anywhere else."""

from __future__ import annotations

from django import template

from game import registry
from game.core.kind import Kind

register = template.Library()


@register.filter
def game_kind(name: str) -> Kind | None:
    return registry.KINDS.get(str(name))
