"""A game record checked (docs/fair-deal.md): the commitment, the engine seed, the deal, every
move replayed with the events it caused, and the final scores. Plain Python: the standard
library and the game's own replay module, found by the record's game name among the `replays`
its caller hands over (game.registry.replays(): the verifier names no game and imports none).

`verify(record, site_key, replays=...)` answers a Verdict: each check in order, stopping at the
first that fails (the later ones build on it), and whose signature the record carries. Its
standing is one of three: the site's game (every check holds and the record is signed with
`site_key`), self-consistent (every check holds, but it is unsigned, as version 1 records are, or
signed by another key), or refused. Each check has a code; its English sentence is here (for the
command line), the pages say it in the viewer's language.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from datetime import datetime
from types import ModuleType
from typing import Any, NamedTuple

from game.fair import record as records
from game.fair import seeds, signature

GAME_NAME = re.compile(r"[a-z][a-z0-9_]{0,15}")
RECORD_KEYS_V1 = {
    "format",
    "format_version",
    "game",
    "rules",
    "table",
    "number",
    "options",
    "started",
    "finished",
    "seats",
    "fair",
    "deal",
    "moves",
    "result",
    "seal",
}
RECORD_KEYS = {1: RECORD_KEYS_V1, 2: RECORD_KEYS_V1 | {"signature"}}  # by format version
SIGNATURE_KEYS = {"scheme", "key", "value"}
FAIR_KEYS = {"scheme", "commitment", "server_seed", "client_seeds", "engine_seed"}
SEAT_KEYS = {"seat", "name", "player", "level"}
MOVE_KEYS = {"seat", "action", "bot", "version", "time", "events", "notes"}
TIMEOUT_KEYS = {"seat", "timeout", "version", "time", "events", "notes"}
LEVELS = ("easy", "medium", "hard")
TABLE_CODE = re.compile(r"[A-Z0-9]{1,8}")

# Each check's code and its sentence when it holds / when it fails.
CHECKS = {
    "format": ("The file is a SEVN game record.", "This is not a SEVN game record this verifier can read."),
    "seal": (
        "The record is whole: its seal matches.",
        "The record was changed after it was made: its seal does not match.",
    ),
    "signature": (
        "The record is signed, and its signature matches every field.",
        "The record's signature does not match: it was changed after it was signed.",
    ),
    "game": ("The game and its rules version are known.", "The game or its rules version is unknown."),
    "seats": ("The seats are in order, each a person or a computer player.", "The seats are not valid."),
    "commitment": (
        "The revealed server seed matches the commitment shown before the deal.",
        "The revealed server seed does not match the commitment shown before the deal.",
    ),
    "client_seeds": (
        "The client seeds come from seated people, in seat order.",
        "The client seeds are not valid: only seated people send one, in seat order.",
    ),
    "seed": (
        "The engine's seed follows from the server seed and the client seeds.",
        "The engine's seed does not follow from the server seed and the client seeds.",
    ),
    "deal": ("The deal is exactly the one the seeds give.", "The deal is not the one the seeds give."),
    "moves": ("Every move replays with exactly the recorded events.", "A move does not replay as recorded."),
    "result": ("The final scores are the ones the moves give.", "The final scores are not the ones the moves give."),
}
ORDER = tuple(CHECKS)


class Check(NamedTuple):
    code: str
    ok: bool
    detail: str = ""  # for a move: which one and what differs (English, for the command line)
    move: int | None = None  # the move it concerns (1 = the first), if any
    template: str = ""  # the detail's words before its values go in (the page translates them)
    params: tuple[tuple[str, object], ...] = ()  # the values, by name


SITE, CONSISTENT, REFUSED = "site", "consistent", "refused"  # a verdict's standing


class Verdict(NamedTuple):
    ok: bool  # every check holds: the record is self-consistent
    checks: tuple[Check, ...]
    summary: dict[str, Any]  # what was verified: game, table, number, seats, moves, totals, winners
    signed_by: str | None = None  # the public key whose valid signature it carries (None: unsigned)
    site_key: str | None = None  # the site's public key it was checked against (None: none given)
    unchecked: bool = False  # it is signed, but `cryptography` is missing here to check the signature

    @property
    def failed(self) -> Check | None:
        return next((check for check in self.checks if not check.ok), None)

    @property
    def standing(self) -> str:
        """SITE (signed by the site's key and self-consistent), CONSISTENT or REFUSED."""
        if not self.ok:
            return REFUSED
        return SITE if self.site_key is not None and self.signed_by == self.site_key else CONSISTENT


def gettext_noop(message: str) -> str:
    """Marks a refusal's words for the catalogues (makemessages finds them by this name): the
    verify page says them in its reader's language, the command line in English. No Django here."""
    return message


class Refused(Exception):
    """A check fails: `template` says why (its words in English, `params` filled in); `move`: which."""

    def __init__(self, template: str = "", move: int | None = None, **params: object) -> None:
        self.template, self.params, self.move = template, params, move
        self.detail = template % params if params else template
        super().__init__(self.detail)


def _plain(value: object) -> object:
    """A value as JSON gives it back (tuples as lists): what a record holds."""
    return json.loads(json.dumps(value))


def _time(value: object) -> datetime:
    if not isinstance(value, str):
        raise Refused(gettext_noop("a time is not written as text"))
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        raise Refused(gettext_noop("a time has no time zone"))
    return moment


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(gettext_noop("%(value)s is not a whole number"), value=repr(value))
    return value


def _check_format(record: dict, state: dict) -> None:
    if not isinstance(record, dict) or record.get("format") != records.FORMAT:
        raise Refused(gettext_noop("not a SEVN record"))
    version = record.get("format_version")
    if type(version) is not int or version not in records.READABLE_VERSIONS:  # not True, not 2.0
        raise Refused(gettext_noop("unknown format version"))
    if set(record) != RECORD_KEYS[version]:
        raise Refused(gettext_noop("the record's fields are not the format's"))


def _check_seal(record: dict, state: dict) -> None:
    if record["seal"] != records.seal(record):
        raise Refused()


def _check_signature(record: dict, state: dict) -> bool:
    """Whether the signature matches the key it names (not yet whose key that is: Verdict.standing).
    A version 1 record has none; without `cryptography` it cannot be checked (False: no check)."""
    if record["format_version"] == 1:
        return False
    signed = record["signature"]
    if not isinstance(signed, dict) or set(signed) != SIGNATURE_KEYS or signed["scheme"] != signature.SCHEME:
        raise Refused(gettext_noop("unknown signature scheme"))
    key, value = signed["key"], signed["value"]
    if not isinstance(key, str) or not signature.KEY.fullmatch(key):
        raise Refused(gettext_noop("the key is not 32 bytes in hex"))
    if not isinstance(value, str) or not signature.VALUE.fullmatch(value):
        raise Refused(gettext_noop("the signature is not 64 bytes in hex"))
    try:
        if not signature.valid(records.signed_message(record), key, value):
            raise Refused(gettext_noop("not signed by key %(key)s"), key=key)
    except signature.Unavailable:
        state["unchecked"] = True
        return False
    state["signed_by"] = key
    return True


def replay_module(name: object, replays: Mapping[str, ModuleType]) -> ModuleType:
    """The game's replay module, by the record's game name, among the games' `replays`."""
    if not isinstance(name, str) or not GAME_NAME.fullmatch(name) or name not in replays:
        raise Refused(gettext_noop("no such game"))
    module = replays[name]
    if getattr(module, "NAME", None) != name:
        raise Refused(gettext_noop("no such game"))
    return module


def _check_game(record: dict, state: dict) -> None:
    module = replay_module(record["game"], state["replays"])
    if record["rules"] != module.RULES:
        raise Refused(
            gettext_noop("rules %(rules)s, this verifier knows %(known)s"),
            rules=repr(record["rules"]),
            known=repr(module.RULES),
        )
    options = record["options"]
    if not isinstance(options, dict) or set(options) != set(module.OPTIONS):
        raise Refused(gettext_noop("the options are not the game's"))
    for value in options.values():
        _int(value)
    if not isinstance(record["table"], str) or not TABLE_CODE.fullmatch(record["table"]):
        raise Refused(gettext_noop("not a table code"))
    if _int(record["number"]) < 1:
        raise Refused(gettext_noop("a game's number starts at 1"))
    state["module"] = module


def _check_seats(record: dict, state: dict) -> None:
    seats = record["seats"]
    if not isinstance(seats, list) or not seats:
        raise Refused(gettext_noop("no seats"))
    names = set()
    for position, seat in enumerate(seats):
        if not isinstance(seat, dict) or not set(seat) <= SEAT_KEYS or seat.get("seat") != position:
            raise Refused(gettext_noop("seat %(seat)s is not in order"), seat=position + 1)
        name = seat.get("name")
        if not isinstance(name, str) or not name.strip() or name.casefold() in names:
            raise Refused(gettext_noop("seat %(seat)s has no name of its own"), seat=position + 1)
        names.add(name.casefold())
        if seat.get("player") == "person":
            if "level" in seat:
                raise Refused(gettext_noop("seat %(seat)s: a person has no bot level"), seat=position + 1)
        elif seat.get("player") != "bot" or seat.get("level") not in LEVELS:
            raise Refused(gettext_noop("seat %(seat)s is neither a person nor a computer player"), seat=position + 1)
    started, finished = _time(record["started"]), _time(record["finished"])
    if finished < started:
        raise Refused(gettext_noop("the game finished before it started"))
    state["times"] = (started, finished)


def _check_commitment(record: dict, state: dict) -> None:
    fair = record["fair"]
    if not isinstance(fair, dict) or set(fair) != FAIR_KEYS or fair["scheme"] != seeds.SCHEME:
        raise Refused(gettext_noop("unknown fair-deal scheme"))
    server_seed, commitment = fair["server_seed"], fair["commitment"]
    if not isinstance(server_seed, str) or not seeds.HEX64.fullmatch(server_seed):
        raise Refused(gettext_noop("the server seed is not 32 bytes in hex"))
    if not isinstance(commitment, str) or hashlib.sha256(bytes.fromhex(server_seed)).hexdigest() != commitment:
        raise Refused(
            gettext_noop("SHA-256 of the server seed is %(hash)s, the commitment %(commitment)s"),
            hash=seeds.commitment(server_seed),
            commitment=commitment,
        )


def _check_client_seeds(record: dict, state: dict) -> None:
    client_seeds, seats = record["fair"]["client_seeds"], record["seats"]
    if not isinstance(client_seeds, list):
        raise Refused(gettext_noop("not a list"))
    last = -1
    for entry in client_seeds:
        if not isinstance(entry, list) or len(entry) != 2:
            raise Refused(gettext_noop("each client seed is [seat, seed]"))
        seat, seed = _int(entry[0]), entry[1]
        if not last < seat < len(seats) or seats[seat]["player"] != "person":
            raise Refused(
                gettext_noop("seat %(seat)s sent a client seed out of order or is not a person"), seat=seat + 1
            )
        if seeds.clean_client_seed(seed) != seed:
            raise Refused(gettext_noop("seat %(seat)s's client seed is not 1 to 64 letters and digits"), seat=seat + 1)
        last = seat
    state["client_seeds"] = [(seat, seed) for seat, seed in client_seeds]


def _check_seed(record: dict, state: dict) -> None:
    derived = seeds.engine_seed(
        record["fair"]["server_seed"],
        game=record["game"],
        table=record["table"],
        number=record["number"],
        options=record["options"],
        client_seeds=state["client_seeds"],
    )
    if _int(record["fair"]["engine_seed"]) != derived:
        raise Refused(
            gettext_noop("derived %(derived)s, recorded %(recorded)s"),
            derived=derived,
            recorded=record["fair"]["engine_seed"],
        )
    state["seed"] = derived


def _check_deal(record: dict, state: dict) -> None:
    deal = record["deal"]
    if not isinstance(deal, dict) or not set(deal) <= {"events", "notes"} or "events" not in deal:
        raise Refused(gettext_noop("the deal is not written as the format says"))
    events: list = []
    module = state["module"]
    state["game"] = module.new(len(record["seats"]), state["seed"], dict(record["options"]), events)
    if _plain(events) != deal["events"]:
        raise _difference(_plain(events), deal["events"])


def _difference(replayed: object, recorded: object, move: int | None = None) -> Refused:
    """Where replayed events first differ from the recorded ones."""
    if not isinstance(replayed, list) or not isinstance(recorded, list):
        return Refused(gettext_noop("the events are not a list"), move)
    for index, (mine, theirs) in enumerate(zip(replayed, recorded, strict=False)):
        if mine != theirs:
            return Refused(
                gettext_noop("event %(event)s: replayed %(replayed)s, recorded %(recorded)s"),
                move,
                event=index + 1,
                replayed=json.dumps(mine),
                recorded=json.dumps(theirs),
            )
    return Refused(
        gettext_noop("%(replayed)s events replayed, %(recorded)s recorded"),
        move,
        replayed=len(replayed),
        recorded=len(recorded),
    )


def _check_moves(record: dict, state: dict) -> None:
    moves, seats, module, game = record["moves"], record["seats"], state["module"], state["game"]
    if not isinstance(moves, list):
        raise Refused(gettext_noop("the moves are not a list"))
    started, finished = state["times"]
    last_time, last_version = started, 0
    for number, move in enumerate(moves, start=1):
        if game["over"]:
            raise Refused(gettext_noop("a move after the end of the game"), number)
        try:
            events = _replay_move(move, seats, module, game)
            moment, version = _time(move["time"]), _int(move["version"])
        except Refused as refused:
            raise Refused(refused.template, number, **refused.params) from None
        except Exception as error:  # the engine refused the move, or the move is not one
            raise Refused(gettext_noop("the game refuses it (%(error)s)"), number, error=str(error)) from None
        if not last_time <= moment <= finished or version < last_version:
            raise Refused(gettext_noop("its time or version is out of order"), number)
        last_time, last_version = moment, version
        if _plain(events) != move["events"]:
            raise _difference(_plain(events), move["events"], number)
    if not game["over"]:
        raise Refused(gettext_noop("the game is not over after the last move"))


def _replay_move(move: object, seats: list, module: ModuleType, game: dict) -> list:
    if not isinstance(move, dict):
        raise Refused(gettext_noop("not a move"))
    seat = _int(move.get("seat"))
    if move.get("timeout") is True:
        if not set(move) <= TIMEOUT_KEYS or set(move) < TIMEOUT_KEYS - {"notes"}:
            raise Refused(gettext_noop("not a move"))
        events = module.timeout(game)
        if not events or events[0].get("seat") != seat or seats[seat]["player"] != "person":
            raise Refused(gettext_noop("the clock ran out for another seat"))
        return events
    if not set(move) <= MOVE_KEYS or set(move) < MOVE_KEYS - {"notes"} or not isinstance(move["bot"], bool):
        raise Refused(gettext_noop("not a move"))
    if not 0 <= seat < len(seats) or (not move["bot"] and seats[seat]["player"] != "person"):
        raise Refused(gettext_noop("a computer player's seat moved as a person"))
    return module.apply(game, _plain(move["action"]), seat)


def _check_result(record: dict, state: dict) -> None:
    result = _plain(state["module"].result(state["game"]))
    if record["result"] != result:
        raise Refused(
            gettext_noop("replayed %(replayed)s, recorded %(recorded)s"),
            replayed=json.dumps(result),
            recorded=json.dumps(record["result"]),
        )
    state["result"] = result


STEPS: dict[str, Any] = {
    "format": _check_format,
    "seal": _check_seal,
    "signature": _check_signature,
    "game": _check_game,
    "seats": _check_seats,
    "commitment": _check_commitment,
    "client_seeds": _check_client_seeds,
    "seed": _check_seed,
    "deal": _check_deal,
    "moves": _check_moves,
    "result": _check_result,
}


def verify(record: object, site_key: str | None = None, *, replays: Mapping[str, ModuleType]) -> Verdict:
    """Every check in order, up to the first that fails; `site_key`: the site's public key (hex),
    which a signed record's key must be for its standing to be the site's; `replays`: each game's
    replay module by its name (game.registry.replays())."""
    checks: list[Check] = []
    state: dict[str, Any] = {"replays": replays}
    for code in ORDER:
        try:
            if STEPS[code](record, state) is False:
                continue  # a check that does not apply (no signature to check)
        except Refused as refused:
            checks.append(
                Check(code, False, refused.detail, refused.move, refused.template, tuple(refused.params.items()))
            )
            return Verdict(False, tuple(checks), {})
        except Exception as error:  # a field of the wrong shape: this check fails
            checks.append(Check(code, False, f"{type(error).__name__}: {error}"))
            return Verdict(False, tuple(checks), {})
        checks.append(Check(code, True))
    assert isinstance(record, dict)
    summary = {
        "game": record["game"],
        "table": record["table"],
        "number": record["number"],
        "names": [seat["name"] for seat in record["seats"]],
        "moves": len(record["moves"]),
        "totals": state["result"]["totals"],
        "winners": state["result"]["winners"],
    }
    return Verdict(
        True, tuple(checks), summary, state.get("signed_by"), signature.clean_key(site_key), "unchecked" in state
    )


def loads(text: str | bytes) -> object:
    """A record read from its JSON text (None if it is not JSON)."""
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError):  # not JSON, or nested past all reason
        return None
