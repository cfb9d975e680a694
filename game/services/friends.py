"""Friends: a request sent by name (or from a seat at a table), accepted, declined, withdrawn;
a friendship removed; a person blocked. A friendship is two rows (one each way, so each side's
list is one query); a request and a block are one row from the person who made it.

A block holds one way: the blocked person can no longer ask, invite or see the other online
(and any friendship between them ends). It is never shown to them: a request they sent, or
send later, stays theirs to see as unanswered, exactly like any request nobody answered, and
the person who blocked them never sees it (until they unblock).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from game.core.errors import ServiceError
from game.delivery import announce
from game.models import Friendship
from game.runtime.limits import over_limit
from game.services import alerts

Status = Friendship.Status


def _person(name: str):
    found = get_user_model().objects.filter(username__iexact=str(name or "").strip(), is_active=True).first()
    if found is None:
        raise ServiceError("no_person", _("There is nobody with that name."))
    return found


def blocks(blocker_id: int, blocked_id: int) -> bool:
    return Friendship.objects.filter(from_user_id=blocker_id, to_user_id=blocked_id, status=Status.BLOCKED).exists()


def _between(a: int, b: int):
    return Friendship.objects.filter(Q(from_user_id=a, to_user_id=b) | Q(from_user_id=b, to_user_id=a))


@transaction.atomic
def friend_request(*, user, name: str) -> str:
    """Ask someone to be friends (or accept at once if they asked first). Returns "sent" or
    "friends". Refused: oneself, a stranger's name, past the hourly allowance. A new request is
    a toast on every page they have open (game.live.people). To a person who blocked you it is
    sent as any request is, and stays unanswered: they never see it."""
    other = _person(name)
    if other.pk == user.pk:
        raise ServiceError("self", _("You cannot be your own friend."))
    if over_limit("friend_request", str(user.pk), settings.SEVN_FRIEND_REQUESTS_PER_HOUR, 3600):
        raise ServiceError("too_many", _("Too many friend requests: try again later."))
    if blocks(user.pk, other.pk):
        raise ServiceError("you_block", _("You blocked this person: unblock them first."))
    mine = Friendship.objects.filter(from_user=user, to_user=other).first()
    if mine is not None and mine.status == Status.FRIENDS:
        return "friends"
    theirs = Friendship.objects.filter(from_user=other, to_user=user, status=Status.REQUESTED).first()
    if theirs is not None:
        _make_friends(user.pk, other.pk)
        return "friends"
    request, made = Friendship.objects.get_or_create(
        from_user=user, to_user=other, defaults={"status": Status.REQUESTED}
    )
    if made and not blocks(other.pk, user.pk):  # a toast on every page they have open, a push to their devices
        announce.person(
            other.pk, {"type": "friend_request", "request": {"user_id": user.pk, "name": user.get_username()}}
        )
        alerts.friend_requested(request)
    return "sent"


def _make_friends(a: int, b: int) -> None:
    _between(a, b).delete()
    Friendship.objects.bulk_create(
        [
            Friendship(from_user_id=a, to_user_id=b, status=Status.FRIENDS),
            Friendship(from_user_id=b, to_user_id=a, status=Status.FRIENDS),
        ]
    )


@transaction.atomic
def friend_accept(*, user, from_id: int) -> None:
    asked = Friendship.objects.filter(from_user_id=from_id, to_user=user, status=Status.REQUESTED).exists()
    if not asked or blocks(user.pk, from_id):  # a blocked person's request is not shown to accept
        raise ServiceError("no_request", _("That request is no longer there."))
    _make_friends(user.pk, from_id)


@transaction.atomic
def friend_decline(*, user, from_id: int) -> None:
    """Decline a request made to you, or withdraw one you made (from_id: the other person)."""
    Friendship.objects.filter(status=Status.REQUESTED).filter(
        Q(from_user_id=from_id, to_user=user) | Q(from_user=user, to_user_id=from_id)
    ).delete()


@transaction.atomic
def friend_remove(*, user, other_id: int) -> None:
    _between(user.pk, other_id).filter(status=Status.FRIENDS).delete()


@transaction.atomic
def friend_block(*, user, other_id: int) -> None:
    """Block someone: a friendship and your request to them end, and they can neither ask,
    invite nor see you. Their own request to you stays, unanswered, as they see it (a block is
    never shown to them), and out of your sight."""
    if other_id == user.pk:
        raise ServiceError("self", _("You cannot block yourself."))
    if not get_user_model().objects.filter(pk=other_id).exists():  # a stale or made-up form
        raise ServiceError("no_person", _("There is nobody with that name."))
    theirs = (Status.BLOCKED, Status.REQUESTED)
    _between(user.pk, other_id).exclude(from_user_id=other_id, status__in=theirs).delete()
    Friendship.objects.create(from_user=user, to_user_id=other_id, status=Status.BLOCKED)


@transaction.atomic
def friend_unblock(*, user, other_id: int) -> None:
    Friendship.objects.filter(from_user=user, to_user_id=other_id, status=Status.BLOCKED).delete()
