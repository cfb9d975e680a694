"""Sockets whose address carries a NUL character are closed with CLOSE_BAD_REQUEST at once.

The sockets' side of game.pages.nul_bytes: no table code or query a page builds holds a NUL,
and one reaching a consumer broke the database look-up of its table on PostgreSQL (which
refuses NUL in any string). Outermost, for every socket route at once, before the session,
the origin check or a consumer: the handshake, then the close (Daphne sends a close's code,
not its reason, and a code in the application's range is one no page retries after).
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

CLOSE_BAD_REQUEST = 4400  # after HTTP's 400 Bad Request


def carries_nul(scope: dict) -> bool:
    path = scope.get("path", "")
    raw = scope.get("raw_path") or b""
    query = scope.get("query_string") or b""
    return "\x00" in path or b"\x00" in unquote_to_bytes(raw) or b"\x00" in unquote_to_bytes(query)


class RefuseNul:
    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket" or not carries_nul(scope):
            return await self.application(scope, receive, send)
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": CLOSE_BAD_REQUEST})
        return None
