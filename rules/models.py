"""The rulebook's prose, translated per field (django-modeltranslation) and editable by staff.

Each game's prose comes from the JSON files in its own folder (its Kind's `rulebook`), loaded
into these rows by rules.content.load. Numbers are never written here: prose holds
{placeholders} that rules.numbers fills from the engine, so the pages always state the rules the
server plays by.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from game import registry


def pages() -> list[tuple[str, object]]:
    """Every registered game's rulebook pages, as (key, title): a section's choices."""
    return [(page.key, page.title) for kind in registry.KINDS.values() if kind.rulebook for page in kind.rulebook.pages]


class Section(models.Model):
    page = models.CharField(_("page"), max_length=10, choices=pages)
    key = models.CharField(_("key"), max_length=40, unique=True)
    order = models.PositiveSmallIntegerField(_("order"))
    heading = models.CharField(_("heading"), max_length=200)
    title = models.CharField(_("title"), max_length=300, blank=True)
    body = models.TextField(_("text"), blank=True)
    caption = models.TextField(_("what you see"), blank=True)

    class Meta:
        verbose_name = _("section")
        verbose_name_plural = _("sections")
        ordering = ["page", "order"]

    def __str__(self) -> str:
        return self.key


class Blurb(models.Model):
    """A short named text beside a picture: a button's explanation or one card's rule."""

    key = models.CharField(_("key"), max_length=60, unique=True)
    text = models.TextField(_("text"))

    class Meta:
        verbose_name = _("card or button text")
        verbose_name_plural = _("card and button texts")
        ordering = ["key"]

    def __str__(self) -> str:
        return self.key


class DemoStep(models.Model):
    """The caption under the self-playing round, one per step."""

    number = models.PositiveSmallIntegerField(_("step"), unique=True)
    caption = models.TextField(_("caption"))

    class Meta:
        verbose_name = _("demo round step")
        verbose_name_plural = _("demo round steps")
        ordering = ["number"]

    def __str__(self) -> str:
        return f"{self.number}"


class EdgeCase(models.Model):
    order = models.PositiveSmallIntegerField(_("order"), unique=True)
    question = models.CharField(_("question"), max_length=300)
    answer = models.TextField(_("answer"))

    class Meta:
        verbose_name = _("edge case")
        verbose_name_plural = _("edge cases")
        ordering = ["order"]

    def __str__(self) -> str:
        return self.question


class GlossaryEntry(models.Model):
    order = models.PositiveSmallIntegerField(_("order"), unique=True)
    source = models.CharField(_("rule term"), max_length=60)
    term = models.CharField(_("term"), max_length=100)
    definition = models.TextField(_("definition"), blank=True)

    class Meta:
        verbose_name = _("glossary entry")
        verbose_name_plural = _("glossary entries")
        ordering = ["order"]

    def __str__(self) -> str:
        return self.source


class LoadedRulebook(models.Model):
    """Which version of a game's prose files its rows hold (rules.content.load loads a game's
    rows again when its files' version is higher)."""

    game = models.CharField(_("game"), max_length=8, unique=True)
    version = models.PositiveIntegerField(_("version"))

    class Meta:
        verbose_name = _("loaded rulebook")
        verbose_name_plural = _("loaded rulebooks")

    def __str__(self) -> str:
        return f"{self.game} {self.version}"
