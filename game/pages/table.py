"""A table's page and its lobby's forms (take or leave a seat, bots, start, rematch): each a service,
which tells every screen of the table itself (game.delivery.announce)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET, require_POST

from game import screen as table_render
from game import services
from game.core.errors import ServiceError
from game.core.identity import NICKNAME_KEY, known_player, player_for, tag
from game.pages.lookups import count_refusal, lookup_missed
from game.screen import chat as chat_render
from game.services import selectors, table_reads
from game.services.chat import author_token
from game.services.play import rematch_ask, seat_let_go


@require_GET
def table(request: HttpRequest, code: str) -> HttpResponse:
    # (past the look-up limit, game.pages.lookups' middleware refused it already)
    table = table_reads.table_by_code(code)
    if table is None:
        lookup_missed(request)
        raise Http404(gettext("There is no table with that code."))
    player = known_player(request.session, request.user)  # watching creates no session
    snapshot = table_reads.snapshot(table)
    friends = selectors.friend_tags(player.user_id) if player and player.is_user else frozenset()
    context = table_render.table_context(snapshot, player and player.key, friends=friends)
    game = table_reads.current_game(table)
    context.update(_chat_context(table, snapshot, player, request))
    context.update(
        {
            "ws_url": f"/ws/t/{table.code}/?lang={get_language()}",
            "lines": table_render.log_lines(table_render.log_entries(snapshot, table_reads.log_events(game))),
            **people_context(table, request),
            "nickname_hint": request.session.get(NICKNAME_KEY, "")
            or (player.username if player and player.is_user else ""),
        }
    )
    return render(request, "game/table_page.html", context)


def people_context(table, request: HttpRequest) -> dict:
    """For a signed-in viewer: the people with accounts here (befriend them) and their friends
    not seated here (invite them)."""
    if not request.user.is_authenticated:
        return {}
    people = selectors.table_people(table.id, request.user.pk)
    here = {person["user_id"] for person in people}
    friends = [f for f in selectors.friends_of(request.user.pk) if f["user"].pk not in here]
    return {"table_people": people, "table_friends": friends}


def _chat_context(table, snapshot: dict, player, request: HttpRequest) -> dict:
    """The chat panel as this visitor first sees it (the socket brings it again, then live)."""
    recent = services.chat_recent(table.code, player)
    viewer_key = player.key if player else None
    token = author_token(table.code, tag(viewer_key)) if viewer_key else None
    has_name = bool(player and (player.is_user or request.session.get(NICKNAME_KEY)))
    return {
        "chat_lines": chat_render.lists(recent["lines"], get_language(), token),
        "chat_parts": mark_safe(
            chat_render.parts(
                code=table.code,
                chat_frame=chat_render.frame(snapshot, viewer_key),
                viewer_key=viewer_key,
                has_name=has_name,
                spectator_chat=recent["spectator_chat"],
                language=get_language(),
                refusal=recent["refusal"],
                csrf_token=get_token(request),
            )
        ),
        "report_reasons": services.REPORT_REASONS,
    }


def _lobby_post(request: HttpRequest, code: str, service, reload_page: bool = False, **kwargs) -> HttpResponse:
    """Run a lobby service for this visitor (it tells the table's screens) and answer htmx or a
    plain form (`reload_page`: the whole page again, for a visitor whose socket predates their
    session)."""
    player = player_for(request.session, request.user)
    try:
        service(code=code, player=player, **kwargs)
    except ServiceError as error:
        count_refusal(request, error)
        if request.htmx:
            return HttpResponse(table_render.render_error(error.message, get_language()))
        messages.error(request, error.message)
        return redirect("table", code=code.upper())
    if request.htmx and reload_page:
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    if request.htmx:
        # The clicker's socket brings the new table like everyone else's. A copy sent from here
        # would target a #table the socket may have replaced already (htmx then finds no target
        # for it) or arrive late and overwrite a newer one.
        return HttpResponse(status=204)
    return redirect("table", code=code.upper())


@require_POST
def table_join(request: HttpRequest, code: str) -> HttpResponse:
    # A visitor's first seat gives them a session; their socket, opened before it as a
    # spectator's, must open again to know who sits there: the page loads again.
    newcomer = known_player(request.session, request.user) is None
    nickname = request.POST.get("nickname", "")
    request.session[NICKNAME_KEY] = nickname[:20]
    return _lobby_post(
        request, code, services.seat_take, reload_page=newcomer, nickname=nickname, index=request.POST.get("index")
    )


@require_POST
def table_leave(request: HttpRequest, code: str) -> HttpResponse:
    return _lobby_post(request, code, services.seat_leave)


@require_POST
def table_remove(request: HttpRequest, code: str) -> HttpResponse:
    return _lobby_post(request, code, services.seat_remove, index=request.POST.get("index"))


@require_POST
def table_bot(request: HttpRequest, code: str) -> HttpResponse:
    return _lobby_post(
        request, code, services.bot_add, level=request.POST.get("level"), index=request.POST.get("index")
    )


@require_POST
def table_start(request: HttpRequest, code: str) -> HttpResponse:
    return _lobby_post(request, code, services.game_start)


@require_POST
def table_rematch(request: HttpRequest, code: str) -> HttpResponse:
    return _lobby_post(request, code, rematch_ask)


@require_POST
def table_reclaim(request: HttpRequest, code: str) -> HttpResponse:
    """ "Take my seat back" at a turn-based table where a bot kept it (services.play.seat_reclaim)."""
    return _lobby_post(request, code, services.seat_reclaim)


@require_POST
def table_let_go(request: HttpRequest, code: str) -> HttpResponse:
    """ "Let Ana go": agreeing that an away person's leave is excused (services.play.seat_let_go)."""
    return _lobby_post(request, code, seat_let_go, index=request.POST.get("index"))
