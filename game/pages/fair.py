"""The fair-deal panel's one request: a seated person's client seed for the next deal (game.fair)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language
from django.views.decorators.http import require_POST

from game import services
from game.core.errors import ServiceError
from game.core.identity import player_for
from game.pages.lookups import count_refusal
from game.screen import render_error


@require_POST
def table_seed(request: HttpRequest, code: str) -> HttpResponse:
    """A seated person's browser sends its client seed for the next deal (the fair-deal panel)."""
    player = player_for(request.session, request.user)
    try:
        services.client_seed_set(
            code=code, player=player, seed=request.POST.get("seed"), commitment=request.POST.get("commitment")
        )
    except ServiceError as error:
        count_refusal(request, error)  # an unknown code is a look-up, as on every table route
        return HttpResponse(render_error(error.message, get_language()), status=200 if request.htmx else 400)
    return HttpResponse(status=204)  # the panel says it was sent (static/sevn/js/fair_seed.js)
