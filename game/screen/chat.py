"""The chat panel as HTML for one viewer, apart from the table's pieces: its lines (a quick
phrase in the viewer's language), the composer (who may say what, where) and the people at
the table (to mute or report). Socket messages append lines or swap these parts by id."""

from __future__ import annotations

from datetime import UTC, datetime

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import override

from game import registry
from game.core import phrases
from game.core.identity import tag
from game.drawkit.pieces import drawn
from game.services.chat import CHAT_MAX, author_token, refusal_message, sanction_message

CHANNELS = ("table", "spectators")
LINE = ("id", "channel", "nickname", "text", "phrase", "author")  # what a line shows


def _line_context(drawn_line: tuple) -> dict:
    *fields, mine = drawn_line
    line = dict(zip(LINE, fields, strict=True))
    phrase = line["phrase"]
    return {
        "line": line,
        "mine": mine,
        "text": phrases.phrase_text(phrase) if phrase else line["text"],
        "label": phrases.phrase_label(phrase) if phrase in phrases.REACTIONS else "",
    }


def line_html(line: dict, language: str, viewer_token: str | None) -> str:
    """One line as a viewer sees it (drawn once per language for every screen of a process,
    through the render's one memo)."""
    mine = viewer_token is not None and line["author"] == viewer_token
    with override(language):
        return drawn("table/_chat_line.html", (*(line[field] for field in LINE), mine), _line_context)


def appended(line: dict, language: str, viewer_token: str | None) -> str:
    """A new line, added at the end of its channel's list."""
    return render_to_string(
        "table/_chat_list.html", {"channel": line["channel"], "lines": line_html(line, language, viewer_token)}
    )


def lists(lines: dict[str, list[dict]], language: str, viewer_token: str | None, oob: bool = False) -> dict:
    """Each channel's lines, as the list's content (or, `oob`, as whole lists swapped in)."""
    drawn_lines = {
        channel: mark_safe("".join(line_html(line, language, viewer_token) for line in lines.get(channel, ())))
        for channel in CHANNELS
    }  # each line escaped as it was drawn
    if not oob:
        return drawn_lines
    return {
        channel: render_to_string("table/_chat_list.html", {"channel": channel, "lines": html, "whole": True})
        for channel, html in drawn_lines.items()
    }


def _people(snapshot: dict) -> tuple[tuple, frozenset]:
    """Who sits (index, nickname, tag), and their tags."""
    people = tuple((seat["index"], seat["nickname"], seat["who"]) for seat in snapshot["seats"] if seat["who"])
    return people, frozenset(who for _index, _name, who in people)


def frame(snapshot: dict, viewer_key: str | None) -> tuple:
    """What the composer and the people list show: whether the viewer sits or hosts, who sits,
    the quick phrases the table's game offers, and whether the table is closed."""
    people, tags = _people(snapshot)
    who = tag(viewer_key)
    return (
        who in tags,
        bool(who) and snapshot["table"]["host"] == who,
        people,
        registry.of(snapshot["table"]).phrases,
        snapshot["table"]["status"] == "closed",
    )


def renamed(before: tuple | None, after: tuple) -> bool:
    """Whether someone seated in both frames shows another name now (their chat lines too)."""
    if before is None:
        return False
    names = {who: name for _index, name, who in before[2]}
    return any(who in names and names[who] != name for _index, name, who in after[2])


CLOSED = {"kind": "closed", "until": None, "reason": ""}


def parts(
    *,
    code: str,
    chat_frame: tuple,
    viewer_key: str | None,
    has_name: bool,
    spectator_chat: bool,
    language: str,
    refusal: dict | None = None,
    csrf_token: str = "",
    oob: bool = False,
) -> str:
    """The composer and the people list for this viewer; a viewer who may not write (a closed
    table, a mute, a ban: services.chat.chat_refusal) sees why, in a box that takes nothing."""
    seated, is_host, people, offered, closed = chat_frame
    if closed:
        refusal = CLOSED
    context = {
        "code": code,
        "seated": seated,
        "is_host": is_host,
        "has_name": has_name or seated,
        "spectator_chat": spectator_chat,
        "oob": oob,
        "chat_max": CHAT_MAX,
        "refused": refusal_message(refusal) if refusal else "",
        "refused_until": int(refusal["until"] * 1000) if refusal and refusal["until"] is not None else "",
        "quick_phrases": [(key, phrases.QUICK_PHRASES[key]) for key in offered if key in phrases.QUICK_PHRASES],
        "reactions": [(key, emoji, label) for key, (emoji, label) in phrases.REACTIONS.items()],
        "people": [
            {"index": index, "nickname": name, "mine": who == tag(viewer_key), "author": author_token(code, who)}
            for index, name, who in people
        ],
    }
    if csrf_token:
        context["csrf_token"] = csrf_token
    with override(language):
        return render_to_string("table/_chat_compose.html", context) + render_to_string(
            "table/_chat_people.html", context
        )


def notice(notice: dict, language: str) -> str:
    """What a moderator's action tells the person, in their language."""
    if notice["kind"] == "warning":
        message = phrases.WARNINGS.get(notice["warning"], phrases.WARNINGS["rules"])
    else:
        expires = notice["expires"]
        until = datetime.fromtimestamp(expires, UTC) if expires is not None else None
        message = sanction_message(notice["kind"], until, notice["reason"])
    with override(language):
        return render_to_string("table/_notice.html", {"message": message})
