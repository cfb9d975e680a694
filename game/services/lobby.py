"""The lobby: creating tables, taking and leaving seats, the host's bots and removals. Each
change of a table is announced to its screens at the commit (common.announced); a new table
has no screens yet."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import time

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from game import registry
from game.core import pace as paces
from game.core.errors import ServiceError
from game.core.identity import Player
from game.models import Friendship, Sanction, Seat, Table
from game.runtime.limits import tables_exhausted
from game.services import reliability, your_move
from game.services.chat import refuse_sanctioned
from game.services.common import (
    announced,
    choose_int,
    clean_nickname,
    locked_table,
    name_taken,
    require_host,
    require_lobby,
    table_update,
)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
TIMER_CHOICES = (0, 15, 30, 60)
TIMER_LABELS = Table.TIMER_CHOICES  # what the create form offers

BOT_SPEEDS = {"fast": 0.4, "normal": 1.0, "slow": 2.5}  # times the site's bot pause
# a game's own words for it are its Kind's (`refusals`)
TOO_MANY_BOTS = _("This game takes no more computer players: the other seats are for people.")
BOT_NAMES = ("Ada", "Alan", "Grace", "Linus", "Edsger", "Barbara", "Ken", "Donald")


def _new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not Table.objects.filter(code=code).exists():
            return code


@transaction.atomic
def table_create(
    *,
    player: Player,
    nickname: object,
    seat_count: object,
    options: Mapping[str, object] | None = None,
    turn_seconds: object = 30,
    bot_speed: str = "normal",
    kind: object = None,
    members_only: bool = False,
    rated: bool = False,
    address: str | None = None,
    pace: object = "live",
    window: tuple[object, object] | None = None,
    time_zone: object = "",
    min_reliability: object = 0,
) -> Table:
    """A new table with its creator (the host) in the first seat, for any game (the default one
    unless `kind` names another), with the game's own `options` as its Kind checks them (those
    not given keep their defaults; SEVN has a target score, Sevens a number of rounds); not for a
    banned person, nor past the hourly allowance of new tables (per person, and per client
    `address` when a page passes it: game.runtime.limits.tables_exhausted).

    `pace` is one of game.core.pace.PRESETS' keys: live (the turn timer applies), a time per
    move, a time bank, or no limit (a signed-in host's friends only). A turn-based table with a
    clock may run it only inside a daily `window` (start, end: times, or "HH:MM") in the host's
    `time_zone` (an IANA name, e.g. "Europe/Berlin"). A public table may ask that people who sit
    have finished at least `min_reliability` % of their last games (reliability.MIN_CHOICES)."""
    kind = registry.DEFAULT if kind is None else kind
    if kind not in registry.KINDS:
        raise ServiceError("bad_game", _("Choose a game from the list."))
    game = registry.KINDS[str(kind)]
    refuse_sanctioned(Sanction.Kind.BAN, player)
    name = player.username if player.is_user else clean_nickname(nickname)
    seats = choose_int(seat_count, range(game.min_seats, game.max_seats + 1), "bad_seats", game.seat_range)
    settings_kept = game.clean_options(options or {})  # the game's own settings; other games' are left out
    timer = choose_int(turn_seconds, TIMER_CHOICES, "bad_timer", _("Choose a turn timer from the list."))
    if bot_speed not in BOT_SPEEDS:
        raise ServiceError("bad_speed", _("Choose a bot speed from the list."))
    chosen = _pace(pace, player)
    start, end, zone = _window(chosen, window, time_zone)
    least = choose_int(
        min_reliability or 0,
        reliability.MIN_CHOICES,
        "bad_reliability",
        _("Choose a share of finished games from the list."),
    )
    if least and chosen.pace == paces.UNLIMITED:
        least = 0  # friends only: nobody is kept out for their record
    if chosen.pace != paces.LIVE:
        refuse_too_many_turn_based(player)
    if tables_exhausted(player.key, address):
        raise ServiceError("too_many_tables", _("You opened too many tables lately: try again in a while."))
    table = Table.objects.create(
        code=_new_code(),
        kind=game.name,
        host_key=player.key,
        host_name=name,
        seat_count=seats,
        options=settings_kept,
        turn_seconds=timer,
        # Only a signed-in host can keep guests out, or ask for ratings (which only people with an
        # account have, so a rated table is for signed-in players only).
        members_only=bool(members_only or rated) and player.is_user,
        rated=bool(rated) and player.is_user,
        bot_delay_ms=round(settings.SEVN_BOT_DELAY_MS * BOT_SPEEDS[bot_speed]),
        pace=chosen.pace,
        move_seconds=chosen.seconds,
        bank_increment=chosen.increment,
        bank_most=chosen.most,
        window_start=start,
        window_end=end,
        time_zone=zone,
        min_reliability=least,
    )
    Seat.objects.create(table=table, index=0, player_key=player.key, nickname=name, user_id=player.user_id)
    return table


def _pace(key: object, player: Player) -> paces.Preset:
    chosen = paces.PRESETS.get(str(key or "live"))
    if chosen is None:
        raise ServiceError("bad_pace", _("Choose a pace from the list."))
    if chosen.pace == paces.UNLIMITED and not player.is_user:
        raise ServiceError(
            "unlimited_guest", _("A table with no time limit is for friends: log in to open one for yours.")
        )
    return chosen


def _clock_time(value: object) -> time | None:
    if value in (None, ""):
        return None
    if isinstance(value, time):
        return value.replace(second=0, microsecond=0, tzinfo=None)
    try:
        return time.fromisoformat(str(value)).replace(second=0, microsecond=0)
    except ValueError:
        raise ServiceError("bad_window", _("Give the playing hours as times, such as 09:00 and 21:00.")) from None


def _window(chosen: paces.Preset, window: tuple[object, object] | None, zone: object) -> tuple:
    """The playing window as kept: (start, end, time zone); none but for a clock that runs."""
    start, end = (_clock_time(value) for value in (window or (None, None)))
    if start is None and end is None:
        return None, None, str(zone or "") if paces.valid_zone(str(zone or "")) else ""
    if chosen.pace not in (paces.PER_MOVE, paces.BANK):
        raise ServiceError("window_without_clock", _("Playing hours are for turn-based tables with a clock."))
    if start is None or end is None:
        raise ServiceError("bad_window", _("Give both ends of the playing hours, or neither."))
    if start == end:
        raise ServiceError("bad_window", _("The playing hours must start and end at different times."))
    if not paces.valid_zone(str(zone or "")):
        raise ServiceError("bad_zone", _("Choose your time zone from the list."))
    return start, end, str(zone)


def refuse_too_many_turn_based(player: Player) -> None:
    """A person sits at SEVN_MAX_TURN_BASED_TABLES turn-based tables at most (those in their
    lobby or playing): one more is refused."""
    most = settings.SEVN_MAX_TURN_BASED_TABLES
    if your_move.turn_based_seats(player.key) >= most:
        raise ServiceError(
            "too_many_turn_based",
            _(
                "You already sit at %(most)d turn-based tables, the most at once: finish or leave one "
                "before you sit at another."
            )
            % {"most": most},
        )


def _friends_only(table: Table, player: Player) -> None:
    """A table with no time limit seats its host's friends only (signed in, and friends)."""
    if table.pace != paces.UNLIMITED or player.key == table.host_key:
        return
    host = Seat.objects.filter(table=table, player_key=table.host_key).values_list("user_id", flat=True).first()
    friends = (
        player.user_id is not None
        and host is not None
        and Friendship.objects.filter(
            from_user_id=host, to_user_id=player.user_id, status=Friendship.Status.FRIENDS
        ).exists()
    )
    if not friends:
        raise ServiceError("friends_only", _("This table has no time limit: only the host's friends may sit at it."))


def _free_seat(table: Table, seats: list[Seat], index: object) -> int:
    """The seat asked for if it is free, else the first free one; refused when none is."""
    free = sorted(set(range(table.seat_count)) - {seat.index for seat in seats})
    if not free:
        raise ServiceError("table_full", _("This table is full. You can watch the game."))
    return free[0] if index in (None, "") else choose_int(index, free, "seat_taken", _("That seat is not free."))


@transaction.atomic
def seat_take(*, code: str, player: Player, nickname: object, index: object = None) -> dict:
    """Sit down at a free seat (the first free one unless `index` names one); not for a
    banned person."""
    table = locked_table(code)
    refuse_sanctioned(Sanction.Kind.BAN, player)
    require_lobby(table)
    if table.members_only and not player.is_user:
        raise ServiceError("members_only", _("Only signed-in players may sit at this table: sign up or log in first."))
    seats = list(table.seats.all())
    if any(seat.player_key == player.key for seat in seats):
        raise ServiceError("already_seated", _("You already have a seat at this table."))
    _friends_only(table, player)
    reliability.refuse_unreliable(table, player)
    if table.turn_based:
        refuse_too_many_turn_based(player)
    name = player.username if player.is_user else clean_nickname(nickname)
    if name_taken(name, seats):
        raise ServiceError("nickname_taken", _("That nickname is already taken at this table."))
    chosen = _free_seat(table, seats, index)
    seats.append(
        Seat.objects.create(table=table, index=chosen, player_key=player.key, nickname=name, user_id=player.user_id)
    )
    return announced(table.code, table_update(table, seats, None))


@transaction.atomic
def seat_leave(*, code: str, player: Player) -> dict:
    """Leave your seat before the game starts."""
    table = locked_table(code)
    require_lobby(table)
    seats = list(table.seats.all())
    mine = [seat for seat in seats if seat.player_key == player.key]
    if not mine:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    mine[0].delete()
    return announced(table.code, table_update(table, [seat for seat in seats if seat is not mine[0]], None))


@transaction.atomic
def seat_remove(*, code: str, player: Player, index: object) -> dict:
    """The host removes a seated player (or bot) before the start."""
    table = locked_table(code)
    require_host(table, player)
    require_lobby(table)
    seats = list(table.seats.all())
    position = choose_int(index, [seat.index for seat in seats], "no_such_seat", _("Nobody sits in that seat."))
    target = next(seat for seat in seats if seat.index == position)
    if target.player_key == player.key:
        raise ServiceError("remove_self", _("Use Leave to give up your own seat."))
    target.delete()
    return announced(table.code, table_update(table, [seat for seat in seats if seat is not target], None))


@transaction.atomic
def bot_add(*, code: str, player: Player, level: object, index: object = None) -> dict:
    """The host seats a computer player of the chosen level in a free seat."""
    table = locked_table(code)
    require_host(table, player)
    require_lobby(table)
    if level not in Seat.BotLevel.values:
        raise ServiceError("bad_level", _("Choose easy, medium or hard."))
    seats = list(table.seats.all())
    chosen = _free_seat(table, seats, index)
    kind = registry.of(table)
    if sum(seat.is_bot for seat in seats) >= kind.max_bots:
        raise ServiceError("too_many_bots", kind.refusals.get("too_many_bots") or TOO_MANY_BOTS)
    taken = {seat.nickname.casefold() for seat in seats}
    name = next(f"Bot {n}" for n in BOT_NAMES + tuple(str(i) for i in range(99)) if f"bot {n}".casefold() not in taken)
    seats.append(Seat.objects.create(table=table, index=chosen, nickname=name, bot_level=level))
    return announced(table.code, table_update(table, seats, None))
