"""An update reaches sockets as the same plain data, whether by reference in one process or
as JSON through Redis; and copying the in-process message (the in-memory layer does) is free."""

from __future__ import annotations

import copy

import pytest
from channels.layers import InMemoryChannelLayer

from game import services
from game.delivery import broadcast
from tests.factories import open_table

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


async def test_the_local_layer_sweeps_for_expired_messages_once_a_second(monkeypatch):
    """The process-local layer delivers as Channels' in-memory one does, but its sweep of every
    channel and group runs at most once a second, not on every message of every socket."""
    from game.delivery.channel_layer import LocalChannelLayer

    layer = LocalChannelLayer(expiry=60)
    sweeps = []
    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", lambda self: sweeps.append(self))
    await layer.group_add("table.T", "a")
    await layer.group_add("table.T", "b")
    for n in range(5):
        await layer.group_send("table.T", {"type": "table.update", "n": n})
        assert (await layer.receive("a"))["n"] == n and (await layer.receive("b"))["n"] == n
    assert len(sweeps) == 1
    monkeypatch.setattr(LocalChannelLayer, "SWEEP_SECONDS", 0.0)
    await layer.group_send("table.T", {"type": "table.update"})
    await layer.receive("a")
    assert len(sweeps) == 3  # the send and the receive each swept


async def test_the_local_layer_hands_one_message_to_every_channel_of_a_group_at_once():
    """A group send queues the same message (by reference, not a copy) on each channel before
    it returns, in order, and a full channel misses it without the others missing it."""
    from game.delivery.channel_layer import LocalChannelLayer

    layer = LocalChannelLayer(expiry=60, capacity=2)
    for channel in ("a", "b"):
        await layer.group_add("table.T", channel)
    first, second = {"type": "table.update", "n": 1}, {"type": "table.update", "n": 2}
    await layer.group_send("table.T", first)
    await layer.send("b", {"type": "chat.line"})  # b is now full
    await layer.group_send("table.T", second)
    assert (await layer.receive("a")) is first and (await layer.receive("a")) is second
    assert [(await layer.receive("b"))["type"] for _ in range(2)] == ["table.update", "chat.line"]
    assert layer.channels == {}  # every queue read empty is gone
