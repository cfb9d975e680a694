"""A person's pages: their profile at /u/<name>/ (games played and won per game, each game's
stats and rating over time, recent games, frequent opponents) and its settings (private or not,
online shown to friends or not)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from game.drawkit.words import decimal
from game.screen.rating_chart import rating_chart
from game.services import accounts, selectors


class ProfileSettingsForm(forms.Form):
    private = forms.BooleanField(
        label=_("Private profile"), required=False, help_text=_("Only you and your friends see your games and results.")
    )
    hide_online = forms.BooleanField(
        label=_("Hide where I play"), required=False, help_text=_("Friends do not see you online or at which table.")
    )


def profile(request: HttpRequest, name: str) -> HttpResponse:
    found = selectors.profile_of(name)
    if found is None:
        raise Http404(gettext("There is nobody with that name."))
    own = request.user.is_authenticated and request.user.pk == found.user_id
    relation = selectors.relation(request.user.pk, found.user_id) if request.user.is_authenticated and not own else None
    hidden = found.private and not own and relation != "friends"
    return render(
        request,
        "accounts/profile.html",
        {
            "person": found.user,
            "profile": found,
            "own": own,
            "relation": relation,
            "hidden": hidden,
            "stats": None if hidden else selectors.profile_stats(found.user_id, viewer_id=request.user.pk),
            "recent_games": [] if hidden else selectors.recent_games(found.user_id, viewer_id=request.user.pk),
            "game_stats": [] if hidden else _game_stats(found.user_id),
        },
    )


def _game_stats(user_id: int) -> list[dict]:
    """Each game's figures as the profile shows them: the common ones, the game's own lines,
    and the rating's chart."""
    return [
        {**row, "average": decimal(row["points"]), "chart": rating_chart(row["history"])}
        for row in selectors.game_stats(user_id)
    ]


@login_required
def profile_settings(request: HttpRequest) -> HttpResponse:
    current = selectors.profile_of(request.user.get_username())
    initial = {"private": current.private, "hide_online": current.hide_online} if current else {}
    form = ProfileSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        accounts.profile_update(user=request.user, **form.cleaned_data)
        messages.success(request, gettext("Saved."))
        return redirect("account_profile_settings")
    return render(request, "accounts/profile_settings.html", {"form": form})
