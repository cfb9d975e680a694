"""An update reaches sockets as the same plain data, whether by reference in one process or
as JSON through Redis; and copying the in-process message (the in-memory layer does) is free."""

from __future__ import annotations

import copy

import pytest

from game import broadcast, services

from .factories import open_table

pytestmark = pytest.mark.django_db


def test_an_update_unpacks_the_same_by_reference_and_as_json():
    table, (_ana, ben, _cleo) = open_table(names=("Ana", "Ben", "Cleo"), deck=["5", "9", "4", "1", "2", "3", "freeze"])
    update = services.game_act(code=table.code, player=ben, action={"kind": "draw"}, version=1)
    local, wire = broadcast.pack(table.code, update, local=True), broadcast.pack(table.code, update)
    assert (
        broadcast.unpack(local)
        == broadcast.unpack(broadcast.from_wire(wire))
        == {"snapshot": update["snapshot"], "events": update["events"]}
    )
    assert "payload" in wire and isinstance(wire["payload"], str)
    copied = copy.deepcopy(local)
    assert copied["passed"] is local["passed"] and broadcast.unpack(copied) is broadcast.unpack(local)
