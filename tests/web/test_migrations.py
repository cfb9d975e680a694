"""Migrations run both ways: the rename of rooms to tables (0006) undone and done again keeps
every permission where it was, the Moderators' included."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command


@pytest.mark.django_db(transaction=True)
def test_the_rename_to_tables_can_be_undone_and_done_again():
    def held() -> tuple[set[str], set[str]]:
        game = set(Permission.objects.filter(content_type__app_label="game").values_list("codename", flat=True))
        moderators = set(Group.objects.get(name="Moderators").permissions.values_list("codename", flat=True))
        return game, moderators

    call_command("migrate", "game", "0003_chat_and_moderation", verbosity=0)  # before the Moderators'
    call_command("migrate", "game", verbosity=0)  # (other tests may have emptied the tables since)
    before = held()
    assert {"view_table", "close_table"} <= before[0] and "view_table" in before[1]
    call_command("migrate", "game", "0005", verbosity=0)
    game, moderators = held()
    assert "view_room" in game and "view_room" in moderators and "close_table" in game  # Report's own
    call_command("migrate", "game", verbosity=0)
    assert held() == before
