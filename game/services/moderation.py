"""What moderators do from a report (or staff from admin): warn, mute, ban, lift, rename, mark
handled. Each action writes exactly one line of the moderators' log, and announces what the
person's tables' screens are told once it commits (and returns it: (table code, message) pairs).

A mute or a ban acts at once: every chat line and every seat taken is checked against them, and
the person's open screens are told (a notice in their language).
"""

from __future__ import annotations

from datetime import timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from game.core import staff_words
from game.core.errors import ServiceError
from game.core.identity import tag
from game.delivery import announce
from game.models import ChatMessage, ModAction, Presence, Profile, Report, Sanction, Seat, Table
from game.services import accounts, table_reads
from game.services.common import clean_nickname, table_update
from game.services.staff import Person, log_action, mark_handled, remove_seat
from game.services.store import locked_table_and_game

MUTE_DURATIONS = {"15m": timedelta(minutes=15), "1h": timedelta(hours=1), "24h": timedelta(hours=24), "permanent": None}
BAN_DURATIONS = {"24h": timedelta(hours=24), "7d": timedelta(days=7), "30d": timedelta(days=30), "permanent": None}
Sent = list[tuple[str, dict]]


def _tables_of(person: Person, also: str | None = None) -> list[str]:
    """The open tables where the person may have a screen: seated, connected, or chatting."""
    seats = Seat.objects.filter(player_key=person.key).values_list("table__code", flat=True)
    present = Presence.objects.filter(player_key=person.key).values_list("table__code", flat=True)
    recent = ChatMessage.objects.filter(
        author_key=person.key, created__gt=timezone.now() - timedelta(hours=6)
    ).values_list("table__code", flat=True)
    codes = set(seats) | set(present) | set(recent) | ({also} if also else set())
    return sorted(
        Table.objects.filter(code__in=codes).exclude(status=Table.Status.CLOSED).values_list("code", flat=True)
    )


def _notice(person: Person, notice: dict, also: str | None = None) -> Sent:
    body = {"to": tag(person.key), "user_id": person.user_id, "notice": notice}  # a tag: no key on the layer
    return [(code, {"chat": "notice", "code": code, "body": body}) for code in _tables_of(person, also)]


def _announced(sent: Sent) -> Sent:
    """Each table's update or notice, to its screens once the action commits, in this order."""
    announce.tables(sent)
    return sent


def _reason(reason: object) -> str:
    text = " ".join(str(reason or "").split())
    if not text:
        raise ServiceError("no_reason", _("Give a reason: the player reads it."))
    return text[:200]


@transaction.atomic
def player_warn(
    *, by, person: Person, warning: str, report: Report | None = None, table_code: str | None = None
) -> Sent:
    """A canned warning, shown at once on the person's screens in their language."""
    from game.core.phrases import WARNINGS

    if warning not in WARNINGS:
        raise ServiceError("bad_warning", _("Choose a warning from the list."))
    log_action(
        by=by,
        action=ModAction.Action.WARN,
        person=person,
        table_code=table_code or "",
        detail=staff_words.store(staff_words.entry("warned", warning=warning)),
        reason=staff_words.store(staff_words.entry("warning", warning=warning)),  # in each reader's words
        report=report,
    )
    mark_handled(report, by, staff_words.entry("warned", warning=warning))
    cache.set(pending_warning_key(person.key), warning, WARNING_KEPT)  # until one of their screens shows it
    return _announced(_notice(person, {"kind": "warning", "warning": warning}, table_code))


WARNING_KEPT = 30 * 24 * 3600  # seconds: a warning waits this long for its person to come back
ADDRESS_KEPT = 30 * 24 * 3600  # seconds: the address a person last came from is remembered this long


def seen_address_key(player_key: str) -> str:
    """Where the address a player last came from waits for a ban (the shared cache; written by
    game.pages.marks), by the tag of their key."""
    return f"sevn:seen:{tag(player_key)}"


def pending_warning_key(player_key: str) -> str:
    """Where a warning waits for a person who has no table open (the shared cache)."""
    return f"sevn:warning:{tag(player_key)}"


@transaction.atomic
def player_mute(
    *, by, person: Person, duration: str, reason: object, table: Table | None = None, report: Report | None = None
) -> Sent:
    """No chat for a while (or for good), at one table or everywhere; the next line is refused."""
    if duration not in MUTE_DURATIONS:
        raise ServiceError("bad_duration", _("Choose a duration from the list."))
    why = _reason(reason)
    length = MUTE_DURATIONS[duration]
    until = timezone.now() + length if length else None
    Sanction.objects.create(
        kind=Sanction.Kind.MUTE,
        player_key=person.key,
        user_id=account_id(person),  # the account's mute, also of one reported while still a guest
        nickname=person.name,
        table=table,
        reason=why,
        expires=until,
        by=by,
    )
    muted = staff_words.entry("muted", duration=duration, where=table.code if table else "")  # "": everywhere
    log_action(
        by=by,
        action=ModAction.Action.MUTE,
        person=person,
        table_code=table.code if table else "",
        detail=staff_words.store(muted),
        reason=why,
        report=report,
    )
    mark_handled(report, by, muted)
    notice = {
        "kind": "mute",
        "expires": until.timestamp() if until else None,
        "reason": why,
        "table": table.code if table else None,  # None: everywhere
    }
    return _announced(_notice(person, notice, table.code if table else (report.table_code if report else None)))


def account_id(person: Person) -> int | None:
    """The account behind a person's key, also when they were reported as a guest and signed
    up since (the report names the guest key, which became the account's); None for a guest."""
    return person.user_id or Profile.objects.filter(player_key=person.key).values_list("user_id", flat=True).first()


@transaction.atomic
def player_ban(*, by, person: Person, duration: str, reason: object, report: Report | None = None) -> Sent:
    """No creating or joining tables for a while (or for good): the person leaves every table
    at once (a bot keeps a seat in a running game) and their screens are told, then closed in
    every process (game.delivery.broadcast.put_out). The ban holds for the key, the account,
    the browsers that played under the key (their mark) and, while it lasts, the address the
    person last came from (services.chat.active_sanction). An account is logged out of every
    session (services.accounts.end_sessions)."""
    if duration not in BAN_DURATIONS:
        raise ServiceError("bad_duration", _("Choose a duration from the list."))
    why = _reason(reason)
    length = BAN_DURATIONS[duration]
    until = timezone.now() + length if length else None
    notices = _notice(
        person,
        {"kind": "ban", "expires": until.timestamp() if until else None, "reason": why},
        report.table_code if report else None,
    )
    user_id = account_id(person)
    Sanction.objects.create(
        kind=Sanction.Kind.BAN,
        player_key=person.key,
        user_id=user_id,
        nickname=person.name,
        reason=why,
        expires=until,
        by=by,
        address=cache.get(seen_address_key(person.key)),  # refused tables too while the ban lasts
    )
    seats = Seat.objects.filter(player_key=person.key).exclude(table__status=Table.Status.CLOSED)
    removed: Sent = [(code, remove_seat(seat_id)) for seat_id, code in seats.values_list("id", "table__code")]
    handed = _hand_over_hosting(person)
    log_action(
        by=by,
        action=ModAction.Action.BAN,
        person=person,
        detail=staff_words.store(staff_words.entry("banned_seats", duration=duration, seats=len(removed))),
        reason=why,
        report=report,
    )
    mark_handled(report, by, staff_words.entry("banned", duration=duration))
    sent = _announced(removed + handed + notices)
    announce.out(tag(person.key), user_id, "banned")  # after the notice: it says why
    if user_id is not None:  # an account (reported as a guest, perhaps): logged out everywhere
        transaction.on_commit(lambda: accounts.end_sessions(user_id))
    return sent


def _hand_over_hosting(person: Person) -> Sent:
    """A banned person hosts nothing: each open table they host goes to the first person still
    seated there, and one with nobody left is closed (part of the ban: no log line of its own)."""
    sent: Sent = []
    for table in Table.objects.filter(host_key=person.key).exclude(status=Table.Status.CLOSED):
        heir = table.seats.filter(bot_level="").exclude(player_key__in=("", person.key)).order_by("index").first()
        if heir is None:
            table.status, table.closed_reason = Table.Status.CLOSED, staff_words.store(staff_words.entry("host_gone"))
            table.save(update_fields=["status", "closed_reason", "updated"])
        else:
            table.host_key, table.host_name = heir.player_key, heir.nickname
            table.save(update_fields=["host_key", "host_name", "updated"])
        seats = sorted(table.seats.all(), key=lambda seat: seat.index)
        sent.append((table.code, table_update(table, seats, table_reads.current_game(table))))
    return sent


@transaction.atomic
def sanction_lift(*, by, sanction_id: int) -> Sent:
    """A mute or ban ends now (a person banned by mistake may play again at once); their open
    screens are told, so that a chat box closed by it opens again."""
    sanction = Sanction.objects.select_for_update().get(id=sanction_id)
    if sanction.lifted is not None:
        return []
    sanction.lifted, sanction.lifted_by = timezone.now(), by
    sanction.save(update_fields=["lifted", "lifted_by"])
    log_action(
        by=by,
        action=ModAction.Action.LIFT,
        person=Person(sanction.player_key, sanction.nickname),
        table_code=sanction.table.code if sanction.table_id else "",
        detail=staff_words.store(staff_words.entry("lifted", kind=sanction.kind)),
        reason=sanction.reason,
    )
    person = Person(sanction.player_key, sanction.nickname, sanction.user_id)
    return _announced(_notice(person, {"kind": "lifted"}, sanction.table.code if sanction.table_id else None))


@transaction.atomic
def player_rename(*, by, table_id: int, person: Person, nickname: object, report: Report | None = None) -> Sent:
    """An offensive nickname replaced at its table: the seat, the game's list of players and
    the person's chat lines there."""
    table, game = locked_table_and_game(table_id=table_id)
    if table is None:
        raise ServiceError("unknown_table", _("There is no table with that code."))
    seat = Seat.objects.filter(table=table, player_key=person.key).first()
    if seat is None:
        raise ServiceError("not_seated", _("That player no longer sits at this table."))
    name = clean_nickname(nickname)
    old, seat.nickname = seat.nickname, name
    seat.save(update_fields=["nickname"])
    if table.host_key == person.key:
        Table.objects.filter(id=table.id).update(host_name=name)
        table.host_name = name
    if game is not None and seat.index < len(game.players) and game.players[seat.index] == old:
        game.players[seat.index] = name
        game.save(update_fields=["players"])
    ChatMessage.objects.filter(table=table, author_key=person.key).update(nickname=name)
    renamed = staff_words.entry("renamed", old=old, new=name)
    log_action(
        by=by,
        action=ModAction.Action.RENAME,
        person=person,
        table_code=table.code,
        detail=staff_words.store(renamed),
        reason="",
        report=report,
    )
    mark_handled(report, by, renamed)
    return _announced([(table.code, table_update(table, list(table.seats.all()), game))])


@transaction.atomic
def report_handle(*, by, report_id: int, note: object = "") -> None:
    """A report marked handled without a further action (say, nothing wrong was found)."""
    report = Report.objects.select_for_update().get(id=report_id)
    text = " ".join(str(note or "").split())[:200]
    how = staff_words.entry("note", text=text) if text else staff_words.entry("no_action")
    log_action(
        by=by,
        action=ModAction.Action.HANDLE,
        person=Person.reported_in(report),
        table_code=report.table_code,
        detail=staff_words.store(how),
        report=report,
    )
    mark_handled(report, by, how)
