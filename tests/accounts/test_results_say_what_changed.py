"""Results say what changed (#38 item 6): the game-over screen of a rated game shows each
person's rating before and after; a replay and the recent-games rows show the final scores and
your place ("2nd of 4"); /verify/ takes a game by its replay's link, its id alone or its
record pasted, as well as the record's file and link."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from game.fair import record as records
from game.models import Game, Profile, RatingChange, Seat
from game.services import results, table_reads
from game.services.records import game_record
from tests.accounts.test_home import account, signed_in
from tests.accounts.test_ratings import play_out, rated_table

pytestmark = pytest.mark.django_db


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_game_over_screen_of_a_rated_game_shows_each_person_s_rating_before_and_after(client):
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    table = rated_table([mia, noa], bots=("easy",))
    game = play_out(table, [mia, noa])
    changes = {row.user_id: row for row in RatingChange.objects.filter(game=game)}
    seats = dict(Seat.objects.filter(table=table, bot_level="").values_list("user_id", "index"))
    snapshot = table_reads.snapshot(table)
    assert snapshot["game"]["ratings"] == sorted([seats[user], row.before, row.value] for user, row in changes.items())
    signed_in(client, mia_user)
    page = text_of(
        client.get(f"/en/t/{table.code}/").content.decode().split('id="standings"')[1].split("</section>")[0]
    )
    for user, name in ((mia_user, "Mia"), (noa_user, "Noa")):
        row = changes[user.pk]
        sign = "+" if row.value > row.before else "−" if row.value < row.before else "±"
        said = f"Rating: {row.before} → {row.value} ({sign}{abs(row.value - row.before)})"
        assert re.search(rf"{name} -?\d+ points? {re.escape(said)}", page), (said, page)
    assert page.count("→") == 2  # the bot has no rating
    # in French, with the narrow no-break space before the colon
    french = client.get(f"/fr/t/{table.code}/").content.decode()
    assert "Cote\u202f:" in french


def test_a_private_person_s_rating_is_not_on_the_shared_screen():
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    Profile.objects.filter(user=noa_user).update(private=True)
    table = rated_table([mia, noa])
    play_out(table, [mia, noa])
    shown = table_reads.snapshot(table)["game"]["ratings"]
    assert [seat for seat, _before, _after in shown] == [0]  # Mia's only


def test_an_unrated_game_shows_no_ratings():
    mia_user, mia = account("Mia")
    _noa_user, noa = account("Noa")
    table = rated_table([mia, noa], rated=False)
    play_out(table, [mia, noa])
    assert "ratings" not in table_reads.snapshot(table)["game"]


def test_a_replay_shows_the_final_scores_and_the_viewer_s_place(client):
    mia_user, mia = account("Mia")
    _noa_user, noa = account("Noa")
    table = rated_table([mia, noa], bots=("medium", "easy"), rated=False)
    game = play_out(table, [mia, noa])
    scores = results.final_scores(game, list(game.players))
    assert [row.place for row in scores] == sorted(row.place for row in scores) and len(scores) == 4
    mine = next(row for row in scores if row.name == "Mia")
    ordinals = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
    signed_in(client, mia_user)
    html = client.get(f"/en/g/{game.public_id}/").content.decode()
    box = text_of(html.split("data-final-scores")[1].split("</section>")[0])
    assert f"You finished {ordinals[mine.place]} of 4" in box
    assert " ".join(f"{row.place}. {row.name} {row.points}" for row in scores) in box
    stranger = Client().get(f"/en/g/{game.public_id}/").content.decode()
    assert "data-final-scores" in stranger and "data-your-place" not in stranger
    german = {1: "1.", 2: "2.", 3: "3.", 4: "4."}
    assert f"{german[mine.place]} von 4" in text_of(client.get(f"/de/g/{game.public_id}/").content.decode())


def test_recent_games_rows_show_the_final_scores_and_the_place(client):
    mia_user, mia = account("Mia")
    noa_user, noa = account("Noa")
    table = rated_table([mia, noa], bots=("hard",), rated=False)
    game = play_out(table, [mia, noa])
    scores = results.final_scores(game, list(game.players))
    noa_place = next(row.place for row in scores if row.name == "Noa")
    [row] = __import__("game.services.selectors", fromlist=["recent_games"]).recent_games(noa_user.pk)
    assert row["scores"] == scores and row["place"].endswith(" of 3")
    signed_in(client, mia_user)
    profile = text_of(client.get("/en/u/Noa/").content.decode().split('id="recent-title"')[1])
    assert f"{ {1: '1st', 2: '2nd', 3: '3rd'}[noa_place] } of 3".strip() in profile
    assert " ".join(f"{row.place}. {row.name} {row.points}" for row in scores) in profile
    home = text_of(client.get("/nl/").content.decode())
    mia_place = next(row.place for row in scores if row.name == "Mia")
    assert f"{mia_place}e van 3" in home


def test_verify_takes_a_replay_link_an_id_alone_or_the_record_pasted():
    mia_user, mia = account("Mia")
    _noa_user, noa = account("Noa")
    table = rated_table([mia, noa], rated=False)
    game = play_out(table, [mia, noa])
    public_id = Game.objects.get(id=game.id).public_id
    client = Client()
    pasted = records.dumps(game_record(game.id))
    for given in (
        public_id,
        f"  {public_id} ",
        f"http://testserver/en/g/{public_id}/",
        f"http://localhost:8000/de/g/{public_id}/",  # another name of this site (ALLOWED_HOSTS)
        f"localhost/en/g/{public_id}/record.json",
        f"/en/g/{public_id}/",
        pasted,
    ):
        html = client.post("/en/verify/", {"link": given}).content.decode()
        assert 'data-verdict="site"' in html, given[:80]
    for given in (f"https://example.com/en/g/{public_id}/", "x" * 22, f"{public_id}x/"):
        html = client.post("/en/verify/", {"link": given}).content.decode()
        assert "That link is not a finished game or its record on this site." in html, given
        assert "data-verdict" not in html
    tampered = pasted.replace('"Mia"', '"Max"')
    html = client.post("/en/verify/", {"link": tampered}).content.decode()
    assert 'data-verdict="refused"' in html
    assert 'type="text" name="link"' in client.get("/en/verify/").content.decode()  # an id is no URL


def test_a_rated_sevens_game_over_shows_the_ratings_too(client):
    mia_user, mia = account("Mia")
    _noa_user, noa = account("Noa")
    table = rated_table([mia, noa], bots=("easy",), kind="sevens")
    game = play_out(table, [mia, noa])
    row = RatingChange.objects.get(game=game, user=mia_user)
    signed_in(client, mia_user)
    standings = client.get(f"/de/t/{table.code}/").content.decode().split('id="standings"')[1].split("</section>")[0]
    assert standings.count("data-rating-move") == 2
    assert f"Wertungszahl: </span>{row.before} → {row.value}" in standings
