"""`python -m game.verify record.json --key KEY`: check a game record (docs/fair-deal.md) with the
standard library, the game's engine (its replay module, from game.registry, which makes no Kind
for it) and, for the site's signature, the `cryptography` package (no Django, no database, no
network). KEY is the site's public key (64 hex digits, as the site shows
it at /record-key.txt), or a file holding it.

Prints each check and a verdict; exits 0 when the record is the site's game (every check holds
and it is signed with KEY), 3 when it is self-consistent but not signed with KEY (unsigned, signed
by another key, or no KEY given), 1 when it is refused, 2 when the file or key cannot be read.
"""

from __future__ import annotations

import sys
from pathlib import Path

from game import registry
from game.fair.signature import clean_key
from game.fair.verify import CHECKS, CONSISTENT, SITE, Verdict, loads, verify

USAGE = "usage: python -m game.verify record.json [--key KEY]  (KEY: the site's public key, or a file holding it)"
EXIT = {SITE: 0, CONSISTENT: 3}


def _key(text: str) -> str | None:
    """The key given: itself, or the first line of the file it names."""
    key = clean_key(text)
    if key is None and Path(text).is_file():
        lines = Path(text).read_text(errors="replace").splitlines()
        key = clean_key(lines[0] if lines else "")
    return key


def _arguments(argv: list[str]) -> tuple[str, str | None] | None:
    if len(argv) == 1:
        return argv[0], None
    if len(argv) == 3 and "--key" in argv[:2]:
        at = argv.index("--key")
        rest = argv[:at] + argv[at + 2 :]
        return rest[0], argv[at + 1]
    return None


def _standing(verdict: Verdict) -> str:
    summary = verdict.summary
    what = f"{summary['game']} game {summary['number']} at table {summary['table']}, {summary['moves']} moves"
    if verdict.standing == SITE:
        return (
            f"VERIFIED, THIS SITE'S GAME: {what}; signed with the site's key, so every field is as the site "
            f"recorded it, and the deal came from the committed seed and every move, event and score is as recorded."
        )
    if verdict.unchecked:
        why = "its signature could not be checked here: install the cryptography package"
    elif verdict.signed_by is None:
        why = "it is not signed (a record of format version 1)"
    elif verdict.site_key is None:
        why = f"it is signed with key {verdict.signed_by}: give the site's key with --key to check it is the site's"
    else:
        why = f"it is signed with key {verdict.signed_by}, not with the site's key {verdict.site_key}"
    return (
        f"SELF-CONSISTENT, NOT SIGNED BY THIS SITE: {what}; the deal follows from its seeds and every move "
        f"replays, but {why}. Anyone can make such a record: it does not prove the site dealt this game."
    )


def main(argv: list[str]) -> int:
    arguments = _arguments(argv)
    if arguments is None:
        print(USAGE, file=sys.stderr)
        return 2
    path, key_text = arguments
    site_key = _key(key_text) if key_text is not None else None
    if key_text is not None and site_key is None:
        print(f"{key_text} is not a public key (64 hex digits) nor a file holding one", file=sys.stderr)
        return 2
    try:
        with open(path, "rb") as file:
            record = loads(file.read())
    except OSError as error:
        print(f"cannot read {path}: {error.strerror}", file=sys.stderr)
        return 2
    if record is None:
        print(f"{path} is not JSON", file=sys.stderr)
        return 2
    verdict = verify(record, site_key, replays=registry.replays())
    for check in verdict.checks:
        good, bad = CHECKS[check.code]
        line = f"  ok    {good}" if check.ok else f"  FAIL  {bad}"
        if check.move is not None:
            line += f" (move {check.move})"
        print(line)
        if check.detail and not check.ok:
            print(f"        {check.detail}")
    if verdict.ok:
        print(_standing(verdict))
        return EXIT[verdict.standing]
    print("NOT VERIFIED: this record does not prove a fair game (see the failed check above).")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
