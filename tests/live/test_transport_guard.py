"""Daphne's WebSocket protocol with game.live.transport's guard: frames over the allowance are
dropped before they are queued, and a flood closes the socket with 4429 and a reason."""

from __future__ import annotations

import asyncio

from daphne.ws_protocol import WebSocketProtocol

from game.live import transport
from game.runtime import limits


class FakeProtocol:
    """Just what the guard and Daphne's onMessage touch of a live protocol."""

    muted = False

    def __init__(self) -> None:
        self.application_queue = asyncio.Queue()
        self.client_addr = ("127.0.0.9", 5555)
        self.closed: list[tuple[int, str]] = []

    def sendClose(self, code: int, reason: str) -> None:  # noqa: N802 - autobahn's name
        self.closed.append((code, reason))


def test_the_guard_is_installed_on_daphnes_protocol_once():
    transport.install()
    guarded = WebSocketProtocol.onMessage
    transport.install()
    assert guarded.sevn_guard and WebSocketProtocol.onMessage is guarded  # not wrapped twice


def test_a_flood_is_dropped_unqueued_then_closed_and_its_address_refused(settings):
    settings.SEVN_FRAME_RATE, settings.SEVN_FRAME_BURST, settings.SEVN_SOCKET_CLOSE_AFTER = 1, 5, 50
    transport.install()
    protocol = FakeProtocol()
    for _ in range(1000):
        WebSocketProtocol.onMessage(protocol, b'{"kind":"draw","version":0}', False)
    assert protocol.application_queue.qsize() <= 6  # the burst, and what the rate refilled
    assert protocol.closed == [(4429, transport.CLOSE_REASON)]
    assert limits.penalised("127.0.0.9")


def test_a_person_whose_consumer_is_stuck_is_never_closed_as_a_flooder():
    """An overloaded server: the consumer takes nothing off its queue for ten minutes while its
    person sends a move a second. The queue stays bounded (frames past it are dropped), and
    the socket stays open: a slow consumer is the server's trouble, not a flood."""
    transport.install()
    protocol, now = FakeProtocol(), [0.0]
    protocol._sevn_budget = limits.MessageBudget(50, 100, 200, clock=lambda: now[0])
    for _ in range(600):
        now[0] += 1.0
        WebSocketProtocol.onMessage(protocol, b'{"kind":"draw","version":1}', False)
    assert protocol.application_queue.qsize() == transport.QUEUE_MAX
    assert protocol.closed == [] and not limits.penalised("127.0.0.9")


def test_a_client_that_keeps_sending_into_a_full_queue_is_closed(settings):
    settings.SEVN_FRAME_RATE, settings.SEVN_FRAME_BURST = 10_000, 10_000  # within the allowance
    transport.install()
    protocol = FakeProtocol()
    for _ in range(transport.QUEUE_MAX + settings.SEVN_SOCKET_CLOSE_AFTER + 50):
        WebSocketProtocol.onMessage(protocol, b"x", False)
    assert protocol.application_queue.qsize() == transport.QUEUE_MAX
    assert protocol.closed == [(4429, transport.CLOSE_REASON)]


def test_people_clicking_fast_pass_untouched(settings):
    transport.install()
    protocol = FakeProtocol()
    for _ in range(20):
        WebSocketProtocol.onMessage(protocol, b'{"kind":"draw","version":1}', False)
    assert protocol.application_queue.qsize() == 20 and protocol.closed == []


def test_a_steady_flood_is_closed_although_the_allowance_lets_some_through():
    """1,000 messages a second against 50 allowed: some pass as the allowance refills, and the
    drops still add up to a close (they need not come in a row)."""
    now = [0.0]
    budget = limits.MessageBudget(rate=50, burst=100, close_after=200, clock=lambda: now[0])
    passed = 0
    for _ in range(400):
        now[0] += 0.001
        passed += budget.take()
    assert 100 <= passed < 130 and budget.flooding


def test_autobahn_formats_its_configuration_for_debug_lines_only():
    """Every new connection had autobahn pretty-print its configuration for a debug line, at
    any log level: now only when it logs at debug."""
    import txaio
    from autobahn.websocket import protocol

    transport.install()
    settings = [("openHandshakeTimeout", 5, "WebSocketServerFactory")]
    assert "openHandshakeTimeout" not in protocol.pformat(settings)
    level = txaio.get_global_log_level()
    txaio.set_global_log_level("debug")
    try:
        assert "openHandshakeTimeout" in protocol.pformat(settings)
    finally:
        txaio.set_global_log_level(level)


def test_daphnes_sockets_wait_seconds_for_the_closing_handshake_whatever_daphne_sets_after():
    from daphne.ws_protocol import WebSocketFactory

    transport.install()
    transport.install()  # not wrapped twice
    factory = WebSocketFactory(None, server="Daphne")
    # what Daphne's Server.run sets next, as `daphne --websocket_connect_timeout 30` runs it
    factory.setProtocolOptions(autoPingTimeout=30, allowNullOrigin=True, openHandshakeTimeout=30)
    assert factory.closeHandshakeTimeout == transport.CLOSE_HANDSHAKE_SECONDS >= 2
    assert WebSocketFactory.__init__.sevn_close_timed
