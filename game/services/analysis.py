"""The hard bot's judgement on each person's decisions, after a game (each game's Kind.analysis):
queued when a game ends, worked on in the background (game.live.analysing: one game at a time per
process, in a low-priority process of its own), stored once per game and estimate version, and
read by the replay. Nothing of it exists for a game still being played: only a game that is over
is queued, claimed or shown, and no table update carries any of it.

A row is claimed by one process at a time (queued -> running, by a conditional update); a running
row whose process died is claimed again after `STALE`. A new estimate version (the hard bot
changed) leaves the old row and queues the game again when its replay is next looked at.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from game import registry
from game.models import Game, GameAnalysis, GameResult
from game.services.records import full_record, recordable

logger = logging.getLogger(__name__)

STALE = timedelta(minutes=10)  # a running analysis not done by then is taken up again
TRIES = 2  # an analysis that failed this many times is left failed


def _version(game: Game) -> str | None:
    analysis = registry.of(game.table).analysis
    return analysis.VERSION if analysis is not None else None


def queue(game: Game) -> GameAnalysis | None:
    """Ask for the analysis of a finished game by the current estimate (once: an existing row
    stays as it is); None for a game that cannot have one (running, no record, no estimate)."""
    version = _version(game)
    if version is None or not recordable(game):
        return None
    row, _created = GameAnalysis.objects.get_or_create(game=game, version=version)
    return row


def game_finished(game: Game) -> None:
    """A game just ended (services.play, inside its move's transaction): queue its analysis."""
    queue(game)


def claim_next(now=None) -> tuple[int, str, dict] | None:
    """The oldest analysis waiting (or stale), marked running by this caller: (its id, the game's
    name, the game's record); None when nothing waits."""
    now = now or timezone.now()
    waiting = GameAnalysis.objects.filter(
        Q(status=GameAnalysis.Status.QUEUED) | Q(status=GameAnalysis.Status.RUNNING, started__lt=now - STALE),
        game__over=True,
    ).order_by("queued")
    for row in waiting.select_related("game__table")[:5]:
        claimed = GameAnalysis.objects.filter(id=row.id, status=row.status, started=row.started).update(
            status=GameAnalysis.Status.RUNNING, started=now
        )
        if not claimed:
            continue  # another process took it first
        if row.version != _version(row.game):  # the estimate changed since it was queued
            GameAnalysis.objects.filter(id=row.id).delete()
            queue(row.game)
            continue
        return row.id, registry.of(row.game.table).name, full_record(row.game)
    return None


def finish(analysis_id: int, data: dict) -> None:
    """Store a finished analysis."""
    GameAnalysis.objects.filter(id=analysis_id).update(
        status=GameAnalysis.Status.DONE, data=data, cpu_seconds=float(data.get("cpu_s", 0.0)), finished=timezone.now()
    )


def fail(analysis_id: int) -> None:
    """The analysis could not be made: queued again once, then left failed (the replay says so)."""
    with transaction.atomic():
        row = GameAnalysis.objects.select_for_update().filter(id=analysis_id).first()
        if row is None:
            return
        tries = (row.data or {}).get("tries", 0) + 1
        row.status = GameAnalysis.Status.FAILED if tries >= TRIES else GameAnalysis.Status.QUEUED
        row.data, row.finished = {"tries": tries}, timezone.now()
        row.save(update_fields=["status", "data", "finished"])


def run_one(analyse=None) -> bool:
    """Claim one waiting analysis, work it out with `analyse(game, record)` (in this process
    unless given: the background loop gives its own) and store it; whether there was one."""
    job = claim_next()
    if job is None:
        return False
    analysis_id, name, record = job
    if analyse is None:
        from game.registry.analysing import analyse
    try:
        data = analyse(name, record)
    except Exception:
        logger.exception("analysis %s failed", analysis_id)
        fail(analysis_id)
        return True
    finish(analysis_id, data)
    return True


def of_game(game_id: int) -> dict:
    """A finished game's analysis as the replay shows it: {"status": "none" | "queued" |
    "running" | "done" | "failed", "data": the analysis when done}. A game without one yet
    (it ended before analyses were made, or the estimate changed since) is queued now."""
    game = Game.objects.select_related("table").filter(id=game_id, over=True).first()
    version = _version(game) if game is not None else None
    if game is None or version is None or not recordable(game):
        return {"status": "none", "data": None}
    row = GameAnalysis.objects.filter(game=game, version=version).only("status", "data").first()
    if row is None:
        row = queue(game)
    if row is None:
        return {"status": "none", "data": None}
    return {"status": row.status, "data": row.data if row.status == GameAnalysis.Status.DONE else None}


PROFILE_GAMES = 200  # the profile reads a person's analyses of their last this many games per game


def person_summary(user_id: int) -> dict[str, dict]:
    """A person's analysed games per game (their own decisions only, by their seat), for the
    profile: {"kind": {"accuracy": [(finished, accuracy)] oldest first, "average": mean accuracy,
    "kinds": {mistake kind: count}, "worst": (public_id, move, loss) or None}}."""
    found: dict[str, dict] = {}
    for name, kind in registry.KINDS.items():
        if kind.analysis is None:
            continue
        results = list(
            GameResult.objects.filter(user_id=user_id, kind=name, away=False)
            .order_by("-finished")
            .values_list("game_id", "seat", "finished")[:PROFILE_GAMES]
        )
        seats = {game_id: (seat, finished) for game_id, seat, finished in results}
        rows = GameAnalysis.objects.filter(
            game_id__in=seats, version=kind.analysis.VERSION, status=GameAnalysis.Status.DONE
        ).values_list("game_id", "game__public_id", "data")
        points, kinds, worst = [], {}, None
        for game_id, public_id, data in rows:
            seat, finished = seats[game_id]
            mine = (data.get("people") or {}).get(str(seat))
            if not mine or mine.get("accuracy") is None:
                continue
            points.append((finished, mine["accuracy"]))
            for code, count in (mine.get("kinds") or {}).items():
                kinds[code] = kinds.get(code, 0) + count
            if mine.get("worst") is not None:
                loss = data["decisions"][str(mine["worst"])]["loss"]
                if worst is None or loss > worst[2]:
                    worst = (public_id, mine["worst"], loss)
        if points:
            points.sort()
            found[name] = {
                "accuracy": points,
                "average": sum(accuracy for _when, accuracy in points) / len(points),
                "kinds": kinds,
                "worst": worst,
            }
    return found
