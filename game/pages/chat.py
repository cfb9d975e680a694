"""The table chat as plain forms (before the page's script has started, or without it), and a spectator's nickname."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from game import services
from game.core.errors import ServiceError
from game.core.identity import NICKNAME_KEY, known_player, player_for
from game.pages.answers import answer
from game.pages.lookups import count_refusal


@require_POST
def table_chat(request: HttpRequest, code: str) -> HttpResponse:
    """A chat line sent as a plain form (before the page's script has started, or without it):
    the same service as the socket's (which tells the table's screens), then the table again."""
    try:
        services.chat_post(
            code=code,
            player=known_player(request.session, request.user),
            text=request.POST.get("text", ""),
            phrase=request.POST.get("phrase", ""),
            nickname=request.session.get(NICKNAME_KEY, ""),
        )
    except ServiceError as error:
        count_refusal(request, error)
        return answer(request, code, error.message)
    return HttpResponse(status=204) if request.htmx else redirect("table", code=code.upper())


@require_POST
def table_chat_name(request: HttpRequest, code: str) -> HttpResponse:
    """A spectator picks the nickname their chat lines show; the page loads again so that its
    socket knows them."""
    try:
        name = services.clean_nickname(request.POST.get("nickname", ""))
    except ServiceError as error:
        count_refusal(request, error)
        return answer(request, code, error.message)
    player_for(request.session, request.user)
    request.session[NICKNAME_KEY] = name
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    return redirect("table", code=code.upper())


@require_POST
def table_spectator_chat(request: HttpRequest, code: str) -> HttpResponse:
    player = player_for(request.session, request.user)
    try:
        services.spectator_chat_set(code=code, player=player, on=request.POST.get("on") == "1")
    except ServiceError as error:
        count_refusal(request, error)
        return answer(request, code, error.message)
    return HttpResponse(status=204) if request.htmx else redirect("table", code=code.upper())
