"""What a screen reader hears of each suit's row: its span, a lone 7 as itself (not "7♣ to 7♣"),
or that its 7 is still to come, in the reader's language."""

from __future__ import annotations

from django.utils import translation

from game.games.sevens.panels import layout_rows


def labels(layout: dict) -> dict[str, str]:
    return {row["suit"]: row["label"] for row in layout_rows(layout)}


def test_a_row_says_its_span_a_lone_seven_or_no_seven_yet():
    layout = {"C": ("7", "7"), "D": ("5", "9"), "H": None, "S": ("7", "K")}
    said = labels(layout)
    assert "only" in said["C"] and " to " not in said["C"] and "7" in said["C"]
    assert " to " in said["D"] and "5" in said["D"] and "9" in said["D"]
    assert "no 7 yet" in said["H"]
    with translation.override("de"):
        assert "nur" in labels(layout)["C"]
    with translation.override("fr"):
        assert "seulement" in labels(layout)["C"] and "\u202f:" in labels(layout)["C"]
