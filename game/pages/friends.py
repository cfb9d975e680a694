"""Friends' pages: the list (who is online and at which table), requests in and out, whom you
blocked, and the buttons that send, accept, decline, remove, block and unblock."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, gettext, ngettext
from django.views.decorators.http import require_POST

from game import screen as table_render
from game import services
from game.core.errors import ServiceError, choose_int
from game.core.identity import player_for
from game.pages.answers import answer
from game.pages.lookups import count_refusal
from game.pages.table import people_context
from game.runtime import limits
from game.services import friends, invitations, selectors, table_reads


@login_required
def friends_page(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "friends/friends.html",
        {"friends": selectors.friends_of(request.user.pk), **selectors.friend_requests(request.user.pk)},
    )


def _back(request: HttpRequest) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return redirect(target)
    return redirect("friends")


def _other(request: HttpRequest) -> int:
    return choose_int(
        request.POST.get("user"), range(1, 2**31), "no_person", gettext("There is nobody with that name.")
    )


SAID = {
    "sent": lambda: gettext("Friend request sent."),
    "friends": lambda: gettext("You are friends now."),
}


@login_required
@require_POST
def friend_action(request: HttpRequest, action: str) -> HttpResponse:
    user = request.user
    try:
        if action == "add":
            messages.success(request, SAID[friends.friend_request(user=user, name=request.POST.get("name", ""))]())
        elif action == "accept":
            friends.friend_accept(user=user, from_id=_other(request))
            messages.success(request, SAID["friends"]())
        elif action == "decline":
            friends.friend_decline(user=user, from_id=_other(request))
        elif action == "remove":
            friends.friend_remove(user=user, other_id=_other(request))
        elif action == "block":
            friends.friend_block(user=user, other_id=_other(request))
            messages.success(request, gettext("Blocked: they can no longer invite you, ask you or see you online."))
        elif action == "unblock":
            friends.friend_unblock(user=user, other_id=_other(request))
    except ServiceError as error:
        if error.code == "no_person" and action != "add":  # an id of nobody: only a made-up or stale form
            raise Http404(str(error.message)) from None
        messages.error(request, str(error.message))
    return _back(request)


@login_required
def inbox(request: HttpRequest) -> HttpResponse:
    """The invitations waiting for an answer (each goes when its table ends)."""
    return render(request, "friends/inbox.html", {"invitations": selectors.invitations_of(request.user.pk)})


@login_required
@require_POST
def invitation_join(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """Answer an invitation: to its table, seated at once when a seat is free in its lobby."""
    try:
        code = invitations.invitation_answer(user=request.user, invitation_id=invitation_id)
    except ServiceError as error:
        messages.error(request, str(error.message))
        return redirect("invitations")
    player = player_for(request.session, request.user)
    table = table_reads.table_by_code(code)
    seated = table is not None and selectors.tables_of(player.key).filter(id=table.id).exists()
    if table is not None and table.status == table.Status.LOBBY and not seated:
        try:
            services.seat_take(code=code, player=player, nickname=player.username)
        except ServiceError as error:  # full, or started meanwhile: they watch
            messages.error(request, str(error.message))
    return redirect("table", code=code)


@login_required
@require_POST
def invitation_decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitations.invitation_decline(user=request.user, invitation_id=invitation_id)
    return redirect("invitations")


@login_required
@require_POST
def table_invite(request: HttpRequest, code: str) -> HttpResponse:
    """Invite a friend to this table: a toast on every page they have open, and their inbox.
    Through htmx the answer is the invitation panel again, saying what happened, in place: the
    page stays where the host was (a reload took them back to its top)."""
    failed = False
    try:
        sent = invitations.invitation_send(
            user=request.user, player=player_for(request.session, request.user), code=code, friend_id=_other(request)
        )
    except ServiceError as error:
        count_refusal(request, error)
        said, failed = str(error.message), True
    else:
        said = gettext("Invitation sent to %(name)s.") % {"name": sent[0][1]["to"]}
    if request.htmx:
        table = table_reads.table_by_code(code)
        if table is None:  # gone meanwhile: said as every table form says it
            return answer(request, code, said)
        context = {"table": table, "invite_said": said, "invite_failed": failed, **people_context(table, request)}
        return render(request, "table/_invite_friends.html", context)
    (messages.error if failed else messages.success)(request, said)
    return redirect("table", code=code.upper())


@require_POST
def table_again(request: HttpRequest, code: str) -> HttpResponse:
    """Play again with the same people, from the game-over screen: a new table like the last,
    its computer players back in their seats, the others who are friends invited to it (a guest
    invites nobody: the others get the link)."""
    try:
        table, _sent, left_out = invitations.table_again(
            user=request.user if request.user.is_authenticated else None,
            player=player_for(request.session, request.user),
            code=code,
            address=limits.client_address(request.META),
        )
    except ServiceError as error:
        count_refusal(request, error)
        if request.htmx:
            return HttpResponse(table_render.render_error(error.message, get_language()))
        messages.error(request, str(error.message))
        return redirect("table", code=code.upper())
    if left_out and request.user.is_authenticated:
        messages.info(
            request,
            ngettext(
                "%(count)d person was not invited: only friends get invitations. Send them the table’s link.",
                "%(count)d people were not invited: only friends get invitations. Send them the table’s link.",
                left_out,
            )
            % {"count": left_out},
        )
    elif left_out:
        messages.info(
            request,
            ngettext(
                "Send the table’s link to the other person from the last game: only signed-in players can invite.",
                "Send the table’s link to the %(count)d other people from the last game: only signed-in players "
                "can invite.",
                left_out,
            )
            % {"count": left_out},
        )
    if request.htmx:
        return HttpResponse(status=204, headers={"HX-Redirect": reverse("table", kwargs={"code": table.code})})
    return redirect("table", code=table.code)
