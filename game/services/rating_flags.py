"""Flags for moderators on patterns in rated games that farm ratings, looked for each time a
rated game ends (services.ratings calls `game_rated` in the same transaction):

- leaving again and again: an account that left LEAVES_FLAGGED rated games of one game within
  WINDOW (a bot finished each for them);
- one-sided games: two accounts that met in PAIR_GAMES rated games of one game within WINDOW,
  every one of them ending with the same one ahead (a place before the other's, or the other
  left): a second account losing on purpose to lift the first.

A flag changes nothing for anyone: it lists the games, a moderator reads them and decides (and
marks it handled in admin, game.moderation.rating_flags). While a flag is open, further games
of the same pattern are added to it; once handled, only games after that count towards a new one.
Flags have a model of their own, not the reports queue: a report is one person's complaint about
another at one table, with the chat as evidence; a flag is the site's, about games at many tables.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from itertools import combinations

from django.db.models import Max
from django.utils import timezone

from game.models import Game, GameResult, RatingFlag

LEAVES_FLAGGED = 3
PAIR_GAMES = 3
WINDOW = timedelta(days=7)

Flag = RatingFlag.Kind


def game_rated(kind: str, game: Game) -> None:
    """Look for both patterns among the people of a rated game that has just ended."""
    finished = game.finished or timezone.now()
    results = list(GameResult.objects.filter(game=game).values_list("user_id", "away"))
    for user_id, away in results:
        if away:
            _leaving(kind, user_id, finished)
    users = sorted(user_id for user_id, _away in results)
    if len(users) >= 2:
        _one_sided(kind, users, finished)


def _handled_after(kind: str, flag: str, user_id: int, other_id: int | None) -> datetime | None:
    """When moderators last handled this pattern for these accounts: only later games count."""
    handled = RatingFlag.objects.filter(
        kind=flag, game_kind=kind, user_id=user_id, other_id=other_id, status=RatingFlag.Status.HANDLED
    )
    return handled.aggregate(last=Max("handled_at"))["last"]


def _leaving(kind: str, user_id: int, now: datetime) -> None:
    left = GameResult.objects.filter(user_id=user_id, kind=kind, away=True, rated=True, finished__gte=now - WINDOW)
    since = _handled_after(kind, Flag.LEAVING, user_id, None)
    if since is not None:
        left = left.filter(finished__gt=since)
    games = sorted(left.values_list("game_id", flat=True))
    if len(games) >= LEAVES_FLAGGED:
        _raise(kind, Flag.LEAVING, user_id, None, games)


def _standing(away: bool, place: int) -> tuple[bool, int]:
    """How one person's game ended, to compare two: one who left is behind one who stayed,
    two who left are level."""
    return (away, 0 if away else place)


def _one_sided(kind: str, users: list[int], now: datetime) -> None:
    rows = GameResult.objects.filter(
        user_id__in=users, kind=kind, game__table__rated=True, finished__gte=now - WINDOW
    ).values_list("game_id", "user_id", "away", "place", "finished")
    games: dict[int, dict[int, tuple[bool, int]]] = defaultdict(dict)
    ended: dict[int, datetime] = {}
    for game_id, user_id, away, place, finished in rows:
        games[game_id][user_id] = _standing(away, place)
        ended[game_id] = finished
    for first, second in combinations(users, 2):
        met = [game_id for game_id, standings in games.items() if first in standings and second in standings]
        if len(met) < PAIR_GAMES:
            continue
        for behind, ahead in ((first, second), (second, first)):
            since = _handled_after(kind, Flag.ONE_SIDED, behind, ahead)
            counted = sorted(game_id for game_id in met if since is None or ended[game_id] > since)
            if len(counted) >= PAIR_GAMES and all(games[g][ahead] < games[g][behind] for g in counted):
                _raise(kind, Flag.ONE_SIDED, behind, ahead, counted)


def _raise(kind: str, flag: str, user_id: int, other_id: int | None, games: list[int]) -> None:
    """The open flag of this pattern for these accounts lists these games (made if none is open)."""
    found = RatingFlag.objects.filter(
        kind=flag, game_kind=kind, user_id=user_id, other_id=other_id, status=RatingFlag.Status.OPEN
    ).first()
    if found is None:
        RatingFlag.objects.create(
            kind=flag, game_kind=kind, user_id=user_id, other_id=other_id, games=games, count=len(games)
        )
        return
    found.games, found.count = games, len(games)
    found.save(update_fields=["games", "count", "updated"])


def flags_handle(*, flag_ids: list[int], by) -> int:
    """Moderators mark flags handled (the admin's action): how many were open."""
    return RatingFlag.objects.filter(id__in=flag_ids, status=RatingFlag.Status.OPEN).update(
        status=RatingFlag.Status.HANDLED, handled_by=by, handled_at=timezone.now()
    )
