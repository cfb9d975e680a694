"""A judged decision (analysis.py) in words, in the active language: each option and the hard
bot's estimate of it, as the replay shows them ("Draw: 38 % bust, 14.2 points expected, 31 % to
win"), and the kinds of mistakes the profile counts."""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from game.drawkit.words import decimal, percent
from game.games.sevn.faces import card_name

MISTAKE_KINDS = {
    "drew_too_far": _("drew when passing was better"),
    "stopped_too_soon": _("passed when drawing was better"),
    "ballast": _("kept or discarded a Ballast card wrongly"),
    "crossroads": _("picked the weaker Crossroads card"),
    "freeze": _("froze the wrong player"),
    "triple_draw": _("aimed a Triple Draw at the wrong player"),
    "gift": _("gave a Second Chance to the wrong player"),
}


def option_label(decision: dict, action: dict, names: list[str]) -> str:
    """What an option was, in words: "Draw", "Freeze Anna", "Take Plus card +4"."""
    kind = action["kind"]
    if kind == "draw":
        return gettext("Draw")
    if kind == "pass":
        return gettext("Pass")
    if kind == "ballast":
        return gettext("Keep the Ballast card") if action["keep"] else gettext("Discard the Ballast card")
    if kind == "crossroads":
        return gettext("Take %(card)s") % {"card": card_name(decision["cards"][action["pick"]])}
    name = names[action["seat"]] if action["seat"] < len(names) else str(action["seat"])
    if kind == "freeze":
        return gettext("Freeze %(name)s") % {"name": name}
    if kind == "triple_draw":
        return gettext("Triple Draw on %(name)s") % {"name": name}
    return gettext("Give the Second Chance to %(name)s") % {"name": name}


def estimate(option: dict) -> str:
    """The hard bot's estimate of one option in words."""
    chance = gettext("%(chance)s to win") % {"chance": percent(option["chance"])}
    parts = []
    if option.get("bust") is not None:
        parts.append(gettext("%(chance)s bust") % {"chance": percent(option["bust"])})
    if option.get("points") is not None:
        parts.append(gettext("%(points)s points expected") % {"points": decimal(option["points"])})
    return ", ".join([*parts, chance])


def mistake_kind(code: str) -> str:
    return str(MISTAKE_KINDS.get(code, code))
