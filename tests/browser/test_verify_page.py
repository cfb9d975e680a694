"""The "Verify a game" page in a browser: a record file uploaded, the verdict (this site's game,
unchanged) shown check by check in the page's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from game.fair import record as records
from game.services.records import game_record
from tests.fair.play import Unwatched, play_out, table_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_record_uploaded_is_verified_check_by_check(page, live_url, tmp_path, shoot):
    table, players = table_of("sevens", seeds={0: "abc"})
    game = play_out(table, players, Unwatched())
    path = tmp_path / "record.json"
    path.write_text(records.dumps(game_record(game.id)))
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto(f"{live_url}/pl/verify/")
    page.set_input_files("#verify-file", str(path))
    page.click("form.panel button")
    expect(page.locator("[data-verdict]")).to_have_attribute("data-verdict", "site")
    expect(page.locator("#verdict-title")).to_have_text(
        "Gra z tej strony, bez zmian: karty zostały rozdane uczciwie, a gra przebiegła zgodnie z zapisem."
    )
    expect(page.locator(".verify__check--ok")).to_have_count(11)  # the signature's check too
    shoot(page, "verify-pl")
