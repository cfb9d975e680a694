"""How each card code looks: label, glyph, colour tone and name in the viewer's language.

Shared by the table, the tutorial and the rules pages (all through cards/_card.html).
"""

from __future__ import annotations

from django.utils.translation import gettext, pgettext_lazy

from game.games.sevn.engine.cards import BALLAST, BONUS, KIND, MODIFIER, NUMBER, VALUE

GLYPHS = {
    "ballast": "⚓",
    "featherweight": "◌",
    "heavyweight": "⬢",
    "ladder": "≋",
    "freeze": "❄",
    "second_chance": "♥",
    "triple_draw": "③",
    "crossroads": "⋔",
    "storm": "⚡",
}


CARD_NAMES = {
    "featherweight": pgettext_lazy("card", "Featherweight"),
    "heavyweight": pgettext_lazy("card", "Heavyweight"),
    "ladder": pgettext_lazy("card", "Ladder"),
    "freeze": pgettext_lazy("card", "Freeze"),
    "second_chance": pgettext_lazy("card", "Second Chance"),
    "triple_draw": pgettext_lazy("card", "Triple Draw"),
    "crossroads": pgettext_lazy("card", "Crossroads"),
    "storm": pgettext_lazy("card", "Storm"),
}


def card_name(code: str) -> str:
    """The card's name in the active language, as terms.md spells it."""
    if code in CARD_NAMES:
        return str(CARD_NAMES[code])
    if KIND[code] == BALLAST:
        return gettext("Ballast %(value)s") % {"value": display_value(code)}
    if code == "x2":
        return gettext("Doubler ×2")
    if KIND[code] == MODIFIER:
        return gettext("Plus card %(value)s") % {"value": code}
    return code


def display_value(code: str) -> str:
    """Numbers as printed on a card face: a real minus sign for Ballast, × for the doubler."""
    if code in VALUE and VALUE[code] < 0:
        return "−" + code[1:]
    return "×2" if code == "x2" else code


def _tone(code: str) -> str:
    kind = KIND[code]
    if kind == NUMBER:
        return f"n{code}"
    if kind == BALLAST:
        return "ballast"
    if kind == MODIFIER:
        return "double" if code == "x2" else "plus"
    if kind == BONUS:
        return "bonus"
    return code.replace("_", "-")


# Where long one-word card names may break on a small card face (a soft hyphen goes there).
_BREAKS = (
    "Feather|weight",
    "Heavy|weight",
    "Cross|roads",
    "Licht|gewicht",
    "Zwaar|gewicht",
    "Twee|sprong",
    "Her|kansing",
    "Zamro|żenie",
    "Roz|droże",
    "Potrój|ne",
    "do|branie",
    "piór|kowa",
    "Carre|four",
)
SOFT_HYPHENS = {pair.replace("|", ""): pair.replace("|", "\u00ad") for pair in _BREAKS}


def face(code: str) -> dict:
    """The look of one card in the active language."""
    kind = KIND[code]
    name = card_name(code)
    label = (
        display_value(code)
        if kind in (NUMBER, BALLAST, MODIFIER)
        else " ".join(SOFT_HYPHENS.get(word, word) for word in name.split(" "))
    )
    glyph = GLYPHS.get(code) or (GLYPHS["ballast"] if kind == BALLAST else "")
    return {
        "code": code,
        "kind": kind,
        "tone": _tone(code),
        "label": label,
        "name": name,
        "glyph": glyph,
        "short": kind in (NUMBER, BALLAST, MODIFIER),
    }
