"""Wording the native speakers' review fixed, kept fixed: meanings, not only spellings."""

from __future__ import annotations

from pathlib import Path

import polib

from rules.content.load import read

ROOT = Path(__file__).resolve().parents[2]


def _all_text(content: object) -> str:
    if isinstance(content, dict):
        return " ".join(_all_text(value) for value in content.values())
    if isinstance(content, list):
        return " ".join(_all_text(value) for value in content)
    return str(content)


def test_dutch_says_whoever_is_bust_scores_zero_not_a_finished_row():
    text = _all_text(read("nl"))
    assert "Een rij die af is" not in text  # "af" also means "finished": a finished row scores zero
    assert "Wie af is, scoort altijd nul" in text


def test_dutch_speaks_of_the_chance_that_you_are_bust():
    catalogue = polib.pofile(str(ROOT / "locale" / "nl" / "LC_MESSAGES" / "django.po"))
    translations = " ".join(entry.msgstr for entry in catalogue)
    assert "kans om af te gaan" not in translations
    assert "kans dat je af bent" in translations.lower()
