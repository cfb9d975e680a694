"""Table chat: a line from a seated player (the table's channel) or a spectator (theirs), the
host's switch for spectators, and what a person's mutes and bans refuse.

Chat never takes the table's lock: a line is one insert beside the game, and a Draw waits for
nothing the chat does. A line and the host's switch are announced to the table's screens as
they commit (common.announced).
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.functional import lazy
from django.utils.timesince import timeuntil
from django.utils.translation import gettext_lazy as _

from game.core import names, phrases
from game.core.errors import ServiceError, later
from game.core.identity import Player, tag
from game.models import ChatMessage, Friendship, Profile, Sanction, Seat, Table
from game.runtime import limits
from game.services.common import _visible, announced, clean_nickname, locked_table, name_taken, require_host

CHAT_MAX = 200
CHAT_KEPT = 200  # lines a table keeps (reports copy theirs as evidence)
HISTORY = 60  # lines of each channel a screen opens with


def author_token(code: str, who: str) -> str:
    """Who wrote a line, as screens may know it: the same for one person at one table (so a
    viewer can mute them), telling nothing about their key. `who`: their tag (identity.tag),
    what snapshots know people by."""
    return salted_hmac("sevn.chat.author", f"{code}:{who}").hexdigest()[:16]


def clean_text(raw: object) -> str:
    """What was typed, as one line: control and invisible characters dropped, runs of white
    space made one space. Refused when nothing is left or it is too long."""
    words = ("".join(ch for ch in word if _visible(ch)) for word in names.cap_marks(str(raw or "")).split())
    text = " ".join(word for word in words if word)
    if not text:
        raise ServiceError("chat_blank", _("Write something first."))
    if len(text) > CHAT_MAX:
        raise ServiceError("chat_long", _("A chat message has at most 200 characters."))
    return text


def _left(until) -> object:
    return lazy(lambda: timeuntil(until), str)()


def sanction_message(kind: str, expires, reason: str):
    """What a muted or banned person reads, with the time left (in their language)."""
    if kind == Sanction.Kind.MUTE:
        if expires is None:
            return later(_("You are muted in chat. Reason: %(reason)s"), reason=reason)
        return later(
            _("You are muted in chat for %(left)s more. Reason: %(reason)s"), left=_left(expires), reason=reason
        )
    if expires is None:
        return later(_("You are banned from tables. Reason: %(reason)s"), reason=reason)
    return later(
        _("You are banned from tables for %(left)s more. Reason: %(reason)s"), left=_left(expires), reason=reason
    )


def person_filter(key: str, user_id: int | None) -> Q:
    """A guest's key, and for a signed-in user the account too."""
    return Q(player_key=key) | Q(user_id=user_id) if user_id else Q(player_key=key)


def _traced(in_force, player: Player) -> Q:
    """Bans of whoever used this browser or this address before (a banned person back as a new
    guest): those of the keys its mark names, and those recorded with its address (while they
    last: `in_force` holds only those). For guests only: behind a browser or an address may be
    a family or a whole school, and an account that is not banned is someone known (who can be
    banned in turn)."""
    found = Q(pk__in=[])
    traces = player.traces
    if player.is_user:
        return found
    if traces.address:
        found |= Q(address=traces.address)
    if traces.marks:
        keys = {key for key in in_force.values_list("player_key", flat=True).distinct() if tag(key) in traces.marks}
        if keys:
            found |= Q(player_key__in=keys)
    return found


def sanctions_in_force(
    player: Player, table_id: int | None = None, kinds: tuple[str, ...] = ("ban", "mute"), now=None
) -> dict[str, Sanction]:
    """The person's ban and mute in force now (`kinds`), each the longest: one for good (the
    latest given), else the last to run out. A mute counts everywhere or at this table; a ban
    holds for the browsers and, while it lasts, the address it was given from too. One query for
    both: a table socket asks as it opens (chat_refusal), and most people have neither."""
    now = now or timezone.now()
    in_force = Sanction.objects.filter(lifted__isnull=True).filter(Q(expires__isnull=True) | Q(expires__gt=now))
    who = person_filter(player.key, player.user_id)
    wanted = Q(pk__in=[])
    if Sanction.Kind.BAN in kinds:
        wanted |= Q(kind=Sanction.Kind.BAN) & (who | _traced(in_force.filter(kind=Sanction.Kind.BAN), player))
    if Sanction.Kind.MUTE in kinds:
        wanted |= Q(kind=Sanction.Kind.MUTE) & who & (Q(table__isnull=True) | Q(table_id=table_id))
    found: dict[str, Sanction] = {}
    for sanction in in_force.filter(wanted):
        kept = found.get(sanction.kind)
        if kept is None or _longer(sanction, kept):
            found[sanction.kind] = sanction
    return found


def _longer(one: Sanction, other: Sanction) -> bool:
    """Whether `one` outlasts `other` (for good beats any end; of two for good, the later given)."""
    if (one.expires is None) != (other.expires is None):
        return one.expires is None
    if one.expires is None:
        return one.created > other.created
    return one.expires > other.expires


def active_sanction(kind: str, player: Player, table_id: int | None = None, now=None) -> Sanction | None:
    """The person's mute (everywhere, or at this table) or ban in force now, the longest first."""
    return sanctions_in_force(player, table_id, (kind,), now).get(kind)


def refuse_sanctioned(kind: str, player: Player, table_id: int | None = None) -> None:
    sanction = active_sanction(kind, player, table_id)
    if sanction is not None:
        raise ServiceError(kind, sanction_message(sanction.kind, sanction.expires, sanction.reason))
    if kind == Sanction.Kind.BAN and player.traces.marks and not player.is_user:
        refuse_suspended_browser(player)


def refuse_suspended_browser(player: Player) -> None:
    """A guest in a browser that played under an account now suspended: no tables either (the
    suspended person logged out, or their session ended, and came back as a guest)."""
    suspended = Profile.objects.filter(user__is_active=False).values_list("player_key", flat=True)
    if any(tag(key) in player.traces.marks for key in suspended):
        raise ServiceError(
            "suspended",
            _("The account last used in this browser is suspended: no tables from it until the suspension ends."),
        )


def chat_refusal(table: Table, player: Player | None) -> dict | None:
    """Why this person cannot write at this table now, shown before they type (None: they can):
    the table is closed, they are banned, or muted here or everywhere. `until`: when it ends
    (a timestamp; None for good)."""
    if table.status == Table.Status.CLOSED:
        return {"kind": "closed", "until": None, "reason": ""}
    if player is None:
        return None
    found = sanctions_in_force(player, table.id)
    for kind in (Sanction.Kind.BAN, Sanction.Kind.MUTE):
        sanction = found.get(kind)
        if sanction is not None:
            until = sanction.expires.timestamp() if sanction.expires else None
            return {"kind": str(kind), "until": until, "reason": sanction.reason}
    return None


def refusal_message(refusal: dict):
    """What a refusal says, in the language active when it is drawn."""
    if refusal["kind"] == "closed":
        return _("This table was closed by staff.")
    until = datetime.fromtimestamp(refusal["until"], UTC) if refusal["until"] is not None else None
    return sanction_message(refusal["kind"], until, refusal["reason"])


def line_dict(code: str, message: ChatMessage) -> dict:
    return {
        "id": message.id,
        "channel": message.channel,
        "nickname": message.nickname,
        "text": message.text,
        "phrase": message.phrase,
        "author": author_token(code, tag(message.author_key)),
        "user": message.author_user_id,  # never drawn: a screen leaves out a person its viewer blocked
    }


def chat_message(code: str, line: dict) -> dict:
    """A chat line for every screen of the table (chat_post announces it)."""
    return {"chat": "line", "code": code, "body": {"line": line}}


def _speaker(table: Table, player: Player, nickname: object) -> tuple[str, str]:
    """The channel a person speaks in and the name their lines show."""
    seat = Seat.objects.filter(table=table, player_key=player.key).only("nickname").first()
    if seat is not None:
        return ChatMessage.Channel.TABLE, seat.nickname
    if not table.spectator_chat:
        raise ServiceError("spectators_off", _("The host has turned the spectators' chat off."))
    if player.is_user:
        return ChatMessage.Channel.SPECTATORS, player.username
    try:
        name = clean_nickname(nickname)
    except ServiceError:
        raise ServiceError("chat_name", _("Choose a nickname to chat.")) from None
    if name_taken(name, Seat.objects.filter(table=table).only("nickname")):  # posing as a player here
        raise ServiceError("nickname_taken", _("That nickname is already taken at this table."))
    return ChatMessage.Channel.SPECTATORS, name


def chat_post(
    *, code: str, player: Player | None, text: object = "", phrase: object = "", nickname: object = ""
) -> dict:
    """A line of chat at the table: free text (escaped wherever it is drawn) or a quick phrase.
    Refused for a muted or banned person (with the time left) and for a person over the chat
    allowance (with how long to wait)."""
    if player is None:
        raise ServiceError("chat_name", _("Choose a nickname to chat."))
    table = Table.objects.filter(code=str(code).upper()).only("id", "code", "status", "spectator_chat").first()
    if table is None:
        raise ServiceError("unknown_table", _("There is no table with that code."))
    if table.status == Table.Status.CLOSED:
        raise ServiceError("closed", _("This table was closed by staff."))
    if phrase:
        if not phrases.is_phrase(phrase):
            raise ServiceError("malformed", _("That message was not understood."))
        words, key = "", str(phrase)
    else:
        words, key = clean_text(text), ""
    refuse_sanctioned(Sanction.Kind.BAN, player)
    refuse_sanctioned(Sanction.Kind.MUTE, player, table.id)
    channel, name = _speaker(table, player, nickname)
    wait = limits.chat_wait(player.key)
    if wait:
        raise ServiceError(
            "chat_slow",
            later(_("Slow down: you can send another message in %(seconds)s s."), seconds=max(1, round(wait))),
        )
    message = ChatMessage.objects.create(
        table=table,
        channel=channel,
        author_key=player.key,
        author_user_id=player.user_id,
        nickname=name,
        text=words,
        phrase=key,
    )
    _prune(table)
    return announced(table.code, chat_message(table.code, line_dict(table.code, message)))


def _prune(table: Table) -> None:
    oldest_kept = (
        ChatMessage.objects.filter(table=table)
        .order_by("-id")
        .values_list("id", flat=True)[CHAT_KEPT - 1 : CHAT_KEPT]
        .first()
    )
    if oldest_kept is not None:
        ChatMessage.objects.filter(table=table, id__lt=oldest_kept).delete()


def blocked_by(player: Player | None) -> set[int]:
    """The accounts this person blocked: their chat lines never reach them."""
    if player is None or player.user_id is None:
        return set()
    return set(
        Friendship.objects.filter(from_user_id=player.user_id, status=Friendship.Status.BLOCKED).values_list(
            "to_user_id", flat=True
        )
    )


def chat_recent(code: str, player: Player | None = None) -> dict:
    """The last lines of each channel, oldest first, as screens draw them (but the lines of
    someone this person blocked), whether spectators may chat, and why this person may not
    write (chat_refusal)."""
    table = Table.objects.filter(code=str(code).upper()).only("id", "code", "status", "spectator_chat").first()
    lines: dict[str, list[dict]] = {channel: [] for channel in ChatMessage.Channel.values}
    if table is None:
        return {"lines": lines, "spectator_chat": False, "refusal": None}
    blocked = blocked_by(player)
    for channel in lines:
        rows = (
            ChatMessage.objects.filter(table=table, channel=channel)
            .exclude(author_user_id__in=blocked)
            .order_by("-id")[:HISTORY]
        )
        lines[channel] = [line_dict(table.code, row) for row in reversed(list(rows))]
    return {"lines": lines, "spectator_chat": table.spectator_chat, "refusal": chat_refusal(table, player)}


@transaction.atomic
def spectator_chat_set(*, code: str, player: Player, on: bool) -> dict:
    """The host lets spectators chat, or stops them (their channel stays readable)."""
    table = locked_table(code)
    require_host(table, player)
    Table.objects.filter(id=table.id).update(spectator_chat=bool(on))
    return announced(table.code, {"chat": "settings", "code": table.code, "body": {"spectator_chat": bool(on)}})
