"""Both rulebook pages explain fair deals (commit, then reveal) in every language, with the verify
command and a way to the Verify a game page."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

HEADINGS = {
    "en": "Fair deals: check any game yourself",
    "de": "Faires Mischen: Prüf jedes Spiel selbst nach",
    "nl": "Eerlijk delen: controleer elk spel zelf",
    "pl": "Uczciwe rozdania: sprawdź każdą grę samodzielnie",
    "fr": "Donnes équitables\u202f: vérifiez vous-même chaque partie",
}
# a phrase of the scheme's explanation in each language (the commitment, the players' seeds, HMAC)
SCHEME = {
    "en": ("the commitment", "HMAC-SHA256", "every player's seed"),
    "de": ("die Festlegung", "HMAC-SHA256", "den Seeds aller Spieler"),
    "nl": ("de vastlegging", "HMAC-SHA256", "de seeds van alle spelers"),
    "pl": ("czyli zobowiązanie", "HMAC-SHA256", "ziaren wszystkich graczy"),
    "fr": ("l’engagement", "HMAC-SHA256", "des graines de tous les joueurs"),
}


@pytest.mark.parametrize("language", sorted(HEADINGS))
@pytest.mark.parametrize("page", ["full", "sevens"])
def test_the_rules_explain_fair_deals_and_the_verify_command(client, rulebook, language, page):
    html = client.get(f"/{language}/rules/{page}/").content.decode()
    section = html[html.index('<section class="rules__section" id="fair-deal">') :]
    section = section[: section.index("</section>")]
    assert f"<h2>{HEADINGS[language]}</h2>" in section
    assert all(phrase in section for phrase in SCHEME[language]), language
    assert "<code>python -m game.verify record.json</code>" in section
    assert "--key" in section  # and how to check that the record is the site's (its signature)
    assert f'href="/{language}/verify/"' in section
    assert 'href="#fair-deal"' in html  # in the page's contents
