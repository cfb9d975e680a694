"""A game record, as PGN is for chess: one JSON document with everything needed to check a deal
and replay a finished game (docs/fair-deal.md describes every field).

Built from what the tables stored (services.records reads it): the game's seats, its fair-deal
proof, and its log, in which each move is an "action" row (or, when a clock ran out, the
engine's "timeout" event) followed by the events it caused. The platform's own notes (a game
started, someone away or back, a rematch asked for) are kept apart from the engine's events.
"""

from __future__ import annotations

import hashlib
import json

from game.fair.seeds import SCHEME

FORMAT = "sevn-record"
FORMAT_VERSION = 1
# what the platform writes in a game's log besides moves and the engine's events
PLATFORM_EVENTS = frozenset({"game_started", "away", "back", "removed", "rematch_asked", "presence"})
MEDIA_TYPE = "application/json"


def canonical(value: object) -> bytes:
    """The one byte string a record's seal is computed over: compact JSON, sorted keys, ASCII."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def seal(record: dict) -> str:
    """The SHA-256 of the record without its seal: a copy changed by hand or damaged on the way
    no longer matches (an integrity check, not a signature: the deal's proof is the commitment)."""
    return hashlib.sha256(canonical({key: value for key, value in record.items() if key != "seal"})).hexdigest()


def moves_of(rows: list[tuple[int, str, dict]]) -> tuple[dict, list[dict]]:
    """The deal and the moves, from a game's log rows (version, time, data) in order."""
    deal: dict = {"events": []}
    moves: list[dict] = []
    current = deal
    for version, time, data in rows:
        kind = data.get("type")
        if kind == "action":
            current = {
                "seat": data["seat"],
                "action": data["action"],
                "bot": bool(data.get("bot")),
                "version": version - 1,  # the version it was made on (rows carry the one it made)
                "time": time,
                "events": [],
            }
            moves.append(current)
        elif kind == "timeout":
            current = {"seat": data["seat"], "timeout": True, "version": version - 1, "time": time, "events": [data]}
            moves.append(current)
        elif kind in PLATFORM_EVENTS:
            current.setdefault("notes", []).append(data)
        else:
            current["events"].append(data)
    return deal, moves


def build(
    *,
    game: str,
    rules: str,
    table: str,
    number: int,
    options: dict,
    started: str,
    finished: str,
    seats: list[dict],
    server_seed: str,
    commitment: str,
    client_seeds: list,
    engine_seed: int,
    rows: list[tuple[int, str, dict]],
    result: dict,
) -> dict:
    """A finished game's record, sealed."""
    deal, moves = moves_of(rows)
    record = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game,
        "rules": rules,
        "table": table,
        "number": number,
        "options": options,
        "started": started,
        "finished": finished,
        "seats": seats,
        "fair": {
            "scheme": SCHEME,
            "commitment": commitment,
            "server_seed": server_seed,
            "client_seeds": [[seat, seed] for seat, seed in client_seeds],
            "engine_seed": engine_seed,
        },
        "deal": deal,
        "moves": moves,
        "result": result,
    }
    record["seal"] = seal(record)
    return record


def dumps(record: dict) -> str:
    """A record as the download gives it (readable: indented, keys in their documented order)."""
    return json.dumps(record, indent=1, ensure_ascii=False) + "\n"
