"""Reporting a person or a chat line at a table to staff."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from game import services
from game.core.errors import ServiceError
from game.core.identity import NICKNAME_KEY, player_for
from game.pages.answers import answer
from game.pages.lookups import count_refusal
from game.runtime.limits import client_address, over_limit

REPORT_WINDOW = 3600


def too_many(request: HttpRequest, player) -> bool:
    """Counts this report; True if its address or its person sent more than SEVN_REPORTS_PER_HOUR
    this hour (a fresh session for each report changes the person, not the address)."""
    limit = settings.SEVN_REPORTS_PER_HOUR
    by_address = over_limit("report", client_address(request.META), limit, REPORT_WINDOW)
    by_person = over_limit("report-by", player.key, limit, REPORT_WINDOW)
    return by_address or by_person


@require_POST
def table_report(request: HttpRequest, code: str) -> HttpResponse:
    player = player_for(request.session, request.user)
    if too_many(request, player):
        return answer(request, code, gettext("Too many reports: wait a while and try again."))
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
