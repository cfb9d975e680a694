"""The verifier (game.fair.verify, `python -m game.verify`): a real record of either game is
verified; a record with any one field changed is refused; the command needs no Django; the
"Verify a game" page says the verdict in the viewer's language."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from game.fair import record as records
from game.fair.verify import verify
from game.models import Table
from game.services.records import game_record

from .play import Watch, play_out, table_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("sevn", "sevens")


def real_record(kind: str) -> dict:
    table, players = table_of(kind, seeds={0: "c0ffee", 1: "Ben5"})
    game = play_out(table, players, Watch(table, players), seed=3)
    return game_record(game.id)


@pytest.fixture(scope="module")
def played(django_db_setup, django_db_blocker):
    """One finished game of each, recorded (played once for the module; its tables and the
    sessions its players' pages opened are deleted after: they are outside every test's
    transaction)."""
    with django_db_blocker.unblock():
        sessions = set(Session.objects.values_list("session_key", flat=True))
        records = {kind: real_record(kind) for kind in GAMES}
    yield records
    with django_db_blocker.unblock():
        Table.objects.filter(code__in=[record["table"] for record in records.values()]).delete()
        Session.objects.exclude(session_key__in=sessions).delete()  # the pages its players loaded


@pytest.mark.parametrize("kind", GAMES)
def test_a_real_record_is_verified(played, kind):
    verdict = verify(played[kind])
    assert verdict.ok, verdict.failed
    assert [check.code for check in verdict.checks] == [
        "format", "seal", "game", "seats", "commitment", "client_seeds", "seed", "deal", "moves", "result",
    ]  # fmt: skip
    assert verdict.summary["moves"] == len(played[kind]["moves"]) > 5


def leaves(value, path=()):
    """Every field of a record, by its path (each key of each object, each item of each list)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path


def changed(value):
    """Another value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        if value and all(ch in "0123456789abcdef" for ch in value):
            return value[:-1] + ("0" if value[-1] != "0" else "1")  # one hex digit flipped
        return value + "x"
    if value is None:
        return 0
    return [0]  # an empty list gets an item


def with_change(record: dict, path: tuple, reseal: bool) -> dict:
    altered = copy.deepcopy(record)
    holder = altered
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = changed(holder[path[-1]])
    if reseal:
        altered["seal"] = records.seal(altered)
    return altered


# What nothing but the seal can tell apart: who is called what, a bot's level, the clock, the
# version a screen showed, whether a person's own seat was played for them, the platform's notes.
DESCRIPTIVE = ("name", "level", "started", "finished", "time", "version", "notes", "bot")


def same_game(record: dict, path: tuple) -> bool:
    """A change that records the same game: the pick of a Crossroads that showed two equal cards
    (either pick takes the same card and discards its twin, so every event and all that follows
    are the same; nothing can tell the two records apart, and nothing needs to). A random game
    meets one now and then (this test failed on one, once in many runs)."""
    if len(path) != 4 or path[0] != "moves" or path[2:] != ("action", "pick"):
        return False
    picked = [event for event in record["moves"][path[1]]["events"] if event["type"] == "crossroads_picked"]
    return bool(picked) and picked[0]["card"] == picked[0]["discarded"]


@pytest.mark.parametrize("kind", GAMES)
def test_changing_any_one_field_of_a_real_record_is_refused(played, kind):
    record = played[kind]
    paths = list(leaves(record))  # every field, of every move and every event
    assert len(paths) > 150
    passed = []
    for path in paths:
        if path == ("seal",):
            assert not verify(with_change(record, path, reseal=False)).ok
            continue
        # as it is: the seal no longer matches (or worse)
        assert not verify(with_change(record, path, reseal=False)).ok, path
        # even resealed, everything the deal and the moves decide is refused by the replay
        if not verify(with_change(record, path, reseal=True)).ok:
            continue
        passed.append(path)
    undescribed = [
        path
        for path in passed
        if not any(part in DESCRIPTIVE for part in path if isinstance(part, str)) and not same_game(record, path)
    ]
    assert undescribed == [], (
        undescribed,  # what was let through (the whole list is cut short in the report)
        record["moves"],
    )
    # the descriptive fields are few; the rest are refused for what they say, not only by the seal
    assert len(passed) < len(paths) / 4


@pytest.mark.parametrize("kind", GAMES)
def test_moves_taken_away_added_or_swapped_and_keys_removed_are_refused(played, kind):
    record = played[kind]

    def resealed(change) -> dict:
        altered = copy.deepcopy(record)
        change(altered)
        altered["seal"] = records.seal(altered)
        return altered

    changes = {
        "a move taken away": lambda r: r["moves"].pop(3),
        "the last move taken away": lambda r: r["moves"].pop(),
        "a move played twice": lambda r: r["moves"].insert(3, copy.deepcopy(r["moves"][3])),
        "two moves swapped": lambda r: r["moves"].insert(3, r["moves"].pop(4)),
        "an event taken away": lambda r: r["moves"][2]["events"].pop(),
        "an event added": lambda r: r["moves"][2]["events"].append({"type": "passed", "seat": 0}),
        "a client seed taken away": lambda r: r["fair"]["client_seeds"].pop(),
        "a client seed for a bot": lambda r: r["fair"]["client_seeds"].append([2, "b07"]),
        "a seat taken away": lambda r: r["seats"].pop(),
        "a field added": lambda r: r.update(extra=1),
        "the result taken away": lambda r: r.pop("result"),
        "a move's action taken away": lambda r: r["moves"][1].pop("action", None) or r["moves"][1].pop("events"),
    }
    for name, change in changes.items():
        assert not verify(resealed(change)).ok, name
    assert not verify([]).ok and not verify({}).ok and not verify("record").ok


def run_verify(path: Path) -> subprocess.CompletedProcess:
    """`python -m game.verify` in a fresh interpreter that refuses to import Django at all."""
    code = (
        "import sys, runpy\n"
        "class NoDjango:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('django', 'channels', 'daphne'):\n"
        "            raise ImportError('the verifier imported ' + name)\n"
        "sys.meta_path.insert(0, NoDjango())\n"
        f"sys.argv = ['game.verify', {str(path)!r}]\n"
        "runpy.run_module('game.verify', run_name='__main__', alter_sys=True)\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("kind", GAMES)
def test_the_command_verifies_with_the_standard_library_and_the_engine_alone(played, kind, tmp_path):
    good = tmp_path / "record.json"
    good.write_text(records.dumps(played[kind]))
    result = run_verify(good)
    assert result.returncode == 0, result.stderr
    assert "VERIFIED" in result.stdout and "NOT VERIFIED" not in result.stdout
    assert result.stdout.count("  ok    ") == 10
    bad = tmp_path / "changed.json"
    bad.write_text(records.dumps(with_change(played[kind], ("fair", "server_seed"), reseal=True)))
    result = run_verify(bad)
    assert result.returncode == 1, result.stderr
    assert "FAIL  The revealed server seed does not match the commitment" in result.stdout
    assert "NOT VERIFIED" in result.stdout
    nothing = tmp_path / "nothing.json"
    nothing.write_text("not json")
    assert run_verify(nothing).returncode == 2


def test_the_verify_page_explains_the_verdict_in_the_viewer_s_language(played):
    record = played["sevens"]
    upload = SimpleUploadedFile("record.json", records.dumps(record).encode(), content_type="application/json")
    html = Client().post("/de/verify/", {"record": upload}).content.decode()
    assert 'data-verdict="verified"' in html
    assert "Geprüft: Dieses Spiel wurde fair ausgeteilt und so gespielt, wie es protokolliert ist." in html
    bad = with_change(record, ("moves", 2, "action", "card"), reseal=True)
    upload = SimpleUploadedFile("record.json", json.dumps(bad).encode(), content_type="application/json")
    html = Client().post("/fr/verify/", {"record": upload}).content.decode()
    assert 'data-verdict="refused"' in html
    assert "Non vérifié" in html and "Un coup ne se rejoue pas comme dans le relevé." in html


def test_the_verify_page_takes_a_link_to_a_record_of_this_site(played):
    public_id = next(_linked(played["sevn"]))
    html = Client().get(f"/nl/verify/?record=/nl/g/{public_id}/record.json").content.decode()
    assert 'data-verdict="verified"' in html and "Gecontroleerd" in html
    html = Client().get("/en/verify/?record=https://example.com/x.json").content.decode()
    assert "That link is not the record of a finished game on this site." in html


def _linked(record: dict):
    from game.models import Game

    yield Game.objects.get(table__code=record["table"], number=record["number"]).public_id


def test_the_verify_page_refuses_what_is_not_a_record_without_failing():
    client = Client()
    for text in (b"[" * 100_000, b"not json", b'{"format": "sevn-record"}'):
        upload = SimpleUploadedFile("record.json", text, content_type="application/json")
        response = client.post("/en/verify/", {"record": upload})
        assert response.status_code == 200
    html = response.content.decode()
    assert 'data-verdict="refused"' in html and "This file is not a SEVN game record that can be checked." in html
    html = client.get("/en/verify/?record=/g/" + "9" * 5000 + "/record.json").content.decode()
    assert "That link is not the record of a finished game on this site." in html
    html = client.post("/en/verify/", {}).content.decode()
    assert "Choose a record file or give its link." in html
