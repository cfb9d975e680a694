"""A game record, as PGN is for chess: one JSON document with everything needed to check a deal
and replay a finished game (docs/fair-deal.md describes every field).

Built from what the tables stored (services.records reads it): the game's seats, its fair-deal
proof, and its log, in which each move is an "action" row (or, when a clock ran out, the
engine's "timeout" event) followed by the events it caused. The platform's own notes (a game
started, someone away or back, a rematch asked for) are kept apart from the engine's events.

Version 2 adds the site's signature (game.fair.signature) over everything else: version 1 records,
unsigned, stay readable (the verifier calls them self-consistent, not the site's).
"""

from __future__ import annotations

import hashlib
import json

from game.fair import signature
from game.fair.seeds import SCHEME

FORMAT = "sevn-record"
FORMAT_VERSION = 2  # 2: signed by the site; 1 (unsigned) is still read
READABLE_VERSIONS = (1, 2)
SIGNED_CONTEXT = b"sevn-record-signature/1\n"  # what a signature is over starts with it (never another message)
# what the platform writes in a game's log besides moves and the engine's events
PLATFORM_EVENTS = frozenset(
    {"game_started", "away", "back", "removed", "rematch_asked", "presence", "missed", "let_go_asked", "let_go"}
)
MEDIA_TYPE = "application/json"


def canonical(value: object) -> bytes:
    """The one byte string a record's seal is computed over: compact JSON, sorted keys, ASCII."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def seal(record: dict) -> str:
    """The SHA-256 of the record without its seal and signature: a copy changed by hand or damaged
    on the way no longer matches (an integrity check anyone can redo; the signature says whose)."""
    unsealed = {key: value for key, value in record.items() if key not in ("seal", "signature")}
    return hashlib.sha256(canonical(unsealed)).hexdigest()


def signed_message(record: dict) -> bytes:
    """The bytes the site's signature is made over: a fixed prefix, then the record without its
    signature (seal included) as `canonical` writes it."""
    return SIGNED_CONTEXT + canonical({key: value for key, value in record.items() if key != "signature"})


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
    signing_key: str,
) -> dict:
    """A finished game's record, sealed and signed with the site's private key."""
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
    record["signature"] = {
        "scheme": signature.SCHEME,
        "key": signature.public_key(signing_key),
        "value": signature.sign(signed_message(record), signing_key),
    }
    return record


def dumps(record: dict) -> str:
    """A record as the download gives it (readable: indented, keys in their documented order)."""
    return json.dumps(record, indent=1, ensure_ascii=False) + "\n"
