"""The native-level re-read of the Polish and French rulebook prose (pl.json, fr.json), kept as read."""

from __future__ import annotations

import re

import pytest

from tests.rules.texts import read


def _strings(content: object) -> list[str]:
    if isinstance(content, dict):
        return [text for key, value in content.items() if not key.startswith("_") for text in _strings(value)]
    if isinstance(content, list):
        return [text for value in content for text in _strings(value)]
    return [str(content)]


def _prose(language: str) -> str:
    return "\n".join(_strings(read(language)))


@pytest.mark.parametrize("language", ["pl", "fr"])
def test_one_register_and_typographic_quotes_and_apostrophes(language):
    prose = _prose(language)
    assert "'" not in prose and '"' not in prose
    if language == "pl":
        # "ty" as the UI; no second-person past forms that fix the reader's gender (spasowałeś, zebrałaś)
        assert not re.search(r"\b(Pan|Pani|Państwo)\b", prose)
        assert not re.findall(r"\b\w+(?:łeś|łaś)\b", prose)
        assert prose.count("„") == prose.count("”") > 0
    else:
        assert not re.search(r"\b(tu|te|toi|ton|ta|tes)\b", prose, re.IGNORECASE)
        assert "«" not in prose or "«\u202f" in prose


def test_polish_reads_as_written_in_polish():
    texts = read("pl")
    prose = _prose("pl")
    for calque in (
        "tej samej, jednej decyzji",  # jednej i tej samej
        "Runda czterech graczy",  # a four-player round: runda z czterema graczami
        "wartość, którą już zawiera",  # the value was already in the row before it arrived
        "Co, jeśli",
        "Co się dzieje, gdy",  # a perfective question asks what will happen: co się stanie
        "po kolei, w takiej kolejności",
        "aż nikt nie zostanie",
    ):
        assert calque not in prose, calque
    assert texts["sections"]["tutorial.choice"]["body"].startswith("Każda tura sprowadza się do jednej i tej samej")
    assert "Od rozdania pierwszej karty do chwili, gdy" in texts["glossary_definitions"]["round"]


def test_polish_speaks_of_the_chosen_player_as_the_ui_does():
    blurbs = read("pl")["blurbs"]
    # the UI asks "wybierz osobę, która…": the rules say the same and stay neutral about who it is
    assert "wybranej osobie" in blurbs["tutorial.special.triple_draw"]
    assert "wybraną osobę" in blurbs["tutorial.special.freeze"]
    for key in ("full.actions.freeze", "full.actions.triple_draw"):
        assert blurbs[key].startswith("Wybierz dowolną osobę, która jest nadal w rundzie, również siebie.")
    assert "oddaj komuś, kto jest nadal w rundzie" in blurbs["full.actions.second_chance"]
    chosen = blurbs["tutorial.special.triple_draw"] + blurbs["tutorial.special.freeze"]
    assert not re.search(r"\b(mu|go|niego)\b", chosen)


def test_french_reads_as_written_in_french():
    texts = read("fr")
    prose = _prose("fr")
    for calque in (
        "Atteignez {target} points en premier pour gagner",
        "Arrêter met vos points",
        "Une rangée qui vient de piocher",  # a row does not draw
        "options visibles",
        "cartes de score",
        "valeurs de score",
        "forment SEVN",
        "font un SEVN",
        "d’un peu plus de risque",
    ):
        assert calque not in prose, calque
    sections = texts["sections"]
    assert sections["tutorial.goal"]["title"] == "Le premier à {target} points gagne"
    assert sections["tutorial.start"]["body"].endswith("Le premier à {target} points gagne.")
    assert "font SEVN" in sections["tutorial.risk"]["body"] and "font SEVN" in sections["tutorial.sevn"]["heading"]
    assert "font SEVN" in texts["glossary_definitions"]["distinct value"]
    featherweight = texts["blurbs"]["full.bonus.featherweight"]
    assert featherweight.startswith("Au moins {featherweight_min_cards} cartes nombre ou Lest")
    assert "{ladder_points} points par carte" in texts["blurbs"]["full.bonus.ladder"]
