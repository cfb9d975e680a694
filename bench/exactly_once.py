"""Every move applied exactly once and shown on every screen: the load benchmark's check of its
own run, from the database the stack committed to and the screens the load client kept.

After the play time the people stop moving and their sockets go on reading for a while (the
seats' `drain`), so that moves still in flight on an overloaded server land. Then, per table of
four seats (seat i of a table is its i-th person, as bench/service_load.py seats them):

- doubled: a person's move in the database (an "action" event without "bot", at the version
  before the event's) on a version that person never answered: applied twice, or out of
  nowhere. The table version each move carries is what should keep this at 0;
- lost: the table still waits on a version its deciding person answered, with no refusal
  arriving after the answer: a move sent, neither applied nor refused;
- behind: a screen that does not show a move committed SETTLE seconds or more before it
  stopped reading (bots playing for people who never got in go on moving during the drain:
  their latest moves may still be on their way);
- never_in: a seat that never got its table at all (a server that kept turning it away).
"""

from __future__ import annotations

import time

SETTLE = 3.0  # seconds a committed move has to reach every screen before the screens stop reading


def _codes(tables) -> list[str]:
    return [table.seats[0].code for table in tables]


def _in(codes: list[str]) -> str:
    assert all(code.isalnum() for code in codes)  # table codes: safe to write into the query
    return ", ".join(f"'{code}'" for code in codes)


def check(stack, tables) -> dict:
    codes = _codes(tables)
    if not codes:
        return {"doubled": 0, "lost": 0, "behind": 0, "never_in": 0}
    held = {
        code: (number, version)
        for code, number, version in stack.postgres.sql(
            "SELECT DISTINCT ON (t.code) t.code, g.number, g.version FROM game_table t "
            f"JOIN game_game g ON g.table_id = t.id WHERE t.code IN ({_in(codes)}) ORDER BY t.code, g.number DESC"
        )
    }
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
    moves = stack.postgres.sql(
        "SELECT t.code, g.number, e.version - 1, (e.data->>'seat')::int FROM game_event e "
        "JOIN game_game g ON g.id = e.game_id JOIN game_table t ON t.id = g.table_id "
        f"WHERE e.kind = 'action' AND NOT (e.data ? 'bot') AND t.code IN ({_in(codes)})"
    )
    by_code = {table.seats[0].code: table for table in tables}
    doubled = sum(
        1 for code, number, before, seat in moves if (number, before) not in by_code[code].seats[seat].answered
    )
    lost = behind = never_in = 0
    for code, table in by_code.items():
        now = held.get(code)
        for seat in table.seats:
            never_in += seat.screen.version == (0, -1)
            behind += seat.screen.version < settled[code]
            sent = seat.answered.get(now)
            lost += sent is not None and seat.refused_at < sent
    return {"doubled": doubled, "lost": lost, "behind": behind, "never_in": never_in}
