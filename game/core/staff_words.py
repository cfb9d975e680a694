"""What moderation stores for people to read later (the moderators' log, a report's resolution,
why a table was closed), kept as a code and its values, and put into words only when drawn, in
the reader's language: a German moderator's ban reads in Polish to a Polish player.

A stored text is JSON: one entry `{"code": "muted", "duration": "1h", "where": ""}` or a list
of them (a report handled in several steps). Anything else is a moderator's own words (a
reason typed in admin), drawn as it was typed.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext

from game.core.phrases import WARNINGS

DURATIONS = {
    "15m": _("15 minutes"),
    "1h": _("1 hour"),
    "24h": _("24 hours"),
    "7d": _("7 days"),
    "30d": _("30 days"),
    "permanent": _("permanently"),
}
SANCTIONS = {"mute": _("Muted in chat"), "ban": _("Banned from tables")}
WARNING_TOPICS = {
    "insults": _("Insults"),
    "spam": _("Spam"),
    "cheating": _("Cheating or collusion"),
    "nickname": _("Offensive nickname"),
    "rules": _("Fair play"),
}
# code -> the sentence; its values are named in it (a duration, a warning, a table are codes too)
WORDS = {
    "host_gone": _("The host can no longer play here."),
    "warned": _("Warned (%(topic)s)"),
    "muted": _("Muted in chat (%(duration)s, %(where)s)"),
    "banned": _("Banned from tables (%(duration)s)"),
    "lifted": _("Lifted: %(kind)s"),
    "renamed": _("Renamed %(old)s → %(new)s"),
    "closed": _("Closed a table"),
    "removed": _("Removed from a table"),
    "no_action": _("No action"),
    "account_suspended": _("Suspended the account"),
    "account_reinstated": _("Reinstated the account"),
}
# codes drawn without a sentence of their own: the warning the player read, as they read it,
# and a moderator's own note; a ban that freed seats counts them (a plural)
OTHER_CODES = ("warning", "note", "banned_seats")
KEEP = 300  # the longest stored text (Report.resolution's length)


def entry(code: str, **values: Any) -> dict:
    if code not in WORDS and code not in OTHER_CODES:
        raise ValueError(f"no staff words for {code!r}")
    return {"code": code, **values}


def store(*entries: dict) -> str:
    """One entry, or several (oldest first), as the text a model keeps."""
    return json.dumps(entries[0] if len(entries) == 1 else list(entries), ensure_ascii=False)


def append(stored: str, new: dict, limit: int = KEEP) -> str:
    """A report's resolution with one more step; the oldest steps go if it grows too long."""
    steps = _entries(stored)
    if steps is None:
        steps = [entry("note", text=stored)] if stored else []
    steps.append(new)
    while len(steps) > 1 and len(store(*steps)) > limit:
        steps.pop(0)
    return store(*steps)[:limit]


def _entries(stored: str) -> list[dict] | None:
    if not stored or stored[0] not in "[{":
        return None
    try:
        data = json.loads(stored)
    except ValueError:
        return None
    items = data if isinstance(data, list) else [data]
    if not all(isinstance(item, dict) and item.get("code") in (*WORDS, *OTHER_CODES) for item in items):
        return None
    return items


def bracketed(label) -> str:
    """A label as it reads inside brackets after other words ("Warned (insults)"): whether its
    capital stays is each language's to say (German keeps a noun's; Polish, Dutch and French do
    not), so the catalogue answers "keep" or "lower"."""
    text = str(label)
    if text and pgettext("a capitalised label inside brackets: answer keep or lower", "keep") == "lower":
        return text[0].lower() + text[1:]
    return text


def _values(item: dict) -> dict:
    where = item.get("where", "")
    return {
        "duration": DURATIONS.get(item.get("duration", ""), item.get("duration", "")),
        "where": _("at table %(code)s") % {"code": where} if where else _("everywhere"),
        "topic": bracketed(WARNING_TOPICS.get(item.get("warning", ""), item.get("warning", ""))),
        "warning": WARNINGS.get(item.get("warning", ""), item.get("warning", "")),
        "kind": SANCTIONS.get(item.get("kind", ""), item.get("kind", "")),
        "old": item.get("old", ""),
        "new": item.get("new", ""),
        "text": item.get("text", ""),
    }


def _say(item: dict) -> str:
    values = _values(item)
    if item["code"] == "warning":
        return str(values["warning"])
    if item["code"] == "note":
        return str(values["text"])
    if item["code"] == "banned_seats":
        seats = int(item.get("seats", 0))
        if not seats:  # nobody's seat taken: no count (French says 0 in the singular, "d’une place")
            return str(WORDS["banned"]) % values
        return ngettext(
            "Banned from tables (%(duration)s); removed from %(seats)d seat",
            "Banned from tables (%(duration)s); removed from %(seats)d seats",
            seats,
        ) % {**values, "seats": seats}
    return str(WORDS[item["code"]]) % values


def say(stored: str) -> str:
    """The stored text in words, in the language active now."""
    items = _entries(stored or "")
    if items is None:
        return stored or ""
    return "; ".join(_say(item) for item in items)
