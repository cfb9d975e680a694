"""Every move applied exactly once and shown on every screen: the load benchmark's check of its
own run, from the database the stack committed to and the screens the load client kept.

After the play time the people stop moving and their sockets go on reading for a while (the
seats' `drain`), so that moves still in flight on an overloaded server land. Then, per table of
four seats (seat i of a table is its i-th person, as bench/service_load.py seats them):

- doubled: a person's move in the database (an "action" event without "bot", at the version
  before the event's) on a version that person never answered: applied twice, or out of
  nowhere. The table version each move carries is what should keep this at 0. A move answered
  on an earlier version whose later versions only changed who plays a seat (someone marked away
  or back) is applied on the version it finds (game.services.play._stale): not doubled, but
  counted as applied_late;
- lost: the table still waits on a version its deciding person answered, with no refusal
  arriving after the answer: a move sent, neither applied nor refused (moves still queued on
  an overloaded server are given up to SETTLE_LOST seconds more to land);
- behind: a screen that does not show a move committed SETTLE seconds or more before it
  stopped reading (bots playing for people who never got in go on moving during the drain:
  their latest moves may still be on their way);
- never_in: a seat that never got its table at all (a server that kept turning it away);
- taken_over: moves a bot made for a person (every seat here is a person's): their seat was
  marked away, no socket of theirs seen for a minute (presence.AWAY_AFTER), or their turn was
  hurried as absent. Not an error of a move, but people a slow server lost sight of;
- away_back: people marked away, or back, in the log. Each is a new table version: a move in
  flight on the version before it is refused as stale (and made again on the table shown).
"""

from __future__ import annotations

import time

SETTLE = 3.0  # seconds a committed move has to reach every screen before the screens stop reading
SETTLE_LOST = 30.0  # seconds a move answered may still land once the people have stopped
# The events that change only who plays a seat (game.services.play.SEAT_CHANGES; a test keeps
# the two the same): a move made before them still applies.
SEAT_CHANGES = frozenset({"away", "back", "removed", "rematch_asked", "let_go", "let_go_asked"})


def answered_before(answered, number: int, before: int, kinds_by_version: dict[int, set[str]]) -> bool:
    """Whether a move applied on version `before` of game `number` was answered by its person on
    that version, or on an earlier one that only seat changes separate from it (every version
    between made by seat changes alone: a version that logged nothing counts as a move)."""
    if (number, before) in answered:
        return True
    for version in range(before, 0, -1):
        kinds = kinds_by_version.get(version)
        if not kinds or not kinds <= SEAT_CHANGES:
            return False
        if (number, version - 1) in answered:
            return True
    return False


def sat_down(stack, tables) -> None:
    """The people of these tables arrive now: their seats count as seen now, not when they were
    dealt in (setting up hundreds of tables takes longer than a person may be away before a bot
    takes over, presence.AWAY_AFTER), so that the load measures people playing, not people
    marked away and back while the crowd connects."""
    stack.postgres.sql(
        "UPDATE game_seat SET last_seen = now() WHERE table_id IN "
        f"(SELECT id FROM game_table WHERE code IN ({_in(_codes(tables))}))"
    )


def _codes(tables) -> list[str]:
    return [table.seats[0].code for table in tables]


def _in(codes: list[str]) -> str:
    assert all(code.isalnum() for code in codes)  # table codes: safe to write into the query
    return ", ".join(f"'{code}'" for code in codes)


def _held(stack, codes: list[str]) -> dict[str, tuple[int, int]]:
    """Each table's current game number and version, as committed."""
    return {
        code: (number, version)
        for code, number, version in stack.postgres.sql(
            "SELECT DISTINCT ON (t.code) t.code, g.number, g.version FROM game_table t "
            f"JOIN game_game g ON g.table_id = t.id WHERE t.code IN ({_in(codes)}) ORDER BY t.code, g.number DESC"
        )
    }


def _kinds_by_version(stack, codes: list[str]) -> dict[tuple[str, int], dict[int, set[str]]]:
    """The kinds of event that made each version, per game (code, number)."""
    found: dict[tuple[str, int], dict[int, set[str]]] = {}
    if not codes:
        return found
    for code, number, version, kind in stack.postgres.sql(
        "SELECT t.code, g.number, e.version, e.kind FROM game_event e JOIN game_game g ON g.id = e.game_id "
        f"JOIN game_table t ON t.id = g.table_id WHERE t.code IN ({_in(codes)})"
    ):
        found.setdefault((code, number), {}).setdefault(version, set()).add(kind)
    return found


def _unanswered(tables, held: dict) -> list:
    """Seats whose answer to the version their table still shows got no refusal after it."""
    waiting = []
    for table in tables:
        now = held.get(table.seats[0].code)
        for seat in table.seats:
            sent = seat.answered.get(now)
            if sent is not None and seat.refused_at < sent:
                waiting.append(seat)
    return waiting


def check(stack, tables) -> dict:
    codes = _codes(tables)
    if not codes:
        return {"doubled": 0, "applied_late": 0, "lost": 0, "behind": 0, "never_in": 0, "taken_over": 0, "away_back": 0}
    stopped = min(seat.until + seat.drain for table in tables for seat in table.seats)
    cutoff = time.time() - (time.monotonic() - stopped) - SETTLE  # wall clock: the events' own
    settled = {
        code: (number, version)
        for code, number, version in stack.postgres.sql(
            "SELECT DISTINCT ON (t.code) t.code, g.number, "
            f"(SELECT coalesce(max(e.version), 0) FROM game_event e WHERE e.game_id = g.id "
            f"AND e.created < to_timestamp({cutoff:.3f})) FROM game_table t JOIN game_game g ON g.table_id = t.id "
            f"WHERE t.code IN ({_in(codes)}) ORDER BY t.code, g.number DESC"
        )
    }
    behind = never_in = 0
    for table in tables:
        for seat in table.seats:
            never_in += seat.screen.version == (0, -1)
            behind += seat.screen.version < settled[seat.code]
    deadline = time.monotonic() + SETTLE_LOST  # moves still queued land meanwhile (or are refused)
    waiting = _unanswered(tables, _held(stack, codes))
    while waiting and time.monotonic() < deadline:
        time.sleep(1.0)
        waiting = _unanswered(tables, _held(stack, codes))
    moves = stack.postgres.sql(
        "SELECT t.code, g.number, e.version - 1, (e.data->>'seat')::int FROM game_event e "
        "JOIN game_game g ON g.id = e.game_id JOIN game_table t ON t.id = g.table_id "
        f"WHERE e.kind = 'action' AND NOT (e.data ? 'bot') AND t.code IN ({_in(codes)})"
    )
    by_code = {table.seats[0].code: table for table in tables}
    unanswered = [
        (code, number, before, seat)
        for code, number, before, seat in moves
        if (number, before) not in by_code[code].seats[seat].answered
    ]
    kinds = _kinds_by_version(stack, sorted({code for code, *_ in unanswered}))
    doubled = sum(
        1
        for code, number, before, seat in unanswered
        if not answered_before(by_code[code].seats[seat].answered, number, before, kinds.get((code, number), {}))
    )
    applied_late = len(unanswered) - doubled
    taken_over, away_back = stack.postgres.sql(
        "SELECT count(*) FILTER (WHERE e.kind = 'action' AND e.data ? 'bot'), "
        "count(*) FILTER (WHERE e.kind IN ('away', 'back')) FROM game_event e JOIN game_game g ON g.id = e.game_id "
        f"JOIN game_table t ON t.id = g.table_id WHERE t.code IN ({_in(codes)})"
    )[0]
    return {
        "doubled": doubled,
        "applied_late": applied_late,
        "lost": len(waiting),
        "behind": behind,
        "never_in": never_in,
        "taken_over": taken_over,
        "away_back": away_back,
    }
