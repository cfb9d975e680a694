"""What a game is to the platform: the one surface tables, services, screens and sockets speak
through (boardgame.io's game object, OpenSpiel's Game: rules hooks plus a little metadata).

What is common (tables, seats, presence, timers, versions, the event log, broadcast, the screen)
knows a game only as a `Kind`: how to deal a new game for a table, apply a move or a timeout,
who must act, whether it is over, what each viewer may see, what its computer players do, how
its table is drawn and how its log reads, which settings its tables offer. Each game's folder
(game/games/<name>) holds its engine, bots, pieces, partials, faces, log sentences, rulebook and
look, and one `kind.py` with its `KIND`; game.registry lists them.

Secrecy lives here too: `views` is the only way a game's state reaches a page or a socket. A
game whose cards are all face up gives every viewer one view; a game of hidden hands gives each
seat the engine's view of its own hand and a spectator a view of none.

What every game must give is abstract (`abc`): the methods marked `@abstractmethod` and the data
made `required(...)`. A Kind that leaves any of them out cannot be made: making it raises a
TypeError that names each missing piece, when its kind.py is imported (at the site's start, as
game.registry makes the Kinds), never at its first table.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from game.core.options import Option
from game.core.phrases import COMMON_PHRASES
from game.core.rulebook import Rulebook


class _Required:
    """A piece of data every game sets as a class attribute. `abc` counts it abstract until a
    subclass sets it, as it does a method marked @abstractmethod that a subclass has not written."""

    __isabstractmethod__ = True

    def __init__(self, about: str) -> None:
        self.about = about

    def __repr__(self) -> str:
        return f"required({self.about!r})"


def required(about: str) -> Any:
    """Declare data a game must set (name = "sevn", min_seats = 3, ...); `about` says what it is."""
    return _Required(about)


class Kind(ABC):
    """One game's rules and pictures as the tables use them."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Kind:
        # abc's own refusal, in words that say what is wrong with a game (its message says "abstract
        # methods" of data too): every missing method and attribute, named.
        if cls.__abstractmethods__:
            missing = ", ".join(sorted(cls.__abstractmethods__))
            raise TypeError(f"The game {cls.__name__} lacks what every game gives ({cls.__module__}): {missing}.")
        return super().__new__(cls)

    name: str = required("the key a table stores (at most 8 characters)")
    label: Any = required("the game's name for people (translated lazily)")
    about: Any = required("one line about it on the start page (translated lazily)")
    min_seats: int = required("the fewest seats a table of it may have")
    max_seats: int = required("the most seats a table of it may have")
    max_bots: int = required("the most computer players: a table needs at least (seats - max_bots) people")
    secret: bool = required("whether viewers see different things (hidden hands)")
    illegal: type[Exception] = required("the engine's error: its `code` names the refusal")
    folder: Path = required("the game's folder: its partials are under templates/ there")
    table_template: str = required("the partial that draws a game in play (lobby and closed tables are the platform's)")
    seat_range: Any = required("the sentence that says how many seats a table of this game may have")
    start_note: Any = required("the sentence that says how many people must be seated to start")
    actions: dict[str, tuple[str, ...]] = required("each move's kind and the fields it carries: seat, pick, keep, card")
    # How each of those fields arrives on the socket and what it becomes (game.core.fields' converters).
    fields: dict[str, Callable[[object], object]] = {}
    # Its engine's refusals in the table's words, by the engine's code (beside the platform's own:
    # game.core.errors.ENGINE_MESSAGES); "%(card)s" is the card an error names, as `card_label` says
    # it. And the lobby's: "too_many_bots" when its seats take fewer computer players than seats.
    refusals: dict[str, Any] = {}
    showcase: tuple[str, ...] = ()  # cards the start page shows when it is the site's first game
    stylesheet: str = ""  # its look: a stylesheet in its folder's static/ ("games/<name>.css"), linked on every page
    options: tuple[Option, ...] = ()  # the settings its tables offer, each with its form field (game.core.options)
    phrases: tuple[str, ...] = COMMON_PHRASES  # the quick phrases its tables' chat offers (game.core.phrases)

    # The rules. A state is the engine's plain JSON-able dict; the platform reads only its "over"
    # flag and asks the Kind everything else.

    @abstractmethod
    def new(self, table, seat_count: int, seed: int, events: list) -> dict: ...

    def deal_options(self, table) -> dict:
        """The table's settings the deal is played by, by name (a fair deal's seed is bound to them)."""
        names = self.replay.OPTIONS if self.replay is not None else ()
        settings = self.table_options(table.options)
        return {name: settings[name] for name in names}

    @abstractmethod
    def apply(self, state: dict, action: object, actor: int | None = None) -> list[dict]: ...

    @abstractmethod
    def timeout(self, state: dict) -> list[dict]: ...

    @abstractmethod
    def acting(self, state: dict) -> int | None:
        """The seat whose decision the game waits for (None when it is over)."""

    @abstractmethod
    def winner(self, state: dict) -> int | None:
        """The one winning seat, or None (not over yet, or a shared win)."""

    @abstractmethod
    def views(self, state: dict) -> dict[str, Any]:
        """What viewers may see: {"view": a spectator's, "seat_views": one per seat or None}.
        A view holds "current" (the seat that decides, or None) like every engine's view."""

    @abstractmethod
    def bot_action(self, level: str, state: dict, rng: random.Random) -> dict: ...

    @abstractmethod
    def bot_rng(self, seed: int, version: int, state: dict) -> random.Random: ...

    @abstractmethod
    def to_json(self, state: dict) -> str: ...

    @abstractmethod
    def from_json(self, text: str) -> dict: ...

    # The table's settings.

    def clean_options(self, asked: Mapping[str, Any]) -> dict[str, Any]:
        """The settings a new table keeps (Table.options), each of this game's options from what the
        host asked for (one not asked for keeps its default; other games' are left out); raises the
        ServiceError of the first that is wrong."""
        return {option.name: option.clean(asked.get(option.name)) for option in self.options}

    def table_options(self, kept: Mapping[str, Any] | None) -> dict[str, Any]:
        """A table's settings as the game reads them: those it keeps, any it lacks at their default."""
        kept = kept or {}
        return {option.name: kept.get(option.name, option.default) for option in self.options}

    def summaries(self, table: dict) -> dict[str, str]:
        """Each option's value in words (its `summary`), by name, for a snapshot's table."""
        values = table.get("options") or self.table_options(None)
        return {option.name: option.summary(values[option.name]) for option in self.options if option.summary}

    @abstractmethod
    def lobby_line(self, table: dict) -> str:
        """The lobby's line about the game's settings (seats, target or rounds), in the active
        language; the table's timer follows it."""

    def lobby_notes(self, table: dict) -> list[str]:
        """What the lobby's line says after the timer about the game's settings ("bust odds shown")."""
        return []

    # The pictures.

    @abstractmethod
    def shared_pieces(self, snapshot: dict, events: list[dict]) -> Hashable:
        """What every viewer of this update shares, worked out once per update and passed to
        `viewer_table` for each viewer."""

    @abstractmethod
    def viewer_table(
        self,
        snapshot: dict,
        shared: Any,
        viewer_key: str | None,
        asked: frozenset = frozenset(),
        online: tuple[int, ...] | None = None,
        recent: tuple[dict, ...] = (),
    ) -> Any:
        """One viewer's table as a game.drawkit.common.TableView: its frame and its pieces by element id,
        in page order. Pieces named "seat-N" are the seats (see `own_seat_apart`). `recent`: the
        game's latest events as the viewer's screen heard them, oldest first (to mark what was
        played since the viewer's last turn)."""

    def open_hands(self, snapshot: dict) -> Any:
        """Every seat's hand face up, as a piece, for the replay of a finished game (nothing is
        secret any more); None for a game whose cards are all on the table already."""
        return None

    own_seat_apart: bool = True  # the viewer's seat is drawn apart ("you"), not in the list of seats

    @abstractmethod
    def log_line(self, event: dict, names: list[str]) -> str | None:
        """One event in words for the log, or None for events the log leaves out."""

    @abstractmethod
    def face(self, code: str) -> dict:
        """How a card looks in the active language: the dict cards/_card.html draws."""

    @abstractmethod
    def card_label(self, code: str) -> str:
        """A card's name in a sentence ("8♠"), for refusals that name a card."""

    # How a finished game ended, for ratings and the profile's stats (game.services.ratings).

    figure_events: tuple[str, ...] = ()  # the kinds of logged events `seat_figures` reads

    def points(self, state: dict) -> list[int] | None:
        """Each seat's final score as the game counts it (SEVN's total, Sevens' penalty points);
        None for a game that keeps no results (then it has neither stats nor ratings)."""
        return None

    def places(self, state: dict) -> list[int]:
        """Each seat's finishing place in a game that is over: 1 is first, equal scores share one.
        Asked only of a game that keeps points, which must say it (`places_by`: which way its points
        count); game.registry.checks holds a game that gives `points` without it."""
        return []

    def seat_figures(self, state: dict, events: list[dict]) -> list[dict[str, int]]:
        """Each seat's own counts of a finished game (rounds, SEVNs, busts, ...), summed over games
        by the profile; `events` are the game's logged events of the kinds in `figure_events`."""
        return [{} for _seat in self.points(state) or ()]

    def figure_lines(self, totals: dict[str, int], games: int) -> list[tuple[str, str]]:
        """The profile's lines of this game's own figures from their sums over `games` games:
        (label, value) in the active language."""
        return []

    rulebook: Rulebook | None = None  # its pages in the rulebook, their prose and pictures (game.core.rulebook)
    # How a game record replays it without Django (game.fair): a module game.games.<name>.replay
    # with NAME, RULES (the rules' version), OPTIONS (the names of the settings the deal is played
    # by), options(state), new(seats, seed, options, events), apply(state, action, seat),
    # timeout(state) and result(state). A game without one deals fairly all the same but has no
    # record, replay or verification.
    replay: ModuleType | None = None
    # After a game, the hard bot's judgement on each person's decisions (game.services.analysis):
    # a plain-Python module game.games.<name>.analysis with VERSION (a new one redoes the stored
    # analyses), GRADES ((name, loss threshold), worst first) and analyse(record, seed=, budget_s=)
    # giving a JSON-able dict (decisions by move number, "people": accuracy and grades per seat,
    # "chart": [move, each seat's chance to win]); and its words, a module game.games.<name>.review
    # with option_label(decision, action, names), estimate(option) and mistake_kind(code).
    # Without them a game's replay shows no analysis.
    analysis: ModuleType | None = None
    review: ModuleType | None = None

    def rulebook_numbers(self) -> dict[str, int]:
        """The numbers the game's rulebook prose refers to by {placeholder}, read from the engine."""
        return {}


class FolderKind(Kind):
    """A game laid out as game/games/sevn and game/games/sevens are (engine/, bots/, pieces.py,
    log.py, faces.py, rulebook.py): the Kind's plumbing is its modules' own functions, so a game's
    kind.py says only what is its own (dealing, whose turn, who won, what viewers see, its settings)."""

    engine: ModuleType = required("its engine: new_game, apply, timeout, to_json, from_json, IllegalAction")
    bots: ModuleType = required("its bots: decide(level, state, rng)")
    pieces: ModuleType = required("its table's pieces: shared_pieces, viewer_table")
    log: ModuleType = required("its log's sentences: line(event, names)")
    faces: ModuleType = required("its cards' faces: face(code)")

    def apply(self, state: dict, action: object, actor: int | None = None) -> list[dict]:
        return self.engine.apply(state, action, actor=actor)

    def to_json(self, state: dict) -> str:
        return self.engine.to_json(state)

    def from_json(self, text: str) -> dict:
        return self.engine.from_json(text)

    def bot_action(self, level: str, state: dict, rng: random.Random) -> dict:
        return self.bots.decide(level, state, rng)

    def shared_pieces(self, snapshot: dict, events: list[dict]) -> Hashable:
        return self.pieces.shared_pieces(snapshot, events)

    def open_hands(self, snapshot: dict) -> Any:
        return getattr(self.pieces, "open_hands", lambda snapshot: None)(snapshot)

    def viewer_table(self, snapshot, shared, viewer_key, asked=frozenset(), online=None, recent=()):
        return self.pieces.viewer_table(snapshot, shared, viewer_key, asked, online, recent)

    def log_line(self, event: dict, names: list[str]) -> str | None:
        return self.log.line(event, names)

    def face(self, code: str) -> dict:
        return self.faces.face(code)


def places_by(scores: list[int], *, higher_wins: bool) -> list[int]:
    """Finishing places from final scores: 1 + how many seats did strictly better."""
    better = (lambda a, b: a > b) if higher_wins else (lambda a, b: a < b)
    return [1 + sum(better(other, mine) for other in scores) for mine in scores]


def rate(part: int, whole: int) -> float | None:
    """part / whole, or None with nothing to divide by."""
    return part / whole if whole else None
