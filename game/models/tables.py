"""The tables people play at: a table with its seats, its games (engine state and a version number),
the append-only event log of every game, and who has a socket open where."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from game import registry
from game.core import pace as paces
from game.fair.seeds import new_server_seed

PUBLIC_ID_BYTES = 16  # a game's public id: 16 random bytes, 22 URL-safe characters


def new_public_id() -> str:
    """A game's id in links (/g/<id>/, its record): random, so that nobody can walk through
    every game by counting (the database's own id is sequential and stays inside)."""
    return secrets.token_urlsafe(PUBLIC_ID_BYTES)


def default_kind() -> str:
    """The game a table plays unless its host chooses another (game.registry.DEFAULT)."""
    return registry.DEFAULT


def default_bot_delay_ms() -> int:
    """Bots pause like people before moving (0 in tests, so games play through at once)."""
    return settings.SEVN_BOT_DELAY_MS


PACE_CHOICES = [
    (paces.LIVE, _("Live")),
    (paces.PER_MOVE, _("Turn-based: a time per move")),
    (paces.BANK, _("Turn-based: a time bank")),
    (paces.UNLIMITED, _("Turn-based: no time limit")),
]


class Table(models.Model):
    """A table friends share by its code; it hosts one game after another (rematches)."""

    class Status(models.TextChoices):
        LOBBY = "lobby", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Game over")
        CLOSED = "closed", _("Closed")

    TIMER_CHOICES = [(0, _("Off")), (15, _("15 s")), (30, _("30 s")), (60, _("60 s"))]

    code = models.CharField(_("code"), max_length=8, unique=True)
    host_key = models.CharField(_("host key"), max_length=64, db_index=True)
    host_name = models.CharField(_("host"), max_length=20)
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    # Which game the table plays: the registry's games are the choices (a callable, so a new game
    # needs no migration), and each game's settings are its Kind's, kept as the Kind checked them.
    kind = models.CharField(
        pgettext_lazy("which game: SEVN or Sevens", "game"),
        max_length=8,
        choices=registry.choices,
        default=default_kind,
    )
    options = models.JSONField(_("game settings"), default=dict, blank=True)
    turn_seconds = models.PositiveSmallIntegerField(_("turn timer"), choices=TIMER_CHOICES, default=30)
    bot_delay_ms = models.PositiveIntegerField(_("bot pause (ms)"), default=default_bot_delay_ms)
    spectator_chat = models.BooleanField(_("spectators may chat"), default=True)
    members_only = models.BooleanField(
        _("signed-in players only"), default=False, help_text=_("Guests may watch but not take a seat.")
    )
    rated = models.BooleanField(
        _("rated"),
        default=False,
        help_text=_("Each finished game updates the players' ratings (signed-in players only)."),
    )
    # A public table's host may ask that people who sit have finished at least this share (in %)
    # of their last games (services.reliability.RECENT); 0: anyone may sit.
    min_reliability = models.PositiveSmallIntegerField(_("finished games asked for (%)"), default=0)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.LOBBY, db_index=True)
    closed_reason = models.CharField(_("closed because"), max_length=200, blank=True)
    # the next deal's server seed (secret until that game is over; its SHA-256 is shown before the deal)
    next_seed = models.CharField(_("next server seed"), max_length=64, default=new_server_seed)
    created = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)
    # How many times its screens were told whose sockets are open (services.common.presence_event):
    # those messages come from several processes and may arrive out of order, so each carries
    # this number and a screen keeps the highest it heard.
    presence_told = models.PositiveBigIntegerField(default=0, editable=False)
    # The pace (game.core.pace): live (turn_seconds a decision, a bot takes the seat of someone
    # away), or turn-based: a time per move (move_seconds), a time bank (move_seconds to start,
    # bank_increment after each move, bank_most at most) or no limit. A turn-based clock runs
    # only inside the daily playing window, when there is one (window_start-window_end in
    # time_zone, the host's; it may cross midnight).
    pace = models.CharField(_("pace"), max_length=4, choices=PACE_CHOICES, default=paces.LIVE)
    move_seconds = models.PositiveIntegerField(_("time per move or bank (s)"), default=0)
    bank_increment = models.PositiveIntegerField(_("added to the bank after a move (s)"), default=0)
    bank_most = models.PositiveIntegerField(_("largest bank (s)"), default=0)
    window_start = models.TimeField(_("clocks run from"), null=True, blank=True)
    window_end = models.TimeField(_("clocks run until"), null=True, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created"]
        # the absence sweep reads the seats of live tables under way only: without this it read
        # every table (a scan of 20,000 turn-based ones every 2 s, bench/turn_based_load.py)
        indexes = [models.Index(fields=["pace", "status"], name="table_pace_status")]

    def __str__(self) -> str:
        return self.code

    @property
    def public(self) -> bool:
        """Anyone with its link may sit (a table with no time limit seats its host's friends only)."""
        return self.pace != paces.UNLIMITED

    @property
    def turn_based(self) -> bool:
        return self.pace != paces.LIVE

    @property
    def window(self) -> paces.Window | None:
        """The daily playing window (None: the clocks run at any hour)."""
        if self.window_start is None or self.window_end is None or not self.turn_based:
            return None
        return paces.Window(self.window_start, self.window_end, self.time_zone or "UTC")


class Seat(models.Model):
    """A taken seat: a person (guest key or user) or a bot, by position at the table."""

    class BotLevel(models.TextChoices):
        EASY = "easy", _("Easy")
        MEDIUM = "medium", _("Medium")
        HARD = "hard", _("Hard")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table"))
    index = models.PositiveSmallIntegerField(_("seat"))
    player_key = models.CharField(_("player key"), max_length=64, blank=True, db_index=True)
    nickname = models.CharField(_("nickname"), max_length=20)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("user")
    )
    bot_level = models.CharField(_("bot level"), max_length=6, choices=BotLevel.choices, blank=True)
    away = models.BooleanField(_("away (a bot plays)"), default=False)
    timeouts_in_row = models.PositiveSmallIntegerField(_("timeouts in a row"), default=0)
    last_seen = models.DateTimeField(_("last seen"), null=True, blank=True)
    client_seed = models.CharField(_("client seed for the next deal"), max_length=64, blank=True)
    joined = models.DateTimeField(_("joined"), auto_now_add=True)
    # A time-bank table's: the clock time this seat has left for its turns (None at other paces)
    bank_seconds = models.PositiveIntegerField(_("time bank (s)"), null=True, blank=True)
    # While its person is away: the seats of the others who agreed to let them go ("Let Ana go",
    # services.play.seat_let_go); emptied when they are back or a game starts.
    let_go_by = models.JSONField(_("agreed to let them go"), default=list, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="one_player_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} #{self.index + 1} {self.nickname}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)


class Game(models.Model):
    """One game at a table: the engine state (secret: deck order and seed) and its version."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="games", verbose_name=_("table"))
    number = models.PositiveIntegerField(_("game number"), default=1)
    public_id = models.CharField(_("public id"), max_length=32, unique=True, default=new_public_id, editable=False)
    state = models.TextField(_("engine state"))
    version = models.PositiveIntegerField(_("version"), default=0)
    seed = models.BigIntegerField(_("seed"))  # the engine's, derived by game.fair.seeds
    server_seed = models.CharField(_("server seed"), max_length=64, blank=True)  # secret until the game is over
    commitment = models.CharField(_("commitment"), max_length=64, blank=True)  # its SHA-256, shown before the deal
    client_seeds = models.JSONField(_("client seeds"), default=list)  # [[seat, seed], ...] in seat order
    players = models.JSONField(_("players"), default=list)
    bots = models.JSONField(_("computer players"), default=list)  # per seat at the deal: its bot level, "" for a person
    # Per seat at the deal: its account's record as it stood then (services.reliability.seat_records:
    # {"user", "finished", "counted", "since", "private"}), None for a guest, a bot or no game yet.
    # Records change only when a game ends, so a game's seats show the one they sat down with.
    records = models.JSONField(_("players' records"), default=list, blank=True)
    event_count = models.PositiveIntegerField(_("events logged"), default=0)
    deadline = models.DateTimeField(_("next deadline"), null=True, blank=True, db_index=True)
    over = models.BooleanField(_("over"), default=False, db_index=True)
    winner = models.PositiveSmallIntegerField(_("winning seat"), null=True, blank=True)
    created = models.DateTimeField(_("started"), auto_now_add=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)
    # The seat that decides now (None once over), and since when it has: a person's turn began
    # then (a turn is every decision a seat makes in a row). Kept for every game, read at
    # turn-based tables: the your-move list and the time-bank clock.
    acting = models.PositiveSmallIntegerField(_("seat to decide"), null=True, blank=True)
    turn_started = models.DateTimeField(_("turn started"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_game_number_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table.code} / {self.number}"


class Event(models.Model):
    """One line of a game's append-only log: an action taken, or an engine event it caused."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events", verbose_name=_("game"))
    seq = models.PositiveIntegerField(_("number"))
    version = models.PositiveIntegerField(_("game version"))
    kind = models.CharField(_("kind"), max_length=32, db_index=True)
    data = models.JSONField(_("data"))
    created = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_event_per_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.kind}"


class MissedTurn(models.Model):
    """A turn a person let run out at a turn-based table (a bot played it for them): kept for
    good, the base of a reliability figure."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="missed_turns", verbose_name=_("table"))
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="missed_turns", verbose_name=_("game"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    player_key = models.CharField(_("player key"), max_length=64, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("user")
    )
    in_row = models.PositiveSmallIntegerField(_("missed in a row"))
    due = models.DateTimeField(_("due"))
    created = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("missed turn")
        verbose_name_plural = _("missed turns")
        ordering = ["-created"]
        indexes = [models.Index(fields=["user", "created"], name="missed_turn_user")]

    def __str__(self) -> str:
        return f"{self.table.code} #{self.seat + 1} {self.due:%Y-%m-%d %H:%M}"


class Presence(models.Model):
    """One open socket of a seated person; rows vanish when sockets close (or go stale when a
    server process dies, hence the heartbeat)."""

    channel = models.CharField(_("channel"), max_length=200, primary_key=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="presences", verbose_name=_("table"))
    player_key = models.CharField(_("player key"), max_length=64, db_index=True)
    seen = models.DateTimeField(_("last heartbeat"), db_index=True)

    class Meta:
        verbose_name = _("open connection")
        verbose_name_plural = _("open connections")
