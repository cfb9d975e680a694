"""Wording the native speakers' review fixed, kept fixed: meanings, not only spellings."""

from __future__ import annotations

import html
import re
from pathlib import Path

import polib
import pytest
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

from tests.rules.texts import all_text, read, read_sevens

ROOT = Path(__file__).resolve().parents[2]


def test_dutch_says_whoever_is_bust_scores_zero_not_a_finished_row():
    text = all_text(read("nl"))
    assert "Een rij die af is" not in text  # "af" also means "finished": a finished row scores zero
    assert "Wie af is, scoort altijd nul" in text


def test_dutch_speaks_of_the_chance_that_you_are_bust():
    catalogue = polib.pofile(str(ROOT / "locale" / "nl" / "LC_MESSAGES" / "django.po"))
    translations = " ".join(entry.msgstr for entry in catalogue)
    assert "kans om af te gaan" not in translations
    assert "kans dat je af bent" in translations.lower()


# The native reviewers' findings of "Players' polish" (items 11-17), kept fixed.

LANGS = ("de", "nl", "pl", "fr")
NNBSP = "\u202f"


def _catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def _msgstrs(language: str) -> list[str]:
    strings = []
    for entry in _catalogue(language):
        strings.extend(entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr])
    return strings


def _prose(language: str) -> str:
    return all_text(read(language)) + " " + all_text(read_sevens(language))


def test_sevens_goes_by_the_names_french_and_polish_players_know():
    for language, name, wrong in (("fr", "Fan-tan", "Sept de carreau"), ("pl", "Karciane domino", "Siódemki")):
        with translation.override(language):
            assert gettext("Sevens") == name
        assert not any(wrong in text for text in _msgstrs(language)), f"{language}: {wrong} left in the UI"
        assert wrong not in _prose(language), f"{language}: {wrong} left in the rules"
        assert name in read_sevens(language)["sections"]["sevens.intro"]["heading"]


@pytest.mark.parametrize(
    "msgid",
    ["The %(card)s is not in your hand.", "The %(card)s does not fit the layout: play one of your highlighted cards."],
)
@pytest.mark.parametrize("language", ["de", "fr"])
def test_no_article_before_a_card_code(language, msgid):
    with translation.override(language):
        for card in ("K♥", "D♥", "R♥", "A♠", "B♣", "V♣", "7♦"):
            sentence = gettext(msgid) % {"card": card}
            assert not re.search(rf"\b(der|die|das|den|le|la|l’|du|au)\s*{card}", sentence, re.IGNORECASE), sentence
            assert card in sentence
        assert not re.search(r"\b(du|au|le)\s+%\((low|high)\)s", gettext("%(suit)s: %(low)s to %(high)s"))
        assert not re.search(r"\b(le|la|die)\s+%\(card\)s", gettext("Play %(card)s"), re.IGNORECASE)


def test_french_puts_a_narrow_no_break_space_before_double_punctuation():
    texts = _msgstrs("fr") + [_prose("fr")]
    for text in texts:
        bad = re.findall(r".{0,20}[ \u00a0][:;!?»].{0,5}|«[ \u00a0].{0,20}", text)
        assert not bad, bad
    assert sum(text.count(NNBSP + ":") for text in texts) > 100


def test_french_says_fits_and_layout_one_way_and_hides_rather_than_mutes():
    ui = " ".join(_msgstrs("fr"))
    prose = all_text(read_sevens("fr"))
    for word in ("convient", "muet"):
        assert word not in ui
    assert "disposition" not in prose and not re.search(r"\bne va\b|\bqui va\b|carte va\b", prose)
    assert "se joue à {sevens_min_seats} à" not in prose
    with translation.override("fr"):
        assert gettext("Mute") == gettext("Mute %(name)s").split()[0] == "Masquer"
        muted = gettext("You are muted in chat. Reason: %(reason)s")
        assert muted.startswith("Vous ne pouvez plus écrire dans le chat")


def test_german_keeps_one_register_and_the_reviewed_sentences():
    ui = " ".join(_msgstrs("de"))
    for wrong in ("Nichts passt an", "für sie gelegt", "Gastgeber", "Teilnehmende", "Mitspielende", "Zuschauende"):
        assert wrong not in ui, wrong
    with translation.override("de"):
        assert gettext("%(who)s passes: nothing fits.") == "%(who)s muss passen: Keine Karte passt."
        assert gettext("Computer player") == "Computerspieler"
        assert gettext("Yourself") == "Dich selbst"
        assert "Spielleitung" in gettext("The host can no longer play here.")


def test_dutch_reviewed_wording():
    ui = " ".join(_msgstrs("nl"))
    for wrong in ("Deler", "gastheer", "daag je geluk uit", "voor hen"):
        assert wrong not in ui, wrong
    prose = _prose("nl")
    for wrong in ("groeien op", "ben als eerste je kaarten kwijt", "iedereen anders", "deler"):
        assert wrong not in prose, wrong
    assert "lopen omhoog tot de heer en omlaag tot de aas" in prose
    with translation.override("nl"):
        assert gettext("Dealer") == "Gever"


def test_polish_reviewed_wording():
    ui = " ".join(_msgstrs("pl"))
    for wrong in ("spasował", "za niego", "jeszcze przez %(left)s", "w ręce", "Bądź uprzejmy", "wybierasz sam"):
        assert wrong not in ui, wrong
    assert "w ręce" not in _prose("pl") and "jako pierwszy" not in _prose("pl")
    with translation.override("pl"):
        assert gettext("Dealer") == "Rozdający"
        # a status is a noun like its neighbours "Pas" and "Fura", not a masculine "Zamrożony" (review 2026-12)
        assert gettext("Frozen") == "Zamrożenie"


@pytest.mark.parametrize(
    ("seats", "shown"), [(2, "2 miejsca"), (3, "3 miejsca"), (4, "4 miejsca"), (5, "5 miejsc"), (7, "7 miejsc")]
)
def test_polish_seat_counts_take_their_plural(seats, shown):
    from game.games.sevens.kind import KIND as SEVENS
    from game.games.sevn.kind import KIND as SEVN

    with translation.override("pl"):
        assert SEVN.lobby_line({"seat_count": seats, "options": {"target": 200, "show_odds": True}}).startswith(
            shown + " ·"
        )
        line = SEVENS.lobby_line({"seat_count": seats, "options": {"rounds": 1}})
        assert line == f"Karciane domino · {shown} · 1 runda"


@pytest.mark.parametrize(
    ("language", "three", "two"),
    [
        ("en", "Ana, Ben and Cleo", "Ana and Ben"),
        ("de", "Ana, Ben und Cleo", "Ana und Ben"),
        ("nl", "Ana, Ben en Cleo", "Ana en Ben"),
        ("pl", "Ana, Ben i Cleo", "Ana i Ben"),
        ("fr", "Ana, Ben et Cleo", "Ana et Ben"),
    ],
)
def test_tied_winners_are_joined_as_each_language_lists_names(language, three, two):
    from game.drawkit.words import names_list
    from game.games.sevens.log import line

    names = ["Ana", "Ben", "Cleo", "Dan"]
    event = {"type": "game_over", "winners": [0, 1, 2], "totals": [4, 4, 4, 9]}
    with translation.override(language):
        assert names_list(names[:3]) == three and names_list(names[:2]) == two and names_list(["Ana"]) == "Ana"
        assert three in line(event, names)


@pytest.mark.parametrize(("language", "chip"), [("en", "D"), ("de", "G"), ("nl", "G"), ("pl", "R"), ("fr", "D")])
def test_the_sevens_dealer_chip_speaks_the_language(language, chip):
    seat = {"index": 0, "name": "Ana", "count": 7, "total": 0, "dealer": True, "passes": 0, "bot_level": ""}
    with translation.override(language):
        html = render_to_string("sevens/_seat.html", {"seat": seat})
        assert re.search(rf'class="chip chip--dealer" title="{gettext("Dealer")}"[^>]*>{chip}</span>', html)


@pytest.mark.django_db
@pytest.mark.usefixtures("rulebook")
@pytest.mark.parametrize("language", ["en", *LANGS])
@pytest.mark.parametrize("path", ["/rules/", "/rules/full/"])
def test_the_glossary_defines_each_term_in_the_page_language(client, language, path):
    content = client.get(f"/{language}{path}").content.decode()
    glossary = content.split('<dl class="glossary">', 1)[1].split("</dl>", 1)[0]
    texts = read(language)
    for key, term in texts["glossary"].items():
        assert f"<dt>{term}</dt><dd>{texts['glossary_definitions'][key]}</dd>" in html.unescape(glossary)
    assert "out round" not in glossary and 'lang="en"' not in glossary


# The native re-read of the accounts, friends, invitations and moderation wording, kept.


def test_german_accounts_wording_is_du_form_and_says_each_thing_once():
    with translation.override("de"):
        assert gettext("Blocked: they can no longer invite you, ask you or see you online.") == (
            "Blockiert: Diese Person kann dich weder einladen noch dir Anfragen schicken noch sehen, ob du online bist."
        )
        assert gettext("That invitation has expired: its table is over.").endswith("Der Tisch wurde geschlossen.")
        assert gettext("Playing since %(date)s") == "Dabei seit %(date)s"
        # allauth's pages: the header's "Anmelden", the site's "Benutzername", du not Sie
        assert gettext("Sign In") == gettext("Log in") == "Anmelden"
        assert pgettext("field label", "Login") == gettext("Username or email") == "Benutzername oder E-Mail"
        for msgid in ("Please reauthenticate to safeguard your account.", "Enter your password:"):
            assert not re.search(r"\b(Sie|Ihr|Ihre)\b", gettext(msgid)), msgid


def test_dutch_accounts_wording_logs_in_as_the_header_does():
    ui = " ".join(_msgstrs("nl"))
    for wrong in ("aangemelde", "Gedeelde winst", "de tafel is voorbij", "deblokkeer eerst."):
        assert wrong not in ui, wrong
    with translation.override("nl"):
        assert gettext("Sign In") == gettext("Log in") == "Inloggen"
        assert gettext("Sign Out") == gettext("Log out") == "Uitloggen"
        assert gettext("Sign up") == gettext("Sign Up") == "Registreren"
        assert gettext("Your move") == gettext("Your turn")
        # suspending an account is 'schorsen'; 'blokkeren' is what a player does to another
        assert gettext("Suspended the account") == "Account geschorst" and "schorsen" in gettext(
            "Can suspend and reinstate accounts"
        )
        assert ngettext(
            "Your password must contain at least %(min_length)d character.",
            "Your password must contain at least %(min_length)d characters.",
            8,
        ).startswith("Het wachtwoord")  # no 'Uw'; nor 'Je' where staff set someone else's
        # Django 5.2's own message (with %d) is not in its Dutch catalogue yet: the signup page said it in English
        too_short = ngettext(
            "This password is too short. It must contain at least %d character.",
            "This password is too short. It must contain at least %d characters.",
            8,
        )
        assert too_short % 8 == "Dit wachtwoord is te kort: het moet minstens 8 tekens bevatten."


def test_polish_accounts_wording_takes_its_cases_and_no_gender():
    ui = " ".join(_msgstrs("pl"))
    for wrong in ("samego siebie", "pierwsze %(max)s znaków", "Zapomniałeś", "Wprowadż", "z jego miejsca"):
        assert wrong not in ui, wrong
    with translation.override("pl"):
        games = [ngettext("%(games)s game", "%(games)s games", n) % {"games": n} for n in (1, 2, 5, 22)]
        assert games == ["1 gra", "2 gry", "5 gier", "22 gry"]
        assert gettext("Your move") == gettext("Your turn")
        assert gettext("Sign In") == gettext("Log in") == "Zaloguj się"


def test_french_says_vous_on_the_account_pages_too():
    for text in _msgstrs("fr"):
        assert not re.search(r"\b(tu|ton|ta|tes|toi|te)\b|\bt’", text, re.IGNORECASE), text
    with translation.override("fr"):
        assert gettext("Your move") == gettext("Your turn") == "À vous de jouer"
        assert gettext("Forgot your password?") == "Mot de passe oublié\u202f?"
        assert "clé d’accès" in gettext("Passkey Sign Up") and "clé d’accès" in gettext("Sign in with a passkey")
        assert gettext("Username or email") == gettext("Username") + " ou e-mail"  # the typographic apostrophe


# The independent review of December 2026 (../shared/reviews/languages-2026-12.md), kept fixed.


def test_german_review_2026_12():
    ui = " ".join(_msgstrs("de"))
    for wrong in (
        "Client-Seed",
        "Wiederholung",
        "jede und jeder",
        "Alle Karten auf der Hand",
        "ist raus: keine Karten",
    ):
        assert wrong not in ui, wrong
    with translation.override("de"):
        assert gettext("Every hand") == "Alle Hände"
        assert gettext("A computer player moved for %(name)s.") == "Ein Computerspieler hat für %(name)s gespielt."
        for msgid in ("Rating", "Rating over time", "Whose ratings"):
            assert "Wertungszahl" in gettext(msgid), msgid  # "Wertung" is a round's scoring here
        assert gettext("mutes and bans of this account").startswith("Stummschaltungen und Tischsperren")
        assert gettext("The server is busy: retrying in a moment…").endswith("\u00a0…")
        assert "zu einer Partie %(game)s" in gettext("%(name)s invites you to %(game)s at table %(code)s.")
        assert gettext("Won by: %(names)s") == "Sieger: %(names)s"
    assert "ausgeteilten Karte und dauert, bis niemand" in read("de")["glossary_definitions"]["round"]


def test_dutch_review_2026_12():
    ui = " ".join(_msgstrs("nl"))
    for wrong in (
        "schuifbalk",
        "Rating door de tijd",
        "Af-percentage",
        "geef de link ervan",
        "weer herstellen",
    ):
        assert wrong not in ui, wrong
    # "deling" for a deal, as a word of its own; "verdeling" (how cards lie among hands) is right
    assert not re.search(r"\bdeling", ui), re.search(r".{40}\bdeling.{40}", ui)
    with translation.override("nl"):
        assert gettext("Wins") == "Overwinningen" != gettext("Won")
        assert gettext("Sevens") == "Zevenen"  # a Dutch name for the game: kept (terms.md)


def test_polish_review_2026_12():
    ui = " ".join(_msgstrs("pl"))
    for wrong in (
        "Wszystkie karty na ręce",
        "nie zostały dobrane",
        "komputer nie ma rankingu",
        "Średnio punktów",
        "1 godzinę",
        "wykonał ruch za",
        "zostanie rozdana",
        "jest rozdawana",
        "odtwarza się dokładnie",
        "zapisem gry SEVN",
        " pkt",  # a number and its unit stay on one line
        "nie może już cię",
    ):
        assert wrong not in ui, wrong
    with translation.override("pl"):
        assert gettext("Every hand") == "Karty wszystkich graczy"
        assert gettext("left (a bot played)") == "opuszczenie gry (grał bot)"
        assert not gettext("Invitation sent to %(name)s.").startswith(gettext("Request sent"))
        assert "do gry w %(game)s" in gettext("%(name)s invites you to %(game)s at table %(code)s.")
        assert pgettext("heading: the people you blocked", "Blocked") == "Zablokowane osoby"
        assert gettext("for") == "czas trwania" and gettext("1 hour") == "1 godzina"  # "1 godzina", not "na"


def test_french_review_2026_12():
    ui = " ".join(_msgstrs("fr"))
    for wrong in (
        "privations",
        "clé d’invité",
        "ordinateur a joué",
        "joueur ordinateur",
        "joueurs ordinateur",
        "contrôlé par l’ordinateur",
        "Elle n’a besoin",
        "Entre vos amis",
        "partie est déjà distribuée",
        "est distribuée à partir",
        "sont en ordre",
        "ediffusion",
        "masquer où",
        "Masquer où",
        "relevé de partie SEVN",
    ):
        assert wrong not in ui, wrong
    assert not re.search(r"(%\(\w+\)s|\{\w+\}) (Mo|Ko|s)\b", ui)  # U+202F between a number and its unit
    with translation.override("fr"):
        assert gettext("Computer player") == "Bot"  # one name for computer players
        assert gettext("Among your friends") == "Parmi vos amis"
        assert pgettext("heading: the people you blocked", "Blocked") == "Personnes bloquées"
        assert gettext("At the table: %(names)s") == "À la table\u202f: %(names)s"
        assert gettext("Won by: %(names)s") == "Victoire\u202f: %(names)s"
        assert gettext("Rating") == "Cote" != gettext("Ratings")  # the value, not the leaderboard
        verdict = (
            "%(game)s, game %(number)s at table %(table)s: its deal came from the seed committed to before it, and "
        )
        one = verdict + "its %(moves)s move replays exactly, with the recorded scores."
        assert "son unique coup" in ngettext(
            one, verdict + "all %(moves)s moves replay exactly, with the recorded scores.", 1
        )
        fair = render_to_string(
            "table/_fair.html",
            {"fair": {"code": "ABCD", "game_id": 1, "commitment": "c0ffee", "client_seeds": [("Ana", "x1")]}},
        )
        assert "Ana\u202f: <code>x1</code>" in fair  # the colon inside the msgid, spaced as French spaces it


@pytest.mark.parametrize("language", LANGS)
def test_catalogues_hold_no_stale_entries_and_flag_every_format(language):
    catalogue = _catalogue(language)
    assert not catalogue.obsolete_entries()
    for gone in ("suspended by staff", "Round %(n)s: cards left", "At the table", "Won by"):
        assert catalogue.find(gone) is None, gone
    for entry in catalogue:
        if re.search(r"%\(\w+\)[sd]", entry.msgid):
            assert "python-format" in entry.flags, entry.msgid
    blocked = {entry.msgctxt for entry in catalogue if entry.msgid == "Blocked"}
    assert blocked == {"heading: the people you blocked", "profile: you blocked this person", "friendship status"}


def test_no_template_leaves_a_colon_outside_its_msgid():
    """French puts a narrow no-break space before a colon: a colon written after a translated
    string in a template cannot get it."""
    outside = re.compile(
        r"\{% (?:translate|trans) (?:\"[^\"]*\"|'[^']*')[^%]* %\}\s?[:;!?]|\{% endblocktrans(?:late)? %\}\s?[:;!?]"
    )
    for path in [*ROOT.glob("templates/**/*.html"), *ROOT.glob("game/**/templates/**/*.html")]:
        assert not outside.search(path.read_text()), path
