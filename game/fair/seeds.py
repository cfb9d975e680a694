"""Commit, then reveal (docs/fair-deal.md, scheme "sevn-fair/1").

Before a game is dealt the server draws a fresh 32-byte server seed and shows its SHA-256, the
commitment. Each seated person's browser adds a client seed. At the deal the engine's seed is

    HMAC-SHA256(key = the server seed's 32 bytes, message = compact JSON of
                ["sevn-fair/1", game, table code, game number, {options}, [[seat, client seed], ...]])

(the client seeds in seat order, the options' keys sorted, non-ASCII escaped as \\uXXXX)

read as a big-endian number, its first 8 bytes, shifted right by one bit (a 63-bit whole number,
what the engines take). The server seed is shown when the game is over: anyone can then check it
against the commitment and derive the same engine seed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets

SCHEME = "sevn-fair/1"
SERVER_SEED_BYTES = 32
CLIENT_SEED = re.compile(r"[0-9A-Za-z]{1,64}")  # what a browser may contribute (it sends 64 hex digits)
HEX64 = re.compile(r"[0-9a-f]{64}")


def new_server_seed() -> str:
    """A fresh server seed, 32 random bytes as 64 lowercase hex digits."""
    return secrets.token_bytes(SERVER_SEED_BYTES).hex()


def commitment(server_seed: str) -> str:
    """The SHA-256 of the server seed's 32 bytes, in lowercase hex: shown before the deal."""
    return hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()


def clean_client_seed(value: object) -> str | None:
    """A client seed as the scheme takes it (1 to 64 letters and digits), or None."""
    text = str(value or "").strip()
    return text if CLIENT_SEED.fullmatch(text) else None


def message(game: str, table: str, number: int, options: dict, client_seeds: list[tuple[int, str]]) -> bytes:
    """The HMAC's message: the scheme, the game, its table's code, its number at that table, the
    settings it is played by and each contributed client seed with its seat, in seat order, as
    compact JSON with sorted keys, ASCII only (so any language's JSON writer gives the same bytes)."""
    seeds = [[int(seat), str(seed)] for seat, seed in sorted(client_seeds)]
    text = json.dumps(
        [SCHEME, str(game), str(table), int(number), dict(options), seeds], separators=(",", ":"), sort_keys=True
    )
    return text.encode("ascii")


def engine_seed(
    server_seed: str, *, game: str, table: str, number: int, options: dict, client_seeds: list[tuple[int, str]]
) -> int:
    """The engine's seed for this deal (a whole number below 2**63)."""
    text = message(game, table, number, options, client_seeds)
    digest = hmac.new(bytes.fromhex(server_seed), text, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1
