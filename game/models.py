"""What the server keeps: tables, their seats, games with the engine state and a
version number, and the append-only event log of every game."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from game import registry
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
    kind = models.CharField(_("game"), max_length=8, choices=registry.choices, default=default_kind)
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

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.code


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
    event_count = models.PositiveIntegerField(_("events logged"), default=0)
    deadline = models.DateTimeField(_("next deadline"), null=True, blank=True, db_index=True)
    over = models.BooleanField(_("over"), default=False, db_index=True)
    winner = models.PositiveSmallIntegerField(_("winning seat"), null=True, blank=True)
    created = models.DateTimeField(_("started"), auto_now_add=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

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


class ChatMessage(models.Model):
    """One line of a table's chat: free text, or a quick phrase kept as its key (each viewer
    reads it in their own language). A table keeps its last CHAT_KEPT lines."""

    class Channel(models.TextChoices):
        TABLE = "table", _("Table")
        SPECTATORS = "spectators", _("Spectators")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat", verbose_name=_("table"))
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices, default=Channel.TABLE)
    author_key = models.CharField(_("player key"), max_length=64, db_index=True)
    author_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("user")
    )
    nickname = models.CharField(_("nickname"), max_length=20)
    text = models.CharField(_("text"), max_length=200, blank=True)
    phrase = models.CharField(_("quick phrase"), max_length=20, blank=True)
    created = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["-id"]
        indexes = [models.Index(fields=["table", "-id"], name="chat_of_table")]

    def __str__(self) -> str:
        return f"{self.nickname}: {self.text or self.phrase}"


class Report(models.Model):
    """A player's report of a chat message or of a seated player, with the chat as it was."""

    class Reason(models.TextChoices):
        INSULTS = "insults", _("Insults")
        SPAM = "spam", _("Spam")
        CHEATING = "cheating", _("Cheating or collusion")
        NICKNAME = "nickname", _("Offensive nickname")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        HANDLED = "handled", _("Handled")

    table = models.ForeignKey(
        Table, null=True, on_delete=models.SET_NULL, related_name="reports", verbose_name=_("table")
    )
    table_code = models.CharField(_("table code"), max_length=8)
    reporter_key = models.CharField(_("reporter key"), max_length=64, db_index=True)
    reporter_name = models.CharField(_("reported by"), max_length=20)
    reported_key = models.CharField(_("reported player key"), max_length=64, db_index=True)
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("reported user"),
    )
    reported_name = models.CharField(_("reported player"), max_length=20)
    message = models.ForeignKey(
        ChatMessage,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports",
        verbose_name=_("chat message"),
    )
    message_text = models.CharField(_("reported message"), max_length=200, blank=True)
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    comment = models.CharField(_("comment"), max_length=200, blank=True)
    evidence = models.JSONField(_("last chat lines"), default=list)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True)
    created = models.DateTimeField(_("reported"), auto_now_add=True, db_index=True)
    # Reports of the same person at the same table while one is open fold into it: how many
    # came, and when the last one did (services.reports).
    count = models.PositiveIntegerField(_("times reported"), default=1)
    last_reported = models.DateTimeField(_("last reported"), null=True, blank=True)
    more = models.JSONField(_("further reports"), default=list, blank=True)  # who, why, when (the first 100)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("handled by"),
    )
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)
    resolution = models.CharField(_("how it was handled"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-status", "-created"]  # "open" sorts after "handled": open reports first
        permissions = [
            ("handle_report", _("Can handle reports")),
            ("warn_player", _("Can warn players")),
            ("mute_player", _("Can mute players in chat")),
            ("remove_player", _("Can remove players from tables")),
            ("rename_player", _("Can rename offensive nicknames")),
            ("ban_player", _("Can ban players from tables")),
            ("close_table", _("Can close tables")),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter_key", "message"],
                condition=models.Q(message__isnull=False),
                name="one_report_per_message_and_reporter",
            ),
            models.UniqueConstraint(
                fields=["reporter_key", "table", "reported_key"],
                condition=models.Q(message__isnull=True, table__isnull=False),
                name="one_report_per_seat_and_reporter",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_code}: {self.reported_name} ({self.get_reason_display()})"


class Sanction(models.Model):
    """A mute (in chat, at one table or everywhere) or a ban (from creating and joining tables),
    of a guest key and, for a signed-in user, of the account. It ends on its own at `expires`
    (never, when empty) or when lifted."""

    class Kind(models.TextChoices):
        MUTE = "mute", _("Muted in chat")
        BAN = "ban", _("Banned from tables")

    kind = models.CharField(_("kind"), max_length=4, choices=Kind.choices, db_index=True)
    player_key = models.CharField(_("player key"), max_length=64, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("user"),
    )
    nickname = models.CharField(_("nickname"), max_length=20)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="+", verbose_name=_("only at table")
    )
    reason = models.CharField(_("reason"), max_length=200)
    # A ban's: the address the person last came from, refused tables while the ban lasts
    # (whoever comes back from it with a new guest key; game.services.chat.active_sanction).
    address = models.GenericIPAddressField(_("address"), null=True, blank=True, db_index=True)
    created = models.DateTimeField(_("from"), auto_now_add=True)
    expires = models.DateTimeField(_("until"), null=True, blank=True, db_index=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("by")
    )
    lifted = models.DateTimeField(_("lifted"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("lifted by"),
    )

    class Meta:
        verbose_name = _("mute or ban")
        verbose_name_plural = _("mutes and bans")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.nickname}"


class ModAction(models.Model):
    """One line of the moderators' log: who did what to whom, when and why. Never changed."""

    class Action(models.TextChoices):
        WARN = "warn", _("Warned")
        MUTE = "mute", _("Muted in chat")
        BAN = "ban", _("Banned from tables")
        LIFT = "lift", _("Lifted a mute or ban")
        REMOVE = "remove", _("Removed from a table")
        RENAME = "rename", _("Renamed")
        CLOSE = "close", _("Closed a table")
        HANDLE = "handle", _("Marked a report handled")

    created = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("who")
    )
    actor_name = models.CharField(_("staff member"), max_length=150)
    action = models.CharField(_("what"), max_length=8, choices=Action.choices, db_index=True)
    target_key = models.CharField(_("player key"), max_length=64, blank=True, db_index=True)
    target_name = models.CharField(_("whom"), max_length=20, blank=True)
    table_code = models.CharField(_("table"), max_length=8, blank=True, db_index=True)
    detail = models.CharField(_("details"), max_length=200, blank=True)
    reason = models.CharField(_("why"), max_length=300, blank=True)
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions", verbose_name=_("report")
    )

    class Meta:
        verbose_name = _("moderators' log entry")
        verbose_name_plural = _("moderators' log")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.actor_name}: {self.get_action_display()} {self.target_name or self.table_code}"


class Profile(models.Model):
    """A person with an account: the player key they play under on every device (the guest key
    they signed up with, so their open seats never change hands) and what others may see."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sevn_profile", verbose_name=_("user")
    )
    player_key = models.CharField(_("player key"), max_length=64, unique=True)
    private = models.BooleanField(
        _("private profile"), default=False, help_text=_("Only you and your friends see your games and results.")
    )
    hide_online = models.BooleanField(
        _("hide where I play"), default=False, help_text=_("Friends do not see you online or at which table.")
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # While the account is suspended (its user inactive): what its person reads when they try to
    # come back (game.accounts.suspended), and when it ends (empty: until staff reinstate it).
    suspension_reason = models.CharField(_("reason for the suspension"), max_length=300, blank=True)
    suspended_until = models.DateTimeField(_("suspended until"), null=True, blank=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")
        permissions = [("suspend_account", _("Can suspend and reinstate accounts"))]

    def __str__(self) -> str:
        return str(self.user)


class GuestKey(models.Model):
    """A guest key that became an account's: its seats, games and chat moved to the account, and
    a mute or ban of the account holds for the key (and one of the key for the account)."""

    key = models.CharField(_("guest key"), max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="guest_keys", verbose_name=_("user")
    )
    linked = models.DateTimeField(_("linked"), auto_now_add=True)

    class Meta:
        verbose_name = _("guest key")
        verbose_name_plural = _("guest keys")

    def __str__(self) -> str:
        return f"{self.user}: {self.key[:10]}…"


class Friendship(models.Model):
    """One person's relation to another: a request sent, a friendship (both ways: accepted sets
    the pair), or a block (one way: the blocked person can neither invite, see nor ask)."""

    class Status(models.TextChoices):
        REQUESTED = "requested", _("Request sent")
        FRIENDS = "friends", _("Friends")
        BLOCKED = "blocked", _("Blocked")

    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="relations_out", verbose_name=_("sender")
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="relations_in", verbose_name=_("recipient")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, db_index=True)
    created = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [models.UniqueConstraint(fields=["from_user", "to_user"], name="one_relation_per_pair")]

    def __str__(self) -> str:
        return f"{self.from_user} → {self.to_user}: {self.status}"


class Invitation(models.Model):
    """An invitation to a table: shown live on every page the invited person has open and kept
    in their inbox until they answer it or the table closes (it goes with its table)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("table"))
    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent", verbose_name=_("sender")
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("recipient")
    )
    created = models.DateTimeField(_("sent"), auto_now_add=True, db_index=True)
    answered = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created"]
        constraints = [models.UniqueConstraint(fields=["table", "to_user"], name="one_invitation_per_table")]

    def __str__(self) -> str:
        return f"{self.from_user} → {self.to_user} ({self.table.code})"


class GameResult(models.Model):
    """How one signed-in person's game ended: their place, points and the game's own figures
    (its Kind's `seat_figures`), written once when the game is over (the profile's stats)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results", verbose_name=_("game"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_results", verbose_name=_("user")
    )
    kind = models.CharField(_("game"), max_length=8, db_index=True)
    seat = models.PositiveSmallIntegerField(_("seat"))
    place = models.PositiveSmallIntegerField(_("place"))
    won = models.BooleanField(_("won"), default=False)
    away = models.BooleanField(_("left (a bot played)"), default=False)
    points = models.IntegerField(_("points"))
    figures = models.JSONField(_("figures"), default=dict)
    rated = models.BooleanField(_("rated"), default=False)
    finished = models.DateTimeField(_("finished"), db_index=True)

    class Meta:
        verbose_name = _("game result")
        verbose_name_plural = _("game results")
        ordering = ["-finished"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_result_per_game_and_user")]
        indexes = [models.Index(fields=["user", "kind"], name="results_of_user")]

    def __str__(self) -> str:
        return f"{self.game} {self.user}: {self.place}"


class Rating(models.Model):
    """A person's rating in one game (openskill's Plackett-Luce: mu and sigma); `value` is what
    the leaderboard shows and sorts by (services.ratings.shown)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("user")
    )
    kind = models.CharField(_("game"), max_length=8)
    mu = models.FloatField(_("mu"))
    sigma = models.FloatField(_("sigma"))
    value = models.IntegerField(_("rating"), db_index=True)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["kind", "-value"]
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_rating_per_user_and_game")]

    def __str__(self) -> str:
        return f"{self.user} ({self.kind}): {self.value}"


class RatingChange(models.Model):
    """A person's rating after one rated game (the profile draws them over time)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("user")
    )
    kind = models.CharField(_("game"), max_length=8)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes", verbose_name=_("game"))
    before = models.IntegerField(_("rating before"))
    value = models.IntegerField(_("rating"))
    created = models.DateTimeField(_("when"), db_index=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["created", "id"]
        indexes = [models.Index(fields=["user", "kind", "created"], name="rating_changes_of_user")]

    def __str__(self) -> str:
        return f"{self.user} ({self.kind}): {self.before} → {self.value}"


class RatingFlag(models.Model):
    """A pattern in rated games for moderators to look at (services.rating_flags finds them when a
    rated game ends): an account that keeps leaving rated games, or two accounts whose rated games
    against each other always end with the same one ahead (losing on purpose to lift the other).
    Nothing is done to anyone by a flag: a moderator reads the games it lists and decides."""

    class Kind(models.TextChoices):
        LEAVING = "leaving", _("Leaves rated games again and again")
        ONE_SIDED = "onesided", _("Always loses rated games to the same account")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        HANDLED = "handled", _("Handled")

    kind = models.CharField(_("pattern"), max_length=8, choices=Kind.choices, db_index=True)
    game_kind = models.CharField(_("game"), max_length=8)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_flags", verbose_name=_("account")
    )
    other = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("always behind this account"),
    )
    games = models.JSONField(_("games"), default=list)  # the ids of the games that make the pattern
    count = models.PositiveIntegerField(_("number of games"), default=0)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True)
    created = models.DateTimeField(_("flagged"), auto_now_add=True, db_index=True)
    updated = models.DateTimeField(_("last game"), auto_now=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("handled by"),
    )
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating flag")
        verbose_name_plural = _("rating flags")
        ordering = ["-status", "-updated"]  # "open" sorts after "handled": open flags first

    def __str__(self) -> str:
        return f"{self.user} ({self.get_kind_display()})"
