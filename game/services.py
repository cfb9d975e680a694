"""Every write to a table goes through here: lobby changes, starting games, moves, timeouts.

Each service locks the room row (one writer per table at a time), checks, applies the change
(moves through the engine), saves state, version and event rows, and returns the message to
broadcast. Callers broadcast only after the transaction has committed.
"""

from __future__ import annotations

import random
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from game.engine import IllegalAction, apply, from_json, new_game, timeout, to_json

from . import selectors
from .bots import decide as bot_decide
from .errors import ServiceError
from .identity import Player
from .models import Event, Game, Room, Seat

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
NICKNAME_MAX = 20
MIN_SEATS, MAX_SEATS = 2, 8
MIN_TARGET, MAX_TARGET = 50, 1000
TIMER_CHOICES = (0, 15, 30, 60)
BOT_SPEEDS = {"fast": 0.4, "normal": 1.0, "slow": 2.5}  # times the site's bot pause
AWAY_AFTER_TIMEOUTS = 3
BOT_NAMES = ("Ada", "Alan", "Grace", "Linus", "Edsger", "Barbara", "Ken", "Donald")
MAX_BOT_MOVES = 5000  # per service call; a whole game of bots is far shorter


def _update(room: Room, seats: list[Seat], game: Game | None, state: dict | None = None,
            events: list[dict] | None = None) -> dict:
    """The channel-layer message that tells every viewer of the room to redraw."""
    return {
        "type": "table.update",
        "id": secrets.token_hex(8),  # names this update, so viewers can share its rendering
        "snapshot": selectors.snapshot(room, seats, game, state),
        "events": events or [],
    }


def _locked_room(code: str) -> Room:
    room = Room.objects.select_for_update().filter(code=str(code).upper()).first()
    if room is None:
        raise ServiceError("unknown_room", _("There is no table with that code."))
    if room.status == Room.Status.CLOSED:
        raise ServiceError("closed", _("This table was closed by staff."))
    return room


def _require_host(room: Room, player: Player) -> None:
    if room.host_key != player.key:
        raise ServiceError("not_host", _("Only the host can do that."))


def _require_lobby(room: Room) -> None:
    if room.status != Room.Status.LOBBY:
        raise ServiceError("started", _("The game has already started."))


def clean_nickname(raw: object) -> str:
    words = str(raw or "").split()  # any run of white space (tabs, newlines) becomes one space
    name = " ".join("".join(ch for ch in word if ch.isprintable()) for word in words).strip()
    if not 1 <= len(name) <= NICKNAME_MAX:
        raise ServiceError("bad_nickname", _("A nickname has 1 to 20 characters."))
    return name


def _choose_int(raw: object, allowed, code: str, message: str) -> int:
    try:
        value = int(raw)
    except (TypeError, ValueError):
        raise ServiceError(code, message) from None
    if value not in allowed:
        raise ServiceError(code, message)
    return value


def _new_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if not Room.objects.filter(code=code).exists():
            return code


# Lobby

@transaction.atomic
def room_create(*, player: Player, nickname: object, seat_count: object, target: object = 250,
                turn_seconds: object = 30, show_odds: bool = True, bot_speed: str = "normal") -> Room:
    """A new table with its creator (the host) in the first seat."""
    name = player.username if player.is_user else clean_nickname(nickname)
    seats = _choose_int(seat_count, range(MIN_SEATS, MAX_SEATS + 1), "bad_seats",
                        _("A table has 2 to 8 seats."))
    goal = _choose_int(target, range(MIN_TARGET, MAX_TARGET + 1), "bad_target",
                       _("The target score is between 50 and 1000."))
    timer = _choose_int(turn_seconds, TIMER_CHOICES, "bad_timer", _("Choose a turn timer from the list."))
    if bot_speed not in BOT_SPEEDS:
        raise ServiceError("bad_speed", _("Choose a bot speed from the list."))
    room = Room.objects.create(
        code=_new_code(), host_key=player.key, host_name=name, seat_count=seats, target=goal,
        turn_seconds=timer, show_odds=bool(show_odds),
        bot_delay_ms=round(settings.SEVN_BOT_DELAY_MS * BOT_SPEEDS[bot_speed]),
    )
    Seat.objects.create(room=room, index=0, player_key=player.key, nickname=name, user_id=player.user_id)
    return room


@transaction.atomic
def seat_take(*, code: str, player: Player, nickname: object, index: object = None) -> dict:
    """Sit down at a free seat (the first free one unless `index` names one)."""
    room = _locked_room(code)
    _require_lobby(room)
    seats = list(room.seats.all())
    if any(seat.player_key == player.key for seat in seats):
        raise ServiceError("already_seated", _("You already have a seat at this table."))
    name = player.username if player.is_user else clean_nickname(nickname)
    if any(seat.nickname.casefold() == name.casefold() for seat in seats):
        raise ServiceError("nickname_taken", _("That nickname is already taken at this table."))
    free = sorted(set(range(room.seat_count)) - {seat.index for seat in seats})
    if not free:
        raise ServiceError("room_full", _("This table is full. You can watch the game."))
    chosen = free[0] if index in (None, "") else _choose_int(
        index, free, "seat_taken", _("That seat is not free."))
    seats.append(Seat.objects.create(room=room, index=chosen, player_key=player.key, nickname=name,
                                     user_id=player.user_id))
    return _update(room, seats, None)


@transaction.atomic
def seat_leave(*, code: str, player: Player) -> dict:
    """Leave your seat before the game starts."""
    room = _locked_room(code)
    _require_lobby(room)
    seats = list(room.seats.all())
    mine = [seat for seat in seats if seat.player_key == player.key]
    if not mine:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    mine[0].delete()
    return _update(room, [seat for seat in seats if seat is not mine[0]], None)


@transaction.atomic
def seat_remove(*, code: str, player: Player, index: object) -> dict:
    """The host removes a seated player (or bot) before the start."""
    room = _locked_room(code)
    _require_host(room, player)
    _require_lobby(room)
    seats = list(room.seats.all())
    position = _choose_int(index, [seat.index for seat in seats], "no_such_seat",
                           _("Nobody sits in that seat."))
    target = next(seat for seat in seats if seat.index == position)
    if target.player_key == player.key:
        raise ServiceError("remove_self", _("Use Leave to give up your own seat."))
    target.delete()
    return _update(room, [seat for seat in seats if seat is not target], None)


@transaction.atomic
def bot_add(*, code: str, player: Player, level: object, index: object = None) -> dict:
    """The host seats a computer player of the chosen level in a free seat."""
    room = _locked_room(code)
    _require_host(room, player)
    _require_lobby(room)
    if level not in Seat.BotLevel.values:
        raise ServiceError("bad_level", _("Choose easy, medium or hard."))
    seats = list(room.seats.all())
    free = sorted(set(range(room.seat_count)) - {seat.index for seat in seats})
    if not free:
        raise ServiceError("room_full", _("This table is full. You can watch the game."))
    chosen = free[0] if index in (None, "") else _choose_int(
        index, free, "seat_taken", _("That seat is not free."))
    taken = {seat.nickname.casefold() for seat in seats}
    name = next(f"Bot {n}" for n in BOT_NAMES + tuple(str(i) for i in range(99))
                if f"bot {n}".casefold() not in taken)
    seats.append(Seat.objects.create(room=room, index=chosen, nickname=name, bot_level=level))
    return _update(room, seats, None)


# Games

@transaction.atomic
def game_start(*, code: str, player: Player) -> dict:
    """The host starts a game (or a rematch after game over) with everyone seated."""
    room = _locked_room(code)
    _require_host(room, player)
    if room.status == Room.Status.PLAYING:
        raise ServiceError("started", _("The game has already started."))
    seats = sorted(room.seats.all(), key=lambda seat: seat.index)
    if len(seats) < MIN_SEATS:
        raise ServiceError("too_few", _("At least two players must be seated to start."))
    for position, seat in enumerate(seats):  # engine seats are 0..n-1: close the gaps
        if seat.index != position:
            seat.index = position
            seat.save(update_fields=["index"])
        seat.away, seat.timeouts_in_row = False, 0
    Seat.objects.filter(room=room).update(away=False, timeouts_in_row=0)
    last = selectors.current_game(room)
    seed = secrets.randbits(63)
    opening: list[dict] = []
    state = new_game(len(seats), seed, target=room.target, events=opening)
    game = Game.objects.create(
        room=room, number=(last.number + 1) if last else 1, state="", version=0, seed=seed,
        players=[seat.nickname for seat in seats],
    )
    room.status = Room.Status.PLAYING
    room.save(update_fields=["status", "updated"])
    records = [{"type": "game_started", "number": game.number, "seats": len(seats)}] + opening
    records += _play_bots(room, seats, game, state)
    return _commit(room, seats, game, state, records)


@transaction.atomic
def game_act(*, code: str, player: Player, action: object, version: object = None) -> dict:
    """A seated player's move, checked against whose decision it is and the table version."""
    game = (Game.objects.select_for_update(of=("room",)).select_related("room")
            .filter(room__code=str(code).upper()).order_by("-number").first())
    room = game.room if game is not None else _locked_room(code)
    if room.status == Room.Status.CLOSED:
        raise ServiceError("closed", _("This table was closed by staff."))
    if game is None or room.status == Room.Status.LOBBY:
        raise ServiceError("not_started", _("The game has not started yet."))
    if game.over:
        raise ServiceError("game_over", _("This game is over."))
    seats = sorted(room.seats.all(), key=lambda seat: seat.index)
    mine = next((seat for seat in seats if seat.player_key and seat.player_key == player.key), None)
    if mine is None:
        raise ServiceError("spectator", _("You are watching this table: only seated players can play."))
    if version is not None and str(version) != str(game.version):
        raise ServiceError("stale", _("The table changed before your move arrived. Here it is again."))
    state = from_json(game.state)
    try:
        events = apply(state, action, actor=mine.index)
    except IllegalAction as error:
        raise ServiceError.from_engine(error) from None
    if mine.away or mine.timeouts_in_row:
        mine.away, mine.timeouts_in_row = False, 0
        mine.save(update_fields=["away", "timeouts_in_row"])
    records = [{"type": "action", "seat": mine.index, "action": action}] + events
    records += _play_bots(room, seats, game, state)
    return _commit(room, seats, game, state, records)


@transaction.atomic
def game_expire(*, game_id: int, now=None) -> dict | None:
    """Apply what is due at the game's deadline: a bot's move or a timeout. Exactly once:
    the room lock and the re-read deadline make every other caller find nothing due."""
    now = now or timezone.now()
    game = Game.objects.filter(id=game_id).select_related("room").first()
    if game is None:
        return None
    room = Room.objects.select_for_update().get(id=game.room_id)
    game.refresh_from_db()
    if room.status != Room.Status.PLAYING or game.over or game.deadline is None or game.deadline > now:
        return None
    seats = sorted(room.seats.all(), key=lambda seat: seat.index)
    state = from_json(game.state)
    seat = seats[state["pending"]["seat"]]
    if _bot_plays(seat):
        records = _bot_move(game, state, seat)
    else:
        records = timeout(state)
        seat.timeouts_in_row += 1
        if seat.timeouts_in_row >= AWAY_AFTER_TIMEOUTS:
            seat.away = True
            records.append({"type": "away", "seat": seat.index})
        seat.save(update_fields=["timeouts_in_row", "away"])
    records += _play_bots(room, seats, game, state)
    return _commit(room, seats, game, state, records, now)


def _bot_plays(seat: Seat) -> bool:
    return seat.is_bot or seat.away


def _humans_present(seats: list[Seat]) -> bool:
    return any(not _bot_plays(seat) for seat in seats)


def _bot_move(game: Game, state: dict, seat: Seat) -> list[dict]:
    rng = random.Random(f"{game.seed}/{game.version}/{len(state['history'])}/{state['round']}")
    action = bot_decide(seat.bot_level or "medium", state, rng)
    return [{"type": "action", "seat": seat.index, "action": action, "bot": True}] + apply(state, action)


def _play_bots(room: Room, seats: list[Seat], game: Game, state: dict) -> list[dict]:
    """With no bot pause, bots move at once, until a person must decide or the game ends."""
    records: list[dict] = []
    if room.bot_delay_ms or not _humans_present(seats):
        return records
    for _move in range(MAX_BOT_MOVES):
        if state["over"] or not _bot_plays(seats[state["pending"]["seat"]]):
            break
        records += _bot_move(game, state, seats[state["pending"]["seat"]])
    return records


def _deadline(room: Room, seats: list[Seat], state: dict, now):
    """When the pending decision is due: a bot after its pause, a person after the timer.
    A game with nobody but bots left waits for a person to come back."""
    if state["over"]:
        return None
    seat = seats[state["pending"]["seat"]]
    if _bot_plays(seat):
        if not _humans_present(seats):
            return None
        return now + timedelta(milliseconds=room.bot_delay_ms)
    if room.turn_seconds:
        return now + timedelta(seconds=room.turn_seconds)
    return None


def _commit(room: Room, seats: list[Seat], game: Game, state: dict, records: list[dict], now=None) -> dict:
    """Save the new state with the next version and append the event rows; the message to
    broadcast is built from what was saved."""
    game.version += 1
    game.state = to_json(state)
    game.deadline = _deadline(room, seats, state, now or timezone.now())
    if state["over"] and not game.over:
        game.over, game.winner, game.finished = True, state["winner"], timezone.now()
        room.status = Room.Status.FINISHED
        room.save(update_fields=["status", "updated"])
    first = game.event_count
    Event.objects.bulk_create([
        Event(game=game, seq=first + i, version=game.version, kind=record["type"], data=record)
        for i, record in enumerate(records)
    ])
    game.event_count = first + len(records)
    game.save(update_fields=["version", "state", "deadline", "over", "winner", "finished", "event_count"])
    logged = [{"seq": first + i, **record} for i, record in enumerate(records) if record["type"] != "action"]
    return _update(room, seats, game, state, logged)


def refresh_deadline(room: Room, events: list[dict]) -> dict:
    """After seats changed who plays them (away, back, removed): log it, let bots move if it
    is now their turn, and set the next deadline. The room must be locked by the caller."""
    seats = sorted(room.seats.all(), key=lambda seat: seat.index)
    game = selectors.current_game(room)
    if game is None or game.over or room.status != Room.Status.PLAYING:
        return _update(room, seats, game, events=events)
    state = from_json(game.state)
    records = list(events) + _play_bots(room, seats, game, state)
    return _commit(room, seats, game, state, records)


# Staff

@transaction.atomic
def room_close(*, code: str, reason: str = "") -> dict:
    """Staff close a table: play stops and every viewer is told."""
    room = Room.objects.select_for_update().get(code=code)
    room.status = Room.Status.CLOSED
    room.closed_reason = reason[:200]
    room.save(update_fields=["status", "closed_reason", "updated"])
    game = selectors.current_game(room)
    if game is not None and game.deadline is not None:
        game.deadline = None
        game.save(update_fields=["deadline"])
    return _update(room, list(room.seats.all()), game)


@transaction.atomic
def seat_remove_by_staff(*, seat_id: int) -> dict:
    """Staff remove a player: before the start the seat is freed; during a game a bot keeps
    the seat (and its score) so the game can go on, and the person can no longer act."""
    seat = Seat.objects.select_related("room").get(id=seat_id)
    room = Room.objects.select_for_update().get(id=seat.room_id)
    if room.status != Room.Status.PLAYING:
        seat.delete()
        return _update(room, list(room.seats.all()), selectors.current_game(room))
    seat.player_key, seat.user, seat.away = "", None, True
    seat.save(update_fields=["player_key", "user", "away"])
    return refresh_deadline(room, events=[{"type": "removed", "seat": seat.index}])
