"""The Sevens rules page: every section in five languages, no English or placeholder left, the
numbers and every verdict of the worked example from the Sevens engine, reached from home and
the rulebook, complete without JavaScript, and staff edits showing up."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.utils import translation

from game.games.sevens import rulebook as sevens
from game.games.sevens.engine import DECK, IllegalAction, new_game, playable
from game.games.sevens.engine.state import MAX_ROUNDS, MAX_SEATS, MIN_ROUNDS, MIN_SEATS
from rules.content.load import LANGUAGES
from rules.models import Section
from rules.numbers import PLACEHOLDER, numbers
from tests.rules.test_pages import texts
from tests.rules.texts import read_sevens

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook")]
SEVENS_NAMES = ("Sevens", "Fan Tan", "Satte Pe Satta")


def page(client, language: str, path: str = "/rules/sevens/") -> str:
    response = client.get(f"/{language}{path}")
    assert response.status_code == 200
    return response.content.decode()


def visible(content: str) -> str:
    return html_lib.unescape(" ".join(texts(content)))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_section_is_on_the_page_in_every_language(client, language):
    content = page(client, language)
    assert f'<html lang="{language}">' in content
    shown = visible(content)
    sections = read_sevens(language)["sections"]
    for key, fields in sections.items():
        assert " ".join(fields["heading"].split()) in shown, f"{language}: {key} heading missing"
    for key in ("sevens.goal", "sevens.scoring", "sevens.faq.pass"):
        assert " ".join(sections[key]["body"].split("{", 1)[0].split()) in shown
    assert shown.count("✓") + shown.count("✗") == len(sevens.EXAMPLE_HAND) + len(sevens.CASES) + 1
    assert not re.search(r"\{[a-z0-9_]+\}", shown), "a placeholder was left unfilled"
    assert content.count('class="guide__part"') == 4 and content.count('class="faq__item"') == 5


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_no_english_left_on_the_page(client, language):
    def words_beyond_names(chunk: str) -> int:
        for name in SEVENS_NAMES:
            chunk = chunk.replace(name, " ")
        return len(re.findall(r"[^\W\d_]{2,}", chunk))

    # a command (`python -m game.verify record.json`) is the same in every language
    english = {chunk for chunk in texts(page(client, "en"), skip=("code",)) if words_beyond_names(chunk) >= 3}
    leftovers = sorted(english & set(texts(page(client, language))))
    assert not leftovers, f"English left on /{language}/rules/sevens/: {leftovers}"


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_content_files_have_every_english_text_with_the_same_numbers(language):
    def flat(content: dict) -> dict[str, str]:
        found = {f"blurbs/{key}": text for key, text in content["blurbs"].items()}
        for key, fields in content["sections"].items():
            found.update({f"sections/{key}/{field}": text for field, text in fields.items()})
        return found

    english, other = flat(read_sevens("en")), flat(read_sevens(language))
    assert set(other) == set(english)

    def names(text: str) -> list[str]:  # a placeholder's name, with or without its word's plural forms
        return sorted(name for name, _forms in PLACEHOLDER.findall(text))

    placeholders = {place: names(text) for place, text in english.items()}
    assert {place: names(text) for place, text in other.items()} == placeholders
    assert [place for place, text in other.items() if not text.strip()] == []
    assert [place for place, text in other.items() if text == english[place] and len(text.split()) > 3] == []
    lines = {place: text.count("\n") for place, text in english.items()}
    assert {place: text.count("\n") for place, text in other.items()} == lines  # same list items


def test_the_numbers_come_from_the_sevens_engine(client):
    values = numbers()
    assert values["sevens_deck_size"] == len(DECK) == 52
    assert (values["sevens_min_seats"], values["sevens_max_seats"]) == (MIN_SEATS, MAX_SEATS) == (3, 7)
    assert (values["sevens_min_rounds"], values["sevens_max_rounds"]) == (MIN_ROUNDS, MAX_ROUNDS) == (1, 10)
    assert values["sevens_rounds"] == new_game(4, seed=1)["rounds"] == 3
    for seats in (MIN_SEATS - 1, MAX_SEATS + 1):
        with pytest.raises(IllegalAction):
            new_game(seats, seed=1)
    assert values["sevens_even_hand"] * values["sevens_even_seats"] == len(DECK)
    shown = visible(page(client, "en"))
    assert "3 to 7 players and one standard deck of 52 cards." in shown
    assert "Set the number of rounds: 3 unless you change it, anything from 1 to 10." in shown
    assert "a table of 7 needs at least 2 people" in shown and "never more than 8 of them" in shown


def test_the_example_is_the_seeds_and_its_verdicts_are_the_engines():
    assert sevens.EXAMPLE_LAYOUT == {"S": ["7", "7"], "H": None, "D": ["6", "8"], "C": None}
    assert sevens.EXAMPLE_HAND == ["5D", "9D", "8S", "6C", "KH"]
    fitting = playable(sevens.EXAMPLE_HAND, sevens.EXAMPLE_LAYOUT)
    assert fitting == ["8S", "5D", "9D"]  # the seed: three fit, in DECK order
    with translation.override("en"):
        judged = {v["code"]: v for v in sevens.verdicts(sevens.EXAMPLE_HAND, sevens.EXAMPLE_LAYOUT)}
    assert {code for code, v in judged.items() if v["fits"]} == set(fitting)
    assert judged["5D"]["reason"] == "5♦ fits: it extends its row down from 6♦."
    assert judged["9D"]["reason"] == "9♦ fits: it extends its row up from 8♦."
    assert judged["8S"]["reason"] == "8♠ fits: it extends its row up from 7♠."
    assert judged["6C"]["reason"] == "6♣ does not fit: it waits for 7♣, which starts its row."
    assert judged["KH"]["reason"] == (
        "K♥ does not fit: its row has not started. It waits for 7♥ and every card from there to Q♥."
    )


def test_the_page_shows_what_playable_says(client, monkeypatch):
    """The verdicts follow the engine: told that only the 6♣ fits, the page says so."""
    rendered = dict(re.findall(r'data-verdict="(\w+)" data-fits="(true|false)"', page(client, "en")))
    assert rendered == {
        card: str(card in playable(sevens.EXAMPLE_HAND, sevens.EXAMPLE_LAYOUT)).lower() for card in sevens.EXAMPLE_HAND
    }
    calls = []
    monkeypatch.setattr(sevens, "playable", lambda hand, layout: calls.append((hand, layout)) or ["6C"])
    content = page(client, "en")
    assert (sevens.EXAMPLE_HAND, sevens.EXAMPLE_LAYOUT) in calls
    assert dict(re.findall(r'data-verdict="(\w+)" data-fits="(true|false)"', content)) == {
        "5D": "false",
        "9D": "false",
        "8S": "false",
        "6C": "true",
        "KH": "false",
    }
    assert "1 of your 5 cards fits: you must play it; you may not pass." in visible(content)


def test_the_cases_table_is_judged_by_the_engine(client):
    for card, layout in sevens.CASES:
        assert playable([card], layout) == ([] if card == "9H" else [card])
    assert playable(sevens.PASS_HAND, sevens.PASS_LAYOUT) == []
    content = page(client, "en")
    assert re.findall(r'data-case="(\w+)" data-fits="(true|false)"', content) == [
        ("7C", "true"),
        ("6D", "true"),
        ("AS", "true"),
        ("9H", "false"),
        ("none", "false"),
    ]
    shown = visible(content)
    assert "A♠ fits: it goes under 2♠. The Ace is low: it goes under the 2, never over the King." in shown
    assert "9♥ does not fit: the next card up in its row is 8♥." in shown
    assert "7♣ fits: any 7 starts the row of its suit." in shown
    assert "You pass. With a card that fits you must play." in shown


@pytest.mark.parametrize(
    ("language", "king", "name"),
    [
        ("en", "K♥", "King of Hearts"),
        ("de", "K♥", "Herz-König"),
        ("nl", "H♥", "harten heer"),
        ("pl", "K♥", "król kier"),
        ("fr", "R♥", "roi de cœur"),
    ],
)
def test_the_cards_speak_the_pages_language(client, language, king, name):
    content = page(client, language)
    assert f'aria-label="{name}" data-code="KH"' in content
    assert f"{king} " in visible(content)  # the verdict names the King with the language's letter


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_is_reached_from_home_and_the_rulebook(client, language):
    link = f'href="/{language}/rules/sevens/"'
    for path in ("/", "/rules/", "/rules/full/"):
        assert link in page(client, language, path), f"/{language}{path} has no link to the Sevens page"
    assert 'aria-current="page">' in page(client, language)


def test_complete_without_javascript(client):
    content = page(client, "en")
    assert "<script" not in content.split("<main", 1)[1]  # nothing inline (the CSP refuses it anyway)
    assert content.count('class="fits__pick" href="#fits-') == len(sevens.EXAMPLE_HAND)
    for card in sevens.EXAMPLE_HAND:
        assert f'id="fits-{card}"' in content
    assert "data-fits-verdicts>" in content and "data-fits-verdicts hidden" not in content
    assert re.search(r"data-fits-result[^>]*hidden", content)  # the script's line waits for the script


def test_staff_edit_dutch_text_and_the_dutch_page_shows_it(admin_client, client):
    section = Section.objects.get(key="sevens.goal")
    assert section.page == "sevens"
    form = {
        f"{field}_{language}": getattr(section, f"{field}_{language}") or ""
        for field in ("heading", "title", "body", "caption")
        for language in LANGUAGES
    }
    form.update(
        page=section.page,
        key=section.key,
        order=section.order,
        body_nl="Speel als eerste je {sevens_deck_size} kaarten weg, aangepast door de beheerder.",
    )
    response = admin_client.post(f"/admin/rules/section/{section.id}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert "Speel als eerste je 52 kaarten weg, aangepast door de beheerder." in visible(page(client, "nl"))
    assert "aangepast door de beheerder" not in page(client, "de")
