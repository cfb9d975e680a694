"""The rulebook's rows as a game's pages read them (game.core.rulebook.Prose), in the active
language (django-modeltranslation picks each field's translation)."""

from __future__ import annotations

from rules.models import Blurb, DemoStep, EdgeCase, GlossaryEntry, Section


class Prose:
    def sections(self, page: str) -> dict[str, Section]:
        return {section.key.split(".", 1)[1]: section for section in Section.objects.filter(page=page)}

    def section(self, key: str) -> Section | None:
        return Section.objects.filter(key=key).first()

    def blurbs(self, prefix: str) -> dict[str, str]:
        return {blurb.key[len(prefix) :]: blurb.text for blurb in Blurb.objects.filter(key__startswith=prefix)}

    def demo_captions(self) -> dict[int, str]:
        return {step.number: step.caption for step in DemoStep.objects.all()}

    def edge_cases(self):
        return EdgeCase.objects.all()

    def glossary(self):
        return GlossaryEntry.objects.all()
