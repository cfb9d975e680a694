"""Ratings' pages: a leaderboard per game at /ratings/<game>/, everyone's or among the viewer's
friends (?among=friends). The ratings themselves are written by game.services.ratings."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from game import registry
from game.services import ratings, selectors
from game.services.play import ABANDONED_AFTER


@require_GET
def leaderboards(request: HttpRequest) -> HttpResponse:
    return redirect("leaderboard", game=registry.DEFAULT)


@require_GET
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    if game not in registry.KINDS:
        raise Http404(gettext("There is no such game."))
    viewer = request.user.pk if request.user.is_authenticated else None
    friends = request.GET.get("among") == "friends" and viewer is not None
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "game": game,
            "label": registry.KINDS[game].label,
            "games": [(kind.name, kind.label) for kind in registry.KINDS.values()],
            "friends": friends,
            "rows": selectors.leaderboard(game, viewer, friends=friends),
            # what makes a game count (services.ratings), said under the board
            "under_way_moves": ratings.UNDER_WAY_MOVES,
            "abandoned_minutes": int(ABANDONED_AFTER.total_seconds() // 60),
        },
    )
