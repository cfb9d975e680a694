"""The registry is how the platform knows the games: each one whole, checked at start."""

from __future__ import annotations

from game import registry
from game.core.kind import Kind
from game.games.sevn.engine.cards import TARGET
from game.models import DEFAULT_TARGET, Table
from game.registry.checks import kinds_complete


def test_the_site_plays_sevn_and_sevens_and_each_fills_the_kind_protocol():
    assert list(registry.KINDS) == ["sevn", "sevens"]
    assert kinds_complete() == []


def test_a_game_that_lacks_part_of_the_protocol_fails_the_system_check():
    class Half(type(registry.KINDS["sevn"])):
        name = "half"

    Half.apply = Kind.apply  # back to the protocol's "not implemented"
    registry.register(Half())
    try:
        errors = kinds_complete()
    finally:
        registry.unregister("half")
    assert [error.id for error in errors] == ["game.E001"] and "apply" in errors[0].msg


def test_a_new_tables_target_is_sevns_and_the_models_choices_are_the_registered_games():
    assert DEFAULT_TARGET == TARGET
    assert [value for value, _label in Table.Kind.choices] == list(registry.KINDS)


def test_a_table_or_a_snapshot_that_names_no_game_plays_the_default():
    assert registry.of({"code": "ABC"}) is registry.KINDS[registry.DEFAULT]
    assert registry.action_fields("freeze") == ("seat",) and registry.action_fields("play") == ("card",)
