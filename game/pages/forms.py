"""The home page's create-a-table form (the services re-check everything). Its games are the
registry's: each game's radio button says its seat range, and each game's own settings are the
fields its Kind's options give (game.core.options), named as the options are."""

from __future__ import annotations

from django import forms
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from game import registry, services
from game.core import pace as paces
from game.services import reliability

# The paces the form offers (game.core.pace.PRESETS), live first, the turn-based ones grouped.
PACE_CHOICES = [
    ("live", _("Live: everyone at the table now")),
    (
        _("Turn-based: play at your own pace"),
        [
            ("move-12h", _("12 hours a move")),
            ("move-24h", _("24 hours a move")),
            ("move-3d", _("3 days a move")),
            ("bank-3d", _("Time bank: 3 days, +12 hours a move, at most 5 days")),
            ("none", _("No time limit (your friends only)")),
        ],
    ),
]


class ZoneSelect(forms.Select):
    """A select of one of some 600 time zones (no groups), drawn in one pass: Django's Select draws each
    option through its option template, which took 20 ms of CPU, two fifths of the home page's
    (bench/turn_based_load.py). The markup is Django's own, to the byte (tests/pages)."""

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        chosen = {str(item) for item in self.format_value(value)}
        final = {"name": name, **self.build_attrs(self.attrs, attrs)}
        options = []
        for choice, label in self.choices:
            choice = "" if choice is None else str(choice)
            selected = " selected" if choice in chosen else ""
            options.append(f'<option value="{escape(choice)}"{selected}>{escape(label)}</option>')
        # the attributes as django/forms/widgets/attrs.html writes them, in their order
        shown = "".join(
            f" {key}" if item is True else f' {key}="{escape(item)}"'
            for key, item in final.items()
            if item is not False
        )
        return mark_safe(f"<select{shown}>\n  " + "\n\n  ".join(options) + "\n\n</select>")


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
    pace = forms.ChoiceField(label=_("Pace"), initial="live", required=False, choices=PACE_CHOICES)
    turn_seconds = forms.TypedChoiceField(label=_("Turn timer"), coerce=int, initial=30, choices=services.TIMER_LABELS)
    window_start = forms.TimeField(
        label=_("Clocks run from"), required=False, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    window_end = forms.TimeField(
        label=_("until"), required=False, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    time_zone = forms.ChoiceField(label=_("Your time zone"), required=False, initial="UTC", widget=ZoneSelect)
    bot_speed = forms.ChoiceField(
        label=_("Bot speed"),
        initial="normal",
        required=False,
        choices=[("fast", _("Fast")), ("normal", _("Normal")), ("slow", _("Slow"))],
    )
    members_only = forms.BooleanField(label=_("Signed-in players only (guests may watch)"), required=False)
    rated = forms.BooleanField(label=_("Rated: each game updates the players' ratings"), required=False)
    min_reliability = forms.TypedChoiceField(
        label=_("Players who finish their games"),
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        kinds = list(registry.KINDS.values())
        self.fields["kind"].choices = registry.choices()
        self.fields["time_zone"].choices = [(name, name) for name in paces.zone_names()]
        self.fields["min_reliability"].choices = [(0, gettext("Anyone may sit"))] + [
            (least, gettext("Finished at least %(least)d%% of their last games") % {"least": least})
            for least in reliability.MIN_CHOICES
            if least
        ]
        if self.is_bound:  # the zone asked for stays (js/pace_choice.js starts a new form at the browser's)
            self.fields["time_zone"].widget.attrs["data-bound"] = "1"
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

    def clean_pace(self) -> str:
        return self.cleaned_data["pace"] or "live"

    def window(self) -> tuple | None:
        """The playing hours asked for (start, end), or None (the clocks run at any hour)."""
        start, end = self.cleaned_data.get("window_start"), self.cleaned_data.get("window_end")
        return None if start is None and end is None else (start, end)

    def clean_kind(self) -> str:
        return self.cleaned_data["kind"] or registry.DEFAULT

    def game_options(self) -> dict:
        """The chosen game's settings as asked for (an empty field: not asked, its default)."""
        kind = registry.KINDS[self.cleaned_data["kind"]]
        asked = ((option.name, self.cleaned_data.get(option.name)) for option in kind.options)
        return {name: value for name, value in asked if value not in (None, "")}
