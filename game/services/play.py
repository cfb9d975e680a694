"""Playing: starting games, moves under the version check, deadlines, bots' moves.

Each service locks the table row (one writer per table at a time), checks, applies the move
through the engine, saves state, version and event rows, and announces the table's update to
its screens once the transaction commits (common.announced); callers broadcast nothing.
"""

from __future__ import annotations

import copy
import logging
import time
from datetime import timedelta

from django.db import DatabaseError, InterfaceError, OperationalError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from game import registry
from game.core import pace as paces
from game.core.errors import ServiceError
from game.core.identity import Player
from game.core.kind import Kind
from game.fair import seeds as fair
from game.models import Event, Game, MissedTurn, Presence, Seat, Table
from game.runtime import stages
from game.services import alerts, analysis, held, ratings, reliability, store, table_reads, your_move
from game.services.common import announced, choose_int, locked_table, presence_event, require_host, table_update

logger = logging.getLogger(__name__)
# A move that lost its database connection is tried again this many times, pausing a little
# longer each time (game_act): every try either applies it or finds it already applied (stale).
RECONNECT_TRIES = 3
RECONNECT_PAUSE_S = 0.5

AWAY_AFTER_TIMEOUTS = 3
# At a turn-based table a bot plays a turn whose clock ran out (a missed turn, kept); after this
# many in a row the bot keeps the seat until its person takes it back (seat_reclaim).
BOT_KEEPS_AFTER_MISSES = 2
# A person whose every socket at the table closed GRACE ago has their decisions due after
# ABSENT_TURN, not the table's turn clock: an absent player does not hold up the table.
GRACE = timedelta(seconds=15)
ABSENT_TURN = timedelta(seconds=3)
MAX_BOT_MOVES = 5000  # per service call; a whole game of bots is far shorter
# A game whose people are all away waits this long for one of them to come back, at every table;
# then the computer players finish it at once and it ends with its record, results and outcomes
# (a rated one: each of them lost, services.ratings).
# Without it the game stayed unfinished for good, its seats away.
ABANDONED_AFTER = timedelta(minutes=5)
# Records that change who plays a seat (a person away, back, removed by staff) or ask for a
# rematch: they take a version of their own (every screen draws them in order) but move no game.
SEAT_CHANGES = frozenset({"away", "back", "removed", "rematch_asked", "let_go_asked", "let_go"})


@transaction.atomic
def game_start(*, code: str, player: Player) -> dict:
    """The host starts a game (or a rematch after game over) with everyone seated."""
    table = locked_table(code)
    require_host(table, player)
    if table.status == Table.Status.PLAYING:
        raise ServiceError("started", _("The game has already started."))
    seats = sorted(table.seats.all(), key=lambda seat: seat.index)
    kind = registry.of(table)
    if len(seats) < kind.min_seats:
        raise ServiceError("too_few", kind.start_note)
    for position, seat in enumerate(seats):  # engine seats are 0..n-1: close the gaps
        if seat.index != position:
            seat.index = position
            seat.save(update_fields=["index"])
        seat.away, seat.timeouts_in_row, seat.let_go_by = False, 0, []
    last = table_reads.current_game(table)
    number = (last.number + 1) if last else 1
    # Commit, then reveal (game.fair.seeds): the server seed committed to before this deal, the
    # client seeds the seated people's browsers sent since the last deal (bots send none).
    server_seed = table.next_seed or fair.new_server_seed()
    contributed = [(seat.index, seat.client_seed) for seat in seats if not seat.is_bot and seat.client_seed]
    seed = fair.engine_seed(
        server_seed,
        game=kind.name,
        table=table.code,
        number=number,
        options=kind.deal_options(table),
        client_seeds=contributed,
    )
    bank = table.move_seconds if table.pace == paces.BANK else None  # each seat's bank starts full
    Seat.objects.filter(table=table).update(
        away=False, timeouts_in_row=0, client_seed="", bank_seconds=bank, let_go_by=[]
    )
    for seat in seats:
        seat.bank_seconds = bank
    opening: list[dict] = []
    state = kind.new(table, len(seats), seed, opening)
    game = Game.objects.create(
        table=table,
        number=number,
        state="",
        version=0,
        seed=seed,
        server_seed=server_seed,
        commitment=fair.commitment(server_seed),
        client_seeds=[[index, client] for index, client in contributed],
        players=[seat.nickname for seat in seats],
        bots=[seat.bot_level for seat in seats],
        records=reliability.seat_records(seats),  # beside the names while it is played
    )
    table.status = Table.Status.PLAYING
    table.next_seed = fair.new_server_seed()  # the next deal's, committed to from now on
    table.save(update_fields=["status", "updated", "next_seed"])
    records = [{"type": "game_started", "number": game.number, "seats": len(seats)}] + opening
    records += _play_bots(table, seats, game, state)
    message = _commit(table, seats, game, state, records)
    # Whose sockets are open: every screen is told at the start (a lobby's screens were told
    # nobody's presence, a screen that opened there knew only those who came before it).
    message["events"].append(presence_event(table.id))
    return announced(table.code, message)


def game_act(*, code: str, player: Player, action: object, version: int, game: int | None = None) -> dict:
    """A seated player's move, checked against whose decision it is and the table version (and
    game number, when the screen sent it) it was made on: of two identical moves sent on that
    version, exactly one is applied, and a move made before a rematch never lands in the new game.

    A move whose database connection broke (PostgreSQL restarting) is tried again on a fresh
    connection, up to RECONNECT_TRIES times (the pool waits up to DB_POOL_TIMEOUT for the
    database to be back each time; a restart on a loaded machine outlasted one wait). That is safe
    whatever the broken one had done: its transaction either never committed (the retry applies
    the move) or committed as the connection broke (the retry finds the version moved on and is
    refused as stale, and the screen is shown the table)."""
    arguments = {"code": code, "player": player, "action": action, "version": version, "game": game}
    try:
        with stages.timed("move"):
            played = _held_act(**arguments)
            return played if played is not None else _game_act(**arguments)
    except (OperationalError, InterfaceError) as error:
        held.drop(str(code))  # whatever the broken connection did, the table is read again
        if connection.in_atomic_block:  # inside a caller's transaction: not this function's to retry
            raise
        logger.warning("a move at %s lost its database connection (%s); trying it again", code, error)
        for attempt in range(1, RECONNECT_TRIES):
            _drop_connection()
            try:
                return _game_act(**arguments)
            except (OperationalError, InterfaceError):
                # a database still starting (a restart on a loaded machine outlasts one pool wait)
                time.sleep(RECONNECT_PAUSE_S * attempt)
        _drop_connection()
        return _game_act(**arguments)


def _drop_connection() -> None:
    """The broken connection leaves; the next query takes a fresh one from the pool."""
    try:
        connection.close()
    except DatabaseError:
        pass


class _NotHeld(Exception):
    """A held move that the table held in memory cannot play alone (services.held): it goes the
    locked way. Raised before anything is written, or when the checked write wrote nothing."""


def _held_act(*, code: str, player: Player, action: object, version: object, game: int | None) -> dict | None:
    """The move played against the table this process holds in memory and saved in one
    statement (services.store.save_move with the held seats), or None: the locked way decides
    (nothing held, or held but not as the move was made, or anything but a plain move of a live
    game: a refusal, the game's end, a turn passing to someone told off the site, more log rows
    than one statement takes). None is returned with nothing written."""
    with stages.timed("move: held"):
        found = held.get(str(code))
        if found is None:
            return None
        table, current, seats = found
        if table.status != Table.Status.PLAYING or table.turn_based or current.over:
            return None
        if str(version) != str(current.version) or (game is not None and game != current.number):
            return None  # a stale move is refused, or an older one weighed, by the locked way
        mine = next((seat for seat in seats if seat.player_key and seat.player_key == player.key), None)
        if mine is None or mine.away or mine.timeouts_in_row:
            return None
        kind = registry.of(table)
    try:
        with stages.timed("move: engine"):
            state = kind.from_json(current.state)
            events = kind.apply(state, action, actor=mine.index)
    except kind.illegal:
        return None  # refused by the locked way, in its words
    moving = copy.copy(current)  # what is held is never changed in place
    records = [{"type": "action", "seat": mine.index, "action": action}] + events
    records += _play_bots(table, seats, moving, state)
    if len(records) > store.EVENTS_PER_STATEMENT:
        return None
    try:
        return announced(table.code, _commit(table, seats, moving, state, records, held_move=True))
    except _NotHeld:
        return None


@transaction.atomic
def _game_act(*, code: str, player: Player, action: object, version: int, game: int | None) -> dict:
    number = game
    with stages.timed("move: lock and read"):
        table, game, seats = store.locked_table_game_and_seats(str(code))
    if table is None:
        raise ServiceError("unknown_table", _("There is no table with that code."))
    if table.status == Table.Status.CLOSED:
        raise ServiceError("closed", _("This table was closed by staff."))
    if game is None or table.status == Table.Status.LOBBY:
        raise ServiceError("not_started", _("The game has not started yet."))
    if game.over:
        raise ServiceError("game_over", _("This game is over."))
    mine = next((seat for seat in seats if seat.player_key and seat.player_key == player.key), None)
    if mine is None:
        raise ServiceError("spectator", _("You are watching this table: only seated players can play."))
    if _stale(game, version, number):
        raise ServiceError(
            "stale", _("The table changed before your move arrived. Here it is again."), version=game.version
        )
    kind = registry.of(table)
    try:
        with stages.timed("move: engine"):
            state = kind.from_json(game.state)
            events = kind.apply(state, action, actor=mine.index)
    except kind.illegal as error:
        raise ServiceError.from_engine(error, kind.refusals, kind.card_label) from None
    if mine.away or mine.timeouts_in_row:
        mine.away, mine.timeouts_in_row, mine.let_go_by = False, 0, []
        mine.save(update_fields=["away", "timeouts_in_row", "let_go_by"])
    records = [{"type": "action", "seat": mine.index, "action": action}] + events
    records += _play_bots(table, seats, game, state)
    return announced(table.code, _commit(table, seats, game, state, records))


def _stale(game: Game, version: object, number: int | None) -> bool:
    """Whether the game moved on since the table the move was made on: another game, a version
    not reached, or a move, a timeout, a bot's move or a deal since. A move on an older version
    whose later versions only changed who plays a seat (the others coming back, say) means what
    it meant, and is applied; of two identical moves the first takes a version of its own, so
    the second is still refused. A move that does not say its game must name the current
    version (its number alone could be another game's)."""
    if number is None or type(version) is not int:
        return str(version) != str(game.version) or (number is not None and number != game.number)
    if number != game.number or version > game.version:
        return True
    if version == game.version:
        return False
    later = Event.objects.filter(game_id=game.id, version__gt=version).order_by()
    if later.exclude(kind__in=SEAT_CHANGES).exists():
        return True
    # every later version is one of those changes (a version that logged nothing counts as a move)
    return later.values("version").distinct().count() != game.version - version


@transaction.atomic
def game_expire(*, game_id: int, now=None) -> dict | None:
    """Apply what is due at the game's deadline: a bot's move or a timeout. Exactly once:
    the table lock and the re-read deadline make every other caller find nothing due."""
    now = now or timezone.now()
    table_id = Game.objects.filter(id=game_id).values_list("table_id", flat=True).first()
    if table_id is None:
        return None
    table, game, seats = store.locked_table_game_and_seats(table_id=table_id)
    if game is None or game.id != game_id:  # a rematch began meanwhile: this game is no longer due
        return None
    if table.status != Table.Status.PLAYING or game.over or game.deadline is None or game.deadline > now:
        return None
    kind = registry.of(table)
    state = kind.from_json(game.state)
    seat = seats[kind.acting(state)]
    if not _humans_present(seats):  # nobody came back by the abandoned deadline
        return announced(table.code, _commit(table, seats, game, state, _play_out(kind, game, state, seats), now))
    if _bot_plays(seat):
        records = _bot_move(kind, game, state, seat)
    elif table.turn_based:
        records = _missed(table, game, state, seat, now)
    else:
        records = kind.timeout(state)
        seat.timeouts_in_row += 1
        if seat.timeouts_in_row >= AWAY_AFTER_TIMEOUTS:
            seat.away = True
            records.append({"type": "away", "seat": seat.index})
        seat.save(update_fields=["timeouts_in_row", "away"])
    records += _play_bots(table, seats, game, state)
    return announced(table.code, _commit(table, seats, game, state, records, now))


@transaction.atomic
def rematch_ask(*, code: str, player: Player) -> dict:
    """A seated player (not the host, who simply starts one) asks for a rematch once a game is
    over: it goes in the game's log, so the host sees it on every screen until the rematch."""
    table = locked_table(code)
    if table.status != Table.Status.FINISHED:
        raise ServiceError("not_over", _("A rematch can be asked for once the game is over."))
    game = table_reads.current_game(table)
    seats = sorted(table.seats.all(), key=lambda seat: seat.index)
    mine = next((seat for seat in seats if seat.player_key and seat.player_key == player.key), None)
    if mine is None:
        raise ServiceError("spectator", _("You are watching this table: only seated players can play."))
    if game.events.filter(kind="rematch_asked", data__seat=mine.index).exists():
        raise ServiceError("asked", _("You have asked for a rematch already."))
    state = registry.of(table).from_json(game.state)
    return announced(table.code, _commit(table, seats, game, state, [{"type": "rematch_asked", "seat": mine.index}]))


def _missed(table: Table, game: Game, state: dict, seat: Seat, now) -> list[dict]:
    """A turn-based clock ran out: a bot plays that one turn (every decision of it), the miss is
    kept (MissedTurn), and after BOT_KEEPS_AFTER_MISSES in a row the bot keeps the seat. A time
    bank starts the next turn with one increment. Nobody is resigned."""
    kind = registry.of(table)
    seat.timeouts_in_row += 1
    MissedTurn.objects.create(
        table=table,
        game=game,
        seat=seat.index,
        player_key=seat.player_key,
        user_id=seat.user_id,
        in_row=seat.timeouts_in_row,
        due=game.deadline or now,
    )
    records: list[dict] = [{"type": "missed", "seat": seat.index}]
    for _move in range(MAX_BOT_MOVES):
        if state["over"] or kind.acting(state) != seat.index:
            break
        records += _bot_move(kind, game, state, seat)
    if seat.timeouts_in_row >= BOT_KEEPS_AFTER_MISSES:
        seat.away = True
        records.append({"type": "away", "seat": seat.index})
    if table.pace == paces.BANK:
        seat.bank_seconds = paces.bank_after_miss(table.bank_increment, table.bank_most)
    game.turn_started = None  # the turn ended by the bot's hand: nothing to charge the bank for
    seat.save(update_fields=["timeouts_in_row", "away", "bank_seconds"])
    return records


@transaction.atomic
def seat_reclaim(*, code: str, player: Player) -> dict:
    """A person the bot kept the seat for (two missed turns at a turn-based table) takes it back:
    from now on the turns are theirs again, the one under way too (its clock starts now)."""
    table, game, seats = store.locked_table_game_and_seats(str(code))
    if table is None:
        raise ServiceError("unknown_table", _("There is no table with that code."))
    mine = next((seat for seat in seats if seat.player_key and seat.player_key == player.key), None)
    if mine is None:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    if table.status != Table.Status.PLAYING or game is None or game.over:
        raise ServiceError("not_playing", _("There is no game under way at this table."))
    if not mine.away:
        raise ServiceError("not_away", _("Your seat is yours already: nobody plays it for you."))
    mine.away, mine.timeouts_in_row, mine.let_go_by = False, 0, []
    mine.save(update_fields=["away", "timeouts_in_row", "let_go_by"])
    if game.acting == mine.index:
        game.turn_started = None  # the bot's turn under way becomes theirs, on a fresh clock
    state = registry.of(table).from_json(game.state)
    records = [{"type": "back", "seat": mine.index}] + _play_bots(table, seats, game, state)
    return announced(table.code, _commit(table, seats, game, state, records))


@transaction.atomic
def seat_let_go(*, code: str, player: Player, index: object) -> dict:
    """A person still playing agrees to let an away person go ("Let Ana go"): once everyone
    still playing agreed, the leave is excused (it counts as finished: services.reliability).
    Logged in the game, so that every screen shows who agreed."""
    table, game, seats = store.locked_table_game_and_seats(str(code))
    if table is None:
        raise ServiceError("unknown_table", _("There is no table with that code."))
    if table.status != Table.Status.PLAYING or game is None or game.over:
        raise ServiceError("not_playing", _("There is no game under way at this table."))
    mine = next((seat for seat in seats if seat.player_key and seat.player_key == player.key), None)
    if mine is None or mine.is_bot:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    if mine.away:
        raise ServiceError("let_go_away", _("Only those still playing can let someone go."))
    away = [seat.index for seat in seats if seat.away and not seat.is_bot and seat.index != mine.index]
    position = choose_int(index, away, "let_go_nobody", _("Nobody away sits in that seat."))
    target = seats[position]
    playing = {seat.index for seat in seats if not _bot_plays(seat)}
    if playing <= set(target.let_go_by):
        raise ServiceError("let_go_done", _("Everyone has agreed already: this leave is excused."))
    if mine.index in target.let_go_by:
        raise ServiceError("let_go_agreed", _("You have agreed already; the others have not yet."))
    target.let_go_by = sorted({*target.let_go_by, mine.index})
    target.save(update_fields=["let_go_by"])
    records = [{"type": "let_go_asked", "seat": target.index, "by": mine.index}]
    if playing <= set(target.let_go_by):
        records.append({"type": "let_go", "seat": target.index})
    state = registry.of(table).from_json(game.state)
    return announced(table.code, _commit(table, seats, game, state, records))


def _bot_plays(seat: Seat) -> bool:
    return seat.is_bot or seat.away


def _humans_present(seats: list[Seat]) -> bool:
    return any(not _bot_plays(seat) for seat in seats)


def _bot_move(kind: Kind, game: Game, state: dict, seat: Seat) -> list[dict]:
    action = kind.bot_action(seat.bot_level or "medium", state, kind.bot_rng(game.seed, game.version, state))
    return [{"type": "action", "seat": seat.index, "action": action, "bot": True}] + kind.apply(state, action)


def _play_bots(table: Table, seats: list[Seat], game: Game, state: dict) -> list[dict]:
    """With no bot pause, bots move at once, until a person must decide or the game ends."""
    records: list[dict] = []
    if table.bot_delay_ms or not _humans_present(seats):
        return records
    kind = registry.of(table)
    for _move in range(MAX_BOT_MOVES):
        if state["over"] or not _bot_plays(seats[kind.acting(state)]):
            break
        records += _bot_move(kind, game, state, seats[kind.acting(state)])
    return records


def _play_out(kind: Kind, game: Game, state: dict, seats: list[Seat]) -> list[dict]:
    """Computer players make every move left, to the game's end (a rated game abandoned)."""
    records: list[dict] = []
    for _move in range(MAX_BOT_MOVES):
        if state["over"]:
            break
        records += _bot_move(kind, game, state, seats[kind.acting(state)])
    return records


def _turn_deadline(table: Table, seat: Seat, game: Game | None, now):
    """A person's turn at a turn-based table is due when its clock time is used up (counted
    inside the playing window only), from when the turn began: a move's time, or the seat's bank;
    never at a table with no limit."""
    started = (game.turn_started if game is not None else None) or now
    if table.pace == paces.PER_MOVE:
        return paces.clock_deadline(table.window, started, table.move_seconds)
    if table.pace == paces.BANK:
        bank = seat.bank_seconds if seat.bank_seconds is not None else table.move_seconds
        return paces.clock_deadline(table.window, started, bank)
    return None


def _deadline(table: Table, seats: list[Seat], state: dict, now, game: Game | None = None):
    """When the pending decision is due: a bot after its pause, a person after the timer.
    A game with nobody but bots left waits ABANDONED_AFTER for a person to come back (then
    game_expire finishes it), at every table."""
    if state["over"]:
        return None
    seat = seats[registry.of(table).acting(state)]
    if _bot_plays(seat):
        if not _humans_present(seats):
            return now + ABANDONED_AFTER
        return now + timedelta(milliseconds=table.bot_delay_ms)
    if table.turn_based:
        return _turn_deadline(table, seat, game, now)
    if gone(table, seat, now):
        return now + ABSENT_TURN
    if table.turn_seconds:
        return now + timedelta(seconds=table.turn_seconds)
    return None


def gone(table: Table, seat: Seat, now) -> bool:
    """Whether a person's sockets at the table all closed GRACE ago or more (a seat that never
    had one is not gone: it has not arrived yet). Someone with a socket open was seen at the last
    heartbeat (presence.HEARTBEAT, shorter than GRACE): only a quiet seat is looked up. Never
    at a turn-based table: being away there is the pace itself."""
    if table.turn_based or seat.last_seen is None or seat.last_seen > now - GRACE:
        return False
    return not Presence.objects.filter(table_id=table.id, player_key=seat.player_key).exists()


@transaction.atomic
def hurry(*, table_id: int, seat_index: int, now=None) -> dict | None:
    """A person just counted as gone: the decision waiting for them is due within ABSENT_TURN.
    Announces and returns the update (the clock every screen shows), or None if nothing changed.
    Whether they are gone is asked again under the table's lock: the sweep that counted them
    read the seats before, and their socket may have opened since (in another process, its
    arrival already noted: nothing would take the hurry back)."""
    now = now or timezone.now()
    table = Table.objects.select_for_update().get(id=table_id)
    game = table_reads.current_game(table)
    if table.status != Table.Status.PLAYING or game is None or game.over:
        return None
    state = registry.of(table).from_json(game.state)
    if registry.of(table).acting(state) != seat_index:
        return None
    seats = sorted(table.seats.all(), key=lambda seat: seat.index)
    if not gone(table, seats[seat_index], now):
        return None
    soon = now + ABSENT_TURN
    if game.deadline is not None and game.deadline <= soon:
        return None
    game.deadline = soon
    game.save(update_fields=["deadline"])
    return announced(table.code, table_update(table, seats, game, state))


@transaction.atomic
def unhurry(*, table_id: int, seat_index: int, now=None) -> dict | None:
    """A person counted as gone is back (their socket opened): the decision waiting for them is
    due by the table's own clock from now (none without a turn timer), no longer within
    ABSENT_TURN, so that they answer the table they are shown, not a timeout that beat them to
    it. Their seat must have been seen now (presence.arrived). Announces and returns the update
    (the clock every screen shows), or None if nothing changed."""
    now = now or timezone.now()
    table = Table.objects.select_for_update().get(id=table_id)
    game = table_reads.current_game(table)
    if table.status != Table.Status.PLAYING or game is None or game.over or game.deadline is None:
        return None
    kind = registry.of(table)
    state = kind.from_json(game.state)
    if kind.acting(state) != seat_index:
        return None
    seats = sorted(table.seats.all(), key=lambda seat: seat.index)
    due = _deadline(table, seats, state, now)
    if due is not None and due <= game.deadline:
        return None
    game.deadline = due
    game.save(update_fields=["deadline"])
    return announced(table.code, table_update(table, seats, game, state))


def _commit(
    table: Table,
    seats: list[Seat],
    game: Game,
    state: dict,
    records: list[dict],
    now=None,
    *,
    held_move: bool = False,
) -> dict:
    """Save the new state with the next version and append the event rows; the table's update
    is built from what was saved (its service announces it). The table is held in this
    process's memory once that commits (services.held).

    A held move (`held_move`: played against the table held in memory, no transaction, no lock)
    writes only the game's row and its log rows, in one statement that checks the version, the
    table and the seats it was played on; anything more (the game's end, a turn passing to an
    account, a person who may be gone) raises _NotHeld before anything is written, and so does
    the statement when it wrote nothing (the table is dropped from memory: it moved elsewhere)."""
    now = now or timezone.now()
    kind = registry.of(table)
    if held_move and _held_cannot_commit(table, seats, game, state, now):
        raise _NotHeld
    game.version += 1
    with stages.timed("move: engine"):
        game.state = kind.to_json(state)
    turn_before = (game.acting, game.turn_started)
    ended, starting = _next_turn(table, seats, game, state, now)
    game.deadline = _deadline(table, seats, state, now, game)
    finished = state["over"] and not game.over
    if held_move and _turn_began(game, turn_before) and _told_off_site(seats, game):
        raise _NotHeld
    if finished:
        game.over, game.winner, game.finished = True, kind.winner(state), now
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status", "updated"])
    first = game.event_count
    with stages.timed("move: save"):
        game.event_count = first + len(records)
        if held_move:
            if not store.save_move(game, first, records, now, seats=seats, table_id=table.id):
                held.drop(table.code)
                raise _NotHeld
        else:
            store.save_move(game, first, records, now)
    held.keep(table, game, seats)
    if finished:
        ratings.game_finished(table, game, state)
        analysis.game_finished(game)  # worked out in the background (game.live.analysing), never before the end
        alerts.game_finished(table, game, seats, now)
    elif _turn_began(game, turn_before):  # a person with an account: their "your move" into the outbox
        _tell_turn(table, seats, game, now)
    if ended is not None:  # a person's turn ended at a turn-based table (saved: it counts no more)
        your_move.turn_ended(table, ended)
    if starting is not None:  # a person's turn began at a turn-based table: whoever listens hears it
        your_move.turn_started(table, starting, game)
    with stages.timed("move: snapshot"):
        logged = [{"seq": first + i, **record} for i, record in enumerate(records) if record["type"] != "action"]
        return table_update(table, seats, game, state, logged)


def _held_cannot_commit(table: Table, seats: list[Seat], game: Game, state: dict, now) -> bool:
    """Whether a held move needs more than its one statement: the game ends (ratings, results,
    records), or the seat to decide next may be gone (the locked way asks who is here), or a
    turn-based table's clocks (its banks and notices)."""
    if state["over"] or table.turn_based:
        return True
    seat = seats[registry.of(table).acting(state)]
    return not _bot_plays(seat) and seat.last_seen is not None and seat.last_seen <= now - GRACE


def _told_off_site(seats: list[Seat], game: Game) -> bool:
    """Whether the turn that began goes to a person with an account (their "your move" is
    written into the outbox with the move: _tell_turn)."""
    if game.acting is None or game.acting >= len(seats):
        return False
    seat = seats[game.acting]
    return bool(seat.user_id) and not _bot_plays(seat)


def _turn_began(game: Game, before: tuple[int | None, object]) -> bool:
    """Whether this commit began a turn (Game.acting changed, or a first decision): a turn is
    every decision a seat makes in a row, at a live table as at a turn-based one."""
    acting, started = before
    return game.acting is not None and (game.acting != acting or started is None)


def _tell_turn(table: Table, seats: list[Seat], game: Game, now) -> None:
    """The turn passed to a person with an account: their "your move" notice goes into the
    outbox in this transaction (services.alerts), sent only if it still waits for them later."""
    if game.acting >= len(seats):
        return
    seat = seats[game.acting]
    if seat.user_id and not _bot_plays(seat):
        alerts.turn_started(table, game, seat, game.deadline, now)


def _next_turn(table: Table, seats: list[Seat], game: Game, state: dict, now) -> tuple[Seat | None, Seat | None]:
    """Keep whose turn it is (Game.acting) and since when; a turn is every decision a seat makes
    in a row. A turn that ended at a time-bank table is charged to its person's bank (the clock
    time it took, plus the increment). Returns the people at a turn-based table whose turn ended
    and whose began now (neither a bot nor an away seat), each None if nobody's did."""
    acting = None if state["over"] else registry.of(table).acting(state)
    if acting == game.acting and game.turn_started is not None:
        return None, None  # the same turn goes on
    before = game.acting
    ended = None
    if table.turn_based and before is not None and before != acting and before < len(seats):
        ended = None if seats[before].is_bot else seats[before]
    if table.pace == paces.BANK and before is not None and game.turn_started is not None and before < len(seats):
        ended = seats[before]
        if not _bot_plays(ended) and ended.bank_seconds is not None:
            used = paces.clock_seconds(table.window, game.turn_started, now)
            ended.bank_seconds = paces.bank_after_move(ended.bank_seconds, used, table.bank_increment, table.bank_most)
            Seat.objects.filter(id=ended.id).update(bank_seconds=ended.bank_seconds)
    game.acting, game.turn_started = acting, (now if acting is not None else None)
    if acting is None or not table.turn_based or acting >= len(seats) or _bot_plays(seats[acting]):
        return ended, None
    return ended, seats[acting]


def refresh_deadline(table: Table, events: list[dict]) -> dict:
    """After seats changed who plays them (away, back, removed): log it, let bots move if it
    is now their turn, and set the next deadline. A step of its caller's service: the table
    must be locked by the caller, who announces the update this returns (with more, maybe)."""
    seats = sorted(table.seats.all(), key=lambda seat: seat.index)
    game = table_reads.current_game(table)
    if game is None or game.over or table.status != Table.Status.PLAYING:
        return table_update(table, seats, game, events=events)
    state = registry.of(table).from_json(game.state)
    records = list(events) + _play_bots(table, seats, game, state)
    return _commit(table, seats, game, state, records)
