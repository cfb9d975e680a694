"""What the chat and the moderators say in every viewer's language: quick phrases and emoji
reactions (a message keeps the key, each screen draws it in its own language) and the
moderators' canned warnings."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

QUICK_PHRASES = {
    "good_luck": _("Good luck!"),
    "well_played": _("Well played!"),
    "nice_sevn": _("Nice SEVN!"),
    "oops": _("Oops!"),
    "thinking": _("Thinking…"),
    "rematch": _("Rematch?"),
}

# What every game's tables offer; a game's Kind names its own list (`phrases`), which may add one
# of its own ("Nice SEVN!" only where SEVN is played).
COMMON_PHRASES = ("good_luck", "well_played", "oops", "thinking", "rematch")

# An emoji reads the same everywhere; its name (for screen readers and staff) is translated. These
# are all in Unicode's first emoticons, which even a system without a colour emoji font can draw.
REACTIONS = {
    "smile": ("😀", _("Smiling")),
    "laugh": ("😂", _("Laughing")),
    "wow": ("😮", _("Wow")),
    "sad": ("😢", _("Sad")),
    "cool": ("😎", _("Cool")),
}

WARNINGS = {
    "insults": _("A moderator warns you: insulting other players is not allowed. Please be kind."),
    "spam": _("A moderator warns you: please stop flooding the chat."),
    "cheating": _("A moderator warns you: playing together against others is cheating and is not allowed."),
    "nickname": _("A moderator warns you: choose a nickname that nobody finds offensive."),
    "rules": _("A moderator warns you: please keep to the rules of fair and friendly play."),
}


def is_phrase(key: object) -> bool:
    return key in QUICK_PHRASES or key in REACTIONS


def phrase_text(key: str) -> str:
    """The phrase in the active language (an emoji as itself)."""
    if key in REACTIONS:
        return REACTIONS[key][0]
    return str(QUICK_PHRASES.get(key, ""))


def phrase_label(key: str) -> str:
    """What a phrase says in words, in the active language (for emoji: their name)."""
    if key in REACTIONS:
        return str(REACTIONS[key][1])
    return str(QUICK_PHRASES.get(key, ""))
