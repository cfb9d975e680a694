"""Playing: starting games, moves under the version check, deadlines, bots' moves.

Each service locks the table row (one writer per table at a time), checks, applies the move
through the engine, saves state, version and event rows, and announces the table's update to
its screens once the transaction commits (common.announced); callers broadcast nothing.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import DatabaseError, InterfaceError, OperationalError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from game import registry
from game.core.errors import ServiceError
from game.core.identity import Player
from game.core.kind import Kind
from game.fair import seeds as fair
from game.models import Event, Game, Presence, Seat, Table
from game.runtime import stages
from game.services import ratings, store, table_reads
from game.services.common import announced, locked_table, presence_event, require_host, table_update

logger = logging.getLogger(__name__)

AWAY_AFTER_TIMEOUTS = 3
# A person whose every socket at the table closed GRACE ago has their decisions due after
# ABSENT_TURN, not the table's turn clock: an absent player does not hold up the table.
GRACE = timedelta(seconds=15)
ABSENT_TURN = timedelta(seconds=3)
MAX_BOT_MOVES = 5000  # per service call; a whole game of bots is far shorter
# A rated game whose people are all away waits this long for one of them to come back; then the
# computer players finish it at once and it is rated: each of them lost (services.ratings).
# Without it the game stayed unfinished for good, its seats away, and rated nobody.
ABANDONED_AFTER = timedelta(minutes=5)
# Records that change who plays a seat (a person away, back, removed by staff) or ask for a
# rematch: they take a version of their own (every screen draws them in order) but move no game.
SEAT_CHANGES = frozenset({"away", "back", "removed", "rematch_asked"})


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
        seat.away, seat.timeouts_in_row = False, 0
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
    Seat.objects.filter(table=table).update(away=False, timeouts_in_row=0, client_seed="")
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

    A move whose database connection broke (PostgreSQL restarting) is tried once more on a fresh
    connection (the pool waits up to DB_POOL_TIMEOUT for the database to be back). That is safe
    whatever the broken one had done: its transaction either never committed (the retry applies
    the move) or committed as the connection broke (the retry finds the version moved on and is
    refused as stale, and the screen is shown the table)."""
    arguments = {"code": code, "player": player, "action": action, "version": version, "game": game}
    try:
        with stages.timed("move"):
            return _game_act(**arguments)
    except (OperationalError, InterfaceError) as error:
        if connection.in_atomic_block:  # inside a caller's transaction: not this function's to retry
            raise
        logger.warning("a move at %s lost its database connection (%s); trying it once more", code, error)
        try:
            connection.close()  # the broken connection leaves; the retry takes a fresh one
        except DatabaseError:
            pass
        return _game_act(**arguments)


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
        mine.away, mine.timeouts_in_row = False, 0
        mine.save(update_fields=["away", "timeouts_in_row"])
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
    if table.rated and not _humans_present(seats):  # nobody came back by ABANDONED_AFTER
        return announced(table.code, _commit(table, seats, game, state, _play_out(kind, game, state, seats), now))
    if _bot_plays(seat):
        records = _bot_move(kind, game, state, seat)
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


def _deadline(table: Table, seats: list[Seat], state: dict, now):
    """When the pending decision is due: a bot after its pause, a person after the timer.
    A game with nobody but bots left waits for a person to come back: for good at an unrated
    table, for ABANDONED_AFTER at a rated one (then game_expire finishes it)."""
    if state["over"]:
        return None
    seat = seats[registry.of(table).acting(state)]
    if _bot_plays(seat):
        if not _humans_present(seats):
            return now + ABANDONED_AFTER if table.rated else None
        return now + timedelta(milliseconds=table.bot_delay_ms)
    if gone(table, seat, now):
        return now + ABSENT_TURN
    if table.turn_seconds:
        return now + timedelta(seconds=table.turn_seconds)
    return None


def gone(table: Table, seat: Seat, now) -> bool:
    """Whether a person's sockets at the table all closed GRACE ago or more (a seat that never
    had one is not gone: it has not arrived yet). Someone with a socket open was seen at the last
    heartbeat (presence.HEARTBEAT, shorter than GRACE): only a quiet seat is looked up."""
    if seat.last_seen is None or seat.last_seen > now - GRACE:
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


def _commit(table: Table, seats: list[Seat], game: Game, state: dict, records: list[dict], now=None) -> dict:
    """Save the new state with the next version and append the event rows; the table's update
    is built from what was saved (its service announces it)."""
    now = now or timezone.now()
    kind = registry.of(table)
    game.version += 1
    with stages.timed("move: engine"):
        game.state = kind.to_json(state)
    game.deadline = _deadline(table, seats, state, now)
    finished = state["over"] and not game.over
    if finished:
        game.over, game.winner, game.finished = True, kind.winner(state), now
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status", "updated"])
    first = game.event_count
    with stages.timed("move: save"):
        game.event_count = first + len(records)
        store.save_move(game, first, records, now)
    if finished:
        ratings.game_finished(table, game, state)
    with stages.timed("move: snapshot"):
        logged = [{"seq": first + i, **record} for i, record in enumerate(records) if record["type"] != "action"]
        return table_update(table, seats, game, state, logged)


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
