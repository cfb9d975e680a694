"""A turn-based table's clocks, the same in every game: each seat's time left in words (the one
deciding: until its turn runs out; the others: what their next turn will have), the pace and the
playing hours, whether the clocks run now, and for a person the bot keeps the seat of, the way
to take it back. Drawn for each viewer (its button is theirs), in their language."""

from __future__ import annotations

from datetime import UTC, datetime, time
from typing import NamedTuple

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from game.core import pace as paces
from game.drawkit import words
from game.drawkit.pieces import Piece

MINUTE = 60


class ClockRow(NamedTuple):
    index: int
    name: str
    left: int | None  # seconds, rounded up to the minute as the page counts them (None: no limit)
    deciding: bool
    bot_plays: bool  # a computer player, or a person whose seat the bot keeps
    you: bool


class Clocks(NamedTuple):
    code: str
    pace: str
    move_seconds: int
    increment: int
    most: int
    window: tuple[str, str, str] | None  # "09:00", "21:00", zone
    stopped_until: str | None  # outside the playing hours: when the clocks run again ("09:00")
    rows: tuple[ClockRow, ...]
    reclaim: bool  # the viewer's seat is kept by the bot: "Take my seat back"
    deadline_ms: int | None = None  # when the deciding seat's turn runs out (the page counts down to it)


def clocks(snapshot: dict, me: int | None, names, now: datetime | None = None) -> Piece | None:
    """The clocks piece of a turn-based table under way (None at a live table, or a replay)."""
    table, game = snapshot["table"], snapshot["game"]
    told = table.get("pace")
    if not told or game is None or table["status"] != "playing" or game["over"]:
        return None
    now = now or datetime.now(UTC)
    window = None
    if told["window"]:
        start, end, zone = told["window"]
        window = paces.Window(time.fromisoformat(start), time.fromisoformat(end), zone)
    playing = True
    deciding = game.get("acting")
    rows = []
    for seat in sorted(snapshot["seats"], key=lambda s: s["index"]):
        index = seat["index"]
        bot = bool(seat["bot_level"]) or seat["away"]
        if told["pace"] == paces.UNLIMITED or seat["bot_level"]:
            left = None
        elif index == deciding and game["deadline"]:
            left = max(0, int(game["deadline"] - now.timestamp()))
        elif told["pace"] == paces.BANK:
            left = seat.get("bank") if seat.get("bank") is not None else told["move_seconds"]
        else:
            left = told["move_seconds"]
        if left is not None:
            # a started minute counts, as words.duration and the page's clock_words.js count it
            # (rounded down, 59 s left said "Time is up", and the page said "12 hours left" five
            # seconds after the server had said "11 hours 59 minutes left")
            left = -(-left // MINUTE) * MINUTE
        name = names[index] if index < len(names) else seat["nickname"]
        rows.append(ClockRow(index, name, left, index == deciding, bot, index == me))
    stopped = None
    if window is not None and playing and not paces.is_open(window, now):
        resumes = paces.next_change(window, now)
        stopped = resumes.astimezone(window.tz).strftime("%H:%M") if resumes else None
    mine = next((seat for seat in snapshot["seats"] if seat["index"] == me), None)
    data = Clocks(
        table["code"],
        told["pace"],
        told["move_seconds"],
        told["increment"],
        told["most"],
        tuple(told["window"]) if told["window"] else None,
        stopped,
        tuple(rows),
        bool(playing and mine is not None and mine["away"] and not mine["bot_level"]),
        int(game["deadline"] * 1000) if game["deadline"] and told["pace"] != paces.UNLIMITED else None,
    )
    return Piece("table/_clocks.html", data, clocks_context)


# The start page's words for its paces (game.pages.forms.PACE_CHOICES), said again here.
PRESET_WORDS = {
    "move-12h": _("12 hours a move"),
    "move-24h": _("24 hours a move"),
    "move-3d": _("3 days a move"),
    "bank-3d": _("Time bank: 3 days, +12 hours a move, at most 5 days"),
}


def pace_words(data: Clocks) -> str:
    """The table's pace in words: "24 hours a move", "Time bank: 3 days, +12 hours a move, at most 5 days"."""
    preset = paces.preset_key(data.pace, data.move_seconds, data.increment, data.most)
    if preset in PRESET_WORDS:
        return str(PRESET_WORDS[preset])
    if data.pace == paces.UNLIMITED:
        return gettext("Turn-based, no time limit")
    if data.pace == paces.BANK:
        return gettext("Time bank: %(start)s, +%(more)s a move, at most %(most)s") % {
            "start": words.duration(data.move_seconds),
            "more": words.duration(data.increment),
            "most": words.duration(data.most),
        }
    return gettext("%(time)s a move") % {"time": words.duration(data.move_seconds)}


def clocks_context(data: Clocks) -> dict:
    rows = []
    for row in data.rows:
        if row.bot_plays and not row.deciding:
            said = gettext("A bot plays") if row.left is not None or data.pace == paces.UNLIMITED else ""
        else:
            said = words.time_left(row.left)
        rows.append({"row": row, "said": said})
    hours = None
    if data.window is not None:
        hours = gettext("Clocks run %(start)s–%(end)s (%(zone)s)") % {
            "start": data.window[0],
            "end": data.window[1],
            "zone": data.window[2],
        }
    # the words the page says the deciding seat's time left in as it counts down (js/clock_words.js)
    left_words = gettext("%(time)s left")
    return {"clocks": data, "rows": rows, "pace_words": pace_words(data), "hours": hours, "left_words": left_words}


def pace_line(table: dict) -> str | None:
    """A turn-based table's pace and playing hours in one phrase, for its lobby (None: live)."""
    told = table.get("pace")
    if not told:
        return None
    data = Clocks(
        table["code"],
        told["pace"],
        told["move_seconds"],
        told["increment"],
        told["most"],
        tuple(told["window"]) if told["window"] else None,
        None,
        (),
        False,
    )
    words = pace_words(data)
    if data.pace != paces.UNLIMITED:
        words = gettext("Turn-based: %(pace)s") % {"pace": words}
    if data.window is not None:
        words += " · " + clocks_context(data)["hours"]
    return words
