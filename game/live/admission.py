"""Outermost on table sockets: a full process turns a new one away before it costs anything.

Every table socket costs its process work before it shows anything: the session and the user
looked up (Channels' auth middleware, on the database thread), the table read and drawn whole,
the arrival noted. A full process (game.runtime.capacity) answers a new table socket at once
instead, before the origin check, the session or the database: the handshake, then a close
with CLOSE_BUSY. The page says "busy" and tries again after a growing pause
(static/sevn/js/connection.js), as the load client does (deploy/players.py); the close's code
says whether the process is full (CLOSE_BUSY: the pauses double, up to a minute) or only a
crowd is being let in (CLOSE_ARRIVING: a few seconds at most). Sockets already open are not
touched.

A socket let in counts as being let in (capacity.connecting) until the consumer first sends or
closes: its table is drawn and on its way, or it was refused.
"""

from __future__ import annotations

from game.runtime import capacity

# RFC 6455's own "try again later" (1013) is not a code Daphne's WebSocket library lets a
# server send: 4503, in the application's range, after HTTP's 503 Service Unavailable.
# A code of its own, not a reason: Daphne sends a close's code only (the reason is dropped).
CLOSE_BUSY = 4503  # full: its sockets, or work waiting (capacity.reason_full)
CLOSE_ARRIVING = 4504  # busy for moments only: a crowd is being let in a few at a time
TABLE_SOCKETS = "/ws/t/"


class TurnAwayWhenFull:
    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket" or not scope["path"].startswith(TABLE_SOCKETS):
            return await self.application(scope, receive, send)
        refused = capacity.refusal()
        if refused is not None:
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            code = CLOSE_ARRIVING if refused == "connecting" else CLOSE_BUSY
            await send({"type": "websocket.close", "code": code})
            return None
        letting_in = capacity.LettingIn()

        async def sent(message: dict) -> None:
            if message["type"] in ("websocket.send", "websocket.close"):
                letting_in.done()
            await send(message)

        try:
            return await self.application(scope, receive, sent)
        finally:
            letting_in.done()
