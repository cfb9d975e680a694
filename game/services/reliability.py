"""Reliability: how each signed-in person's part in a game ended, what that says of them, and the
pause on joining public tables for someone who keeps leaving them.

When a game ends (services.ratings.game_finished, inside the play service's transaction), each
person's result gets one outcome:

- finished: they played to the end, or their absence is excused: they came back after a bot
  covered at most COVERED_EXCUSED of their turns (a dropped connection, a power cut: coming back
  within the reconnect grace, presence.AWAY_AFTER, never marks them at all), everyone still
  playing agreed to let them go ("Let Ana go": play.seat_let_go), or every turn-based turn they
  missed fell inside the away dates they had set in advance (Profile.away_from, away_until);
- left: a bot finished a live seat for them;
- timed out: at a turn-based table, a bot finished the seat after its clock ran out, or played
  more than COVERED_EXCUSED of its turns;
- aborted: everyone left before the game was well under way (ratings.left_early); it counts for
  nobody and against nobody.

Shown: "finished 28 of the last 30 games" (the last RECENT, aborted ones left out) and how many
games since the last leave, on the profile, beside the name at a table's seats (in its lobby and
during its games: `seat_records`, kept with each game from its deal) and in the home page's list
of open tables; a private profile's to its friends only. A public table's host may ask for a
minimum share of finished games.

Punished only where strangers play: LEAVES_PAUSED leaves (left or timed out, not excused) at
public tables (Table.public: not friends only) within LEAVE_WINDOW pause joining public tables,
PAUSE_FIRST the first time, twice as long each time after, PAUSE_MOST at most; each whole day of
clean play between the end of one pause and the next leave takes one doubling off. Friends'
tables and agreed leaves never count. A leave in last place late in the game is flagged for
moderators (RatingFlag LOSING), nothing more. This module is the only writer of outcomes (with
services.ratings, which stores them) and of pauses.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, F, Max, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from game.core.errors import ServiceError
from game.core.identity import Player
from game.core.moments import date_and_time
from game.models import Excuse, GameResult, LeavePause, MissedTurn, Outcome, Profile, RatingFlag, Table

RECENT = 30  # the games "finished 28 of the last 30" counts
COVERED_EXCUSED = 2  # turns a bot may play for someone in a game who then comes back, excused
LEAVES_PAUSED = 3
LEAVE_WINDOW = timedelta(days=7)
PAUSE_FIRST = timedelta(minutes=10)
PAUSE_MOST = timedelta(hours=24)
CLEAN_DAY = timedelta(days=1)  # each takes one doubling off the next pause
LATE = 0.5  # a leave is late once this share of the game's moves were made
MIN_CHOICES = (0, 50, 70, 80, 90)  # what a host may ask for (%)
LEAVES = (Outcome.LEFT, Outcome.TIMED_OUT)
# Records of the game's log that outcomes are read from (besides "action")
RECORDS = ("away", "back", "missed", "let_go")


@dataclass(frozen=True)
class Reliability:
    finished: int  # of the last `counted` games (aborted ones left out)
    counted: int
    since_leave: int  # games (not aborted) since the last leave; all of them if never
    ever_left: bool = False

    @property
    def percent(self) -> int:
        """The share finished, in whole % rounded as people round (2 of 3 is 67 %; 100 with no
        games yet: nothing held against anyone). A table's minimum is checked against this very
        figure, so what a person reads beside their name is what the table goes by."""
        return 100 if not self.counted else (self.finished * 200 + self.counted) // (self.counted * 2)


def _covered_turns(records: Iterable[dict], seat: int) -> int:
    """Turns of this seat a bot played for its person: a run of the bot's moves in a row for the
    seat (a turn is every decision a seat makes in a row), or a missed turn-based clock."""
    turns, in_turn = 0, False  # in_turn: a bot's turn for the seat is under way
    for record in records:
        if record["type"] == "missed" and record["seat"] == seat:
            turns, in_turn = turns + 1, True  # the bot's moves that follow are that same turn
        elif record["type"] == "action":
            if record["seat"] == seat and record.get("bot"):
                turns, in_turn = turns + (not in_turn), True
            else:
                in_turn = False
    return turns


def _let_go(records: list[dict], seat: int) -> bool:
    """Whether the others agreed to let the seat go after it was last marked away."""
    agreed = False
    for record in records:
        if record.get("seat") != seat:
            continue
        if record["type"] == "away":
            agreed = False
        elif record["type"] == "let_go":
            agreed = True
    return agreed


def away_dated(game, users: dict[int, int]) -> set[int]:
    """The seats (`users`: seat -> account) whose every missed turn in the game (turn-based
    clocks) fell inside their person's away dates, set in advance (both days included)."""
    dates = {
        user_id: (start, end)
        for user_id, start, end in Profile.objects.filter(
            user_id__in=set(users.values()), away_from__isnull=False, away_until__isnull=False
        ).values_list("user_id", "away_from", "away_until")
    }
    if not dates:
        return set()
    inside: dict[int, list[bool]] = {}
    for seat, user_id, due in MissedTurn.objects.filter(game=game, user_id__in=dates).values_list(
        "seat", "user_id", "due"
    ):
        start, end = dates[user_id]
        if users.get(seat) == user_id:
            inside.setdefault(seat, []).append(start <= timezone.localtime(due).date() <= end)
    return {seat for seat, found in inside.items() if found and all(found)}


def outcomes(
    table: Table,
    records: list[dict],
    people: Collection[int],
    away_at_end: Collection[int],
    early: Collection[int],
    dated: Collection[int] = (),
) -> dict[int, tuple[str, str]]:
    """Each person's seat's (outcome, excuse) from the game's "action" and RECORDS records in
    their order: `people` are the seats of people, `away_at_end` those a bot played at the end,
    `early` those that left before the game was well under way (ratings.left_early), `dated`
    those whose every missed turn fell inside their away dates (`away_dated`)."""
    if people and all(seat in away_at_end and seat in early for seat in people):
        return dict.fromkeys(people, (Outcome.ABORTED, ""))
    gone_outcome = Outcome.TIMED_OUT if table.turn_based else Outcome.LEFT
    found = {}
    for seat in people:
        covered = _covered_turns(records, seat)
        was_away = any(record["type"] == "away" and record["seat"] == seat for record in records)
        if (seat in away_at_end or covered > COVERED_EXCUSED) and _let_go(records, seat):
            found[seat] = (Outcome.FINISHED, Excuse.AGREED)
        elif (seat in away_at_end or covered > COVERED_EXCUSED) and table.turn_based and seat in dated:
            found[seat] = (Outcome.FINISHED, Excuse.AWAY)
        elif seat in away_at_end or covered > COVERED_EXCUSED:
            found[seat] = (gone_outcome, "")
        elif covered or was_away:
            found[seat] = (Outcome.FINISHED, Excuse.COVERED)
        else:
            found[seat] = (Outcome.FINISHED, "")
    return found


def late_leave(records: list[dict], seat: int) -> bool:
    """Whether the seat was last marked away once LATE of the game's moves were made."""
    moves = [i for i, record in enumerate(records) if record["type"] == "action"]
    aways = [i for i, record in enumerate(records) if record["type"] == "away" and record["seat"] == seat]
    if not moves or not aways:
        return False
    return sum(1 for i in moves if i < aways[-1]) >= LATE * len(moves)


def results_stored(table: Table, game, results: list[GameResult], records: list[dict], places: list[int]) -> None:
    """What follows from a game's results just stored: a pause for whoever has now left too
    often at public tables, and a flag for moderators on a leave in last place late in it."""
    now = game.finished or timezone.now()
    last = max(places) if places else None
    for result in results:
        if result.outcome not in LEAVES:
            continue
        if result.public:
            _pause_if_due(result.user_id, now)
        if len(places) > 1 and places[result.seat] == last and late_leave(records, result.seat):
            _flag_losing(result.kind, result.user_id, game.id)


def _pause_if_due(user_id: int, now: datetime) -> LeavePause | None:
    """A pause once LEAVES_PAUSED public leaves fall within LEAVE_WINDOW, none of them counted
    towards an earlier pause (or before a pause moderators cleared)."""
    previous = LeavePause.objects.filter(user_id=user_id).order_by("-started").first()
    since = now - LEAVE_WINDOW
    if previous is not None:
        since = max(since, previous.started, previous.cleared_at or previous.started)
    leaves = list(
        GameResult.objects.filter(user_id=user_id, public=True, outcome__in=LEAVES, finished__gt=since)
        .order_by("finished")
        .values_list("game_id", "finished")
    )
    if len(leaves) < LEAVES_PAUSED:
        return None
    level = 0
    if previous is not None and previous.cleared_at is None:
        clean_days = max(0, (leaves[0][1] - previous.until) // CLEAN_DAY)
        level = max(0, previous.level + 1 - clean_days)
    length = min(PAUSE_FIRST * 2**level, PAUSE_MOST)
    return LeavePause.objects.create(
        user_id=user_id, level=level, games=[game for game, _when in leaves], started=now, until=now + length
    )


def _flag_losing(kind: str, user_id: int, game_id: int) -> None:
    """The open "left in last place" flag of this account lists the game (made if none is open)."""
    found = RatingFlag.objects.filter(
        kind=RatingFlag.Kind.LOSING, game_kind=kind, user_id=user_id, status=RatingFlag.Status.OPEN
    ).first()
    if found is None:
        RatingFlag.objects.create(
            kind=RatingFlag.Kind.LOSING, game_kind=kind, user_id=user_id, games=[game_id], count=1
        )
        return
    if game_id not in found.games:
        found.games = [*found.games, game_id]
        found.count = len(found.games)
        found.save(update_fields=["games", "count", "updated"])


def of(user_ids: Iterable[int]) -> dict[int, Reliability]:
    """Each account's reliability (one with no games: 0 of 0, shown as nothing), in three
    queries however many accounts: a table's seats and the home page's open tables ask for many."""
    users = set(user_ids)
    if not users:
        return {}
    counted = GameResult.objects.filter(user_id__in=users).exclude(outcome=Outcome.ABORTED)
    totals = {
        row["user_id"]: row
        for row in counted.values("user_id").annotate(
            games=Count("id"), last_leave=Max("finished", filter=Q(outcome__in=LEAVES))
        )
    }
    last_leave = GameResult.objects.filter(user_id=OuterRef("user_id"), outcome__in=LEAVES).order_by("-finished")
    since = dict(
        counted.filter(user_id__in=[user for user, row in totals.items() if row["last_leave"] is not None])
        .annotate(last_leave=Subquery(last_leave.values("finished")[:1]))
        .filter(finished__gt=F("last_leave"))
        .values("user_id")
        .annotate(games=Count("id"))
        .values_list("user_id", "games")
    )
    recent: dict[int, list[str]] = {}
    for user_id, outcome in (
        counted.annotate(
            nth=Window(RowNumber(), partition_by=[F("user_id")], order_by=[F("finished").desc(), F("id").desc()])
        )
        .filter(nth__lte=RECENT)
        .values_list("user_id", "outcome")
    ):
        recent.setdefault(user_id, []).append(outcome)
    found = {}
    for user_id in users:
        row = totals.get(user_id)
        left = row is not None and row["last_leave"] is not None
        outcomes_ = recent.get(user_id, [])
        found[user_id] = Reliability(
            finished=sum(1 for outcome in outcomes_ if outcome not in LEAVES),
            counted=len(outcomes_),
            since_leave=since.get(user_id, 0) if left else (row["games"] if row else 0),
            ever_left=left,
        )
    return found


def records_of(user_ids: Iterable[int]) -> dict[int, dict]:
    """Each account's record as a seat shows it beside the name ({"user", "finished", "counted",
    "since", "left", "private"}; "left": ever, "private": the account's profile is private, so
    only its friends and itself see it), for those with a counted game."""
    users = set(user_ids)
    private = set(Profile.objects.filter(user_id__in=users, private=True).values_list("user_id", flat=True))
    return {
        user_id: {
            "user": user_id,
            "finished": found.finished,
            "counted": found.counted,
            "since": found.since_leave,
            "left": found.ever_left,
            "private": user_id in private,
        }
        for user_id, found in of(users).items()
        if found.counted
    }


def seat_records(seats: Iterable) -> list[dict | None]:
    """Per seat in seat order, its account's record (`records_of`): None for a guest, a bot or
    an account with no counted game. A game keeps these from its deal on (Game.records): a
    record changes only when a game ends, and a move reads nothing more for it."""
    seats = sorted(seats, key=lambda seat: seat.index)
    known = records_of(seat.user_id for seat in seats if seat.user_id and not seat.bot_level)
    return [known.get(seat.user_id) if seat.user_id and not seat.bot_level else None for seat in seats]


def active_pause(user_id: int | None, now: datetime | None = None) -> LeavePause | None:
    """The pause on joining public tables that holds now, if any."""
    if user_id is None:
        return None
    now = now or timezone.now()
    return LeavePause.objects.filter(user_id=user_id, until__gt=now, cleared_at__isnull=True).order_by("-until").first()


def pause_words(pause: LeavePause) -> str:
    """Why and until when someone may not join public tables, and how to appeal."""
    return _(
        "You left %(count)d games at public tables within a week, so until %(until)s you may not join public "
        "tables. Tables of friends only are open to you as ever. To appeal, write to %(email)s."
    ) % {
        "count": len(pause.games),
        "until": date_and_time(pause.until),
        "email": settings.SEVN_APPEAL_EMAIL,
    }


def refuse_unreliable(table: Table, player: Player) -> None:
    """Someone paused may not sit at a public table, nor below its minimum share of finished games."""
    if not table.public:
        return
    pause = active_pause(player.user_id)
    if pause is not None:
        raise ServiceError("paused", pause_words(pause))
    if not table.min_reliability:
        return
    if not player.is_user:
        raise ServiceError(
            "reliability_guest",
            _(
                "This table asks for players who finished at least %(min)d%% of their last games: "
                "log in so that yours count."
            )
            % {"min": table.min_reliability},
        )
    mine = of([player.user_id])[player.user_id]
    if mine.percent < table.min_reliability:
        raise ServiceError(
            "reliability_low",
            _(
                "This table asks for players who finished at least %(min)d%% of their last games; you finished "
                "%(finished)d of your last %(counted)d (%(percent)d%%). Finishing the games you start raises it."
            )
            % {
                "min": table.min_reliability,
                "finished": mine.finished,
                "counted": mine.counted,
                "percent": mine.percent,
            },
        )


def clear_pauses(*, pause_ids: list[int], by) -> int:
    """Moderators clear pauses (admin's action, on an appeal): how many held."""
    return LeavePause.objects.filter(id__in=pause_ids, cleared_at__isnull=True).update(
        cleared_by=by, cleared_at=timezone.now()
    )
