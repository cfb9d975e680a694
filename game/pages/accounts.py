"""A person's pages: their profile at /u/<name>/ (games played and won per game, each game's
stats, rating and accuracy over time, recent games, frequent opponents, how reliably they finish
games) and their account's settings, all on one page (/settings/): name, e-mail, password,
passkeys, two-factor, privacy, away dates, language.

The settings page is a list of sections (SECTIONS: an anchor, a title, a partial under
templates/accounts/settings/), each drawn from the context `account_settings` gathers; a new
kind of setting is a new entry there and its partial. allauth's own pages still do the changes
(e-mail addresses, passwords, passkeys, the authenticator app), and lead back here."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from game import registry
from game.core.errors import ServiceError
from game.drawkit.words import decimal
from game.pages.alerts import notification_context
from game.screen.rating_chart import rating_chart
from game.services import accounts, analysis, reliability, selectors


class ProfileSettingsForm(forms.Form):
    private = forms.BooleanField(
        label=_("Private profile"), required=False, help_text=_("Only you and your friends see your games and results.")
    )
    hide_online = forms.BooleanField(
        label=_("Hide where I play"), required=False, help_text=_("Friends do not see you online or at which table.")
    )


class AwayDatesForm(forms.Form):
    away_from = forms.DateField(
        label=_("Away from"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    away_until = forms.DateField(
        label=_("Away until"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        help_text=_(
            "Going away? Turns that run out at turn-based tables between these days, both included, "
            "do not count against you."
        ),
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
            "game_stats": [] if hidden else _game_stats(found.user_id, own),
            "reliability": None if hidden else reliability.of([found.user_id])[found.user_id],
            # why, until when and how to appeal, for their own eyes only
            "pause": reliability.pause_words(pause)
            if own and (pause := reliability.active_pause(found.user_id))
            else "",
        },
    )


def _game_stats(user_id: int, own: bool = False) -> list[dict]:
    """Each game's figures as the profile shows them: the common ones, the game's own lines,
    the rating's chart, and what the analyses of their games say (accuracy over time, the most
    frequent kind of mistake; on one's own profile, a link to the worst moment)."""
    judged = analysis.person_summary(user_id)
    return [
        {
            **row,
            "average": decimal(row["points"]),
            "chart": rating_chart(row["history"]),
            **_judged(row["kind"], judged.get(row["kind"]), own),
        }
        for row in selectors.game_stats(user_id)
    ]


# (anchor, title, partial): the settings page's sections, in order, each a panel with its title
SECTIONS = [
    ("name", _("Name"), "accounts/settings/_name.html"),
    ("email", _("E-mail"), "accounts/settings/_email.html"),
    ("password", _("Password"), "accounts/settings/_password.html"),
    ("passkeys", _("Passkeys"), "accounts/settings/_passkeys.html"),
    ("two-factor", _("Two-factor authentication"), "accounts/settings/_two_factor.html"),
    ("privacy", _("Privacy"), "accounts/settings/_privacy.html"),
    ("away", _("Away dates"), "accounts/settings/_away.html"),
    ("language", _("Language"), "accounts/settings/_language.html"),
    ("notifications", _("Notifications"), "accounts/notification_settings.html"),
]


def _privacy_form(user) -> ProfileSettingsForm:
    current = selectors.profile_of(user.get_username())
    initial = {"private": current.private, "hide_online": current.hide_online} if current else {}
    return ProfileSettingsForm(initial=initial)


def _away_form(user) -> AwayDatesForm:
    current = selectors.profile_of(user.get_username())
    initial = {"away_from": current.away_from, "away_until": current.away_until} if current else {}
    return AwayDatesForm(initial=initial)


@login_required
def account_settings(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "accounts/settings.html",
        {
            "sections": [{"id": id_, "title": title, "template": template} for id_, title, template in SECTIONS],
            "privacy_form": _privacy_form(request.user),
            "away_form": _away_form(request.user),
            **notification_context(request),
            **accounts.sign_in_of(request.user),
        },
    )


def _judged(name: str, figures: dict | None, own: bool) -> dict:
    if figures is None:
        return {}
    review = registry.KINDS[name].review
    kinds = sorted(figures["kinds"].items(), key=lambda item: -item[1])
    points = [(when, round(accuracy)) for when, accuracy in figures["accuracy"]]

    def say(values: list[int]) -> str:
        return ngettext(
            "Accuracy over %(games)s analysed game: from %(first)s to %(now)s (best %(high)s, worst %(low)s).",
            "Accuracy over %(games)s analysed games: from %(first)s to %(now)s (best %(high)s, worst %(low)s).",
            len(values),
        ) % {"games": len(values), "first": values[0], "now": values[-1], "high": max(values), "low": min(values)}

    common = None
    if kinds:
        code, count = kinds[0]
        common = ngettext("%(kind)s (%(n)s time)", "%(kind)s (%(n)s times)", count) % {
            "kind": review.mistake_kind(code),
            "n": count,
        }
    worst = figures["worst"] if own else None
    return {
        "accuracy": decimal(figures["average"]),
        "accuracy_games": len(points),
        "accuracy_chart": rating_chart(points, say),
        "common_mistake": common,
        "worst": {"game": worst[0], "step": worst[1]} if worst else None,
    }


@login_required
def profile_settings(request: HttpRequest) -> HttpResponse:
    """The privacy section's form posts here; asked for, this is the settings page's section."""
    if request.method != "POST":
        return redirect(reverse("account_settings") + "#privacy")
    form = ProfileSettingsForm(request.POST)
    if form.is_valid():
        accounts.profile_update(user=request.user, **form.cleaned_data)
        messages.success(request, gettext("Saved."))
    return redirect(reverse("account_settings") + "#privacy")


@login_required
def away_settings(request: HttpRequest) -> HttpResponse:
    """The away-dates section's form posts here; asked for, this is the settings page's section."""
    if request.method != "POST":
        return redirect(reverse("account_settings") + "#away")
    form = AwayDatesForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Give the away dates as dates, such as 2026-12-24."))
        return redirect(reverse("account_settings") + "#away")
    try:
        accounts.away_dates_set(
            user=request.user, start=form.cleaned_data["away_from"], end=form.cleaned_data["away_until"]
        )
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, gettext("Saved."))
    return redirect(reverse("account_settings") + "#away")
