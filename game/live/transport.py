"""A guard in front of every WebSocket's incoming queue in Daphne.

A socket's messages are parsed by Daphne (autobahn) and queued for its consumer without bound.
A client flooding thousands of frames a second keeps the process busy parsing and queueing
long after the consumer's own allowance (game.runtime.limits) drops them, and every other table on that
process waits behind it. So frames over a generous allowance are dropped before they are
queued, and so are frames for a consumer that already has QUEUE_MAX waiting (memory stays
bounded); a socket that keeps having frames dropped is closed with 4429 and a reason, and its
address is refused new sockets for a while. A long queue alone closes nothing: on an overloaded
server an honest consumer falls behind too, and a person sending a move a second never has
SEVN_SOCKET_CLOSE_AFTER frames dropped in 10 s, however long their consumer waits. Installed at
import of the ASGI app (with one saving on every new connection: _formatted_for_debug_only, and
a closing handshake that gets its time: CLOSE_HANDSHAKE_SECONDS); tests/scaleout checks it
against the pinned Daphne.
"""

from __future__ import annotations

import logging

from django.conf import settings

from game.runtime import limits, stages

logger = logging.getLogger(__name__)

QUEUE_MAX = 100  # messages waiting for one consumer
# How long a socket the server closes (a busy turn-away, a flood, a table gone) waits for the
# client's answering close frame before its TCP connection is dropped. autobahn's default is 1 s,
# and its timers round the moment they fire down to a whole second of the clock (txaio's batched
# timer: int(now + delay)), so "1 s" fired anywhere from at once to 1 s later. On a loaded
# process the drop then came before nginx had read the handshake's answer (its log: connection
# reset while reading the response header): a socket turned away as busy was a failed
# connection to nginx, which tried the other process, and when that one was full too the person
# got 502 instead of "busy, retrying". 5 s fires 4 to 5 s later.
CLOSE_HANDSHAKE_SECONDS = 5
CLOSE_REASON = "Too many messages: this connection was closed."


def _guarded(original):
    def onMessage(self, payload, isBinary):  # noqa: N802 - autobahn's name
        state = self.__dict__
        if state.get("_sevn_closing"):
            return
        budget = state.get("_sevn_budget")
        if budget is None:
            budget = state["_sevn_budget"] = limits.MessageBudget(
                settings.SEVN_FRAME_RATE, settings.SEVN_FRAME_BURST, settings.SEVN_SOCKET_CLOSE_AFTER
            )
        queue = getattr(self, "application_queue", None)
        if budget.take():
            if queue is None or queue.qsize() < QUEUE_MAX:
                return original(self, payload, isBinary)
            budget.refuse()  # its consumer is behind: the frame is dropped, and counts as one
        if budget.flooding:
            state["_sevn_closing"] = True
            address = str(getattr(self, "client_addr", None) and self.client_addr[0])
            limits.penalise(address)
            logger.warning("closing a flooding socket from %s", address)
            self.sendClose(code=4429, reason=CLOSE_REASON)

    onMessage.sevn_guard = True
    return onMessage


def _timed_reads(original):
    """Bytes from a socket parsed into frames and queued (game.runtime.stages: "frames in")."""

    def dataReceived(self, data):  # noqa: N802 - Twisted's name
        with stages.timed("frames in"):
            return original(self, data)

    dataReceived.sevn_timed = True
    return dataReceived


def _formatted_for_debug_only(value, *args, **kwargs) -> str:
    """autobahn's pformat, for its debug lines: worked out only when autobahn logs at debug.

    Every new connection has autobahn format its whole configuration (pprint) for a debug line,
    whatever the log level: an eighth of a loaded process's time when a crowd of sockets
    arrives (every browser after a restart, turn-aways of a full process tried again)."""
    import pprint

    import txaio

    if txaio.get_global_log_level() in ("debug", "trace"):
        return pprint.pformat(value, *args, **kwargs)
    return "(formatted at debug level only)"


def _close_handshake_timed(original):
    """Daphne's WebSocket factory with CLOSE_HANDSHAKE_SECONDS for the closing handshake (Daphne
    passes autobahn no such option; those it sets afterwards leave this one alone)."""

    def __init__(self, *args, **kwargs):  # noqa: N807 - the factory's own
        original(self, *args, **kwargs)
        self.setProtocolOptions(closeHandshakeTimeout=CLOSE_HANDSHAKE_SECONDS)

    __init__.sevn_close_timed = True
    return __init__


def install() -> None:
    try:
        from autobahn.websocket import protocol
        from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
    except ImportError:  # not served by Daphne
        return
    if not getattr(WebSocketFactory.__init__, "sevn_close_timed", False):
        WebSocketFactory.__init__ = _close_handshake_timed(WebSocketFactory.__init__)
    if not getattr(WebSocketProtocol.onMessage, "sevn_guard", False):
        WebSocketProtocol.onMessage = _guarded(WebSocketProtocol.onMessage)
    if stages.ENABLED and not getattr(WebSocketProtocol.dataReceived, "sevn_timed", False):
        WebSocketProtocol.dataReceived = _timed_reads(WebSocketProtocol.dataReceived)
    protocol.pformat = _formatted_for_debug_only
