"""Invitations to a table: from a person at the table to a friend, shown live on every page the
friend has open (game.live.people) and kept in their inbox until answered or the table ends
(an invitation goes with its table). "Play again with the same people": a new table like the
last one, every other person with an account there invited.

Each writer announces the invitations it made to the invited people's pages once it commits
(game.delivery.announce), and returns them: (user id, invitation) pairs.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from game import registry
from game.core.errors import ServiceError
from game.core.identity import Player
from game.delivery import announce
from game.models import Friendship, Invitation, Seat, Table
from game.runtime.limits import over_limit
from game.services.lobby import table_create

OPEN = (Table.Status.LOBBY, Table.Status.PLAYING)
Sent = list[tuple[int, dict]]


def invitation_dict(invitation: Invitation) -> dict:
    """What the invited person's pages show: who, which table, which game (no key, no secret)."""
    table = invitation.table
    return {
        "id": invitation.id,
        "code": table.code,
        "kind": table.kind,
        "from": invitation.from_user.get_username(),
        "status": table.status,
    }


def _at_table(table: Table, player: Player) -> bool:
    return table.host_key == player.key or Seat.objects.filter(table=table, player_key=player.key).exists()


def _friends(user_id: int, other_id: int) -> bool:
    return Friendship.objects.filter(
        from_user_id=other_id, to_user_id=user_id, status=Friendship.Status.FRIENDS
    ).exists()


def _invite(table: Table, user, friend_id: int) -> Invitation:
    invitation, made = Invitation.objects.get_or_create(table=table, to_user_id=friend_id, defaults={"from_user": user})
    if not made:  # asked again: it comes back to the top of the inbox, unanswered
        invitation.from_user, invitation.created, invitation.answered = user, timezone.now(), None
        invitation.save(update_fields=["from_user", "created", "answered"])
    return invitation


@transaction.atomic
def invitation_send(*, user, player: Player, code: str, friend_id: int) -> Sent:
    """Invite a friend to this table (the inviter sits at it or hosts it). Nobody else may be
    invited: a stranger, or a person who blocked you (a block ends the friendship)."""
    table = Table.objects.filter(code=str(code).upper(), status__in=OPEN).first()
    if table is None:
        raise ServiceError("unknown_table", _("There is no table with that code."))
    if not _at_table(table, player):
        raise ServiceError("not_seated", _("Only the people at a table can invite to it."))
    if not _friends(user.pk, friend_id):
        raise ServiceError("not_friends", _("You can only invite your friends."))
    if over_limit("invitation", str(user.pk), settings.SEVN_INVITATIONS_PER_HOUR, 3600):
        raise ServiceError("too_many", _("Too many invitations: try again later."))
    invitation = _invite(table, user, friend_id)
    sent = [(friend_id, invitation_dict(invitation))]
    announce.invitations(sent)
    return sent


@transaction.atomic
def invitation_answer(*, user, invitation_id: int) -> str:
    """The invited person opens an invitation: it leaves their inbox; returns the table's code."""
    invitation = Invitation.objects.select_related("table").filter(id=invitation_id, to_user=user).first()
    if invitation is None or invitation.table.status not in OPEN:
        raise ServiceError("expired", _("That invitation has expired: its table is over."))
    invitation.answered = timezone.now()
    invitation.save(update_fields=["answered"])
    return invitation.table.code


@transaction.atomic
def invitation_decline(*, user, invitation_id: int) -> None:
    Invitation.objects.filter(id=invitation_id, to_user=user).update(answered=timezone.now())


def _invitation_allowed(user) -> bool:
    """Count one invitation against the sender's hourly allowance; False once it is spent."""
    return not over_limit("invitation", str(user.pk), settings.SEVN_INVITATIONS_PER_HOUR, 3600)


def table_again(*, user, player: Player, code: str, address: str | None = None) -> tuple[Table, Sent, int]:
    """Play again with the same people: a new table with the last one's settings, its asker the
    host. The others with an account seated at the last one are invited as any invitation is:
    friends only (a block ends a friendship), each counted against the asker's hourly allowance,
    and the new table against their allowance of tables (game.runtime.limits). Sitting at a table
    with someone is no leave to send them toasts: "Play again" sent one person 40 invitations
    in 3 s from someone who was not their friend. Returns the table, the invitations sent, and
    how many of the others were not invited (not friends)."""
    old = Table.objects.filter(code=str(code).upper()).first()
    if old is None or not _at_table(old, player):
        raise ServiceError("not_seated", _("Only the people at a table can invite to it."))
    others = list(
        Seat.objects.filter(table=old, user__isnull=False).exclude(user_id=user.pk).values_list("user_id", flat=True)
    )
    friends = [other for other in others if _friends(user.pk, other)]
    if not all([_invitation_allowed(user) for _friend in friends]):
        raise ServiceError("too_many", _("Too many invitations: try again later."))
    with transaction.atomic():
        table = table_create(
            player=player,
            nickname=player.username,
            seat_count=old.seat_count,
            options=old.options if old.kind in registry.KINDS else {},
            turn_seconds=old.turn_seconds,
            kind=old.kind if old.kind in registry.KINDS else registry.DEFAULT,
            address=address,
        )
        Table.objects.filter(id=table.id).update(
            bot_delay_ms=old.bot_delay_ms,
            spectator_chat=old.spectator_chat,
            members_only=old.members_only,
            rated=old.rated,
        )
        sent = [(friend, invitation_dict(_invite(table, user, friend))) for friend in friends]
        announce.invitations(sent)
    return table, sent, len(others) - len(friends)
