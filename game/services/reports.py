"""Players' reports of a chat line or of a seated player, kept with the chat as evidence."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from game.core.errors import ServiceError, choose_int
from game.core.identity import Player
from game.models import ChatMessage, Report, Seat, Table

EVIDENCE_LINES = 30
REPORT_REASONS = Report.Reason.choices  # what a report form offers
COMMENT_MAX = 200


def evidence(table: Table) -> list[dict]:
    """The table's last chat lines, both channels, oldest first (the lines themselves may be
    pruned later: the report keeps its copy)."""
    rows = ChatMessage.objects.filter(table=table).order_by("-id")[:EVIDENCE_LINES]
    return [
        {
            "id": row.id,
            "time": row.created.isoformat(timespec="seconds"),
            "channel": row.channel,
            "nickname": row.nickname,
            "key": row.author_key,
            "text": row.text,
            "phrase": row.phrase,
        }
        for row in reversed(list(rows))
    ]


def _reporter_name(table: Table, player: Player, nickname: object) -> str:
    seat = Seat.objects.filter(table=table, player_key=player.key).first()
    if seat is not None:
        return seat.nickname
    return (player.username or str(nickname or "") or "?")[:20]


def _reported(table: Table, message_id: object, seat_index: object):
    """The person reported (key, user id, name) and the line reported, if it is a line."""
    if message_id not in (None, ""):
        line = ChatMessage.objects.filter(
            table=table, id=choose_int(message_id, range(10**12), "no_message", _("That message is no longer there."))
        ).first()
        if line is None:
            raise ServiceError("no_message", _("That message is no longer there."))
        return line.author_key, line.author_user_id, line.nickname, line
    seats = {seat.index: seat for seat in Seat.objects.filter(table=table)}
    index = choose_int(seat_index, list(seats), "no_such_seat", _("Nobody sits in that seat."))
    seat = seats[index]
    if not seat.player_key:
        raise ServiceError("report_bot", _("Computer players cannot be reported."))
    return seat.player_key, seat.user_id, seat.nickname, None


def report_create(
    *,
    code: str,
    player: Player,
    reason: object,
    comment: object = "",
    message_id: object = None,
    seat_index: object = None,
    nickname: object = "",
) -> Report:
    """A report reaches staff with the last chat lines; the same thing twice by the same
    person is refused. While a report of the same person at the same table is open, another
    one (by anybody) folds into it: its count and last time go up, the queue keeps one entry."""
    table = Table.objects.filter(code=str(code).upper()).first()
    if table is None:
        raise ServiceError("unknown_table", _("There is no table with that code."))
    if reason not in Report.Reason.values:
        raise ServiceError("bad_reason", _("Choose a reason for your report."))
    note = " ".join(str(comment or "").split())
    if len(note) > COMMENT_MAX:
        raise ServiceError("long_comment", _("A comment has at most 200 characters."))
    key, user_id, name, line = _reported(table, message_id, seat_index)
    if key == player.key:
        raise ServiceError("report_self", _("You cannot report yourself."))
    duplicate = (
        Report.objects.filter(reporter_key=player.key, message=line)
        if line is not None
        else Report.objects.filter(reporter_key=player.key, table=table, reported_key=key, message__isnull=True)
    )
    if duplicate.exists() or _folded_already(table, key, player, line):
        raise ServiceError("reported", _("You have reported this already: staff will look at it."))
    try:
        with transaction.atomic():
            Table.objects.select_for_update().filter(id=table.id).first()  # one report at a time per table
            folded = _fold(table, key, _further(table, player, nickname, reason, note, line))
            if folded is not None:
                return folded
            return Report.objects.create(
                table=table,
                table_code=table.code,
                reporter_key=player.key,
                reporter_name=_reporter_name(table, player, nickname),
                reported_key=key,
                reported_user_id=user_id,
                reported_name=name,
                message=line,
                message_text=(line.text or line.phrase) if line else "",
                reason=reason,
                comment=note,
                evidence=evidence(table),
                last_reported=timezone.now(),
            )
    except IntegrityError:  # the same report sent twice at once
        raise ServiceError("reported", _("You have reported this already: staff will look at it.")) from None


FOLDED_KEPT = 100  # further reports an entry lists (its count goes on)


def _open_entry(table: Table, reported_key: str) -> Report | None:
    return (
        Report.objects.filter(table=table, reported_key=reported_key, status=Report.Status.OPEN)
        .order_by("created")
        .first()
    )


def _folded_already(table: Table, reported_key: str, player: Player, line) -> bool:
    entry = _open_entry(table, reported_key)
    message = line.id if line is not None else None
    return entry is not None and any(item["key"] == player.key and item["message"] == message for item in entry.more)


def _further(table: Table, player: Player, nickname: object, reason: str, note: str, line) -> dict:
    return {
        "key": player.key,
        "by": _reporter_name(table, player, nickname),
        "reason": reason,
        "comment": note,
        "message": line.id if line is not None else None,
        "text": (line.text or line.phrase) if line is not None else "",
        "time": timezone.now().isoformat(timespec="seconds"),
    }


def _fold(table: Table, reported_key: str, further: dict) -> Report | None:
    """The open report of this person at this table, counted once more (and who sent this one,
    why, for the first FOLDED_KEPT); None if there is none."""
    entry = _open_entry(table, reported_key)
    if entry is None:
        return None
    more = entry.more if len(entry.more) >= FOLDED_KEPT else [*entry.more, further]
    Report.objects.filter(id=entry.id).update(count=F("count") + 1, last_reported=timezone.now(), more=more)
    entry.refresh_from_db(fields=["count", "last_reported", "more"])
    return entry
