"""Reporting a person or a chat line at a table to staff."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from game import services
from game.core.errors import ServiceError
from game.core.identity import NICKNAME_KEY, player_for
from game.pages.answers import answer
from game.pages.lookups import count_refusal


@require_POST
def table_report(request: HttpRequest, code: str) -> HttpResponse:
    player = player_for(request.session, request.user)
    try:
        services.report_create(
            code=code,
            player=player,
            reason=request.POST.get("reason"),
            comment=request.POST.get("comment", ""),
            message_id=request.POST.get("message"),
            seat_index=request.POST.get("seat"),
            nickname=request.session.get(NICKNAME_KEY, ""),
        )
    except ServiceError as error:
        count_refusal(request, error)
        return answer(request, code, error.message)
    return answer(request, code, gettext("Thank you: staff will look at your report."), ok=True)
