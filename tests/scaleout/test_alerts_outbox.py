"""The outbox on the scale-out stack (deploy/local_stack.py: its own PostgreSQL, Redis, two
Daphne and nginx): both processes run the deadline loop, both send from the one outbox, and
each notice reaches its device exactly once (claims with SELECT ... FOR UPDATE SKIP LOCKED and
a conditional UPDATE: game.services.outbox). The push service is on this machine
(deploy/push_receiver.py): it decrypts every push with its device's keys."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.alerts_push import seed
from deploy.local_stack import Stack
from deploy.push_receiver import Receiver

from ..waiting import until

PEOPLE = 20
EACH = 50  # notices per person: 1,000 at once, for two processes to share


@pytest.fixture(scope="module")
def receiver():
    with Receiver() as running:
        yield running


@pytest.fixture(scope="module")
def stack(receiver):
    env = {
        "SEVN_PUSH_HOSTS": "127.0.0.1",
        "SEVN_PUSH_ALLOW_HTTP": "true",
        "DB_POOL_SIZE": "5",
        "DB_POOL_MIN": "1",
        "LOG_LEVEL": "WARNING",
    }
    with Stack(servers=2, env=env) as running:
        yield running


def test_two_processes_send_each_notice_once(stack, receiver):
    expected = seed(stack, receiver, PEOPLE, EACH)
    total = PEOPLE * EACH

    def all_done() -> bool:
        return stack.postgres.sql("SELECT count(*) FROM game_notice WHERE done IS NULL")[0][0] == 0

    until(all_done, "every notice sent by one of the two processes", 120, every=0.5)
    received = receiver.wait_for(total, timeout=30)
    assert receiver.refused == []
    seen = Counter((message.payload["tag"], message.endpoint) for message in received)
    assert len(received) == total, f"{len(received)} pushes for {total} notices"
    assert set(seen.values()) == {1}, [pair for pair, times in seen.items() if times > 1][:5]
    assert {tag: endpoint for tag, endpoint in seen} == expected
    outcomes = Counter(row[0] for row in stack.postgres.sql("SELECT outcome FROM game_notice"))
    assert outcomes == {"pushed": total}
    senders = {row[0].split("-")[0] for row in stack.postgres.sql("SELECT claim FROM game_notice")}
    daphne = {str(server.process.pid) for server in stack.servers}
    assert senders == daphne, f"sent by {senders}, the processes are {daphne}"
