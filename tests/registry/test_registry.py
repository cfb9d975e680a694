"""The registry is how the platform knows the games: each one whole, checked at start."""

from __future__ import annotations

from game import registry
from game.core.fields import card_code, small_int
from game.core.kind import Kind
from game.games.sevn.engine.cards import TARGET
from game.models import Table
from game.registry.checks import kinds_complete


def test_the_site_plays_sevn_and_sevens_and_each_fills_the_kind_protocol():
    assert list(registry.KINDS) == ["sevn", "sevens"]
    assert kinds_complete() == []


def test_a_game_that_lacks_part_of_the_protocol_fails_the_system_check():
    class Half(type(registry.KINDS["sevn"])):
        name, options = "half", ()

    Half.apply = Kind.apply  # back to the protocol's "not implemented"
    registry.register(Half())
    try:
        errors = kinds_complete()
    finally:
        registry.unregister("half")
    # and SEVN's replay module, which it kept, names SEVN: its records would not verify as "half"
    assert [error.id for error in errors] == ["game.E001", "game.E004"] and "apply" in errors[0].msg


def test_two_games_may_not_name_a_setting_alike():
    class Copy(type(registry.KINDS["sevens"])):
        name = "copy"

    registry.register(Copy())
    try:
        errors = kinds_complete()
    finally:
        registry.unregister("copy")
    assert [error.id for error in errors] == ["game.E004", "game.E005"] and "'rounds'" in errors[1].msg


def test_a_new_tables_target_is_sevns_and_the_models_choices_are_the_registered_games():
    assert registry.KINDS["sevn"].table_options(None) == {"target": TARGET, "show_odds": True}
    assert [value for value, _label in Table._meta.get_field("kind").choices] == list(registry.KINDS)
    assert Table().kind == registry.DEFAULT == "sevn"


def test_a_table_or_a_snapshot_that_names_no_game_plays_the_default():
    assert registry.of({"code": "ABC"}) is registry.KINDS[registry.DEFAULT]
    assert registry.action_fields("freeze") == {"seat": small_int} and registry.action_fields("play") == {
        "card": card_code
    }
