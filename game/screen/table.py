"""A viewer's table as HTML: the whole of it (a page, a socket that just opened) or, for a
socket, only what changed since it last drew (Screen)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, override

from game import registry
from game.core.identity import tag
from game.delivery.broadcast import Passed
from game.drawkit import common
from game.drawkit.clocks import clocks as clocks_piece
from game.drawkit.clocks import pace_line
from game.drawkit.common import TableView, seat_names, viewer_seat
from game.drawkit.let_go import let_go as let_go_piece
from game.drawkit.pieces import Piece, draw, shows
from game.screen.fair import fair_data, fair_piece
from game.screen.log import last_move_piece, log_entries, log_lines, log_piece
from game.services.table_reads import fingerprint

LOBBY = "table/_table.html"  # a table waiting in its lobby, or closed: the same for every game


def speaking(language: str):
    """The viewer's language for what is drawn next (nothing to switch if it is already on)."""
    return nullcontext() if get_language() == language else override(language)


def playing(snapshot: dict) -> bool:
    """A game on the table (its pieces are drawn; a lobby or a closed table is drawn whole)."""
    return snapshot["game"] is not None and snapshot["table"]["status"] not in ("lobby", "closed")


def hidden_records(snapshot: dict, viewer_key: str | None, friends: frozenset[str] = frozenset()) -> frozenset[int]:
    """The seats whose record this viewer may not see: a private profile's is shown to its
    friends (`friends`: the tags of the viewer's friends, selectors.friend_tags) and itself only."""
    me = tag(viewer_key) if viewer_key else ""
    return frozenset(
        seat["index"]
        for seat in snapshot["seats"]
        if seat.get("reliable") and seat["reliable"]["private"] and seat["who"] != me and seat["who"] not in friends
    )


def seen_by(snapshot: dict, hidden: frozenset[int]) -> dict:
    """The snapshot without the records of the `hidden` seats (the same one when none is)."""
    if not hidden:
        return snapshot
    seats = [
        {key: value for key, value in seat.items() if key != "reliable"} if seat["index"] in hidden else seat
        for seat in snapshot["seats"]
    ]
    return {**snapshot, "seats": seats}


def table_view(
    snapshot: dict,
    viewer_key: str | None,
    events: list[dict] = (),
    asked: frozenset = frozenset(),
    online: tuple[int, ...] | None = None,
    passed: Passed | None = None,
    recent: tuple[dict, ...] = (),
    friends: frozenset[str] = frozenset(),
) -> TableView | None:
    """One viewer's table as pieces, or None for a lobby or a closed table. What every viewer
    shares is worked out once per update (`passed`: the update as this process's sockets
    received it; once per set of seats whose records a viewer may not see, `friends`: the tags
    of the viewer's friends); `recent`: the game's latest events as this viewer's screen heard
    them (the game marks what was played since the viewer last played; the last one with a log
    line is the phones' "last move" strip)."""
    if not playing(snapshot):
        return None
    game = registry.of(snapshot["table"])
    hidden = hidden_records(snapshot, viewer_key, friends)
    snapshot = seen_by(snapshot, hidden)
    if passed is None:
        shared = game.shared_pieces(snapshot, list(events))
    elif hidden:
        if hidden not in passed.variants:
            passed.variants[hidden] = game.shared_pieces(snapshot, list(events))
        shared = passed.variants[hidden]
    else:
        if passed.shared is None:
            passed.shared = game.shared_pieces(snapshot, list(events))
        shared = passed.shared
    seen = game.viewer_table(snapshot, shared, viewer_key, asked, online, recent)
    seen.pieces["table-last-move"] = _last_move(snapshot, recent, passed)
    mine = viewer_seat(snapshot, viewer_key)
    clocks = clocks_piece(snapshot, mine and mine["index"], seat_names(snapshot))
    if clocks is not None:  # a turn-based table's (game.drawkit.clocks)
        seen.pieces["table-clocks"] = clocks
    seen.pieces["table-let-go"] = let_go_piece(snapshot, mine and mine["index"], seat_names(snapshot))
    return seen


def _last_move(snapshot: dict, recent: tuple[dict, ...], passed: Passed | None) -> Piece:
    """The phones' "last move" strip: worked out once per update for the screens that heard the
    same events (every screen of a table, as a rule), not once per viewer: finding it words the
    latest events' log lines to see which has one, and at a table of four each screen's table is
    a view of its own (its seat), so it was worked out four times a move (bench/README.md,
    `move_cpu.py`: 7 % of a move's render). The piece holds no language (its line is worded as
    it is drawn), so every language shares it."""
    if passed is None:
        return last_move_piece(snapshot, recent)
    key = tuple(map(id, recent))  # the very events, as Screen._view compares them
    piece = passed.last_moves.get(key)
    if piece is None:
        piece = passed.last_moves[key] = last_move_piece(snapshot, recent)
    return piece


def table_context(
    snapshot: dict,
    viewer_key: str | None,
    events: list[dict] = (),
    asked: frozenset = frozenset(),
    online: tuple[int, ...] | None = None,
    seen: TableView | None = None,
    friends: frozenset[str] = frozenset(),
) -> dict:
    """Everything the table template needs for one viewer, its pieces drawn (`friends`: the
    tags of the viewer's friends, who see a private profile's record)."""
    if seen is None:
        snapshot = seen_by(snapshot, hidden_records(snapshot, viewer_key, friends))
    table, seats = snapshot["table"], snapshot["seats"]
    mine = viewer_seat(snapshot, viewer_key)
    context = {
        "table": table,
        "is_host": bool(viewer_key) and tag(viewer_key) == table["host"],
        "my_seat": mine and mine["index"],
        "seated": mine is not None,
        "seats_taken": len(seats),
        "game": snapshot["game"],
        "table_template": registry.of(table).table_template,
        "fair": fair_data(snapshot, viewer_key),  # the fair-deal panel beside the table (a page draws it)
    }
    if snapshot["game"] is None or table["status"] == "lobby":
        by_index = {seat["index"]: seat for seat in seats}
        context["game"] = None
        context["table_template"] = LOBBY
        context["lobby"] = [
            {"index": i, "seat": by_index.get(i), "is_you": by_index.get(i) is not None and by_index[i] is mine}
            for i in range(table["seat_count"])
        ]
        kind = registry.of(table)
        context["lobby_line"] = kind.lobby_line(table)
        context["pace_line"] = pace_line(table)  # a turn-based table's pace, in place of the live timer
        context["start_note"] = kind.start_note
        context["lobby_notes"] = kind.lobby_notes(table)
        context["can_start"] = len(seats) >= kind.min_seats
        context["bots_left"] = kind.max_bots - sum(1 for seat in seats if seat["bot_level"])
        return context
    if table["status"] == "closed":
        context["table_template"] = LOBBY
        return context
    seen = seen or table_view(snapshot, viewer_key, events, asked, online, friends=friends)
    context.update(frame=seen.frame, me=seen.frame.me, drawn=_drawn_places(seen, registry.of(table).own_seat_apart))
    return context


def _drawn_places(seen: TableView, own_seat_apart: bool) -> dict:
    """The drawn pieces by their place in the table's template: each by its element id
    ("table-bar" is `bar`, "pile-deck" `pile_deck`), the seats joined in page order as `seats`,
    and the viewer's own as `you` when the game draws it apart."""
    html = {name: draw(piece) for name, piece in seen.pieces.items()}
    me = seen.frame.me
    apart = f"seat-{me}" if own_seat_apart else None
    places = {name.replace("table-", "").replace("-", "_"): value for name, value in html.items()}
    seats = [name for name in html if name.startswith("seat-") and name != apart]
    places["seats"] = mark_safe("".join(html[name] for name in seats))  # each drawn (escaped) by its partial
    places["you"] = html.get(apart, "") if apart else ""
    return places


def render_table(snapshot: dict, viewer_key: str | None, events: list[dict] = (), oob: bool = False) -> str:
    context = table_context(snapshot, viewer_key, events)
    context.update(oob=oob)
    return render_to_string(context["table_template"], context)


RECENT = 64  # the game's latest events a screen keeps for its marks (a round of turns at 8 seats and more)


def _logs(events: Sequence[dict]) -> bool:
    """Whether an update takes a version of its own (every event but "presence" does: its lines)."""
    return any(event["type"] != "presence" for event in events)


class Screen:
    """What one socket's viewer has on screen, so that an update sends only what changed.

    A whole table is sent when the socket opens and whenever the arrangement changes (the
    game, the seats' order, the standings or the round summary appearing); otherwise only the
    pieces whose data changed, each swapped in by its id, and nothing is drawn for the rest.
    The screen is the socket's own: it lives as long as the connection, no game state.
    """

    def __init__(self, viewer_key: str | None, language: str) -> None:
        self.viewer_key, self.language = viewer_key, language
        self.frame: tuple | None = None
        self.shown: dict[str, tuple] = {}  # element id -> what it shows (drawing.shows)
        self.version: tuple[int, int] | None = None
        # What the game shown looks like (its views), and the version after which this screen saw
        # it change (None: not since it was first drawn): see moved_since.
        self.views: tuple | None = None
        self.moved_after: int | None = None
        self.snapshot: dict | None = None  # the last one drawn (shared with every other screen: read only)
        self.online: tuple[int, ...] | None = None  # seats with a socket open, from the last presence change
        self.online_told: int | None = None  # that change's number (services.common.presence_event)
        # (game id, version): the log shows every line of this game up to this version (an update
        # of that version or older that arrives late, after a whole redraw, has its lines there)
        self.logged: tuple[int, int] | None = None
        self.asked: dict[int, set[int]] = {}  # game id -> seats that asked for a rematch
        self.recent: tuple[dict, ...] = ()  # the shown game's latest events (what was played lately)
        self.recent_game: int | None = None
        self.shown_fair: tuple | None = None  # what the fair-deal panel shows
        # the tags of the viewer's friends (selectors.friend_tags, read as the socket opens): they
        # see a private profile's record beside its name
        self.friends: frozenset[str] = frozenset()

    @property
    def game_number(self) -> int | None:
        """The number at the table of the game this screen shows."""
        game = self.snapshot and self.snapshot["game"]
        return game["number"] if game else None

    @property
    def fingerprint(self) -> tuple | None:
        """Which state of the table this screen shows (compared with the database's by game.live.watch)."""
        return fingerprint(self.snapshot)

    def misses_lines_before(self, snapshot: dict, events: Sequence[dict] = ()) -> bool:
        """Whether this update skips versions this screen never saw (their log lines with them),
        or, for an update with lines, versions whose lines never came: a presence message drew
        their table first, and their own update was lost (a process's broadcast during a blip
        of Redis). The table then matches the database's, and only the log would stay short."""
        game = snapshot["game"]
        if game is None:
            return False
        if self.version is not None and self.version[0] == game["id"] and game["version"] > self.version[1] + 1:
            return True
        return (
            self.logged is not None
            and self.logged[0] == game["id"]
            and game["version"] > self.logged[1] + 1
            and _logs(events)
        )

    def moved_since(self, version: int) -> bool:
        """Whether this screen saw its game itself change after `version` (a move made on that
        table is stale). A version taken by a change of who plays a seat (away, back) leaves the
        game's views as they were: a move made before it is the database's to judge."""
        return self.moved_after is not None and version <= self.moved_after

    def seated(self, viewer_key: str | None) -> bool:
        return self.snapshot is not None and viewer_seat(self.snapshot, viewer_key) is not None

    def decides(self, viewer_key: str | None) -> bool:
        """Whether the table shown waits for this viewer's decision."""
        game = self.snapshot and self.snapshot["game"]
        if not game or game["over"] or game["view"]["current"] is None:
            return False
        mine = viewer_seat(self.snapshot, viewer_key)
        return mine is not None and mine["index"] == game["view"]["current"]

    def _heard(self, snapshot: dict, events: list[dict]) -> None:
        """What an update says besides the table: who asked for a rematch, whose sockets are open."""
        game = snapshot["game"]
        for event in events:
            if event["type"] == "presence":
                self._hear_online(event["online"], event.get("told"))
            elif event["type"] == "rematch_asked" and game is not None:
                self.asked.setdefault(game["id"], set()).add(event["seat"])

    def _hear_online(self, online: list[int], told: int | None, read: bool = False) -> None:
        """Whose sockets are open, unless this screen heard a later count already: presence
        messages from several processes may arrive out of order, and a screen that read the
        table while they were on their way has a newer one than those sent before. (A reading
        that found the count at n was taken after message n's: it is the newer of the two.)"""
        if told is not None and self.online_told is not None:
            if told < self.online_told or (told == self.online_told and not read):
                return
        self.online = tuple(online)
        if told is not None:
            self.online_told = told

    def _logged_already(self, snapshot: dict, events: list[dict]) -> bool:
        """Whether this update's lines are in the log already: a screen that joined its table's
        messages before it read the table hears the updates sent meanwhile after it drew them."""
        game = snapshot["game"]
        return (
            game is not None
            and self.logged is not None
            and self.logged[0] == game["id"]
            and game["version"] <= self.logged[1]
            and _logs(events)
        )

    def _note(self, snapshot: dict, events: list[dict], whole: bool = False) -> None:
        """Keep the game's latest events (`whole`: the log read again, all of them there is)."""
        game = snapshot["game"]
        if game is None:
            self.recent, self.recent_game = (), None
            return
        if whole or self.recent_game != game["id"]:
            self.recent, self.recent_game = (), game["id"]
        heard = tuple(event for event in events if event["type"] not in ("presence", "rematch_asked"))
        self.recent = (self.recent + heard)[-RECENT:]

    def _asked(self, snapshot: dict) -> frozenset:
        game = snapshot["game"]
        return frozenset(self.asked.get(game["id"], ())) if game is not None else frozenset()

    def full(
        self, snapshot: dict, log_events: list[dict], online: list[int] | None = None, told: int | None = None
    ) -> str:
        """The whole table and the whole log (on connect, and after a refused move); `online`:
        whose sockets are open, as the database says at this moment, `told`: the table's count
        of presence messages when it was read (this reading is as new as that one or newer)."""
        game = snapshot["game"]
        if online is not None:
            self._hear_online(online, told, read=True)
        if game is not None:  # the log is where earlier rematch requests are
            self.asked[game["id"]] = {e["seat"] for e in log_events if e["type"] == "rematch_asked"}
            self.logged = (game["id"], game["version"])
        self._note(snapshot, log_events, whole=True)
        with speaking(self.language):
            html = self._whole(snapshot, self._view(snapshot, []))
            return (
                html
                + render_to_string(
                    "table/_log.html", {"lines": log_lines(log_entries(snapshot, log_events)), "oob": True}
                )
                + self._fair(snapshot, again=True)
            )

    def update(self, snapshot: dict, events: list[dict], passed: Passed | None = None) -> str | None:
        """What changed since this screen was last drawn, and the new log lines ("" if nothing).

        None when an update with log lines arrives after a newer one (two servers broadcast
        moments apart): its table is already shown but its lines would be missing or out of
        order, so the caller draws the whole table and log again from the database."""
        game = snapshot["game"]
        self._heard(snapshot, events)
        if self._logged_already(snapshot, events):  # nothing in it is new here but who is online
            events = [event for event in events if event["type"] == "presence"]
        if self._overtaken(snapshot):
            if not _logs(events):  # it needs no table of its own
                return self._presence_only()
            return None if events else ""
        self._note(snapshot, events)
        with speaking(self.language):
            seen = self._view(snapshot, events, passed)
            if seen is None or seen.frame != self.frame:
                html = self._whole(snapshot, seen)
            else:
                self.snapshot = snapshot
                self._remember(game)
                html = "".join(self._changed(seen.pieces, self.language))
            if events and game is not None:
                html += draw(self._log(snapshot, events, passed), self.language)
                if _logs(events) and (
                    self.logged is None or self.logged[0] != game["id"] or self.logged[1] == game["version"] - 1
                ):
                    self.logged = (game["id"], game["version"])  # (not after a gap: misses_lines_before)
            return html + self._fair(snapshot)

    def _overtaken(self, snapshot: dict) -> bool:
        game = snapshot["game"]
        return (
            game is not None
            and self.version is not None
            and self.version[0] == game["id"]
            and game["version"] < self.version[1]
        )

    def _view(self, snapshot: dict, events: list[dict], passed: Passed | None = None) -> TableView | None:
        online, asked = self._online(snapshot), self._asked(snapshot)
        if passed is None or not playing(snapshot):
            return table_view(snapshot, self.viewer_key, events, asked, online, passed, self.recent, self.friends)
        # A viewer's table depends on the viewer only through their seat, whether they host
        # (every game's viewer_table) and which seats' records they may not see (a private
        # profile's, for friends only), and on what their screen heard: the screens of one update
        # that see the same (spectators, one person's tabs) share one view, worked out once. What
        # they heard compares by the very events (the same update objects passed to each screen:
        # a screen that read its log again holds other objects and is drawn apart).
        mine = viewer_seat(snapshot, self.viewer_key)
        host = bool(self.viewer_key) and tag(self.viewer_key) == snapshot["table"]["host"]
        hidden = hidden_records(snapshot, self.viewer_key, self.friends)
        key = (self.language, mine and mine["index"], host, hidden, asked, online, tuple(map(id, self.recent)))
        if passed.views is None:
            passed.views = {}
        seen = passed.views.get(key)
        if seen is None:
            seen = passed.views[key] = table_view(
                snapshot, self.viewer_key, events, asked, online, passed, self.recent, self.friends
            )
        return seen

    def _online(self, snapshot: dict) -> tuple[int, ...] | None:
        """Whose sockets are open as this screen heard, and its own viewer's seat: this socket is
        theirs, open (the reading it was first drawn with was taken a moment before it counted)."""
        mine = viewer_seat(snapshot, self.viewer_key)
        if self.online is None or mine is None or mine["index"] in self.online:
            return self.online
        return tuple(sorted((*self.online, mine["index"])))

    @staticmethod
    def _log(snapshot: dict, events: list[dict], passed: Passed | None) -> Piece:
        """The update's log lines (worked out once per update when it came through the layer)."""
        if passed is None:
            return log_piece(snapshot, events)
        if passed.log is None:
            passed.log = log_piece(snapshot, events)
        return passed.log

    def _changed(self, table_pieces: dict[str, Piece], language: str | None = None):
        """The pieces whose data this screen does not show yet, drawn (htmx's socket extension
        swaps each in by its id), in `language` when it is the one active (None: ask Django)."""
        for name, piece in table_pieces.items():
            showing = shows(piece)
            if self.shown.get(name) != showing:
                self.shown[name] = showing
                yield draw(piece, language)

    def _fair(self, snapshot: dict, again: bool = False) -> str:
        """The fair-deal panel beside the table (game.screen.fair) when what it shows changed."""
        piece = fair_piece(snapshot, self.viewer_key)
        if not again and self.shown_fair == shows(piece):
            return ""
        self.shown_fair = shows(piece)
        return draw(piece, self.language)  # (drawn in speaking(self.language): update, full)

    def _presence_only(self) -> str:
        """An older update that only says whose sockets are open: the marks, nothing else."""
        if self.frame is None or "table-presence" not in self.shown:
            return ""
        return "".join(self._changed({"table-presence": common.presence(self._online(self.snapshot))}))

    def _whole(self, snapshot: dict, seen: TableView | None) -> str:
        self.snapshot = snapshot
        context = table_context(snapshot, self.viewer_key, seen=seen, friends=self.friends)
        self.frame = seen.frame if seen is not None else None
        self.shown = {name: shows(piece) for name, piece in seen.pieces.items()} if seen is not None else {}
        self._remember(snapshot["game"])
        context.update(oob=True)
        return render_to_string(context["table_template"], context)

    def _remember(self, game: dict | None) -> None:
        version = (game["id"], game["version"]) if game is not None else None
        views = (game["view"], game.get("seat_views")) if game is not None else None
        if version is None or self.version is None or version[0] != self.version[0]:
            self.moved_after = None  # another game: nothing seen of it before this version
        elif version[1] > self.version[1] and views != self.views:
            self.moved_after = self.version[1]
        self.version, self.views = version, views


def render_error(message: str, language: str, reason: str = "") -> str:
    """A refusal for one screen; `reason` (a ServiceError's code, "slow_down", "server_error", …)
    names it in the markup too, for scripts and the load client to tell the kinds apart."""
    with override(language):
        return render_to_string("table/_toast.html", {"message": message, "reason": reason})


def render_notice(message: str, language: str) -> str:
    """Good news for whoever asked (a report received), in the toast's place."""
    with override(language):
        return render_to_string("table/_toast.html", {"message": message, "ok": True})
