"""Fair deals and game records: the platform's proof that a deal was not chosen.

Plain Python (the standard library and, to replay, a game's own `replay` module): no Django, so
`python -m game.verify record.json` runs anywhere the repository does. docs/fair-deal.md writes
the scheme and the record format down.

    seeds.py   the commitment and the engine seed's derivation (HMAC-SHA256)
    record.py  a game record: its format, built from what the tables stored
    verify.py  a record checked: commitment, seed, every move replayed, every event and the scores
"""
