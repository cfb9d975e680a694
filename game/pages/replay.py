"""A finished game's replay, step by step (game.screen.replay_steps): the whole page, or for the page's
script one step's table, hands and log."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from game.core.identity import known_player
from game.drawkit.words import place_of
from game.screen.replay_steps import replay_analysis, replay_step
from game.services.records import game_id_of, recorded_game
from game.services.results import final_scores, seat_in


@require_GET
def game_replay(request: HttpRequest, public_id: str) -> HttpResponse:
    game_id = game_id_of(public_id)
    viewer = known_player(request.session, request.user)
    shown = replay_step(game_id, request.GET.get("step", 0), viewer) if game_id is not None else None
    if shown is None:  # nobody, player or not, sees a game's moves before it is over
        raise Http404(gettext("This game has no replay: it is still being played, or it has no record."))
    if request.headers.get("X-Replay-Step"):
        return render(request, "game/_replay_step.html", shown)
    return render(request, "game/replay.html", {**shown, **_outcome(game_id, shown["record"], viewer)})


def _outcome(game_id: int, record: dict, viewer) -> dict:
    """The game's final scores, best first, and the viewer's place if they played in it."""
    game = recorded_game(game_id)
    scores = final_scores(game, [seat["name"] for seat in record["seats"]])
    mine = seat_in(game, viewer)
    place = next((row.place for row in scores if row.seat == mine), None)
    return {
        "final_scores": scores,
        "your_seat": mine,
        "your_place": place_of(place, len(scores)) if place is not None else "",
    }


@require_GET
def game_analysis(request: HttpRequest, public_id: str) -> HttpResponse:
    """The replay's analysis panel (polled by the page while it says "Analysing…")."""
    game_id = game_id_of(public_id)
    viewer = known_player(request.session, request.user)
    shown = replay_analysis(game_id, request.GET.get("step", 0), viewer) if game_id is not None else None
    if shown is None:
        raise Http404(gettext("This game has no replay: it is still being played, or it has no record."))
    return render(request, "game/_replay_analysis.html", shown)
