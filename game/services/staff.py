"""What staff do from admin: close a table, remove a player. Every staff action writes one line
of the moderators' log (log_action), which admin shows and nobody edits, and announces what it
changed to the table's screens as it commits (common.announced)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from game.core import staff_words
from game.models import ModAction, Seat, Table
from game.services import table_reads
from game.services.common import announced, presence_event, table_update
from game.services.play import refresh_deadline
from game.services.store import locked_table_and_game


@dataclass(frozen=True)
class Person:
    """Whom a staff action is about: a guest key or a user's key (and then the account too)."""

    key: str
    name: str
    user_id: int | None = None

    @classmethod
    def reported_in(cls, report) -> Person:
        return cls(report.reported_key, report.reported_name, report.reported_user_id)


def log_action(
    *,
    by,
    action: str,
    person: Person | None = None,
    table_code: str = "",
    detail: str = "",
    reason: str = "",
    report=None,
) -> ModAction:
    """The moderators' log line of one staff action (`by` None: done by the site itself)."""
    return ModAction.objects.create(
        actor=by,
        actor_name=by.get_username() if by is not None else "system",
        action=action,
        target_key=person.key if person else "",
        target_name=person.name[:20] if person else "",
        table_code=table_code,
        detail=str(detail)[:200],
        reason=str(reason)[:300],
        report=report,
    )


def mark_handled(report, by, how: dict) -> None:
    """The report an action was taken from records who handled it and how (each action adds
    a step: a code of game.core.staff_words, drawn in the reader's language)."""
    if report is None:
        return
    report.status = report.Status.HANDLED
    report.handled_by, report.handled_at = by, timezone.now()
    report.resolution = staff_words.append(report.resolution, how)
    report.save(update_fields=["status", "handled_by", "handled_at", "resolution"])


@transaction.atomic
def table_close(*, code: str, reason: str = "", by=None, report=None) -> dict:
    """Staff close a table: play stops and every viewer is told."""
    table, game = locked_table_and_game(code)
    table.status = Table.Status.CLOSED
    table.closed_reason = reason[:200]
    table.save(update_fields=["status", "closed_reason", "updated"])
    if game is not None and game.deadline is not None:
        game.deadline = None
        game.save(update_fields=["deadline"])
    log_action(by=by, action=ModAction.Action.CLOSE, table_code=table.code, reason=reason, report=report)
    mark_handled(report, by, staff_words.entry("closed"))
    return announced(table.code, table_update(table, list(table.seats.all()), game))


def remove_seat(seat_id: int) -> dict:
    """Before the start (or after the end) the seat is freed; during a game a bot keeps the
    seat (and its score) so the game can go on, and the person can no longer act. A step of a
    staff action (seat_remove_by_staff, a ban), which announces the table's update this returns."""
    table_id = Seat.objects.values_list("table_id", flat=True).get(id=seat_id)
    table, _game = locked_table_and_game(table_id=table_id)
    seat = Seat.objects.get(id=seat_id)  # read after the lock: nobody changes it meanwhile
    if table.status != Table.Status.PLAYING:
        seat.delete()
        message = table_update(table, list(table.seats.all()), table_reads.current_game(table))
    else:
        seat.player_key, seat.user, seat.away = "", None, True
        seat.save(update_fields=["player_key", "user", "away"])
        message = refresh_deadline(table, events=[{"type": "removed", "seat": seat.index}])
    if table.status in (Table.Status.PLAYING, Table.Status.FINISHED):  # its person is connected there no more
        message["events"] = [*message["events"], presence_event(table.id)]
    return message


@transaction.atomic
def seat_remove_by_staff(*, seat_id: int, by=None, reason: str = "", report=None) -> dict:
    """Staff remove a player from a table (see remove_seat), logged."""
    seat = Seat.objects.select_related("table").get(id=seat_id)
    person = Person(seat.player_key, seat.nickname, seat.user_id)
    code = seat.table.code
    message = remove_seat(seat_id)
    log_action(by=by, action=ModAction.Action.REMOVE, person=person, table_code=code, reason=reason, report=report)
    mark_handled(report, by, staff_words.entry("removed"))
    return announced(code, message)
