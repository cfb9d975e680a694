"""A rulebook placeholder with plural forms ({name|form|form…}): the number is followed by the form
its language's plural rule picks, so Polish prose agrees with any number the engine gives."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.numbers import fill
from tests.rules.texts import read_sevens

NBSP = "\N{NO-BREAK SPACE}"


@pytest.mark.parametrize(
    ("n", "word"),
    [
        (1, "runda"),
        (2, "rundy"),
        (3, "rundy"),
        (4, "rundy"),
        (5, "rund"),
        (10, "rund"),
        (12, "rund"),
        (13, "rund"),
        (21, "rund"),
        (22, "rundy"),
        (25, "rund"),
        (104, "rundy"),
    ],
)
def test_polish_picks_the_form_of_its_three_plural_cases(n, word):
    with translation.override("pl"):
        assert fill("Partia: {n|runda|rundy|rund}.", {"n": n}) == f"Partia: {n}{NBSP}{word}."


@pytest.mark.parametrize(
    ("language", "n", "word"),
    [
        ("en", 1, "round"),
        ("en", 0, "rounds"),
        ("en", 3, "rounds"),
        ("fr", 0, "manche"),
        ("fr", 1, "manche"),
        ("fr", 2, "manches"),
    ],
)
def test_two_form_languages_follow_their_own_rule(language, n, word):
    forms = "round|rounds" if language == "en" else "manche|manches"
    with translation.override(language):
        assert fill(f"{{n|{forms}}}", {"n": n}) == f"{n}{NBSP}{word}"


def test_a_plain_placeholder_and_an_unknown_one_are_as_before():
    with translation.override("pl"):
        assert fill("{n} i {nieznany|a|b|c}", {"n": 7}) == "7 i {nieznany|a|b|c}"


@pytest.mark.django_db
@pytest.mark.usefixtures("rulebook")
def test_the_polish_sevens_page_agrees_with_the_default_number_of_rounds(client):
    """The engine's default (3 rounds) reads "3 rundy" / "ma 3 rundy", and no noun is left to guess."""
    shown = client.get("/pl/rules/sevens/").content.decode()
    assert f"Partia ma 3{NBSP}rundy, chyba że" in shown
    assert f"(3{NBSP}rundy, jeśli nie wybierzesz inaczej)" in shown
    assert (
        f"przy stole na 7{NBSP}osób potrzeba co najmniej 2{NBSP}graczy" in shown
        and f"każdy dostaje 13{NBSP}kart;" in shown
    )
    prose = str(read_sevens("pl"))
    assert "{sevens_rounds} rund" not in prose  # every rounds-count with a noun gives the noun's forms
