"""Alerts that reach a person who is not on the site: the writers of the outbox (each notice
written in the transaction of the change it tells of, under a key unique to that event, so that
a crash after the change loses nothing and no event is told twice), each person's choices, and
their devices' push subscriptions. game.services.outbox sends what is due.

Who calls what: the play service when the turn passes to a person (`turn_started`, the one
place a "your move" notice is made: a turn-based clock calls it too) and when a game ends
(`game_finished`); invitations (`invitation_sent`); friend requests (`friend_requested`).
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, date, datetime, time, timedelta
from functools import cache

from django.conf import settings as django_settings
from django.core import signing
from django.db import transaction
from django.utils import timezone

from game import registry
from game.core.errors import ServiceError
from game.delivery import webpush
from game.models import AlertSettings, Game, Notice, PushSubscription, Seat, Table

KEEP_SUBSCRIPTIONS = 5  # devices per person: the newest are kept
REMINDER_FROM = timedelta(hours=1)  # a move given less time than this gets no reminder
LAST_HOUR = timedelta(hours=1)
URGENT_LEFT = timedelta(hours=2)  # the e-mail when time is short: this much left, and no push arrived
URGENT_FROM = timedelta(minutes=10)  # a move given less time than this gets no e-mail (live tables)
URGENT_AFTER = timedelta(minutes=5)  # the e-mail never comes sooner than this after the turn began
OVER_KEPT = timedelta(days=1)  # "game over" not sent within a day is not worth sending
INVITATION_KEPT = timedelta(days=7)
FRIEND_KEPT = timedelta(days=14)
UNSUBSCRIBE_SALT = "sevn.alerts.unsubscribe"

PUSH_KINDS = {  # a notice's kind: the person's setting that lets it through
    Notice.Kind.TURN: "push_turn",
    Notice.Kind.REMINDER: "push_reminder",
    Notice.Kind.INVITATION: "push_invitation",
    Notice.Kind.FRIEND_REQUEST: "push_friend_request",
    Notice.Kind.GAME_OVER: "push_game_over",
}


# --- choices --------------------------------------------------------------------------------


def settings_of(user) -> AlertSettings:
    """The person's choices (the defaults, unsaved, for someone who never chose)."""
    found = AlertSettings.objects.filter(user_id=user.pk).first()
    return found if found is not None else AlertSettings(user_id=user.pk)


@cache
def time_zones() -> tuple[str, ...]:
    return tuple(sorted(name for name in zoneinfo.available_timezones() if "/" in name or name == "UTC"))


def zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def next_digest(row: AlertSettings, after: datetime) -> datetime | None:
    """When the daily e-mail is next due: the chosen hour in the person's zone, after `after`
    (the first such hour of a day that has it: a clock change's missing hour moves it later)."""
    if not row.email_digest:
        return None
    tz = zone(row.time_zone)
    local = after.astimezone(tz)
    day = local.date()
    for _ in range(3):
        at = datetime.combine(day, time(row.digest_hour), tzinfo=tz)
        if at.astimezone(UTC) > after:
            return at.astimezone(UTC)
        day += timedelta(days=1)
    return None  # unreachable: three days always hold the hour


@transaction.atomic
def settings_save(*, user, language: str, **chosen) -> AlertSettings:
    """Save the person's choices (from the settings form, checked there); the daily e-mail's
    next time follows them."""
    row, _made = AlertSettings.objects.select_for_update().get_or_create(user_id=user.pk)
    if chosen.get("time_zone") is not None and chosen["time_zone"] not in time_zones():
        raise ServiceError("time_zone", "unknown time zone")
    for name, value in chosen.items():
        setattr(row, name, value)
    row.language = language
    row.next_digest = next_digest(row, timezone.now())
    row.save()
    return row


def language_seen(*, user, language: str, make: bool = True) -> None:
    """The language the person's notices are written in follows the one they use the site in
    (when they subscribe a device, save their choices, log in); `make`: also for someone who
    never chose anything (their row is made with the defaults)."""
    codes = {code for code, _name in django_settings.LANGUAGES}
    if language not in codes:
        return
    updated = AlertSettings.objects.filter(user_id=user.pk).exclude(language=language).update(language=language)
    if make and not updated:
        AlertSettings.objects.get_or_create(user_id=user.pk, defaults={"language": language})


def unsubscribe_token(user_id: int) -> str:
    """The signed token of the daily e-mail's one-click unsubscribe link (no log-in needed)."""
    return signing.dumps({"u": user_id, "w": "digest"}, salt=UNSUBSCRIBE_SALT, compress=True)


@transaction.atomic
def digest_unsubscribe(*, token: str) -> bool:
    """Turn the daily e-mail off for the person the token names; False for a token that is not
    the site's (or names nobody)."""
    try:
        signed = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return False
    if not isinstance(signed, dict) or signed.get("w") != "digest":
        return False
    return bool(AlertSettings.objects.filter(user_id=signed.get("u")).update(email_digest=False, next_digest=None)) or (
        AlertSettings.objects.filter(user_id=signed.get("u")).exists()
    )


# --- devices --------------------------------------------------------------------------------


@transaction.atomic
def subscribe(*, user, endpoint: object, p256dh: object, auth: object, language: str) -> PushSubscription:
    """A device of the person's takes push notices. Only the newest KEEP_SUBSCRIPTIONS devices
    are kept; an endpoint another account had moves to this one (one browser, one person)."""
    if not isinstance(endpoint, str) or len(endpoint) > 1000 or not webpush.endpoint_allowed(endpoint):
        raise ServiceError("endpoint", "not a push service this site sends to")
    if not (isinstance(p256dh, str) and isinstance(auth, str) and 80 <= len(p256dh) <= 100 and 16 <= len(auth) <= 32):
        raise ServiceError("keys", "not a browser's push keys")
    PushSubscription.objects.filter(endpoint=endpoint).delete()
    made = PushSubscription.objects.create(user_id=user.pk, endpoint=endpoint, p256dh=p256dh, auth=auth)
    older = PushSubscription.objects.filter(user_id=user.pk).order_by("-created", "-id")[KEEP_SUBSCRIPTIONS:]
    PushSubscription.objects.filter(id__in=list(older.values_list("id", flat=True))).delete()
    language_seen(user=user, language=language)
    return made


def unsubscribe(*, user, endpoint: object) -> None:
    PushSubscription.objects.filter(user_id=user.pk, endpoint=str(endpoint)).delete()


def devices(user) -> int:
    return PushSubscription.objects.filter(user_id=user.pk).count()


# --- the events -----------------------------------------------------------------------------


def _write(notices: list[Notice]) -> None:
    """Into the outbox, in the caller's transaction; an event already written stays as it was."""
    if notices:
        Notice.objects.bulk_create(notices, ignore_conflicts=True)


def turn_started(table: Table, game: Game, seat: Seat, deadline: datetime | None, now: datetime | None = None) -> None:
    """The turn passed to this seat's person at this game's version (the caller holds the
    table's lock, in the transaction that passed it): "your move" after a short grace, a
    reminder at 80 % of the time and in the last hour, and the e-mail when less than two hours
    are left and no push arrived. Each is sent only if the turn still waits for them then and
    they have no socket open at the table. A guest (no account) is told nothing off the site."""
    if not seat.user_id:
        return
    now = now or timezone.now()
    topic = f"{game.id}:{game.version}"
    data = {"game": game.id, "version": game.version, "seat": seat.index, "kind": table.kind}
    if deadline is not None:
        data["deadline"] = deadline.isoformat()

    def notice(kind: str, key: str, due: datetime) -> Notice:
        return Notice(
            key=f"{key}:{topic}",
            user_id=seat.user_id,
            kind=kind,
            table_code=table.code,
            topic=topic,
            data=data,
            due=due,
            expires=deadline,
        )

    grace = timedelta(seconds=django_settings.SEVN_PUSH_GRACE_SECONDS)
    notices = [notice(Notice.Kind.TURN, "turn", now + grace)]
    if deadline is not None:
        given = deadline - now
        if given >= REMINDER_FROM:
            notices.append(notice(Notice.Kind.REMINDER, "late", now + given * 0.8))
            if given * 0.2 > LAST_HOUR:  # the 80 % reminder comes before the last hour: one more in it
                notices.append(notice(Notice.Kind.REMINDER, "hour", deadline - LAST_HOUR))
        if given >= URGENT_FROM:
            notices.append(notice(Notice.Kind.URGENT_EMAIL, "mail", max(now + URGENT_AFTER, deadline - URGENT_LEFT)))
    _write(notices)


def game_finished(table: Table, game: Game, seats: list[Seat], now: datetime | None = None) -> None:
    """The game is over: everyone with an account who played it is told (from its transaction)."""
    now = now or timezone.now()
    _write(
        [
            Notice(
                key=f"over:{game.id}:{seat.user_id}",
                user_id=seat.user_id,
                kind=Notice.Kind.GAME_OVER,
                table_code=table.code,
                data={"game": game.id, "kind": table.kind, "winner": game.winner, "seat": seat.index},
                due=now,
                expires=now + OVER_KEPT,
            )
            for seat in seats
            if seat.user_id and not seat.is_bot
        ]
    )


def invitation_sent(invitation, now: datetime | None = None) -> None:
    """An invitation (or one sent again): pushed to the invited person at once."""
    now = now or timezone.now()
    _write(
        [
            Notice(
                key=f"invite:{invitation.id}:{int(invitation.created.timestamp())}",
                user_id=invitation.to_user_id,
                kind=Notice.Kind.INVITATION,
                table_code=invitation.table.code,
                data={
                    "invitation": invitation.id,
                    "from": invitation.from_user.get_username(),
                    "kind": invitation.table.kind,
                },
                due=now,
                expires=now + INVITATION_KEPT,
            )
        ]
    )


def friend_requested(friendship, now: datetime | None = None) -> None:
    """A friend request: pushed to the person asked at once."""
    now = now or timezone.now()
    _write(
        [
            Notice(
                key=f"friend:{friendship.id}:{int(friendship.created.timestamp())}",
                user_id=friendship.to_user_id,
                kind=Notice.Kind.FRIEND_REQUEST,
                data={"friendship": friendship.id, "from": friendship.from_user.get_username()},
                due=now,
                expires=now + FRIEND_KEPT,
            )
        ]
    )


# --- what waits for a person ------------------------------------------------------------------


def your_move(user_id: int) -> list[dict]:
    """The tables waiting for this person's move, the least time left first (no clock: last):
    each {"code", "kind", "deadline"}. (The home page's list is services.selectors'.)"""
    seats = {
        seat.table_id: seat
        for seat in Seat.objects.filter(user_id=user_id, table__status=Table.Status.PLAYING, away=False).select_related(
            "table"
        )
    }
    games = Game.objects.filter(table_id__in=seats, over=False).order_by("table_id", "-number")
    waiting, seen = [], set()
    for game in games.only("table_id", "state", "deadline", "number"):
        if game.table_id in seen:  # the table's current game only
            continue
        seen.add(game.table_id)
        seat = seats[game.table_id]
        kind = registry.of(seat.table)
        if kind.acting(kind.from_json(game.state)) == seat.index:
            waiting.append({"code": seat.table.code, "kind": seat.table.kind, "deadline": game.deadline})
    far = datetime.max.replace(tzinfo=UTC)
    return sorted(waiting, key=lambda entry: (entry["deadline"] or far, entry["code"]))


def schedule_digests(now: datetime | None = None, limit: int = 500) -> int:
    """Write the daily e-mail of everyone whose hour has come into the outbox, once per person and
    local day (its key names the day): a process that was down catches up with one e-mail, not
    one a day missed. Returns how many were written."""
    now = now or timezone.now()
    written = 0
    due = list(AlertSettings.objects.filter(email_digest=True, next_digest__lte=now).order_by("next_digest")[:limit])
    for row in due:
        day: date = now.astimezone(zone(row.time_zone)).date()
        with transaction.atomic():
            # a conditional update: of several processes, the one that moves it writes the notice
            moved = AlertSettings.objects.filter(id=row.id, next_digest=row.next_digest).update(
                next_digest=next_digest(row, now)
            )
            if moved:
                _write(
                    [
                        Notice(
                            key=f"digest:{row.user_id}:{day.isoformat()}",
                            user_id=row.user_id,
                            kind=Notice.Kind.DIGEST,
                            data={"day": day.isoformat()},
                            due=now,
                            expires=now + timedelta(hours=20),
                        )
                    ]
                )
                written += 1
    return written
