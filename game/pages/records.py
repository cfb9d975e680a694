"""Game records: a finished game's record to download (game.fair.record)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext

from game.fair import record as records
from game.services.records import game_record


def record_response(game_id: int) -> HttpResponse:
    record = game_record(game_id)
    if record is None:
        raise Http404(gettext("This game has no record: it is still being played, or it was never dealt fairly."))
    response = HttpResponse(records.dumps(record), content_type=f"{records.MEDIA_TYPE}; charset=utf-8")
    filename = f"{record['game']}-{record['table']}-{record['number']}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def game_record_download(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game's record (JSON, docs/fair-deal.md), from the game-over screen and its replay."""
    return record_response(game_id)
