"""The home page's create-a-table form (the services re-check everything). Its games are the
registry's: each game's radio button says its seat range, and each game's own settings are the
fields its Kind's options give (game.core.options), named as the options are."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from game import registry, services


class GameChoice(forms.RadioSelect):
    """The games' radio buttons, each with its game's seat range for the page's script
    (`data-seat-min`, `data-seat-max`: the seats a table of it may have)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        kind = registry.KINDS.get(value)
        if kind is not None:
            option["attrs"].update({"data-seat-min": kind.min_seats, "data-seat-max": kind.max_seats})
        return option


class CreateTableForm(forms.Form):
    kind = forms.ChoiceField(label=_("Game"), widget=GameChoice, required=False)
    nickname = forms.CharField(label=_("Your nickname"), max_length=20, required=False)
    seat_count = forms.TypedChoiceField(label=_("Seats"), coerce=int, initial=4)
    turn_seconds = forms.TypedChoiceField(label=_("Turn timer"), coerce=int, initial=30, choices=services.TIMER_LABELS)
    bot_speed = forms.ChoiceField(
        label=_("Bot speed"),
        initial="normal",
        required=False,
        choices=[("fast", _("Fast")), ("normal", _("Normal")), ("slow", _("Slow"))],
    )
    members_only = forms.BooleanField(label=_("Signed-in players only (guests may watch)"), required=False)
    rated = forms.BooleanField(label=_("Rated: each game updates the players' ratings"), required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        kinds = list(registry.KINDS.values())
        self.fields["kind"].choices = registry.choices()
        self.fields["kind"].initial = registry.DEFAULT
        seats = range(min(kind.min_seats for kind in kinds), max(kind.max_seats for kind in kinds) + 1)
        self.fields["seat_count"].choices = [(n, str(n)) for n in seats]
        for kind in kinds:
            for option in kind.options:
                self.fields[option.name] = option.field()

    def games(self) -> list[tuple]:
        """Each game's radio button with its one-line description (its Kind's `about`)."""
        return list(zip(self["kind"], (kind.about for kind in registry.KINDS.values()), strict=True))

    def game_fields(self) -> list[tuple]:
        """Each game's own settings as (its Kind, the bound field), in the registry's order: the
        page shows a game's only while that game is chosen (`data-for-game`)."""
        return [(kind, self[option.name]) for kind in registry.KINDS.values() for option in kind.options]

    def clean_bot_speed(self) -> str:
        return self.cleaned_data["bot_speed"] or "normal"

    def clean_kind(self) -> str:
        return self.cleaned_data["kind"] or registry.DEFAULT

    def game_options(self) -> dict:
        """The chosen game's settings as asked for (an empty field: not asked, its default)."""
        kind = registry.KINDS[self.cleaned_data["kind"]]
        asked = ((option.name, self.cleaned_data.get(option.name)) for option in kind.options)
        return {name: value for name, value in asked if value not in (None, "")}
