from __future__ import annotations

from django.contrib import admin
from modeltranslation.admin import TranslationAdmin

from rules.models import Blurb, DemoStep, EdgeCase, GlossaryEntry, Section


@admin.register(Section)
class SectionAdmin(TranslationAdmin):
    list_display = ("key", "page", "order", "heading")
    list_filter = ("page",)
    search_fields = ("key", "heading", "body")
    ordering = ("page", "order")


@admin.register(Blurb)
class BlurbAdmin(TranslationAdmin):
    list_display = ("key", "text")
    search_fields = ("key", "text")


@admin.register(DemoStep)
class DemoStepAdmin(TranslationAdmin):
    list_display = ("number", "caption")


@admin.register(EdgeCase)
class EdgeCaseAdmin(TranslationAdmin):
    list_display = ("order", "question")
    search_fields = ("question", "answer")


@admin.register(GlossaryEntry)
class GlossaryEntryAdmin(TranslationAdmin):
    list_display = ("order", "source", "term")
