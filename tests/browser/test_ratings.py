"""Ratings in the browser (#26 items 5 and 6): a signed-in host makes a table rated from the
home page; after rated games (played through the services, as a table plays them) the
leaderboard lists everyone and, on its other tab, only the viewer and their friends; a name on
it leads to the profile's stats per game and the rating over time."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from playwright.sync_api import expect

from game.core.identity import Player
from game.services import accounts, friends
from tests.accounts.test_ratings import play_out, rated_table
from tests.browser.accounts import PASSWORD
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.test_accessibility import check

pytestmark = pytest.mark.django_db(transaction=True)


def person(name: str) -> tuple[User, Player]:
    user = User.objects.create_user(name, f"{name.lower()}@example.com", PASSWORD)  # the server knows the fast hasher
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    key = accounts.account_signed_in(user=user, guest_key=None).key
    return user, Player(key=key, user_id=user.pk, username=name)


def log_in(page, base: str, name: str, language: str = "en") -> None:
    page.goto(f"{base}/{language}/accounts/login/")
    page.fill('input[name="login"]', name)
    page.fill('input[name="password"]', PASSWORD)
    page.locator("form.account-form button[type=submit]").click()
    expect(page.locator(".site-account__name")).to_contain_text(name)


def test_a_rated_table_and_the_leaderboards(browser, live_url, shoot):
    (mia_user, mia), (noa_user, noa), (_oli_user, oli) = person("Mia"), person("Noa"), person("Oli")
    people = [mia, noa, oli]
    for _game in range(3):
        play_out(rated_table(people), people)
    friends.friend_request(user=mia_user, name="Noa")
    friends.friend_accept(user=noa_user, from_id=mia_user.pk)

    context = browser.new_context(viewport=DESKTOP, locale="en-GB")
    page = context.new_page()
    log_in(page, live_url, "Mia")
    # the host's option on the home page, and the lobby that says so
    page.goto(f"{live_url}/en/")
    page.get_by_label("Rated: each game updates the players' ratings").check()
    page.click(".panel--create button.button--primary")
    page.wait_for_url("**/t/**")
    expect(page.locator(".lobby__settings")).to_contain_text("signed-in players only · rated")

    # the leaderboard, from the site's menu
    page.get_by_role("link", name="Ratings", exact=True).click()
    expect(page.locator("h1")).to_have_text("SEVN ratings")
    rows = page.locator(".leaderboard__table tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.locator("td:nth-child(4)")).to_have_text(["3", "3", "3"])
    expect(page.locator(".leaderboard__row--you")).to_contain_text("Mia")
    values = [int(text) for text in rows.locator("td:nth-child(3)").all_inner_texts()]
    assert values == sorted(values, reverse=True)
    shoot(page, "ratings-leaderboard")
    check(page, "the leaderboard")
    page.get_by_role("link", name="Among your friends").click()
    expect(rows).to_have_count(2)
    assert sorted(name.split()[0] for name in rows.locator("th").all_inner_texts()) == ["Mia", "Noa"]
    expect(page.locator(".leaderboard")).not_to_contain_text("Oli")
    page.get_by_role("link", name="Sevens").click()
    expect(page.locator(".leaderboard")).to_contain_text("No rated games yet")
    assert "among=friends" in page.url

    # a name on the board leads to the profile: each game's stats and the rating over time
    page.goto(f"{live_url}/en/ratings/sevn/")
    page.get_by_role("link", name="Noa", exact=True).click()
    stats = page.locator(".profile__stats").first
    expect(stats.locator("h2")).to_have_text("SEVN")
    for label in ("Games played", "Wins", "Average points", "SEVN rate", "Bust rate", "Rating"):
        expect(stats.locator("dt", has_text=label).first).to_be_visible()
    expect(stats.locator("dt:text-is('Games played') + dd")).to_have_text("3")
    chart = stats.locator('svg.rating-chart__svg[aria-label^="Rating"]')  # (beside it: accuracy's chart)
    expect(chart).to_have_attribute("aria-label", re.compile(r"^Rating over 3 rated games: from 1000 to \d+"))
    box = chart.bounding_box()
    assert box["width"] > 200 and box["height"] > 50  # drawn, at a readable size
    assert len(chart.locator("polyline").get_attribute("points").split()) == 4
    stats.scroll_into_view_if_needed()
    shoot(page, "ratings-profile")
    check(page, "a profile with stats and a rating chart")

    # in Polish on a phone: nothing wider than the screen
    phone = browser.new_context(viewport=PHONE, locale="pl-PL").new_page()
    phone.goto(f"{live_url}/pl/ratings/sevn/")
    expect(phone.locator("h1")).to_have_text("Ranking: SEVN")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(phone, "ratings-leaderboard-pl-phone")
    phone.goto(f"{live_url}/fr/u/Oli/")
    expect(phone.locator(".profile__stats h2").first).to_have_text("SEVN")
    expect(phone.locator(".profile__stats dt", has_text="Taux d’élimination")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(phone, "ratings-profile-fr-phone")
    context.close()
