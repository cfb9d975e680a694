"""The start page: the tables you sit at, creating a table, finding one by its code, invite links."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from game import registry, services
from game.core.errors import ServiceError
from game.core.identity import NICKNAME_KEY, known_player, player_for
from game.pages.forms import CreateTableForm
from game.pages.lookups import lookup_missed, lookups_exhausted
from game.runtime import limits
from game.services import selectors, table_reads


def _home(request: HttpRequest, player, form: CreateTableForm, status: int = 200) -> HttpResponse:
    """A guest sees the tables they sit at; a signed-in person sees them with the ones waiting
    for their move first, and their recent games."""
    is_user = bool(player and player.is_user)
    first = registry.KINDS[registry.DEFAULT]  # the site's first game: the page's cards are its
    return render(
        request,
        "game/home.html",
        {
            "form": form,
            "tables": selectors.your_tables(player.key) if player else [],
            "recent_games": selectors.recent_games(player.user_id, viewer_id=player.user_id) if is_user else [],
            "friends_online": [f for f in selectors.friends_of(player.user_id) if f["online"]] if is_user else [],
            "is_user": is_user,
            "hero_cards": [first.face(code) for code in first.showcase],
            # each game's lines about its rulebook (a partial in its folder), in the registry's order
            "rulebook_homes": [
                kind.rulebook.home for kind in registry.KINDS.values() if kind.rulebook and kind.rulebook.home
            ],
        },
        status=status,
    )


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    player = known_player(request.session, request.user)  # looking creates no session
    form = CreateTableForm(initial={"nickname": request.session.get(NICKNAME_KEY, "")})
    return _home(request, player, form)


@require_POST
def table_create(request: HttpRequest) -> HttpResponse:
    player = player_for(request.session, request.user)
    form = CreateTableForm(request.POST)
    if not form.is_valid():
        return _home(request, player, form, status=400)
    data = form.cleaned_data
    try:
        table = services.table_create(
            player=player,
            nickname=data["nickname"],
            seat_count=data["seat_count"],
            options=form.game_options(),
            turn_seconds=data["turn_seconds"],
            bot_speed=data["bot_speed"],
            kind=data["kind"],
            members_only=data["members_only"],
            rated=data["rated"],
            address=limits.client_address(request.META),
        )
    except ServiceError as error:
        form.add_error(None, error.message)
        return _home(request, player, form, status=400)
    request.session[NICKNAME_KEY] = data["nickname"]
    return redirect("table", code=table.code)


@require_GET
def table_find(request: HttpRequest) -> HttpResponse:
    if (refused := lookups_exhausted(request)) is not None:
        return refused
    code = "".join(request.GET.get("code", "").split()).upper()
    if table_reads.table_by_code(code) is None:
        lookup_missed(request)
        messages.error(request, gettext("There is no table with that code."))
        return redirect("home")
    return redirect("table", code=code)


@require_GET
def table_invite(request: HttpRequest, code: str) -> HttpResponse:
    """The language-neutral invite link: each friend lands on the table in their language."""
    return redirect("table", code=code.upper())
