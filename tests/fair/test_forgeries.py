"""A record proves it is this site's game, not only that it is self-consistent (issue 35, item 2):
a record forged offline for a real table and game number, with a new server seed and commitment
and other winners, replays perfectly; the page compares it with what the site stored and refuses
it, and the command, given the site's key, says it is not signed by this site. The three verdicts:
this site's game, unchanged / self-consistent but not signed by this site / refused, and why."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib.sessions.models import Session
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from game.fair import record as records
from game.models import Table
from game.services.records import game_record, site_public_key
from tests.fair.forge import forged, signed_with, unsigned
from tests.fair.play import Unwatched, play_out, table_of, verify
from tests.fair.test_verify import run_verify

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def real(django_db_setup, django_db_blocker):
    """One finished game of Sevens, recorded (outside every test's transaction: deleted after)."""
    with django_db_blocker.unblock():
        sessions = set(Session.objects.values_list("session_key", flat=True))
        table, players = table_of("sevens", seeds={0: "c0ffee", 1: "Ben5"})
        record = game_record(play_out(table, players, Unwatched(), seed=5).id)
    yield record
    with django_db_blocker.unblock():
        Table.objects.filter(code=record["table"]).delete()
        Session.objects.exclude(session_key__in=sessions).delete()


def verdict_page(record: dict, language: str = "en") -> str:
    upload = SimpleUploadedFile("record.json", records.dumps(record).encode(), content_type="application/json")
    response = Client().post(f"/{language}/verify/", {"record": upload})
    assert response.status_code == 200
    return response.content.decode()


def test_a_record_forged_for_a_real_table_and_game_number_is_refused_by_the_page(real):
    forgery = forged(real)
    assert (forgery["table"], forgery["number"]) == (real["table"], real["number"])
    assert forgery["fair"]["commitment"] != real["fair"]["commitment"]
    assert forgery["result"]["winners"] != real["result"]["winners"]
    assert verify(forgery).ok  # it is self-consistent: every check the replay makes holds
    html = verdict_page(forgery)
    assert 'data-verdict="refused"' in html
    assert "Refused: this record does not prove a fair game of this site." in html
    assert (
        f"This site stored a different game 1 at table {real['table']}: its commitment, server seed, "
        "engine seed, final scores differ from this record&#x27;s."
    ) in html
    assert "dealt fairly and played as recorded" not in html
    # signed with the forger's own key, it is refused the same
    html = verdict_page(signed_with(forgery, "42" * 32), "de")
    assert 'data-verdict="refused"' in html and "Abgelehnt" in html
    assert f"Diese Website hat ein anderes Spiel 1 an Tisch {real['table']} gespeichert" in html
    assert "Festlegung, Server-Seed, Seed der Spiel-Engine, Endstand" in html  # the fields in German
    assert "fair.commitment" not in html


def test_the_command_given_the_site_s_key_says_a_forged_record_is_not_the_site_s(real, tmp_path):
    key = tmp_path / "record-key.txt"
    key.write_text(Client().get("/record-key.txt").content.decode())  # as anyone fetches it
    for name, record in (("unsigned", forged(real)), ("own key", signed_with(forged(real), "42" * 32))):
        path = tmp_path / "forged.json"
        path.write_text(records.dumps(record))
        result = run_verify(path, "--key", str(key))
        assert result.returncode == 3, (name, result.stdout, result.stderr)
        assert "SELF-CONSISTENT, NOT SIGNED BY THIS SITE" in result.stdout, name
        assert "VERIFIED" not in result.stdout, name
    path.write_text(records.dumps(real))
    result = run_verify(path, "--key", str(key))
    assert result.returncode == 0 and "VERIFIED, THIS SITE'S GAME" in result.stdout


def test_the_three_verdicts_of_the_page_each_say_why(real):
    html = verdict_page(real, "nl")  # the site's own record, signed
    assert 'data-verdict="site"' in html and "Een spel van deze site, onveranderd" in html
    html = verdict_page(unsigned(real))  # an old record (version 1) of the same game: unsigned
    assert 'data-verdict="consistent"' in html
    assert "Self-consistent, but not signed by this site." in html and "It is not signed" in html
    elsewhere = forged(real, table="ZZZZ9", number=7)  # a table and number the site never had
    html = verdict_page(elsewhere, "pl")
    assert 'data-verdict="consistent"' in html and "wewnętrznie spójny, ale niepodpisany przez tę stronę." in html
    html = verdict_page(signed_with(elsewhere, "42" * 32))
    assert 'data-verdict="consistent"' in html and "It is signed with another key than this site&#x27;s" in html
    renamed = signed_with(real, "42" * 32)  # the site's game, names changed, signed by another key
    renamed["seats"][0]["name"] = "Mallory"
    html = verdict_page(signed_with(renamed, "42" * 32), "fr")
    assert 'data-verdict="consistent"' in html  # its seeds and result are the site's; its names are not proven


def test_the_site_s_public_key_is_published_at_a_stable_address():
    response = Client().get("/record-key.txt")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    assert response.content.decode() == site_public_key() + "\n"
    html = Client().get("/en/verify/").content.decode()
    assert f"python -m game.verify record.json --key {site_public_key()}" in html
    assert 'href="/record-key.txt"' in html


def test_one_field_that_differs_is_said_in_the_singular(real, monkeypatch):
    """A record that differs from the stored game in one field reads "its … differs" (and
    its French, "son champ … ne correspond pas"), not the plural of several."""
    from django.utils import translation

    from game.pages import records as record_pages

    monkeypatch.setattr(record_pages, "stored_difference", lambda record: ("fair.engine_seed",))
    verdict = SimpleNamespace(ok=True)
    with translation.override("en"):
        _standing, said = record_pages._why(verdict, real)
    assert said == (
        f"This site stored a different game 1 at table {real['table']}: its engine seed differs from this record's."
    )
    with translation.override("fr"):
        _standing, said = record_pages._why(verdict, real)
    assert "\u202f: son champ " in said, said
    assert "ne correspond pas à celui de ce relevé" in said
