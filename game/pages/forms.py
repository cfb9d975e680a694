"""The home page's create-a-table form (the services re-check everything)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from game import registry, services


class CreateTableForm(forms.Form):
    kind = forms.ChoiceField(label=_("Game"), initial=registry.DEFAULT, widget=forms.RadioSelect, required=False)
    nickname = forms.CharField(label=_("Your nickname"), max_length=20, required=False)
    seat_count = forms.TypedChoiceField(
        label=_("Seats"), coerce=int, initial=4, choices=[(n, str(n)) for n in range(2, 9)]
    )
    target = forms.IntegerField(
        label=_("Target score"), initial=services.DEFAULT_TARGET, min_value=50, max_value=1000, required=False
    )
    rounds = forms.TypedChoiceField(
        label=_("Rounds"), coerce=int, initial=3, required=False, choices=[(n, str(n)) for n in range(1, 11)]
    )
    turn_seconds = forms.TypedChoiceField(label=_("Turn timer"), coerce=int, initial=30, choices=services.TIMER_LABELS)
    bot_speed = forms.ChoiceField(
        label=_("Bot speed"),
        initial="normal",
        required=False,
        choices=[("fast", _("Fast")), ("normal", _("Normal")), ("slow", _("Slow"))],
    )
    show_odds = forms.BooleanField(label=_("Show bust odds to the deciding player"), initial=True, required=False)
    members_only = forms.BooleanField(label=_("Signed-in players only (guests may watch)"), required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(kind.name, kind.label) for kind in registry.KINDS.values()]

    def games(self) -> list[tuple]:
        """Each game's radio button with its one-line description (its Kind's `about`)."""
        return list(zip(self["kind"], (kind.about for kind in registry.KINDS.values()), strict=True))

    def clean_bot_speed(self) -> str:
        return self.cleaned_data["bot_speed"] or "normal"

    def clean_kind(self) -> str:
        return self.cleaned_data["kind"] or registry.DEFAULT

    def clean_target(self) -> int:
        return self.cleaned_data["target"] or services.DEFAULT_TARGET

    def clean_rounds(self) -> int:
        return self.cleaned_data["rounds"] or 3
