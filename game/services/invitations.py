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
from game.core import pace as paces
from game.core.errors import ServiceError
from game.core.identity import Player
from game.delivery import announce
from game.models import Friendship, Invitation, Seat, Table
from game.runtime.limits import over_limit
from game.services import alerts
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
        "to": invitation.to_user.get_username(),
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
    if not made:  # asked again: it comes back to the top of the inbox, unanswered, to be shown again
        invitation.from_user, invitation.created, invitation.answered = user, timezone.now(), None
        invitation.noticed = None
        invitation.save(update_fields=["from_user", "created", "answered", "noticed"])
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
    alerts.invitation_sent(invitation)
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


def _seat_as_before(table: Table, old: Table, player: Player) -> None:
    """The new table's seats as the last one's were: its asker (the host, seated first by
    table_create) in their own seat, and each computer player at its seat, level and name."""
    before = list(Seat.objects.filter(table=old).order_by("index"))
    mine = next((seat.index for seat in before if seat.player_key == player.key), 0)
    host_index = mine if mine < table.seat_count else 0
    if host_index:
        Seat.objects.filter(table=table, player_key=player.key).update(index=host_index)
    Seat.objects.bulk_create(
        Seat(table=table, index=seat.index, nickname=seat.nickname, bot_level=seat.bot_level)
        for seat in before
        if seat.bot_level and seat.index != host_index and seat.index < table.seat_count
    )


def table_again(*, user, player: Player, code: str, address: str | None = None) -> tuple[Table, Sent, int]:
    """Play again with the same people, once a game at the table is over: a new table with the
    last one's settings (game, its options, seats, turn clock, bots' pace, who may sit and chat,
    rated or not), its asker the host in their own seat, and its computer players back at
    theirs, same level and name. The others with an account seated at the last one are invited
    as any invitation is: friends only (a block ends a friendship), each counted against the
    asker's hourly allowance, and the new table against their allowance of tables
    (game.runtime.limits). Sitting at a table with someone is no leave to send them toasts:
    "Play again" sent one person 40 invitations in 3 s from someone who was not their friend.
    A guest (`user` None) may play again too: nobody is invited, the others get the link.
    Returns the table, the invitations sent, and how many of the other people were not invited."""
    old = Table.objects.filter(code=str(code).upper()).first()
    if old is None or not _at_table(old, player):
        raise ServiceError("not_seated", _("Only the people at a table can invite to it."))
    if old.status != Table.Status.FINISHED:
        raise ServiceError("not_over", _("You can play again once the game is over."))
    people = Seat.objects.filter(table=old, bot_level="").exclude(player_key=player.key)
    others = [other for other in people.values_list("user_id", flat=True) if user is None or other != user.pk]
    friends = [other for other in others if other is not None and user is not None and _friends(user.pk, other)]
    if not all([_invitation_allowed(user) for _friend in friends]):
        raise ServiceError("too_many", _("Too many invitations: try again later."))
    with transaction.atomic():
        table = table_create(
            player=player,
            nickname=_nickname_at(old, player),
            seat_count=old.seat_count,
            options=old.options if old.kind in registry.KINDS else {},
            turn_seconds=old.turn_seconds,
            kind=old.kind if old.kind in registry.KINDS else registry.DEFAULT,
            pace=paces.preset_key(old.pace, old.move_seconds, old.bank_increment, old.bank_most) or "live",
            window=(old.window_start, old.window_end) if old.window_start is not None else None,
            time_zone=old.time_zone,
            members_only=old.members_only,
            rated=old.rated,
            address=address,
        )
        Table.objects.filter(id=table.id).update(bot_delay_ms=old.bot_delay_ms, spectator_chat=old.spectator_chat)
        table.refresh_from_db()
        _seat_as_before(table, old, player)
        invited = [_invite(table, user, friend) for friend in friends]
        for invitation in invited:
            alerts.invitation_sent(invitation)
        sent = [(invitation.to_user_id, invitation_dict(invitation)) for invitation in invited]
        announce.invitations(sent)
    return table, sent, len(others) - len(friends)


def _nickname_at(table: Table, player: Player) -> str:
    """The name the asker had at the last table (its host's, if they only hosted it)."""
    seat = Seat.objects.filter(table=table, player_key=player.key).first()
    return seat.nickname if seat is not None else table.host_name
