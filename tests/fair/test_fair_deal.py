"""Commit, then reveal (game.fair.seeds, docs/fair-deal.md): the commitment is on the table before
the deal, the seated people's client seeds go into the engine's seed, and the server seed is in
no payload before the game is over, in either game."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from game import services
from game.core.errors import ServiceError
from game.fair import seeds
from game.models import Seat, Table
from game.services import table_reads
from tests.fair.play import Watch, game_of, page, play_out, table_of

pytestmark = pytest.mark.django_db

GAMES = ("sevn", "sevens")


def test_the_scheme_as_written_down():
    server = "00" * 31 + "01"
    assert seeds.commitment(server) == hashlib.sha256(bytes.fromhex(server)).hexdigest()
    text = seeds.message("sevn", "ABC234", 2, {"target": 250}, [(3, "bb"), (0, "aa")])
    assert text == b'["sevn-fair/1","sevn","ABC234",2,{"target":250},[[0,"aa"],[3,"bb"]]]'
    digest = hmac.new(bytes.fromhex(server), text, hashlib.sha256).digest()
    derived = seeds.engine_seed(
        server, game="sevn", table="ABC234", number=2, options={"target": 250}, client_seeds=[(0, "aa"), (3, "bb")]
    )
    assert derived == int.from_bytes(digest[:8], "big") >> 1 and 0 <= derived < 2**63
    # the worked example in docs/fair-deal.md
    assert derived == 5600874119677931379
    # every input changes the seed
    base = {"game": "sevn", "table": "ABC234", "number": 2, "options": {"target": 250}, "client_seeds": [(0, "aa")]}
    changed = [
        {**base, "game": "sevens"},
        {**base, "table": "ABC235"},
        {**base, "number": 3},
        {**base, "options": {"target": 251}},
        {**base, "client_seeds": [(0, "ab")]},
        {**base, "client_seeds": [(1, "aa")]},
        {**base, "client_seeds": []},
    ]
    first = seeds.engine_seed(server, **base)
    assert all(seeds.engine_seed(server, **other) != first for other in changed)
    assert seeds.engine_seed("00" * 32, **base) != first
    assert len(seeds.new_server_seed()) == 64 and seeds.new_server_seed() != seeds.new_server_seed()


@pytest.mark.parametrize("kind", GAMES)
def test_the_deal_comes_from_the_committed_seed_and_the_people_s_client_seeds(kind):
    table, players = table_of(kind, seeds={0: "Ana5eed", 1: "b0b"})
    committed = table_reads.snapshot(table)["table"]["commitment"]
    server_seed = table.next_seed
    assert committed == hashlib.sha256(bytes.fromhex(server_seed)).hexdigest()
    services.game_start(code=table.code, player=players[0])
    game, table = game_of(table), Table.objects.get(id=table.id)
    assert (game.server_seed, game.commitment) == (server_seed, committed)
    assert game.client_seeds == [[0, "Ana5eed"], [1, "b0b"]]  # the bot (seat 2) sends none
    options = {"target": 120} if kind == "sevn" else {"rounds": 1}
    assert game.seed == seeds.engine_seed(
        server_seed, game=kind, table=table.code, number=1, options=options, client_seeds=[(0, "Ana5eed"), (1, "b0b")]
    )
    # the next deal has a fresh seed and commitment; the seeds sent were for this deal only
    assert table.next_seed != server_seed
    assert table_reads.snapshot(table)["table"]["commitment"] == seeds.commitment(table.next_seed)
    assert set(Seat.objects.filter(table=table).values_list("client_seed", flat=True)) == {""}


def test_a_person_who_sent_no_seed_contributes_none_and_a_stale_commitment_is_refused():
    table, players = table_of("sevn", names=("Ana", "Ben"), bots=())
    shown = table_reads.snapshot(table)["table"]["commitment"]
    with pytest.raises(ServiceError) as refused:
        services.client_seed_set(code=table.code, player=players[1], seed="abc", commitment="0" * 64)
    assert refused.value.code == "stale_commitment"
    with pytest.raises(ServiceError) as refused:
        services.client_seed_set(code=table.code, player=players[1], seed="not hex!", commitment=shown)
    assert refused.value.code == "bad_seed"
    outsider = type(players[0])(key="guest:zoe")
    with pytest.raises(ServiceError) as refused:
        services.client_seed_set(code=table.code, player=outsider, seed="abc", commitment=shown)
    assert refused.value.code == "not_seated"
    services.client_seed_set(code=table.code, player=players[1], seed="abc", commitment=shown)
    services.game_start(code=table.code, player=players[0])
    assert game_of(table).client_seeds == [[1, "abc"]]
    with pytest.raises(ServiceError) as refused:  # dealt: the seed would count for nothing
        services.client_seed_set(code=table.code, player=players[0], seed="abc", commitment=shown)
    assert refused.value.code == "dealt"


@pytest.mark.parametrize("kind", GAMES)
def test_no_payload_holds_the_server_seed_before_the_game_is_over(kind):
    table, players = table_of(kind, seeds={0: "f00d"})
    watch = Watch(table, players)
    assert any(table_reads.snapshot(table)["table"]["commitment"] in html for html in watch.sent)
    server_seed = table.next_seed
    game = play_out(table, players, watch)
    before_end = watch.sent[: _end(watch.sent)]
    engine_seed = str(game.seed)
    assert game.server_seed == server_seed and game.version > 5 and len(before_end) > 20
    assert not [text for text in before_end if server_seed in text or engine_seed in text]
    assert any(game.commitment in text for text in before_end)  # the commitment was on every screen
    # once it is over, it is revealed on the table (the fair-deal panel), with the record
    assert server_seed in page(table, players[1].key) and server_seed in page(table, None)
    # the next deal's server seed stays secret, over or not
    next_seed = Table.objects.get(id=table.id).next_seed
    assert not [text for text in watch.sent if next_seed in text]


def _end(sent: list[str]) -> int:
    """Where the update that ended the game is among what was sent."""
    for index, text in enumerate(sent):
        if text.startswith("{") and json.loads(text)["snapshot"]["game"]["over"]:
            return index
    raise AssertionError("the game never ended")
