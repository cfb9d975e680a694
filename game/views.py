"""HTTP pages and the lobby's forms; they translate requests into service calls."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import translate_url
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET, require_POST

from . import broadcast, selectors, services
from . import render as table_render
from .cards_ui import face
from .errors import ServiceError
from .forms import CreateTableForm
from .identity import NICKNAME_KEY, known_player, player_for, tag
from .limits import client_address, is_limited, over_limit
from .models import Report
from .render import chat as chat_render
from .services.chat import author_token
from .services.play import rematch_ask

HERO_CARDS = ("7", "second_chance", "13", "x2", "storm")


def _home(request: HttpRequest, player, form: CreateTableForm, status: int = 200) -> HttpResponse:
    return render(
        request,
        "game/home.html",
        {
            "form": form,
            "tables": selectors.tables_of(player.key)[:20] if player else [],
            "is_user": bool(player and player.is_user),
            "hero_cards": [face(code) for code in HERO_CARDS],
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
            target=data["target"],
            turn_seconds=data["turn_seconds"],
            show_odds=data["show_odds"],
            bot_speed=data["bot_speed"],
            kind=data["kind"],
            rounds=data["rounds"],
        )
    except ServiceError as error:
        form.add_error(None, error.message)
        return _home(request, player, form, status=400)
    request.session[NICKNAME_KEY] = data["nickname"]
    return redirect("table", code=table.code)


def _lookups_exhausted(request: HttpRequest) -> HttpResponse | None:
    """Table codes are the only key to a table: guessing them is throttled per address."""
    if is_limited("lookup", client_address(request.META), settings.SEVN_LOOKUPS_PER_MINUTE, 60):
        response = HttpResponse(gettext("Too many tables looked up: wait a minute and try again."), status=429)
        response["Retry-After"] = "60"
        return response
    return None


def _lookup_missed(request: HttpRequest) -> None:
    over_limit("lookup", client_address(request.META), settings.SEVN_LOOKUPS_PER_MINUTE, 60)


@require_GET
def table_find(request: HttpRequest) -> HttpResponse:
    if (refused := _lookups_exhausted(request)) is not None:
        return refused
    code = "".join(request.GET.get("code", "").split()).upper()
    if selectors.table_by_code(code) is None:
        _lookup_missed(request)
        messages.error(request, gettext("There is no table with that code."))
        return redirect("home")
    return redirect("table", code=code)


@require_GET
def table_invite(request: HttpRequest, code: str) -> HttpResponse:
    """The language-neutral invite link: each friend lands on the table in their language."""
    return redirect("table", code=code.upper())


@require_GET
def table(request: HttpRequest, code: str) -> HttpResponse:
    if (refused := _lookups_exhausted(request)) is not None:
        return refused
    table = selectors.table_by_code(code)
    if table is None:
        _lookup_missed(request)
        raise Http404(gettext("There is no table with that code."))
    player = known_player(request.session, request.user)  # watching creates no session
    snapshot = selectors.snapshot(table)
    context = table_render.table_context(snapshot, player and player.key)
    game = selectors.current_game(table)
    context.update(_chat_context(table, snapshot, player, request))
    context.update(
        {
            "ws_url": f"/ws/t/{table.code}/?lang={get_language()}",
            "lines": table_render.log_lines(table_render.log_entries(snapshot, selectors.log_events(game))),
            "nickname_hint": request.session.get(NICKNAME_KEY, "")
            or (player.username if player and player.is_user else ""),
        }
    )
    return render(request, "game/table_page.html", context)


def _chat_context(table, snapshot: dict, player, request: HttpRequest) -> dict:
    """The chat panel as this visitor first sees it (the socket brings it again, then live)."""
    recent = services.chat_recent(table.code)
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
                csrf_token=get_token(request),
            )
        ),
        "report_reasons": Report.Reason.choices,
    }


def _answer(request: HttpRequest, code: str, message: str, ok: bool = False) -> HttpResponse:
    """A sentence for whoever posted: a toast for htmx, the table page with a message otherwise."""
    if request.htmx:
        return HttpResponse(
            table_render.render_notice(message, get_language())
            if ok
            else table_render.render_error(message, get_language())
        )
    (messages.success if ok else messages.error)(request, message)
    return redirect("table", code=code.upper())


@require_POST
def table_chat(request: HttpRequest, code: str) -> HttpResponse:
    """A chat line sent as a plain form (before the page's script has started, or without it):
    the same service as the socket's, then the table again."""
    try:
        message = services.chat_post(
            code=code,
            player=known_player(request.session, request.user),
            text=request.POST.get("text", ""),
            phrase=request.POST.get("phrase", ""),
            nickname=request.session.get(NICKNAME_KEY, ""),
        )
    except ServiceError as error:
        return _answer(request, code, error.message)
    broadcast.send(code.upper(), message)
    return HttpResponse(status=204) if request.htmx else redirect("table", code=code.upper())


@require_POST
def table_chat_name(request: HttpRequest, code: str) -> HttpResponse:
    """A spectator picks the nickname their chat lines show; the page loads again so that its
    socket knows them."""
    try:
        name = services.clean_nickname(request.POST.get("nickname", ""))
    except ServiceError as error:
        return _answer(request, code, error.message)
    player_for(request.session, request.user)
    request.session[NICKNAME_KEY] = name
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    return redirect("table", code=code.upper())


@require_POST
def table_spectator_chat(request: HttpRequest, code: str) -> HttpResponse:
    player = player_for(request.session, request.user)
    try:
        message = services.spectator_chat_set(code=code, player=player, on=request.POST.get("on") == "1")
    except ServiceError as error:
        return _answer(request, code, error.message)
    broadcast.send(code.upper(), message)
    return HttpResponse(status=204) if request.htmx else redirect("table", code=code.upper())


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
        return _answer(request, code, error.message)
    return _answer(request, code, gettext("Thank you: staff will look at your report."), ok=True)


def _lobby_post(request: HttpRequest, code: str, service, reload_page: bool = False, **kwargs) -> HttpResponse:
    """Run a lobby service for this visitor, broadcast, and answer htmx or a plain form
    (`reload_page`: the whole page again, for a visitor whose socket predates their session)."""
    player = player_for(request.session, request.user)
    try:
        message = service(code=code, player=player, **kwargs)
    except ServiceError as error:
        if request.htmx:
            return HttpResponse(table_render.render_error(error.message, get_language()))
        messages.error(request, error.message)
        return redirect("table", code=code.upper())
    broadcast.send(code.upper(), message)
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


class LoginView(auth_views.LoginView):
    """Django's login, with failed attempts counted per address: past the limit, wait a minute."""

    def post(self, request, *args, **kwargs):
        if is_limited("login", client_address(request.META), settings.SEVN_LOGINS_PER_MINUTE, 60):
            response = HttpResponse(gettext("Too many failed logins: wait a minute and try again."), status=429)
            response["Retry-After"] = "60"
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        over_limit("login", client_address(self.request.META), settings.SEVN_LOGINS_PER_MINUTE, 60)
        return super().form_invalid(form)


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


def language_links(request: HttpRequest) -> dict:
    """Context processor: this page in every language, for the switcher."""
    current = get_language()
    return {
        "language_links": [
            {"code": code, "name": name, "url": translate_url(request.path, code), "current": code == current}
            for code, name in settings.LANGUAGES
        ]
    }
