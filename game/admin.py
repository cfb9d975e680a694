"""Django's admin finds the app's admin here: the staff's pages are game.moderation's."""

from __future__ import annotations

from game.moderation import accounts, review, tables  # noqa: F401 (each registers its pages)
