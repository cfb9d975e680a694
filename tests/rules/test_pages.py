"""The rulebook in five languages: every page, every term, no English left, numbers from the
engine, and staff edits showing up."""

from __future__ import annotations

import html as html_lib
import re
from html.parser import HTMLParser

import pytest

from game.games.sevn import rulebook as demo
from game.games.sevn.engine import DECK, apply, new_game, score_steps
from rules.content.load import LANGUAGES
from rules.models import Section
from rules.numbers import PLACEHOLDER
from tests.rules.terms import TERMS, TITLES
from tests.rules.texts import read

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook")]
PAGES = ("/rules/", "/rules/full/")


class TextOf(HTMLParser):
    """The visible text nodes of a page (no scripts, styles or attribute values; `skip` names
    more elements to leave out)."""

    def __init__(self, skip: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.chunks: list[str] = []
        self._skip = 0
        self._skipped = ("script", "style", *skip)

    def handle_starttag(self, tag, attrs):
        if tag in self._skipped:
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in self._skipped:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.chunks.append(" ".join(data.split()))


def texts(content: str, skip: tuple[str, ...] = ()) -> list[str]:
    parser = TextOf(skip)
    parser.feed(content)
    return parser.chunks


def page(client, language: str, path: str) -> str:
    response = client.get(f"/{language}{path}")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path", PAGES)
def test_every_page_in_every_language_uses_its_terms(client, language, path):
    content = page(client, language, path)
    assert f'<html lang="{language}">' in content
    visible = html_lib.unescape(" ".join(texts(content)))
    for key, term in TERMS[language].items():
        if key == "slogan" and path == "/rules/full/":
            continue  # the slogan belongs to the tutorial's duplicate picture
        assert term in visible, f"{language}{path} lacks {key}: {term!r}"
    assert TITLES[language][PAGES.index(path)] in visible


@pytest.mark.parametrize("language", ["de", "nl", "pl", "fr"])
@pytest.mark.parametrize("path", PAGES)
def test_no_english_left_in_the_seed_languages(client, language, path):
    names = sorted((term for key, term in TERMS[language].items() if key != "slogan"), key=len, reverse=True)

    def words_beyond_names(chunk: str) -> int:
        for name in names:  # card names a language keeps in English (German) are not leftovers
            chunk = chunk.replace(name, " ")
        return len(re.findall(r"[^\W\d_]{2,}", chunk))

    # a command (`python -m game.verify record.json`) is the same in every language
    english = {chunk for chunk in texts(page(client, "en", path), skip=("code",)) if words_beyond_names(chunk) >= 3}
    local = set(texts(page(client, language, path)))
    leftovers = sorted(english & local)
    assert not leftovers, f"English left on /{language}{path}: {leftovers}"


def test_content_files_match_the_english_structure():
    source = read("en")
    placeholders = PLACEHOLDER  # a name, with or without the plural forms of its word

    def shape(value):
        if isinstance(value, dict):
            return {key: shape(item) for key, item in value.items() if key != "_about"}
        if isinstance(value, list):
            return [shape(item) for item in value]
        return sorted(name for name, _forms in placeholders.findall(value))

    for language in LANGUAGES:
        assert shape(read(language)) == shape(source), language


def test_deck_table_is_rendered_from_the_engine(client):
    content = page(client, "en", "/rules/full/")
    rendered = dict(re.findall(r'data-code="(\d+)" data-copies="(\d+)"', content))
    assert {code: int(copies) for code, copies in rendered.items()} == {
        code: copies for code, copies in DECK.items() if code.isdigit()
    }
    assert f"{sum(DECK.values())} cards, 17 distinct scoring values" in html_lib.unescape(content)


def test_changing_a_count_in_the_deck_changes_the_pages(client, monkeypatch):
    monkeypatch.setitem(DECK, "13", 14)
    monkeypatch.setitem(DECK, "storm", 3)
    content = html_lib.unescape(page(client, "en", "/rules/full/"))
    assert 'data-code="13" data-copies="14"' in content
    assert f"{sum(DECK.values())} cards" in content and "Storm ×3" in content
    assert "There are 14 cards of 13" in html_lib.unescape(page(client, "en", "/rules/"))


def test_scoring_animation_steps_are_the_engine_steps(client):
    content = page(client, "en", "/rules/full/")
    rendered = re.findall(r'data-name="(\w+)" data-points="(-?\d+)" data-total="(-?\d+)"', content)
    assert [{"step": n, "points": int(p), "total": int(t)} for n, p, t in rendered] == score_steps(demo.SCORING_ROW)
    assert rendered[-1][2] == "82"


def test_demo_round_is_six_steps_of_legal_engine_play():
    state = new_game(4, seed=0, deck=demo.DEMO_DECK)
    kinds = []
    for actions in demo.DEMO_STEPS[1:]:
        for action in actions:
            kinds += [event["type"] for event in apply(state, action)]
    assert len(demo.DEMO_STEPS) == 6
    assert {"drawn", "bust", "passed", "round_scored"} <= set(kinds)
    frames = demo.demo_frames()
    assert [frame["number"] for frame in frames] == [1, 2, 3, 4, 5, 6]
    assert [len(seat["row"]) for seat in frames[0]["seats"]] == [1, 1, 1, 1]  # the deal, nobody chose yet
    assert frames[-1]["scored"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_demo_captions_are_translated_and_numbered(client, language):
    visible = " ".join(texts(page(client, language, "/rules/")))
    for number, caption in enumerate(read(language)["demo_steps"], start=1):
        assert f"{number}/6" in visible and " ".join(caption.split()) in html_lib.unescape(visible)


def test_pages_are_complete_without_javascript(client):
    content = page(client, "en", "/rules/")
    assert content.count("data-frame=") == 6 and 'data-frame="1" aria-label' in content
    assert 'data-frame="2" hidden' in content  # later steps wait for the script


def test_staff_edit_polish_text_and_the_polish_page_shows_it(admin_client, client):
    section = Section.objects.get(key="full.goal")
    form = {
        f"{field}_{language}": getattr(section, f"{field}_{language}") or ""
        for field in ("heading", "title", "body", "caption")
        for language in LANGUAGES
    }
    form.update(
        page=section.page,
        key=section.key,
        order=section.order,
        body_pl="Zdobądź {target} punktów jako pierwszy — tekst poprawiony przez obsługę.",
    )
    response = admin_client.post(f"/admin/rules/section/{section.id}/change/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert "Zdobądź 250 punktów jako pierwszy — tekst poprawiony przez obsługę." in page(client, "pl", "/rules/full/")
    assert "tekst poprawiony" not in page(client, "de", "/rules/full/")


def test_language_is_chosen_from_the_browser_on_first_visit(client):
    response = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="nl-NL,nl;q=0.9,en;q=0.5")
    assert response.status_code == 302 and response["Location"] == "/nl/rules/"


def test_language_switcher_keeps_you_on_the_same_page(client):
    content = page(client, "fr", "/rules/full/")
    for language in LANGUAGES:
        assert f'href="/{language}/rules/full/" hreflang="{language}"' in content


def test_translations_are_complete(tmp_path):
    import polib
    from django.conf import settings

    for language in ("de", "nl", "pl", "fr"):
        catalogue = polib.pofile(str(settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po"))
        assert catalogue.untranslated_entries() == [], language
        assert [e.msgid for e in catalogue.fuzzy_entries()] == [], language
        assert len(catalogue.translated_entries()) > 250


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_each_language_has_every_text_of_the_english_with_the_same_numbers_filled_in(language):
    """Same places, same {placeholders} (the engine's numbers), nothing empty, nothing left in English."""
    english, other = dict(_texts(read("en"))), dict(_texts(read(language)))
    assert set(other) == set(english)
    numbers = {place: (_placeholders(english[place]), _placeholders(text)) for place, text in other.items()}
    assert {place: pair for place, pair in numbers.items() if pair[0] != pair[1]} == {}
    assert [place for place, text in other.items() if not text.strip()] == []
    left = [place for place, text in other.items() if text == english[place] and len(_words(text, language)) > 3]
    assert left == [], f"left in English: {left}"


def _placeholders(text: str) -> set[str]:
    return {name for name, _forms in PLACEHOLDER.findall(text)}


def _words(text: str, language: str) -> list[str]:
    """The words of a text other than placeholders and the terms it may share with English."""
    for term in TERMS[language].values():
        text = text.replace(term, " ")
    return re.findall(r"[^\W\d_]{2,}", PLACEHOLDER.sub(" ", text))


def _texts(content: object, path: str = ""):
    if isinstance(content, dict):
        for key, value in content.items():
            if not key.startswith("_"):
                yield from _texts(value, f"{path}/{key}")
    elif isinstance(content, list):
        for index, value in enumerate(content):
            yield from _texts(value, f"{path}/{index}")
    else:
        yield path, str(content)
