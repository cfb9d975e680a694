"""The hard bot's two hot loops in C (native.c), loaded with ctypes once `make setup` has built
_native.so: the rollouts (a round played out in many imagined deals at once) and the
sampler's chain; and, for the analysis after a game, a round's end solved exactly. Each does
exactly what its Python reference does (rollout.end_after, inference's chain, endgame.Solver:
the same ends, the same deals from the same random numbers), some ten to a hundred times faster;
that is what lets the hard bot imagine eight times the deals within its time. Without the
library the Python does the work, and the bot plays the same, only slower.
"""

from __future__ import annotations

import ctypes
from array import array
from collections.abc import Iterator
from pathlib import Path

from .rollout import end_after
from .sight import Evidence

LIBRARY = Path(__file__).with_name("_native.so")
PART = 64  # deals asked of the C chain at a time


def _load() -> ctypes.CDLL | None:
    try:
        library = ctypes.CDLL(str(LIBRARY))
    except OSError:
        return None
    if not hasattr(library, "sevens_solve"):  # built before native.c had it: `make setup` rebuilds it
        return None
    pointer, integer, word = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64
    library.sevens_ends.restype = integer
    library.sevens_ends.argtypes = [pointer, integer, integer, word, integer, integer, pointer]
    library.sevens_solve.restype = integer
    library.sevens_solve.argtypes = [pointer, integer, integer, word, integer, integer, pointer, pointer, pointer]
    library.sevens_chain_size.restype = integer
    library.sevens_chain_size.argtypes = []
    library.sevens_chain_start.restype = integer
    library.sevens_chain_start.argtypes = [pointer, integer, pointer, pointer, integer, pointer, word]
    library.sevens_chain_deals.restype = None
    library.sevens_chain_deals.argtypes = [pointer, integer, integer, pointer, integer, integer, integer, pointer]
    return library


C = _load()


def _address(numbers: array) -> int:
    return numbers.buffer_info()[0]


def deal_ends(deals: array, seats: int, fitting: int, me: int, card: int) -> list[int]:
    """The end (rollout.end_key) of each deal's round in which `me` plays `card` (a bit); see
    rollout.end_after. `deals` holds the deals' hands one after another, `seats` a deal."""
    if C is None:
        return [end_after(list(deals[at : at + seats]), fitting, me, card) for at in range(0, len(deals), seats)]
    keys = array("I", bytes(4 * (len(deals) // seats)))
    status = C.sevens_ends(_address(deals), len(keys), seats, fitting, me, card.bit_length() - 1, _address(keys))
    if status:
        raise RuntimeError(f"the C rollouts refused the deals ({status})")
    return keys.tolist()


def solve_ends(deals: array, seats: int, fitting: int, me: int, card: int, stride: array, worth: array) -> list[int]:
    """The end (rollout.end_key) of each deal's round in which `me` plays `card` (a bit) and
    every seat then plays its best with every hand known: endgame.Solver's, in C (which
    `endgame` uses only when the library is built). `worth[(sum of count * stride) * seats +
    seat]` is each seat's worth of an end with those counts left."""
    assert C is not None
    keys = array("I", bytes(4 * (len(deals) // seats)))
    status = C.sevens_solve(
        _address(deals),
        len(keys),
        seats,
        fitting,
        me,
        card.bit_length() - 1,
        _address(stride),
        _address(worth),
        _address(keys),
    )
    if status:
        raise RuntimeError(f"the C solver refused the deals ({status})")
    return keys.tolist()


class _Evidence(ctypes.Structure):
    """native.c's Evidence: every seat's plays and their candidates, flattened."""

    _fields_ = [
        (name, ctypes.c_void_p) for name in ("items", "cands", "card", "since", "bit", "free", "free_count", "powers")
    ]


def chain_deals(
    hands: list[int],
    lacks: list[int],
    me: int,
    evidence: list[Evidence],
    powers: list[float],
    seed: int,
    burn_in: int,
    thin: int,
) -> Iterator[list[int]]:
    """inference.likely_deals' chain in C, from the deal `hands`: its deals, `PART` at a
    time, as many as are taken."""
    assert C is not None
    seats = len(hands)
    items, cands = array("i", [0]), array("i", [0])
    card, since = array("Q"), array("Q")
    columns = [array("Q"), array("Q"), array("i")]  # bit, free, free_count
    for plays in evidence:
        for played, played_since, candidates in plays:
            card.append(played)
            since.append(played_since)
            for candidate in candidates:
                for column, value in zip(columns, candidate, strict=True):
                    column.append(value)
            cands.append(len(columns[0]))
        items.append(len(card))
    weights = array("d", powers)
    bit, free, free_count = columns
    keep = (items, cands, card, since, bit, free, free_count, weights)  # in native.c's order; alive with this generator
    seen = _Evidence(*(_address(numbers) if len(numbers) else None for numbers in keep))
    state = ctypes.create_string_buffer(C.sevens_chain_size())
    start, lacking = array("Q", hands), array("Q", lacks)
    status = C.sevens_chain_start(
        state, len(state), _address(start), _address(lacking), seats, ctypes.byref(seen), seed
    )
    if status:
        raise RuntimeError(f"the C chain refused the deal ({status})")
    out = array("Q", bytes(8 * seats * PART))
    while True:
        C.sevens_chain_deals(state, seats, me, ctypes.byref(seen), burn_in, thin, PART, _address(out))
        flat = out.tolist()
        for first in range(0, len(flat), seats):
            yield flat[first : first + seats]
