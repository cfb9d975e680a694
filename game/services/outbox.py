"""The outbox's sender: what is due is claimed by one process, looked at again (does the turn
still wait? is the person at the table? asleep? did they switch this kind off?), sent by push
or e-mail, and marked done. Run by the deadline loop of every process (game.live.timers).

Exactly once across processes: a claim is a conditional UPDATE of rows nobody holds (on
PostgreSQL the rows are first picked with SELECT ... FOR UPDATE SKIP LOCKED, so processes take
different rows instead of waiting for each other); only the claimer marks a row done. A process
that dies holding a claim lets it lapse (CLAIM_SECONDS) and another sends the notice: at least
once, and twice only if it died between the push service's answer and marking it done (then the
device shows the same notice in the same place: a notice's tag is its table).

The three steps are apart so that the network never holds the database thread: `take` (claim
and prepare: database), `deliver` (push services and the mail server: any thread), `settle`
(database). `run_once` does all three in the calling thread (tests, the bench)."""

from __future__ import annotations

import json
import logging
import os
import secrets
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import connection, transaction
from django.db.models import F, Max, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from game import registry
from game.delivery import webpush
from game.drawkit.words import duration
from game.models import (
    AlertSettings,
    Event,
    Friendship,
    Game,
    Invitation,
    Notice,
    Presence,
    PushSubscription,
    Seat,
    Table,
)
from game.services import alerts

logger = logging.getLogger(__name__)

BATCH = 100  # notices claimed at once
CLAIM_SECONDS = 120  # a claim lapses after this (its process died): another process sends it
RETRIES = 5  # a push service or mail server that fails this often: the notice is given up
KEPT = timedelta(days=30)  # done notices are deleted after this
TURN_KINDS = (Notice.Kind.TURN, Notice.Kind.REMINDER, Notice.Kind.URGENT_EMAIL)
TTL = {  # seconds a push service keeps a notice for a device that is offline
    Notice.Kind.TURN: 24 * 3600,
    Notice.Kind.REMINDER: 3600,
    Notice.Kind.INVITATION: 12 * 3600,
    Notice.Kind.FRIEND_REQUEST: 7 * 24 * 3600,
    Notice.Kind.GAME_OVER: 3600,
}


class Push(NamedTuple):
    notice: int
    targets: tuple[webpush.Target, ...]
    payload: bytes
    ttl: int
    topic: str
    urgency: str


class Mail(NamedTuple):
    notice: int
    message: EmailMessage


Job = Push | Mail


class Sent(NamedTuple):
    """What became of one job: the push services' answers, or whether the e-mail went."""

    job: Job
    results: tuple[webpush.Result, ...] = ()
    mailed: bool = False


def new_token() -> str:
    """A batch's claim: the process's id (which process sent a notice stays readable) and a
    random part."""
    return f"{os.getpid()}-{secrets.token_hex(6)}"


# --- claim ----------------------------------------------------------------------------------


def _free(now: datetime) -> Q:
    return Q(done__isnull=True) & (Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))


def claim(now: datetime, token: str, limit: int = BATCH) -> list[int]:
    """Take up to `limit` due notices nobody holds; returns their ids (this process's now)."""
    with transaction.atomic():
        due = Notice.objects.filter(_free(now), due__lte=now).order_by("due", "id")
        if connection.vendor == "postgresql":
            due = due.select_for_update(skip_locked=True)
        ids = list(due.values_list("id", flat=True)[:limit])
        if not ids:
            return []
        Notice.objects.filter(_free(now), id__in=ids).update(
            claim=token, claimed_until=now + timedelta(seconds=CLAIM_SECONDS)
        )
    return list(Notice.objects.filter(id__in=ids, claim=token, done__isnull=True).values_list("id", flat=True))


def _close(ids: list[int], token: str, outcome: str, now: datetime) -> None:
    if ids:
        Notice.objects.filter(id__in=ids, claim=token, done__isnull=True).update(
            done=now, outcome=outcome, claimed_until=None
        )


def _later(ids: list[int], token: str, due: datetime, *, failed: bool) -> None:
    if ids:
        changes = {"due": due, "claim": "", "claimed_until": None}
        if failed:
            changes["attempts"] = F("attempts") + 1
        Notice.objects.filter(id__in=ids, claim=token, done__isnull=True).update(**changes)


# --- look again ------------------------------------------------------------------------------


def _quiet_until(row: AlertSettings, now: datetime) -> datetime | None:
    """The end of the person's quiet hours if `now` is inside them (they may span midnight)."""
    start, end = row.quiet_from, row.quiet_until
    if start is None or end is None or start == end:
        return None
    tz = alerts.zone(row.time_zone)
    local = now.astimezone(tz)
    clock = local.time().replace(tzinfo=None)
    inside = start <= clock < end if start < end else (clock >= start or clock < end)
    if not inside:
        return None
    day = local.date() if clock < end else local.date() + timedelta(days=1)
    return datetime.combine(day, end, tzinfo=tz).astimezone(UTC)


class Facts:
    """What a batch's notices are checked against, read for the whole batch in a few queries
    (not several per notice): the turns' games, whether anyone moved since, the seats, who has a
    socket open at those tables, the invitations and requests still unanswered."""

    OPEN = (Table.Status.LOBBY, Table.Status.PLAYING)

    def __init__(self, notices: list[Notice]) -> None:
        turns = [notice for notice in notices if notice.kind in TURN_KINDS]
        games = {notice.data.get("game") for notice in turns}
        self.games = {row["id"]: row for row in Game.objects.filter(id__in=games).values("id", "over", "table_id")}
        moves = Event.objects.filter(game_id__in=games, kind__in=("action", "timeout")).values("game_id")
        self.last_move = dict(moves.annotate(last=Max("version")).values_list("game_id", "last")) if games else {}
        ended = [notice for notice in notices if notice.kind == Notice.Kind.GAME_OVER]
        tables = {row["table_id"] for row in self.games.values()}
        seats = Q(table_id__in=tables)
        if ended:
            seats |= Q(table__code__in={n.table_code for n in ended}, user_id__in={n.user_id for n in ended})
        rows = list(
            Seat.objects.filter(seats).values("table_id", "table__code", "index", "user_id", "player_key", "away")
        )
        self.seats = {(row["table_id"], row["index"]): row for row in rows}
        self.seat_of = {(row["table__code"], row["user_id"]): row for row in rows}
        tables |= {row["table_id"] for row in rows}
        present = Presence.objects.filter(table_id__in=tables).values_list("table_id", "player_key")
        self.present = set(present) if tables else set()
        urgent = {notice.topic for notice in notices if notice.kind == Notice.Kind.URGENT_EMAIL}
        pushed = Notice.objects.filter(topic__in=urgent, outcome="pushed").values_list("user_id", "topic")
        self.pushed = set(pushed) if urgent else set()
        asked = {n.data.get("invitation") for n in notices if n.kind == Notice.Kind.INVITATION}
        waiting = Invitation.objects.filter(id__in=asked, answered__isnull=True, table__status__in=self.OPEN)
        self.invitations = set(waiting.values_list("id", flat=True)) if asked else set()
        asked = {n.data.get("friendship") for n in notices if n.kind == Notice.Kind.FRIEND_REQUEST}
        requested = Friendship.objects.filter(id__in=asked, status=Friendship.Status.REQUESTED)
        self.requests = set(requested.values_list("id", flat=True)) if asked else set()

    def turn_waits(self, notice: Notice) -> str | None:
        """Why a turn's notice is no longer worth sending (None: the turn still waits for them)."""
        data = notice.data
        game = self.games.get(data.get("game"))
        if game is None or game["over"] or self.last_move.get(game["id"], -1) > data.get("version", 0):
            return "moved on"
        seat = self.seats.get((game["table_id"], data.get("seat")))
        if seat is None or seat["user_id"] != notice.user_id or seat["away"]:
            return "moved on"
        if (game["table_id"], seat["player_key"]) in self.present:
            return "at the table"
        if notice.kind == Notice.Kind.URGENT_EMAIL and (notice.user_id, notice.topic) in self.pushed:
            return "pushed"
        return None

    def still_so(self, notice: Notice, now: datetime) -> str | None:
        """Why the notice is no longer worth sending, or None."""
        if notice.expires is not None and notice.expires <= now and notice.kind != Notice.Kind.TURN:
            return "expired"
        if notice.kind in TURN_KINDS:
            return self.turn_waits(notice)
        if notice.kind == Notice.Kind.INVITATION and notice.data.get("invitation") not in self.invitations:
            return "answered"
        if notice.kind == Notice.Kind.FRIEND_REQUEST and notice.data.get("friendship") not in self.requests:
            return "answered"
        if notice.kind == Notice.Kind.GAME_OVER:
            seat = self.seat_of.get((notice.table_code, notice.user_id))
            if seat is not None and (seat["table_id"], seat["player_key"]) in self.present:
                return "at the table"
        return None


# --- what it says ----------------------------------------------------------------------------


def _game_name(kind: str) -> str:
    found = registry.KINDS.get(kind)
    return str(found.label) if found is not None else "SEVN"


def _left(data: dict, now: datetime) -> str:
    """The time left for the move in words, as the table page says it ("2 hours 5 minutes": no
    comma, which French and German do not put there); "" without a clock or with less than a
    minute left (a live table's clock, which the table itself shows)."""
    deadline = data.get("deadline")
    if not deadline or datetime.fromisoformat(deadline) - now < timedelta(minutes=1):
        return ""
    return duration((datetime.fromisoformat(deadline) - now).total_seconds())


def _words(notice: Notice, now: datetime, badge: int | None) -> dict:
    """The push's payload in the active language: what the device's service worker shows."""
    code, data = notice.table_code, notice.data
    game = _game_name(data.get("kind", ""))
    left = _left(data, now)
    if notice.kind == Notice.Kind.TURN:
        title = _("Your move")
        body = (
            _("%(game)s at table %(code)s: it is your move (%(left)s left).")
            % {"game": game, "code": code, "left": left}
            if left
            else _("%(game)s at table %(code)s: it is your move.") % {"game": game, "code": code}
        )
    elif notice.kind == Notice.Kind.REMINDER:
        title = _("Time is running out")
        body = _("%(game)s at table %(code)s: %(left)s left for your move.") % {
            "game": game,
            "code": code,
            "left": left,
        }
    elif notice.kind == Notice.Kind.INVITATION:
        title = _("Invitation")
        body = _("%(name)s invites you to play %(game)s at table %(code)s.") % {
            "name": data.get("from", ""),
            "game": game,
            "code": code,
        }
    elif notice.kind == Notice.Kind.FRIEND_REQUEST:
        title = _("Friend request")
        body = _("%(name)s would like to be your friend.") % {"name": data.get("from", "")}
    else:
        title = _("Game over")
        body = _("Your game of %(game)s at table %(code)s is over.") % {"game": game, "code": code}
    if notice.kind == Notice.Kind.FRIEND_REQUEST:
        url = reverse("friends")
    elif notice.kind == Notice.Kind.INVITATION:
        url = reverse("invitations")
    else:
        url = reverse("table", args=[code])
    payload = {"title": title, "body": body, "tag": code or f"friend-{data.get('from', '')}", "url": url}
    payload["kind"], payload["id"] = notice.kind, notice.key
    if badge is not None:
        payload["badge"] = badge
    return payload


def _mail(notice: Notice, row: AlertSettings, now: datetime) -> EmailMessage | None:
    """The daily e-mail or the e-mail when time is short, in the active language; None when
    the daily e-mail would list nothing."""
    user = notice.user
    site = settings.SEVN_SITE_URL
    context = {
        "name": user.get_username(),
        "site": site,
        "settings_url": site + reverse("account_notification_settings"),
    }
    headers = {}
    if notice.kind == Notice.Kind.DIGEST:
        waiting = alerts.your_move(user.pk)
        if not waiting:
            return None
        context["tables"] = [
            {
                "code": entry["code"],
                "game": _game_name(entry["kind"]),
                "left": duration((entry["deadline"] - now).total_seconds()) if entry["deadline"] else "",
                "url": f"{site}/t/{entry['code']}/",
            }
            for entry in waiting
        ]
        unsubscribe = site + reverse("alerts_unsubscribe", args=[alerts.unsubscribe_token(user.pk)])
        context["unsubscribe_url"] = unsubscribe
        subject = ngettext(
            "SEVN: %(count)d table waits for your move",
            "SEVN: %(count)d tables wait for your move",
            len(waiting),
        ) % {"count": len(waiting)}
        body = render_to_string("alerts/email/digest.txt", context)
        headers = {"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    else:
        context.update(
            code=notice.table_code,
            game=_game_name(notice.data.get("kind", "")),
            left=_left(notice.data, now),
            url=f"{site}/t/{notice.table_code}/",
        )
        subject = _("SEVN: your move at table %(code)s, %(left)s left") % {
            "code": notice.table_code,
            "left": context["left"],
        }
        body = render_to_string("alerts/email/time_short.txt", context)
    return EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email], headers=headers)


# --- take, deliver, settle -------------------------------------------------------------------


class Taken(NamedTuple):
    token: str
    jobs: list[Job]
    claimed: int  # notices claimed (some closed or put off at once)


def take(now: datetime | None = None, token: str | None = None, limit: int = BATCH) -> Taken:
    """Claim what is due and make it ready to send (the database's part); what is not worth
    sending is marked done here, and what falls in someone's quiet hours waits for their end."""
    now = now or timezone.now()
    token = token or new_token()
    alerts.schedule_digests(now)
    ids = claim(now, token, limit)
    if not ids:
        return Taken(token, [], 0)
    notices = list(Notice.objects.filter(id__in=ids).select_related("user").order_by("due", "id"))
    users = {notice.user_id for notice in notices}
    rows = {row.user_id: row for row in AlertSettings.objects.filter(user_id__in=users)}
    devices: dict[int, list[webpush.Target]] = {}
    for sub in PushSubscription.objects.filter(user_id__in=users).order_by("id"):
        devices.setdefault(sub.user_id, []).append(webpush.Target(sub.id, sub.endpoint, sub.p256dh, sub.auth))
    closed: dict[str, list[int]] = {}
    badges: dict[int, int] = {}
    facts = Facts(notices)
    jobs: list[Job] = []
    pushing = set()  # (person, turn) pushed in this batch: its e-mail waits to hear whether that arrived
    for notice in notices:
        row = rows.get(notice.user_id) or AlertSettings(user_id=notice.user_id)
        if notice.kind == Notice.Kind.URGENT_EMAIL and (notice.user_id, notice.topic) in pushing:
            _later([notice.id], token, now + timedelta(seconds=CLAIM_SECONDS), failed=False)
            continue
        job, outcome = _job(notice, row, devices.get(notice.user_id, []), facts, badges, now, token)
        if job is not None:
            jobs.append(job)
            if isinstance(job, Push) and notice.topic:
                pushing.add((notice.user_id, notice.topic))
        elif outcome:
            closed.setdefault(outcome, []).append(notice.id)
    for outcome, closing in closed.items():
        _close(closing, token, outcome, now)
    return Taken(token, jobs, len(ids))


def _job(notice, row, targets, facts: Facts, badges, now, token) -> tuple[Job | None, str]:
    """One notice's job, or why it is not sent ("" when it was put off to later)."""
    if not notice.user.is_active:
        return None, "inactive"
    why = facts.still_so(notice, now)
    if why:
        return None, why
    with translation.override(row.language or settings.LANGUAGE_CODE):
        if notice.kind in (Notice.Kind.DIGEST, Notice.Kind.URGENT_EMAIL):
            wanted = row.email_digest if notice.kind == Notice.Kind.DIGEST else row.email_urgent
            if not wanted:
                return None, "off"
            if not notice.user.email:
                return None, "no address"
            message = _mail(notice, row, now)
            return (Mail(notice.id, message), "") if message is not None else (None, "nothing")
        if not getattr(row, alerts.PUSH_KINDS[notice.kind]):
            return None, "off"
        if not targets:
            return None, "no device"
        quiet = _quiet_until(row, now)
        if quiet is not None:
            _later([notice.id], token, quiet, failed=False)
            return None, ""
        badge = None
        if notice.kind == Notice.Kind.TURN:
            if notice.user_id not in badges:
                badges[notice.user_id] = len(alerts.your_move(notice.user_id))
            badge = badges[notice.user_id]
        payload = json.dumps(_words(notice, now, badge)).encode()
    urgency = "high" if notice.kind in TURN_KINDS else "normal"
    return Push(notice.id, tuple(targets), payload, TTL[notice.kind], notice.table_code, urgency), ""


_pool: list[ThreadPoolExecutor] = []


def _threads() -> ThreadPoolExecutor:
    if not _pool:
        _pool.append(ThreadPoolExecutor(max(1, settings.SEVN_PUSH_THREADS), thread_name_prefix="sevn-push"))
    return _pool[0]


def _push(job: Push, target: webpush.Target) -> webpush.Result:
    try:
        return webpush.send(target, job.payload, ttl=job.ttl, topic=job.topic, urgency=job.urgency)
    except Exception:  # a malformed key, a refused encryption: that device, not the batch
        logger.warning("push to subscription %s failed", target.id, exc_info=True)
        return webpush.Result(target, 0)


def deliver(jobs: list[Job]) -> list[Sent]:
    """Send (the network's part, no database): pushes on the outbox's threads, e-mails through
    Django's e-mail backend on one connection."""
    pushes = [(job, target) for job in jobs if isinstance(job, Push) for target in job.targets]
    answers = list(_threads().map(lambda pair: _push(*pair), pushes))
    by_job: dict[int, list[webpush.Result]] = {}
    for (job, _target), answer in zip(pushes, answers, strict=True):
        by_job.setdefault(job.notice, []).append(answer)
    sent = [Sent(job, tuple(by_job.get(job.notice, ()))) for job in jobs if isinstance(job, Push)]
    mails = [job for job in jobs if isinstance(job, Mail)]
    if mails:
        try:
            mail_connection = get_connection()
            mail_connection.open()
        except Exception:
            logger.warning("the mail server cannot be reached", exc_info=True)
            return sent + [Sent(job, mailed=False) for job in mails]
        try:
            for job in mails:
                try:
                    job.message.connection = mail_connection
                    mailed = job.message.send() == 1
                except Exception:
                    logger.warning("an e-mail of notice %s failed", job.notice, exc_info=True)
                    mailed = False
                sent.append(Sent(job, mailed=mailed))
        finally:
            mail_connection.close()
    return sent


def _retry_at(attempts: int, now: datetime) -> datetime:
    return now + timedelta(minutes=2**attempts)


def settle(token: str, sent: list[Sent], now: datetime | None = None) -> dict[str, int]:
    """Mark what was sent done, remove the devices their push service says are gone, and put
    off what failed (RETRIES times at most)."""
    now = now or timezone.now()
    counts: dict[str, int] = {}
    gone: list[int] = []
    reached: list[int] = []
    done: dict[str, list[int]] = {}
    failed: list[int] = []
    for entry in sent:
        if isinstance(entry.job, Mail):
            (done.setdefault("mailed", []) if entry.mailed else failed).append(entry.job.notice)
            continue
        gone += [result.target.id for result in entry.results if result.gone]
        delivered = [result.target.id for result in entry.results if result.delivered]
        reached += delivered
        if delivered:
            done.setdefault("pushed", []).append(entry.job.notice)
        elif all(result.gone for result in entry.results):
            done.setdefault("no device", []).append(entry.job.notice)
        else:
            failed.append(entry.job.notice)
    with transaction.atomic():
        for outcome, ids in done.items():
            _close(ids, token, outcome, now)
            counts[outcome] = len(ids)
        if reached:
            PushSubscription.objects.filter(id__in=reached).update(last_pushed=now)
        if gone:
            PushSubscription.objects.filter(id__in=gone).delete()
        for notice in Notice.objects.filter(id__in=failed, claim=token).only("id", "attempts"):
            if notice.attempts + 1 >= RETRIES:
                _close([notice.id], token, "failed", now)
            else:
                _later([notice.id], token, _retry_at(notice.attempts, now), failed=True)
        counts["failed"] = len(failed)
        counts["gone"] = len(gone)
    return counts


def forget_old(now: datetime | None = None) -> int:
    """Done notices are kept a while (what was sent, and why not), then deleted."""
    now = now or timezone.now()
    return Notice.objects.filter(done__lt=now - KEPT).delete()[0]


def run_once(now: datetime | None = None, limit: int = BATCH) -> dict[str, int]:
    """Everything due now, in this thread: claim, send, settle, until nothing is due."""
    totals: dict[str, int] = {}
    while True:
        taken = take(now, limit=limit)
        if taken.jobs:
            for outcome, count in settle(taken.token, deliver(taken.jobs), now).items():
                totals[outcome] = totals.get(outcome, 0) + count
        if taken.claimed < limit:
            return totals
