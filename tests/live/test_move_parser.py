"""The socket's move parser: every message is an action and a version, or one clear refusal.
Never an OverflowError, a RecursionError, or a bool or float taken for a number."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.errors import ServiceError
from game.live.consumers import MAX_MESSAGE_BYTES, parse_move


@pytest.mark.parametrize(
    "text",
    [
        '{"kind":"freeze","seat":Infinity,"version":1}',
        '{"kind":"freeze","seat":-Infinity,"version":1}',
        '{"kind":"freeze","seat":NaN,"version":1}',
        '{"kind":"freeze","seat":1e400,"version":1}',
        '{"kind":"crossroads","pick":Infinity,"version":1}',
        '{"kind":"crossroads","pick":true,"version":1}',
        '{"kind":"freeze","seat":1.9,"version":1}',
        '{"kind":"freeze","seat":1.0,"version":1}',
        '{"kind":"freeze","seat":-1,"version":1}',
        '{"kind":"freeze","seat":"1.9","version":1}',
        '{"kind":"freeze","seat":"١","version":1}',
        '{"kind":"freeze","seat":[1],"version":1}',
        '{"kind":"ballast","keep":1,"version":1}',
        '{"kind":"ballast","keep":"yes","version":1}',
        '{"kind":"ballast","keep":[],"version":1}',
        '{"kind":["draw"],"version":1}',
        '{"kind":"fly","version":1}',
        '["draw"]',
        '"draw"',
        "null",
        "",
        '{"kind":"draw","version":1,"x":' + "[" * 1000 + "]" * 1000 + "}",
        "[" * 2000,
    ],
)
def test_bad_messages_are_refused_as_not_understood(text):
    with pytest.raises(ServiceError) as refused:
        parse_move(text)
    assert refused.value.code in ("malformed", "too_big")


@pytest.mark.parametrize("version", [None, "", "abc", True, 1.5, "1e3", -1, [], 10**12, "Infinity"])
def test_a_move_must_say_which_version_it_was_made_on(version):
    text = json.dumps({"kind": "draw"} if version is None else {"kind": "draw", "version": version})
    with pytest.raises(ServiceError) as refused:
        parse_move(text)
    assert refused.value.code == "no_version"


@pytest.mark.parametrize(
    "message, action, version",
    [
        ({"kind": "draw", "version": "7"}, {"kind": "draw"}, 7),
        ({"kind": "pass", "version": 7}, {"kind": "pass"}, 7),
        ({"kind": "freeze", "seat": "2", "version": "3"}, {"kind": "freeze", "seat": 2}, 3),
        ({"kind": "gift", "seat": 0, "version": 3}, {"kind": "gift", "seat": 0}, 3),
        (
            {"kind": "crossroads", "pick": "1", "version": 3, "HEADERS": {"HX-Request": "true"}},
            {"kind": "crossroads", "pick": 1},
            3,
        ),
        ({"kind": "ballast", "keep": "false", "version": 3}, {"kind": "ballast", "keep": False}, 3),
        ({"kind": "ballast", "keep": True, "version": 3}, {"kind": "ballast", "keep": True}, 3),
    ],
)
def test_forms_as_htmx_sends_them_are_understood(message, action, version):
    assert parse_move(json.dumps(message))[:2] == (action, version)


def test_too_large_is_refused_before_parsing():
    with pytest.raises(ServiceError) as refused:
        parse_move(json.dumps({"kind": "draw", "version": 1, "pad": "é" * MAX_MESSAGE_BYTES}))
    assert refused.value.code == "too_big"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
fields = st.fixed_dictionaries(
    {},
    optional={
        "kind": st.sampled_from(["draw", "pass", "freeze", "triple_draw", "gift", "crossroads", "ballast"])
        | json_values,
        "version": json_values,
        "seat": json_values,
        "pick": json_values,
        "keep": json_values,
    },
)


@settings(max_examples=400, deadline=None)
@given(fields)
def test_any_message_is_an_action_and_a_version_or_a_clear_refusal(message):
    text = json.dumps(message, allow_nan=True)
    try:
        action, version, _game = parse_move(text)
    except ServiceError as error:
        assert error.code in ("malformed", "too_big", "no_version")
        return
    assert type(version) is int and version >= 0
    for key, value in action.items():
        if key in ("seat", "pick"):
            assert type(value) is int
        elif key == "keep":
            assert type(value) is bool
        else:
            assert key == "kind" and isinstance(value, str)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_parsed_or_refused(text):
    try:
        parse_move(text)
    except ServiceError:
        pass


def test_the_game_a_move_was_made_on_comes_with_it():
    assert parse_move(json.dumps({"kind": "pass", "version": "4", "game": "2"})) == ({"kind": "pass"}, 4, 2)
    assert parse_move(json.dumps({"kind": "pass", "version": 4})).game is None
    with pytest.raises(ServiceError):
        parse_move(json.dumps({"kind": "pass", "version": 4, "game": 1.5}))
