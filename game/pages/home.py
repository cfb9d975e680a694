"""The start page: the tables you sit at, creating a table, finding one by its code, invite links."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from game import registry, services
from game.core.errors import ServiceError
from game.core.identity import NICKNAME_KEY, known_player, player_for
from game.drawkit import words
from game.pages.forms import CreateTableForm
from game.pages.lookups import lookup_missed, lookups_exhausted
from game.runtime import limits
from game.services import selectors, table_reads, your_move
from game.services.open_tables import POLL_SECONDS, open_tables


def _home(request: HttpRequest, player, form: CreateTableForm, status: int = 200) -> HttpResponse:
    """A guest sees the tables they sit at; a signed-in person sees them with the ones waiting
    for their move first, and their recent games."""
    is_user = bool(player and player.is_user)
    first = registry.KINDS[registry.DEFAULT]  # the site's first game: the page's cards are its
    turn_based = _turn_based(player)
    listed = {row["code"] for row in turn_based}
    waiting = sum(1 for row in turn_based if row["yours"])
    return render(
        request,
        "game/home.html",
        {
            "form": form,
            "turn_based": turn_based,
            "waiting_count": waiting,
            "your_move_count": waiting,  # the tab's title: counted here, not asked again (pages.context)
            # the others (live, or over): the turn-based ones under way are listed above them
            "tables": selectors.your_tables(player.key, skip=listed) if player else [],
            "recent_games": selectors.recent_games(player.user_id, viewer_id=player.user_id) if is_user else [],
            "friends_online": [f for f in selectors.friends_of(player.user_id) if f["online"]] if is_user else [],
            "is_user": is_user,
            **_open_tables(player),
            "hero_cards": [first.face(code) for code in first.showcase],
            # each game's lines about its rulebook (a partial in its folder), in the registry's order
            "rulebook_homes": [
                kind.rulebook.home for kind in registry.KINDS.values() if kind.rulebook and kind.rulebook.home
            ],
        },
        status=status,
    )


def _open_tables(player) -> dict:
    """The public tables waiting for people (services.open_tables), as the page's list draws them."""
    return {"open_tables": open_tables(player), "open_tables_poll": POLL_SECONDS}


@require_GET
def tables_open(request: HttpRequest) -> HttpResponse:
    """The list of open tables alone: the home page polls it (htmx) to keep it current."""
    player = known_player(request.session, request.user)  # looking creates no session
    return render(request, "game/_open_tables.html", _open_tables(player))


def _turn_based(player) -> list[dict]:
    """The viewer's turn-based tables, waiting for their move first by time left, each with its
    time left in words (game.services.your_move.turn_based_tables)."""
    now = timezone.now()
    rows = []
    for row in your_move.turn_based_tables(player.key if player else None):
        kind = registry.KINDS.get(row.kind)
        left = (row.deadline - now).total_seconds() if row.deadline is not None else None
        rows.append(
            {
                **row._asdict(),
                "game": kind.label if kind else row.kind,
                "left": words.time_left(left) if row.whose is not None else "",
                "soon": left is not None and left < 3600 * 2,
            }
        )
    return rows


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
            pace=data["pace"],
            window=form.window(),
            time_zone=data["time_zone"],
            min_reliability=data["min_reliability"] if player.is_user else 0,
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
