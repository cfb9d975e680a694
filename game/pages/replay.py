"""A finished game's replay, step by step (game.screen.replay): the whole page, or for the page's
script one step's table, hands and log."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from game.screen.replay import replay_step


@require_GET
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    shown = replay_step(game_id, request.GET.get("step", 0))
    if shown is None:  # nobody, player or not, sees a game's moves before it is over
        raise Http404(gettext("This game has no replay: it is still being played, or it has no record."))
    template = "game/_replay_step.html" if request.headers.get("X-Replay-Step") else "game/replay.html"
    return render(request, template, shown)
