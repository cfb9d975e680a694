"""A judged play (analysis.py) in words, in the active language: each card the seat could play
and the hard bot's estimate of it ("Play 8♠: 42 % share of the win, 3.1 cards expected left in hand"),
and the kinds of mistakes the profile counts."""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from game.drawkit.words import decimal, percent
from game.games.sevens.faces import card_name

MISTAKE_KINDS = {
    "opened_for_others": _("opened a row for others with a 6 or an 8"),
    "wrong_card": _("played a weaker card when a better one fitted"),
}


def option_label(decision: dict, action: dict, names: list[str]) -> str:
    return gettext("Play %(card)s") % {"card": card_name(action["card"])}


def estimate(option: dict) -> str:
    return gettext("%(chance)s share of the win, %(cards)s cards expected left in hand") % {
        "chance": percent(option["chance"]),
        "cards": decimal(option["cards"]),
    }


def mistake_kind(code: str) -> str:
    return str(MISTAKE_KINDS.get(code, code))
