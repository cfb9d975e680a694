"""`{{ stored|staff_words }}`: what moderation stored (a code and its values, game.core.staff_words)
in the words of the language being drawn."""

from __future__ import annotations

from django import template

from game.core import staff_words as words

register = template.Library()


@register.filter
def staff_words(stored: str) -> str:
    return words.say(stored)
