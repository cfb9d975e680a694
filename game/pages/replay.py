"""A finished game's replay, step by step (game.screen.replay_steps): the whole page, or for the page's
script one step's table, hands and log."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from game.core.identity import known_player
from game.screen.replay_steps import replay_step
from game.services.records import game_id_of


@require_GET
def game_replay(request: HttpRequest, public_id: str) -> HttpResponse:
    game_id = game_id_of(public_id)
    viewer = known_player(request.session, request.user)
    shown = replay_step(game_id, request.GET.get("step", 0), viewer) if game_id is not None else None
    if shown is None:  # nobody, player or not, sees a game's moves before it is over
        raise Http404(gettext("This game has no replay: it is still being played, or it has no record."))
    template = "game/_replay_step.html" if request.headers.get("X-Replay-Step") else "game/replay.html"
    return render(request, template, shown)
