"""The hot reads of a table: the plain-data snapshot every view and socket draws from, its log,
and the fingerprints the watch compares.

A snapshot holds only what may be shown, plus a tag per seated person and for the host (an
HMAC of their key, identity.tag): the renderer finds "you" by it and never prints it. Player
keys themselves never enter a snapshot, so no broadcast carries them.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone

from game import registry
from game.core.identity import tag
from game.core.kind import Kind
from game.fair.seeds import commitment
from game.models import (
    Event,
    Game,
    GameResult,
    Presence,
    RatingChange,
    Seat,
    Table,
)
from game.services import reliability

LOG_LINES = 80


def table_by_code(code: str) -> Table | None:
    return Table.objects.filter(code=code.upper()).first()


def current_game(table: Table) -> Game | None:
    return table.games.order_by("-number").first()


def online(table_id: int) -> list[int]:
    """The seats of people with a socket open at the table (bots have none)."""
    here = Presence.objects.filter(table_id=table_id).values("player_key")
    seats = Seat.objects.filter(table_id=table_id, bot_level="", player_key__in=here)
    return list(seats.order_by("index").values_list("index", flat=True))


def _options(table: Table) -> dict:
    """The table's game settings as its game reads them (each it lacks at its default)."""
    kind = registry.KINDS.get(table.kind)
    return kind.table_options(table.options) if kind is not None else dict(table.options or {})


def table_dict(table: Table) -> dict:
    return {
        "code": table.code,
        "kind": table.kind,
        "status": table.status,
        "seat_count": table.seat_count,
        "options": _options(table),
        # the clock's length a decision is shown against: the live timer, or a turn-based
        # table's time per move (its largest bank)
        "turn_seconds": table.turn_seconds if not table.turn_based else (table.bank_most or table.move_seconds),
        "pace": pace_dict(table),
        "members_only": table.members_only,
        "rated": table.rated,
        "min_reliability": table.min_reliability,  # a public table's minimum share of finished games (%)
        "closed_reason": table.closed_reason,
        "host": tag(table.host_key),
        "host_name": table.host_name,
        "bot_delay_ms": table.bot_delay_ms,
        "commitment": commitment(table.next_seed) if table.next_seed else "",  # the next deal's (game.fair)
    }


def pace_dict(table: Table) -> dict | None:
    """A turn-based table's clocks as its screens show them (None at a live table)."""
    if not table.turn_based:
        return None
    window = table.window
    return {
        "pace": table.pace,
        "move_seconds": table.move_seconds,
        "increment": table.bank_increment,
        "most": table.bank_most,
        "window": [window.start.strftime("%H:%M"), window.end.strftime("%H:%M"), window.zone] if window else None,
    }


def seat_dict(seat: Seat) -> dict:
    return {
        "index": seat.index,
        "nickname": seat.nickname,
        "who": tag(seat.player_key),
        "bot_level": seat.bot_level,
        "away": seat.away,
        "bank": seat.bank_seconds,
        "let_go_by": list(seat.let_go_by or ()),
    }


def game_dict(game: Game, kind: Kind, state: dict | None = None) -> dict:
    """A game as its viewers may see it: a spectator's view, and for a game with secrets each
    seat's own view (`seat_views`), the only place a hand is; nothing else of the state."""
    state = kind.from_json(game.state) if state is None else state
    return {
        "id": game.id,
        "public_id": game.public_id,  # what links to its replay and record carry (game.pages.replay)
        "number": game.number,
        "version": game.version,
        **kind.views(state),
        "deadline": game.deadline.timestamp() if game.deadline else None,
        "acting": game.acting,  # whose turn (a turn is every decision a seat makes in a row)
        "over": game.over,
        "winner": game.winner,
        "players": game.players,
        "fair": fair_dict(game),
    }


def fair_dict(game: Game) -> dict:
    """The deal's proof as viewers may see it: the commitment and the client seeds from the
    deal on, the server seed only once the game is over (it decides the rounds still to come)."""
    return {
        "commitment": game.commitment,
        "client_seeds": game.client_seeds,
        "server_seed": game.server_seed if game.over else None,
    }


def snapshot(
    table: Table, seats: list[Seat] | None = None, game: Game | None = None, state: dict | None = None
) -> dict:
    """Everything a viewer's table is drawn from (without the log)."""
    seats = list(table.seats.all()) if seats is None else seats
    game = current_game(table) if game is None else game
    drawn = None if game is None else game_dict(game, registry.of(table), state)
    if drawn is not None and game.over and table.rated:
        drawn["ratings"] = rating_changes(game.id)
    ordered = sorted(seats, key=lambda s: s.index)
    rows = [seat_dict(seat) for seat in ordered]
    if table.status == Table.Status.LOBBY:  # who sits down is decided here: each account's record now
        _with_records(rows, ordered, reliability.seat_records(ordered))
    elif game is not None:  # as they stood at the deal (a move reads nothing more for them)
        kept = list(game.records or ())
        _with_records(rows, ordered, [kept[seat.index] if seat.index < len(kept) else None for seat in ordered])
    return {
        "table": table_dict(table),
        "seats": rows,
        "game": drawn,
    }


def _with_records(rows: list[dict], seats: list[Seat], records: list[dict | None]) -> None:
    """Each seated account's "finished 28 of 30" beside its name (`records`: one per seat, in the
    same order: reliability.seat_records), none for guests, bots and accounts with no game yet.
    A private profile's is in the snapshot marked private: each viewer's screen keeps it for its
    friends and itself (game.screen.table.seen_by)."""
    for row, seat, found in zip(rows, seats, records, strict=True):
        if found and not seat.bot_level and seat.user_id == found["user"]:
            row["reliable"] = {key: found[key] for key in ("finished", "counted", "since", "left", "private")}


def rating_changes(game_id: int) -> list[list[int]]:
    """What a rated game did to its people's ratings, as the game-over screen shows it:
    [seat, rating before, rating after] for each person it rated, in seat order (services.ratings
    writes them with the game's end, before its last update is built). A private person's is
    left out: the leaderboard shows their rating without their name, and so does this screen."""
    seats = dict(GameResult.objects.filter(game_id=game_id).values_list("user_id", "seat"))
    changes = (
        RatingChange.objects.filter(game_id=game_id)
        .exclude(user__sevn_profile__private=True)
        .values_list("user_id", "before", "value")
    )
    return sorted([seats[user_id], before, after] for user_id, before, after in changes if user_id in seats)


def log_events(game: Game | None, limit: int = LOG_LINES) -> list[dict]:
    """The last engine events of a game, oldest first, as {"seq", "type", ...} dicts."""
    if game is None:
        return []
    rows: QuerySet[Event] = game.events.exclude(kind="action").order_by("-seq")[:limit]
    return [{"seq": row.seq, **row.data} for row in reversed(list(rows))]


def fingerprint(snapshot: dict | None) -> tuple | None:
    """What identifies the state of a table a screen shows: status, game, version, seats."""
    if snapshot is None:
        return None
    game = snapshot["game"]
    return (
        snapshot["table"]["status"],
        game and game["id"],
        game and game["version"],
        tuple((s["index"], s["nickname"], s["bot_level"], s["away"]) for s in snapshot["seats"]),
    )


def fingerprints(codes: list[str]) -> dict[str, tuple]:
    """The fingerprint of each table, read from the database in three queries for all of them."""
    found = list(Table.objects.filter(code__in=codes).values_list("id", "code", "status"))
    tables = {table_id: code for table_id, code, _status in found}
    statuses = {table_id: status for table_id, _code, status in found}
    games: dict[int, tuple[int, int]] = {}
    for table_id, game_id, version in (
        Game.objects.filter(table_id__in=tables).order_by("table_id", "number").values_list("table_id", "id", "version")
    ):
        games[table_id] = (game_id, version)  # the last one, by number, is the current game
    seats: dict[int, list] = {table_id: [] for table_id in tables}
    for table_id, *seat in (
        Seat.objects.filter(table_id__in=tables)
        .order_by("table_id", "index")
        .values_list("table_id", "index", "nickname", "bot_level", "away")
    ):
        seats[table_id].append(tuple(seat))
    return {
        code: (statuses[table_id], *games.get(table_id, (None, None)), tuple(seats[table_id]))
        for table_id, code in tables.items()
    }


def due_games(now=None) -> list[int]:
    """Games whose deadline has passed (a turn's clock, a bot's pause), soonest first."""
    now = now or timezone.now()
    return list(
        Game.objects.filter(deadline__lte=now, over=False).order_by("deadline").values_list("id", flat=True)[:200]
    )
