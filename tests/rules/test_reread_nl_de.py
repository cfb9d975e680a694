"""The native re-read of the Dutch and German rulebook prose (SEVN nl, Sevens nl and de), kept fixed."""

from __future__ import annotations

from tests.rules.texts import all_text, read, read_sevens


def test_dutch_rules_read_as_dutch_not_as_english_word_order():
    nl = read("nl")
    text = all_text(nl)
    for calque in (
        "precies de regels waarmee",  # "exactly the rules the app plays by"
        "geef de nieuwe dan aan",  # an imperative after an inverted condition
        "eindigend bij",  # an English -ing participle
        "het stopt eerder",  # "it stops early": what stops?
        "Je pakte een waarde",  # English past simple where Dutch says "je hebt ... gepakt"
        "uit de ronde gooien",
    ):
        assert calque not in text, calque
    assert nl["sections"]["tutorial.start"]["heading"] == "Je kunt beginnen"
    assert "Heb je er al een, dan geef je de nieuwe aan" in nl["blurbs"]["full.actions.second_chance"]
    assert "vormen SEVN" in nl["glossary_definitions"]["distinct value"]


def test_dutch_sevens_moves_the_dealer_not_the_dealing_and_deals_the_cards_out():
    text = all_text(read_sevens("nl"))
    for wrong in ("het geven schuift", "Het geven schuift", "zie of hij past", "de tafel speelt", "loopt nooit rond"):
        assert wrong not in text, wrong
    for wrong in ("worden gedeeld", "één voor één gedeeld", "vanaf links van de gever", "Met hoeveel kun je"):
        assert wrong not in text, wrong
    assert text.count("De gever schuift elke ronde één plaats door naar links") == 2
    assert "In de volgende ronde schuift de gever één plaats door naar links" in text
    assert "Met hoeveel mensen kun je in de app Zevenen spelen?" in text


def test_german_sevens_says_what_a_native_player_says():
    sevens = read_sevens("de")
    text = all_text(sevens)
    for wrong in (
        "und sieh, ob",  # an English imperative "see whether"
        "nach denen der Tisch spielt",
        "ab links vom Geber",
        "bei Gleichstand gemeinsam",
        "gleich welcher Rang",
        "Sevens spielen {sevens_min_seats}",
        "Wie viele können",
        "halten daher eine Karte mehr",  # "may hold": not every deal leaves one over
    ):
        assert wrong not in text, wrong
    assert "aufwärts bis zum König und abwärts bis zum Ass" in sevens["sections"]["sevens.intro"]["body"]
    assert sevens["sections"]["sevens.faq.app"]["heading"] == "Wie viele Personen können Sevens in der App spielen?"
    assert sevens["sections"]["sevens.faq.players"]["body"].startswith(
        "Sevens wird mit {sevens_min_seats} bis {sevens_max_seats} Spielern gespielt."
    )


def test_the_sevens_cases_say_where_the_lone_seven_lies():
    assert read_sevens("de")["blurbs"]["sevens.case.6D"] == "6♦, nur die 7♦ liegt aus"
    assert read_sevens("nl")["blurbs"]["sevens.case.6D"] == "6♦, alleen ruiten 7 ligt op tafel"
