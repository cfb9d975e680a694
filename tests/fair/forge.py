"""Records as a forger would make them offline: a new server seed and commitment for a real table
and game number, a game played through the engine alone with other winners, sealed (an integrity
check anyone can redo); unsigned as version 1 records were, or signed with the forger's own key."""

from __future__ import annotations

import copy
import hashlib
import json
import random

from game import registry
from game.fair import record as records
from game.fair import seeds, signature


def plain(value: object) -> object:
    return json.loads(json.dumps(value))


def unsigned(record: dict) -> dict:
    """The record as version 1 wrote it: no signature, sealed."""
    old = {key: value for key, value in copy.deepcopy(record).items() if key != "signature"}
    old["format_version"] = 1
    old["seal"] = records.seal(old)
    return old


def signed_with(record: dict, private_key: str) -> dict:
    """The record (of either version) as version 2, resealed and signed with this key."""
    new = {key: value for key, value in copy.deepcopy(record).items() if key != "signature"}
    new["format_version"] = 2
    new["seal"] = records.seal(new)
    new["signature"] = {
        "scheme": signature.SCHEME,
        "key": signature.public_key(private_key),
        "value": signature.sign(records.signed_message(new), private_key),
    }
    return new


def _played(real: dict, server_seed: str, rng: random.Random) -> dict:
    """`real`'s seats and options dealt from this server seed at its table and number, played out."""
    kind = registry.KINDS[real["game"]]
    client_seeds = [(seat, seed) for seat, seed in real["fair"]["client_seeds"]]
    engine_seed = seeds.engine_seed(
        server_seed,
        game=real["game"],
        table=real["table"],
        number=real["number"],
        options=real["options"],
        client_seeds=client_seeds,
    )
    dealt: list = []
    state = kind.replay.new(len(real["seats"]), engine_seed, dict(real["options"]), dealt)
    moves = []
    while not state["over"]:
        seat = kind.acting(state)
        action = rng.choice(kind.engine.legal_actions(state))
        events = kind.replay.apply(state, action, seat)
        bot = real["seats"][seat]["player"] == "bot"
        moves.append(
            {"seat": seat, "action": plain(action), "bot": bot, "version": len(moves), "time": real["started"]}
            | {"events": plain(events)}
        )
    forged = unsigned(real)
    forged["fair"] = {
        "scheme": seeds.SCHEME,
        "commitment": seeds.commitment(server_seed),
        "server_seed": server_seed,
        "client_seeds": [list(pair) for pair in client_seeds],
        "engine_seed": engine_seed,
    }
    forged.update(deal={"events": plain(dealt)}, moves=moves, result=plain(kind.replay.result(state)))
    forged["seal"] = records.seal(forged)
    return forged


def forged(real: dict, **where: object) -> dict:
    """A self-consistent, unsigned record of the real record's table and game number (or those
    `where` gives: table=..., number=...), the same seats, dealt from another server seed and won
    by others."""
    real = {**real, **where}
    for attempt in range(50):
        server_seed = hashlib.sha256(f"forger {attempt}".encode()).hexdigest()
        record = _played(real, server_seed, random.Random(attempt))
        if record["result"]["winners"] != real["result"]["winners"]:
            return record
    raise AssertionError("no forgery with other winners")
