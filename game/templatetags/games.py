"""`{% game_stylesheets %}`: a link to each registered game's stylesheet (its Kind's `stylesheet`,
found in its folder by game.registry.static), after the site's own: every page may show any game's
pieces (a table, the rulebook, a replay), and the site's sheet keeps only the platform's look."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html_join

from game import registry

register = template.Library()


@register.simple_tag
def game_stylesheets() -> str:
    sheets = [(static(kind.stylesheet),) for kind in registry.KINDS.values() if kind.stylesheet]
    return format_html_join("\n  ", '<link rel="stylesheet" href="{}">', sheets)
