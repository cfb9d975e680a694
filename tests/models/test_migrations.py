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


@pytest.mark.django_db(transaction=True)
def test_games_made_before_public_ids_each_get_their_own():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    call_command("migrate", "game", "0013_presence_told", verbosity=0)
    old = MigrationExecutor(connection).loader.project_state(("game", "0013_presence_told")).apps
    table = old.get_model("game", "Table").objects.create(code="OLD234", host_key="k", host_name="Ana", seat_count=2)
    Game = old.get_model("game", "Game")
    for number in (1, 2, 3):
        Game.objects.create(table=table, number=number, state="{}", seed=number)
    call_command("migrate", "game", verbosity=0)
    from game.models import Game as Now

    ids = list(Now.objects.filter(table__code="OLD234").values_list("public_id", flat=True))
    assert len(ids) == 3 and len(set(ids)) == 3 and all(len(public_id) >= 16 for public_id in ids)


@pytest.mark.django_db(transaction=True)
def test_each_tables_settings_move_into_its_games_options_and_back():
    """0017: SEVN's target and bust odds and Sevens' rounds, kept in columns of every table before,
    become each table's `options` for its own game (and the columns again when undone)."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    call_command("migrate", "game", "0016_rating_flags", verbosity=0)
    old = MigrationExecutor(connection).loader.project_state(("game", "0016_rating_flags")).apps
    Table = old.get_model("game", "Table")
    made = {"host_key": "k", "host_name": "Ana", "seat_count": 3}
    Table.objects.create(code="SEVN23", kind="sevn", target=400, show_odds=False, rounds=3, **made)
    Table.objects.create(code="SEVS23", kind="sevens", target=250, show_odds=True, rounds=7, **made)
    call_command("migrate", "game", verbosity=0)
    from game.models import Table as Now

    kept = dict(Now.objects.filter(code__in=("SEVN23", "SEVS23")).values_list("code", "options"))
    assert kept == {"SEVN23": {"target": 400, "show_odds": False}, "SEVS23": {"rounds": 7}}
    call_command("migrate", "game", "0016_rating_flags", verbosity=0)
    old = MigrationExecutor(connection).loader.project_state(("game", "0016_rating_flags")).apps
    back = old.get_model("game", "Table").objects.filter(code__in=("SEVN23", "SEVS23")).order_by("code")
    assert [(t.code, t.target, t.show_odds, t.rounds) for t in back] == [
        ("SEVN23", 400, False, 3),
        ("SEVS23", 250, True, 7),
    ]
    call_command("migrate", "game", verbosity=0)


@pytest.mark.django_db(transaction=True)
def test_suspensions_logged_as_table_bans_are_renamed_by_their_details():
    """0025: an account's suspension and reinstatement, logged as "ban" and "lift" until then,
    become "suspend" and "restore"; a table ban and its lifting stay as they are."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    call_command("migrate", "game", "0024_moderators_see_game_results", verbosity=0)
    old = MigrationExecutor(connection).loader.project_state(("game", "0024_moderators_see_game_results")).apps
    ModAction = old.get_model("game", "ModAction")
    for action, code in (("ban", "account_suspended"), ("lift", "account_reinstated"), ("ban", "banned")):
        ModAction.objects.create(actor_name="staff", action=action, detail=f'{{"code": "{code}"}}')
    call_command("migrate", "game", verbosity=0)
    from game.models import ModAction as Now

    assert sorted(Now.objects.values_list("action", flat=True)) == ["ban", "restore", "suspend"]
