"""The registry is how the platform knows the games: each one whole (game.core.kind's abstract
methods and required data), checked at start."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from game import registry
from game.core.fields import card_code, small_int
from game.core.kind import FolderKind, Kind
from game.games.sevn.engine.cards import TARGET
from game.models import Table
from game.registry.checks import kinds_complete


def test_the_site_plays_sevn_and_sevens_and_each_fills_the_kind_protocol():
    assert list(registry.KINDS) == ["sevn", "sevens"]
    assert kinds_complete() == []


def test_a_game_that_lacks_a_method_cannot_be_made_and_the_refusal_names_it():
    class Half(type(registry.KINDS["sevn"])):
        name, options = "half", ()
        apply = Kind.apply  # back to the Kind's abstract methods
        acting = Kind.acting

    with pytest.raises(TypeError, match=r"The game Half lacks .*: acting, apply\.$"):
        Half()


def test_a_game_that_lacks_a_required_attribute_cannot_be_made_and_the_refusal_names_it():
    class Bare(FolderKind):
        """Everything but a partial to draw its table with, and a log (FolderKind's modules)."""

        name, label, about = "bare", "Bare", "a game with nothing to draw"
        min_seats, max_seats, max_bots, secret, folder = 2, 4, 3, False, Path(__file__).parent
        illegal, seat_range, start_note, actions = ValueError, "2 to 4 seats", "Two players.", {}
        engine, bots, pieces, faces = (registry.KINDS["sevn"].engine,) * 4

        def new(self, table, seat_count, seed, events): ...
        def timeout(self, state): ...
        def acting(self, state): ...
        def winner(self, state): ...
        def views(self, state): ...
        def bot_rng(self, seed, version, state): ...
        def lobby_line(self, table): ...
        def card_label(self, code): ...
        def places(self, state): ...

    with pytest.raises(TypeError, match=r"The game Bare lacks .*: log, table_template\.$"):
        Bare()
    Bare.log, Bare.table_template = registry.KINDS["sevn"].log, "bare/_table.html"
    with pytest.raises(TypeError, match="lacks"):  # abc judged the class when it was made
        Bare()


def test_the_registry_takes_only_kinds_and_the_system_check_says_so_of_one_that_slipped_in():
    with pytest.raises(TypeError, match="is not a game.core.kind.Kind"):
        registry.register(SimpleNamespace(name="fake"))
    registry.KINDS["fake"] = SimpleNamespace(name="fake")  # as a game's load() might return it
    try:
        errors = kinds_complete()
    finally:
        registry.unregister("fake")
    assert [(error.id, error.msg) for error in errors] == [
        ("game.E001", "The game 'fake' is not a game.core.kind.Kind.")
    ]


def test_a_whole_game_registered_under_another_name_fails_the_system_check():
    class Renamed(type(registry.KINDS["sevn"])):
        name, options = "renamed", ()

    registry.register(Renamed())
    try:
        errors = kinds_complete()
    finally:
        registry.unregister("renamed")
    # it kept SEVN's replay module, which names SEVN: its records would not verify as "renamed"
    assert [error.id for error in errors] == ["game.E004"]


def test_a_game_that_keeps_points_must_give_places_and_one_without_points_need_not():
    class Placeless(type(registry.KINDS["sevens"])):
        name, options, replay = "noplaces", (), None
        places = Kind.places

    class Pointless(Placeless):
        name = "nopoints"
        points = Kind.points

    registry.register(Placeless())
    registry.register(Pointless())
    try:
        errors = kinds_complete()
    finally:
        registry.unregister("noplaces")
        registry.unregister("nopoints")
    assert [(error.id, error.msg) for error in errors] == [
        ("game.E007", "The game 'noplaces' keeps points but gives no places (its Kind's places, for results).")
    ]


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
