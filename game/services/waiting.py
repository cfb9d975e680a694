"""What waits for a person: friend requests made to them and invitations to open tables they
have not answered. Every page shows how many in its header (a badge), and each one the person
has not been shown yet once, as a notice on the next page they open (game.pages.waiting); an
invitation shown live as a toast (game.live.people), or on the person's inbox or friends page,
counts as shown. "Shown" is kept per item (its `noticed`), so a notice comes once, on one page,
whichever device asks first."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.utils import timezone

from game import registry
from game.models import Friendship, Invitation, Table

OPEN = (Table.Status.LOBBY, Table.Status.PLAYING)


def _friend_requests(user_id: int):
    """Requests made to the person by active accounts, less those from people they blocked (a
    blocked person's request is never theirs to see: services.friends)."""
    blocked = Friendship.objects.filter(
        from_user_id=user_id, to_user_id=OuterRef("from_user_id"), status=Friendship.Status.BLOCKED
    )
    return Friendship.objects.filter(
        to_user_id=user_id, status=Friendship.Status.REQUESTED, from_user__is_active=True
    ).exclude(Exists(blocked))


def _invitations(user_id: int):
    return Invitation.objects.filter(
        to_user_id=user_id, answered__isnull=True, table__status__in=OPEN, from_user__is_active=True
    )


def waiting_counts(user_id: int) -> dict[str, int]:
    """How many friend requests and invitations wait for the person's answer, and both."""
    counts = {"friend_requests": _friend_requests(user_id).count(), "invitations": _invitations(user_id).count()}
    return {**counts, "total": counts["friend_requests"] + counts["invitations"]}


def take_notices(user_id: int, *, skip_friend_requests: bool = False, skip_invitations: bool = False) -> list[dict]:
    """The waiting items the person has not been shown, oldest first, each marked shown as it is
    taken (so it is one page's notice, even when two pages ask at once). A page that lists one
    kind itself (the friends page, the inbox) takes that kind as shown and gets no notice of it."""
    now = timezone.now()
    notices: list[dict] = []
    requests = _friend_requests(user_id).filter(noticed__isnull=True).select_related("from_user").order_by("created")
    for row in requests[:20]:
        if Friendship.objects.filter(id=row.id, noticed__isnull=True).update(noticed=now) and not skip_friend_requests:
            notices.append(
                {"kind": "friend_request", "user_id": row.from_user_id, "name": row.from_user.get_username()}
            )
    invitations = (
        _invitations(user_id).filter(noticed__isnull=True).select_related("table", "from_user").order_by("created")
    )
    for row in invitations[:20]:
        if Invitation.objects.filter(id=row.id, noticed__isnull=True).update(noticed=now) and not skip_invitations:
            notices.append(
                {
                    "kind": "invitation",
                    "id": row.id,
                    "code": row.table.code,
                    "game": registry.of(row.table).label,
                    "from": row.from_user.get_username(),
                }
            )
    return notices


def invitation_shown(*, user_id: int, invitation_id: int) -> dict[str, int]:
    """An invitation reached one of the person's open pages as a toast: it is shown (no notice
    of it later). Returns what waits now, for the header's badges."""
    Invitation.objects.filter(id=invitation_id, to_user_id=user_id, noticed__isnull=True).update(noticed=timezone.now())
    return waiting_counts(user_id)


def friend_request_shown(*, user_id: int, from_id: int) -> dict[str, int]:
    """A friend request reached one of the person's open pages as a toast: it is shown. Returns
    what waits now, for the header's badges."""
    Friendship.objects.filter(
        from_user_id=from_id, to_user_id=user_id, status=Friendship.Status.REQUESTED, noticed__isnull=True
    ).update(noticed=timezone.now())
    return waiting_counts(user_id)
