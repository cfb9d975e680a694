"""The lobby: creating tables, taking and leaving seats, the host's bots and removals. Each
change of a table is announced to its screens at the commit (common.announced); a new table
has no screens yet."""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from game import registry
from game.core.errors import ServiceError
from game.core.identity import Player
from game.models import Sanction, Seat, Table
from game.runtime.limits import tables_exhausted
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
) -> Table:
    """A new table with its creator (the host) in the first seat, for any game (the default one
    unless `kind` names another), with the game's own `options` as its Kind checks them (those
    not given keep their defaults; SEVN has a target score, Sevens a number of rounds); not for a
    banned person, nor past the hourly allowance of new tables (per person, and per client
    `address` when a page passes it: game.runtime.limits.tables_exhausted)."""
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
    )
    Seat.objects.create(table=table, index=0, player_key=player.key, nickname=name, user_id=player.user_id)
    return table


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
