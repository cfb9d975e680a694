"""Load the rulebook prose of every language from the JSON files beside this module.

Used by the data migration (so a fresh database has the whole rulebook) and by tests.
"""

from __future__ import annotations

import json
from pathlib import Path

CONTENT_DIR = Path(__file__).resolve().parent
LANGUAGES = ("en", "de", "nl", "pl", "fr")
SECTION_FIELDS = ("heading", "title", "body", "caption")


def read(language: str) -> dict:
    return json.loads((CONTENT_DIR / f"{language}.json").read_text(encoding="utf-8"))


def read_sevens(language: str) -> dict:
    return json.loads((CONTENT_DIR / f"sevens_{language}.json").read_text(encoding="utf-8"))


def fill_models(Section, Blurb, DemoStep, EdgeCase, GlossaryEntry) -> None:
    """Create or update every row with all five languages (models may be historical ones)."""
    texts = {language: read(language) for language in LANGUAGES}
    source = texts["en"]
    _fill_sections_and_blurbs(Section, Blurb, texts)
    for number, caption in enumerate(source["demo_steps"], start=1):
        fields = {"caption": caption}
        fields.update({f"caption_{language}": texts[language]["demo_steps"][number - 1] for language in LANGUAGES})
        DemoStep.objects.update_or_create(number=number, defaults=fields)
    for order, (question, answer) in enumerate(source["edge_cases"]):
        fields = {"question": question, "answer": answer}
        for language in LANGUAGES:
            fields[f"question_{language}"], fields[f"answer_{language}"] = texts[language]["edge_cases"][order]
        EdgeCase.objects.update_or_create(order=order, defaults=fields)
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


def fill_sevens(Section, Blurb) -> None:
    """The Sevens page: its sections (the FAQ's questions are sections too: heading = question,
    body = answer) and its short texts, in all five languages."""
    _fill_sections_and_blurbs(Section, Blurb, {language: read_sevens(language) for language in LANGUAGES})


def _fill_sections_and_blurbs(Section, Blurb, texts: dict) -> None:
    """Sections (their page is the key's first part, their order the file's) and blurbs."""
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
