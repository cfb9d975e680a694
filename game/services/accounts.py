"""Accounts: the player key a person plays under once signed in, and everything a guest had
moving to their account when they sign up or log in.

An account plays under one key on every device: the guest key it was made from (so the seats,
games and chat a guest has open are the account's at once, over the sockets already open), or
one made of its id when it was not made from a guest. A guest key that logs in to an account
made elsewhere hands its seats, hosted tables, chat lines and reports to the account's key;
its mutes and bans are the account's from then on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from game.core import names, staff_words
from game.core.errors import ServiceError
from game.core.identity import tag
from game.delivery import announce
from game.models import ChatMessage, GuestKey, ModAction, Presence, Profile, Report, Sanction, Seat, Table
from game.services import table_reads
from game.services.common import table_update
from game.services.staff import Person, log_action
from game.services.store import locked_table_and_game, seats_of

OPEN_TABLES = (Table.Status.LOBBY, Table.Status.PLAYING, Table.Status.FINISHED)


@dataclass(frozen=True)
class SignedIn:
    """What a log-in did: the account's player key, and what the tables whose seats changed key
    were told: the screens of the guest switch to the account, every screen redraws the seats."""

    key: str
    sent: list[tuple[str, dict]]


def refuse_lookalike_username(name: str, user_id: int | None = None) -> None:
    """Refuse a username that looks like another account's (the same letters, or look-alikes
    of them from other scripts: a Cyrillic "а" or a Greek "ο" beside Latin ones), folded as
    nicknames are (game.core.names.skeleton). `user_id`: the account being renamed (its own
    name is no rival). Every username is read: a look-alike differs in the very letters an
    index would look up by, and sign-ups and renames are rare."""
    folded = names.skeleton(name)
    others = get_user_model().objects.exclude(pk=user_id).values_list("username", flat=True)
    if any(names.skeleton(other) == folded for other in others.iterator()):
        raise ServiceError(
            "name_lookalike", _("That username looks like someone else's: choose one that cannot be mistaken for it.")
        )


def _profile(user, guest_key: str | None) -> Profile:
    profile = Profile.objects.filter(user=user).first()
    if profile is not None:
        return profile
    key = guest_key if guest_key and not GuestKey.objects.filter(key=guest_key).exists() else f"user:{user.pk}"
    try:
        with transaction.atomic():
            return Profile.objects.create(user=user, player_key=key)
    except IntegrityError:  # the key is someone's already (a second log-in raced this one)
        return Profile.objects.get(user=user)


def _move(old: str, new: str, user) -> list[str]:
    """Everything of the key `old` becomes the key `new`'s (the account's), table by table; a seat
    at a table where the account already sits stays as it was (one person, one seat)."""
    for table_id in sorted(set(Seat.objects.filter(player_key=old).values_list("table_id", flat=True))):
        locked_table_and_game(table_id=table_id)  # as every writer of a table does: no move reads half a change
    taken = Seat.objects.filter(player_key=new).values("table_id")
    seats = Seat.objects.filter(player_key=old).exclude(table_id__in=taken)
    codes = sorted(set(seats.values_list("table__code", flat=True)))
    seats.update(player_key=new, user=user)
    Table.objects.filter(host_key=old).update(host_key=new)
    Presence.objects.filter(player_key=old).update(player_key=new)
    ChatMessage.objects.filter(author_key=old).update(author_key=new, author_user=user)
    Report.objects.filter(reporter_key=old).update(reporter_key=new)
    Report.objects.filter(reported_key=old).update(reported_key=new, reported_user=user)
    return codes


@transaction.atomic
def account_signed_in(*, user, guest_key: str | None, session_key: str | None = None) -> SignedIn:
    """A person logged in (or signed up and was logged in) in a session that may hold a guest
    key: the account's key, with the guest's seats, tables, chat and sanctions made the account's.
    `session_key`: the session's key from now on (a log-in changes it), which the guest's open
    table sockets keep, so that a log-out in this browser ends them (account_signed_out)."""
    profile = _profile(user, guest_key)
    key = profile.player_key
    moved: list[str] = []
    for old in {guest_key, f"user:{user.pk}"} - {key, None, ""}:
        if old.startswith("guest:"):
            GuestKey.objects.get_or_create(key=old, defaults={"user": user})
        moved += _move(old, key, user)
    signed_up = False  # the guest key became the account's just now: its screens are told the account
    if guest_key == key:
        signed_up = GuestKey.objects.get_or_create(key=key, defaults={"user": user})[1]
    Seat.objects.filter(player_key=key, user__isnull=True).update(user=user)
    ChatMessage.objects.filter(author_key=key, author_user__isnull=True).update(author_user=user)
    Report.objects.filter(reported_key=key, reported_user__isnull=True).update(reported_user=user)  # as a guest
    linked = [key, *GuestKey.objects.filter(user=user).values_list("key", flat=True)]
    Sanction.objects.filter(player_key__in=linked, user__isnull=True).update(user=user)
    sent: list[tuple[str, dict]] = []
    body = {"to": [tag(old) for old in {guest_key, f"user:{user.pk}"} if old], "user_id": user.pk}
    if session_key:
        body["session"] = tag(session_key)
    for table in Table.objects.filter(code__in=set(moved)):
        sent.append((table.code, {"chat": "account", "body": body}))
        sent.append((table.code, table_update(table, seats_of(table), table_reads.current_game(table))))
    if signed_up:  # the same key, its seats stay: its open screens go on as the account
        here = Seat.objects.filter(player_key=key, table__status__in=OPEN_TABLES).exclude(table__code__in=moved)
        for code in sorted(set(here.values_list("table__code", flat=True))):
            sent.append((code, {"chat": "account", "body": body}))
    announce.tables(sent)  # once the log-in commits: the guest's open screens go on as the account's
    return SignedIn(key=key, sent=sent)


def account_signed_out(*, player_key: str | None, session_key: str | None) -> list[str]:
    """A person logged out in one browser: that browser's table sockets (of this session, not
    another device's) stop acting as them and say so, with Reload (game.live.consumers); the
    seat stays the account's, away as after any leaving. Writes nothing. Returns the tables told."""
    if not player_key or not session_key:
        return []
    seated = Seat.objects.filter(player_key=player_key, table__status__in=OPEN_TABLES)
    codes = sorted(set(seated.values_list("table__code", flat=True)))
    announce.tables([(code, {"chat": "signed_out", "body": {"session": tag(session_key)}}) for code in codes])
    return codes


def profile_update(*, user, private: bool, hide_online: bool) -> Profile:
    """What others may see of a person: their games and results (private: only they, and their
    friends), and whether friends see them online."""
    profile = _profile(user, None)
    profile.private, profile.hide_online = bool(private), bool(hide_online)
    profile.save(update_fields=["private", "hide_online"])
    return profile


def sign_in_of(user) -> dict:
    """How an account signs in, for its settings page: its e-mail addresses, whether it has a
    password, its passkeys, and two-factor (the authenticator app) with its recovery codes left."""
    from allauth.account.models import EmailAddress
    from allauth.mfa.models import Authenticator

    kinds = Authenticator.Type
    authenticators = list(Authenticator.objects.filter(user_id=user.pk).order_by("created_at", "id"))
    codes = next((a for a in authenticators if a.type == kinds.RECOVERY_CODES), None)
    left = total = 0
    if codes is not None:
        wrapped = codes.wrap()
        left, total = len(wrapped.get_unused_codes()), len(wrapped.generate_codes())
    return {
        "emails": list(EmailAddress.objects.filter(user_id=user.pk).order_by("-primary", "email")),
        "has_password": user.has_usable_password(),
        "passkeys": [a for a in authenticators if a.type == kinds.WEBAUTHN],
        "two_factor": any(a.type == kinds.TOTP for a in authenticators),
        "codes_left": left,
        "codes_total": total,
    }


def two_factor_off(*, user) -> int:
    """Two-factor turned off (its authenticator app removed): its recovery codes go too, as
    they belong to it, whatever passkeys the account keeps (a passkey is no second factor here:
    game.accounts.mfa_adapter). Returns how many sets of codes went (0 or 1)."""
    from allauth.mfa.models import Authenticator

    if Authenticator.objects.filter(user_id=user.pk, type=Authenticator.Type.TOTP).exists():
        return 0
    deleted, _kinds = Authenticator.objects.filter(user_id=user.pk, type=Authenticator.Type.RECOVERY_CODES).delete()
    return deleted


AWAY_LONGEST = timedelta(days=90)


def away_dates_set(*, user, start, end) -> Profile:
    """A person's away dates, set in advance (a holiday): turn-based turns that run out between
    them, both days included, do not count against them (services.reliability). Both or neither
    (neither: no away dates); at most AWAY_LONGEST apart."""
    if (start is None) != (end is None):
        raise ServiceError("away_half", _("Give both away dates, or neither."))
    if start is not None and end < start:
        raise ServiceError("away_order", _("The last away day cannot come before the first."))
    if start is not None and end - start > AWAY_LONGEST:
        raise ServiceError("away_long", _("Away dates may cover 90 days at most."))
    profile = _profile(user, None)
    profile.away_from, profile.away_until = start, end
    profile.save(update_fields=["away_from", "away_until"])
    return profile


SUSPENSION_DURATIONS = {
    "24h": timedelta(hours=24),
    "7d": timedelta(days=7),
    "30d": timedelta(days=30),
    "permanent": None,  # until staff reinstate it
}


@transaction.atomic
def account_suspend(*, by, user, reason: str, suspend: bool = True, duration: str = "permanent") -> Person:
    """Suspend an account (it can no longer log in, its sessions act as it nowhere, and its
    sockets close once this commits: game.delivery.broadcast.put_out), for a while or until
    reinstated, or reinstate it; one line of the moderators' log either way. Its person reads
    why and until when (game.pages.suspended). Returns whom it was about."""
    if duration not in SUSPENSION_DURATIONS:
        raise ServiceError("bad_duration", _("Choose a duration from the list."))
    why = " ".join(str(reason or "").split())[:300]
    user.is_active = not suspend
    user.save(update_fields=["is_active"])
    profile = _profile(user, None)
    length = SUSPENSION_DURATIONS[duration]
    profile.suspension_reason = why if suspend else ""
    profile.suspended_until = timezone.now() + length if suspend and length else None
    profile.save(update_fields=["suspension_reason", "suspended_until"])
    person = Person(profile.player_key, user.get_username()[:20], user.pk)
    log_action(
        by=by,
        action=ModAction.Action.SUSPEND if suspend else ModAction.Action.REINSTATE,
        person=person,
        detail=staff_words.store(staff_words.entry("account_suspended" if suspend else "account_reinstated")),
        reason=why,
    )
    if suspend:
        announce.out(tag(person.key), person.user_id, "suspended")
    return person


def end_sessions(user_id: int) -> int:
    """Log the account out everywhere: every session it signed in to ends (allauth.usersessions
    keeps which, from each log-in on), so each of its browsers is a stranger at its next request.
    A table ban does this once it is written; the browser's mark and the address still refuse
    tables to the guest who comes back (services.chat). Returns how many sessions ended."""
    from allauth.usersessions.models import UserSession

    sessions = list(UserSession.objects.filter(user_id=user_id))
    for session in sessions:
        session.end()
    return len(sessions)


def suspension_lapsed(user) -> bool:
    """A suspension for a while whose time is up ends as its person comes back (log-in): the
    account is active again, with a line in the moderators' log. False if it still holds."""
    profile = Profile.objects.filter(user=user).first()
    if user.is_active or profile is None or profile.suspended_until is None:
        return False
    if profile.suspended_until > timezone.now():
        return False
    account_suspend(by=None, user=user, reason="", suspend=False)
    return True


def suspension_of(user_id: object) -> dict | None:
    """What a suspended person reads: why, and until when (None: until staff reinstate it);
    None if that account is not suspended."""
    if type(user_id) is not int:
        return None
    profile = Profile.objects.select_related("user").filter(user_id=user_id, user__is_active=False).first()
    if profile is None:
        return None
    return {"reason": profile.suspension_reason, "until": profile.suspended_until, "name": profile.user.get_username()}
