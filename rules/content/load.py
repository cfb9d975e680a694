"""Load each game's rulebook prose, every language, from the JSON files in the game's folder (its
Kind's `rulebook.prose`) into the rules app's rows.

A game's rows are loaded when a migration runs (the data migrations, and after every `migrate`
for a game whose files are newer than its rows: rules.apps), and when one of its pages is asked
for before they were (a game registered at run time, as the tests' third game is). Loading a
game's files writes all its rows, replacing staff's edits of them, as the data migrations did.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from game import registry
from game.core.rulebook import Rulebook

LANGUAGES = ("en", "de", "nl", "pl", "fr")
SECTION_FIELDS = ("heading", "title", "body", "caption")


def fill(rulebook: Rulebook, Section, Blurb, DemoStep=None, EdgeCase=None, GlossaryEntry=None) -> None:
    """Create or update a game's rows with all five languages (models may be historical ones):
    its sections (their page is the key's first part, their order the file's) and short texts,
    and its demo steps, edge cases and glossary if its files have them."""
    texts = {language: rulebook.read(language) for language in LANGUAGES}
    source = texts["en"]
    for order, key in enumerate(source["sections"]):
        fields = {"page": key.split(".", 1)[0], "order": order}
        for field in SECTION_FIELDS:
            fields[field] = source["sections"][key].get(field, "")
            for language in LANGUAGES:
                fields[f"{field}_{language}"] = texts[language]["sections"][key].get(field, "")
        Section.objects.update_or_create(key=key, defaults=fields)
    for key in source["blurbs"]:
        fields = {"text": source["blurbs"][key]}
        fields.update({f"text_{language}": texts[language]["blurbs"][key] for language in LANGUAGES})
        Blurb.objects.update_or_create(key=key, defaults=fields)
    if DemoStep is not None and "demo_steps" in source:
        for number, caption in enumerate(source["demo_steps"], start=1):
            fields = {"caption": caption}
            fields.update({f"caption_{language}": texts[language]["demo_steps"][number - 1] for language in LANGUAGES})
            DemoStep.objects.update_or_create(number=number, defaults=fields)
    if EdgeCase is not None and "edge_cases" in source:
        for order, (question, answer) in enumerate(source["edge_cases"]):
            fields = {"question": question, "answer": answer}
            for language in LANGUAGES:
                fields[f"question_{language}"], fields[f"answer_{language}"] = texts[language]["edge_cases"][order]
            EdgeCase.objects.update_or_create(order=order, defaults=fields)
    if GlossaryEntry is not None and "glossary" in source:
        _fill_glossary(GlossaryEntry, texts)


def _fill_glossary(GlossaryEntry, texts: dict) -> None:
    source = texts["en"]
    # Definitions arrived later (migration 0007): an older historical model has no field for them.
    defined = any(field.name == "definition" for field in GlossaryEntry._meta.get_fields())
    for order, (term_key, term) in enumerate(source["glossary"].items()):
        fields = {"source": term_key, "term": term}
        fields.update({f"term_{language}": texts[language]["glossary"][term_key] for language in LANGUAGES})
        if defined:
            fields["definition"] = source["glossary_definitions"][term_key]
            fields.update(
                {f"definition_{language}": texts[language]["glossary_definitions"][term_key] for language in LANGUAGES}
            )
        GlossaryEntry.objects.update_or_create(order=order, defaults=fields)


def fill_models(Section, Blurb, DemoStep, EdgeCase, GlossaryEntry) -> None:
    """Every listed game's rows (the data migrations call this with their historical models)."""
    for kind in registry.KINDS.values():
        if kind.rulebook is not None:
            fill(kind.rulebook, Section, Blurb, DemoStep, EdgeCase, GlossaryEntry)


def ensure(kinds) -> None:
    """Load the rows of each of these games whose files are newer than its rows, or that has none."""
    from rules.models import Blurb, DemoStep, EdgeCase, GlossaryEntry, LoadedRulebook, Section

    wanted = {kind.name: kind.rulebook for kind in kinds if kind.rulebook is not None}
    loaded = dict(LoadedRulebook.objects.filter(game__in=wanted).values_list("game", "version"))
    for name, rulebook in wanted.items():
        if loaded.get(name, 0) >= rulebook.version:
            continue
        try:
            with transaction.atomic():
                fill(rulebook, Section, Blurb, DemoStep, EdgeCase, GlossaryEntry)
                LoadedRulebook.objects.update_or_create(game=name, defaults={"version": rulebook.version})
        except IntegrityError:  # another process loaded it at the same moment
            pass
