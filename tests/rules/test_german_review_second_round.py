"""The German reader's second round (December 2026): the words added for turn-based tables,
account settings and the hard bot's analysis, kept as they were fixed."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext

from tests.rules.test_wording import _msgstrs
from tests.rules.texts import all_text, read, read_sevens


def test_german_second_round_2026_12():
    ui = " ".join(_msgstrs("de"))
    for wrong in (
        "Uhren laufen ab",  # "ablaufen" reads as the clocks expiring
        "Alle ziehen, wann",  # "ziehen" is the Draw button
        "hergegeben",
        "oder einer deiner Passkeys",
        "%(play)s durch das Spiel",
    ):
        assert wrong not in ui, wrong
    with translation.override("de"):
        assert gettext("Pace") == "Spielmodus" != gettext("Bot speed")
        assert gettext("Analysing…").endswith("\u00a0…")
        assert gettext("best") == "beste Wahl"
    prose = all_text(read("de")) + all_text(read_sevens("de"))
    assert "Wiederholung" not in prose and "die Seite zum Nachspielen" in prose
