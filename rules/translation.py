from __future__ import annotations

from modeltranslation.translator import TranslationOptions, register

from rules.models import Blurb, DemoStep, EdgeCase, GlossaryEntry, Section


@register(Section)
class SectionTranslation(TranslationOptions):
    fields = ("heading", "title", "body", "caption")


@register(Blurb)
class BlurbTranslation(TranslationOptions):
    fields = ("text",)


@register(DemoStep)
class DemoStepTranslation(TranslationOptions):
    fields = ("caption",)


@register(EdgeCase)
class EdgeCaseTranslation(TranslationOptions):
    fields = ("question", "answer")


@register(GlossaryEntry)
class GlossaryEntryTranslation(TranslationOptions):
    fields = ("term", "definition")
