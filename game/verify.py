"""`python -m game.verify record.json`: check a game record (docs/fair-deal.md) with the standard
library and the game's engine alone (no Django, no database, no network).

Prints each check and a verdict; exits 0 when the record is verified, 1 when it is not, 2 when
the file cannot be read.
"""

from __future__ import annotations

import sys

from game.fair.verify import CHECKS, loads, verify


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m game.verify record.json", file=sys.stderr)
        return 2
    try:
        with open(argv[0], "rb") as file:
            record = loads(file.read())
    except OSError as error:
        print(f"cannot read {argv[0]}: {error.strerror}", file=sys.stderr)
        return 2
    if record is None:
        print(f"{argv[0]} is not JSON", file=sys.stderr)
        return 2
    verdict = verify(record)
    for check in verdict.checks:
        good, bad = CHECKS[check.code]
        line = f"  ok    {good}" if check.ok else f"  FAIL  {bad}"
        if check.move is not None:
            line += f" (move {check.move})"
        print(line)
        if check.detail and not check.ok:
            print(f"        {check.detail}")
    if verdict.ok:
        summary = verdict.summary
        print(
            f"VERIFIED: {summary['game']} game {summary['number']} at table {summary['table']}, "
            f"{summary['moves']} moves; the deal came from the committed seed and every move, event "
            f"and score is as recorded."
        )
        return 0
    print("NOT VERIFIED: this record does not prove a fair game (see the failed check above).")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
