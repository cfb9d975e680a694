"""A phone (390x844, touch) sees the whole table and nothing wider than itself.

Every seat's row of a SEVN table (2, 3, 4 and 6 seats, and 6 while you pick whom a Freeze
freezes: the bottom panel at its tallest) and of a Sevens table (3 and 6) can be scrolled into
view, not covered by the panel at the bottom (your row, the piles and the controls, which sticks
on a phone): the page is scrolled as a thumb would, and at some point each seat lies wholly above
that panel, the point at its centre its own (elementFromPoint), while the Draw button (a target,
a playable card) can be tapped on the same screen. A full-page screenshot does not show this: it
draws the page at its first scroll position, the panel stuck to the bottom of the first screen and
over whatever seat lies there (a third seat of SEVN, Sevens' layout), and the page's end below it
empty where the panel sits once scrolled to.

The pages of a list (home signed in, a table of each game, a replay of each, a profile) are no
wider than the screen in any of the five languages, a long word, a long option in a select, a
recent game's title or a seat's finished-games badge wrapping or shrinking instead of widening
the page (Polish made the home page 419 px wide and the profile 445; French's first badge, 401).
Screenshots land in artifacts/screenshots/ (phone-fit-*)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from game import services
from tests.accounts.test_ratings import play_out, rated_table
from tests.browser import scenes
from tests.browser.test_ratings import person
from tests.factories import act, game_of, stack
from tests.games.sevens.tables import sevens_table

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
LANGUAGES = ("en", "de", "nl", "pl", "fr")
NAMES = ("Noa", "Mia", "Oli", "Ida", "Eve", "Kai")
# Dealt one a seat from the dealer's left (seat 1 first), then each draws one: no seat busts.
DECK = ["13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2", "13", "12", "11", "10", "9", "8"]
STEP = 40  # px a thumb's flick moves the page, about

# Each seat of the table (not your own row in SEVN's panel): where it is, and whether the point at
# its centre is its own; where the sticky panel starts; whether the control a person needs now (the
# Draw button, or in Sevens the hand's first card) can be tapped where it is.
LOOK = """() => {
    const panel = document.querySelector('#table .table__dock');
    const top = panel ? panel.getBoundingClientRect().top : innerHeight;
    const tappable = el => {
        if (!el) return false;
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        return y >= 0 && y <= innerHeight && el.contains(document.elementFromPoint(x, y));
    };
    const control = document.querySelector(
        '#table .controls :is([data-action="draw"], [data-action="target"], [data-hand-play])');
    return {
        panelTop: top,
        reach: tappable(control),
        seats: [...document.querySelectorAll('#table .table__seats .seat')].map(seat => {
            const r = seat.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return {id: seat.id, top: r.top, bottom: r.bottom, own: !!hit && seat.contains(hit)};
        }),
    };
}"""


def sevn_at_your_turn(seats: int, freeze: bool = False):
    """A SEVN table of `seats` people, turn-based (its clocks listed over the seats, as a phone
    shows them), where everyone has drawn once and it is Mia's (seat 1's) turn again; or, with
    `freeze`, where Mia's first draw is a Freeze and she picks whom it freezes (the panel at its
    tallest: a button for every seat)."""
    players = [person(name)[1] for name in NAMES[:seats]]
    table = services.table_create(player=players[0], nickname="", seat_count=seats, pace="move-24h")
    for player in players[1:]:
        services.seat_take(code=table.code, player=player, nickname="")
    services.game_start(code=table.code, player=players[0])
    stack(table, [*DECK[:seats], "freeze", *DECK[seats:]] if freeze else DECK)
    game_of(table).events.all().delete()  # the log of the game the stacked deck replaced
    for seat in [1] if freeze else [*range(1, seats), 0]:
        act(table, players[seat], {"kind": "draw"})
    return table, players[1]


def sevens_at_your_turn(seats: int):
    """A Sevens table of `seats` people dealt from a known seed, seen by whoever chooses first."""
    table, players = sevens_table(names=NAMES[:seats], turn_seconds=0, seed=1)
    return table, players[scenes.current_seat(table)]


def account_session(context, live_url: str, user) -> None:
    """The context is signed in to this account (its person's seats are its own)."""
    client = Client()
    user.refresh_from_db()  # its password as stored (the session keeps a hash of it)
    client.force_login(user, backend="allauth.account.auth_backends.AuthenticationBackend")
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_url}])


def phone(browser):
    """A phone's tab: touch, and the page's own meta viewport in force (as on a phone)."""
    return browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, reduced_motion="reduce")


@pytest.mark.parametrize(
    ("game", "seats"),
    [("sevn", 2), ("sevn", 3), ("sevn", 4), ("sevn", 6), ("sevn-freeze", 6), ("sevens", 3), ("sevens", 6)],
)
def test_every_seat_scrolls_into_view_on_a_phone_with_the_controls_in_reach(browser, live_url, game, seats, shoot):
    if game == "sevens":
        table, viewer = sevens_at_your_turn(seats)
    else:
        table, viewer = sevn_at_your_turn(seats, freeze=game == "sevn-freeze")
    context = phone(browser)
    scenes.seat_as(context, live_url, viewer)
    page = context.new_page()
    page.goto(f"{live_url}/en/t/{table.code}/")
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)
    expect(page.locator("#table .controls--active")).to_be_visible()  # the viewer's turn
    others = page.locator("#table .table__seats .seat")
    expect(others).to_have_count(seats if game == "sevens" else seats - 1)
    end = page.evaluate("document.documentElement.scrollHeight - innerHeight")
    seen: dict[str, int] = {}
    for y in range(0, end + STEP, STEP):
        page.evaluate("y => window.scrollTo(0, y)", min(y, end))
        look = page.evaluate(LOOK)
        for seat in look["seats"]:
            if seat["own"] and seat["top"] >= 0 and seat["bottom"] <= look["panelTop"] + 1 and look["reach"]:
                seen.setdefault(seat["id"], min(y, end))
    every = [seat["id"] for seat in page.evaluate(LOOK)["seats"]]
    assert sorted(seen) == sorted(every), (game, seats, seen)
    for seat, y in seen.items():  # as the person saw it
        page.evaluate("y => window.scrollTo(0, y)", y)
        shoot(page, f"phone-fit-{game}-{seats}-{seat}", full_page=False)
    context.close()


@pytest.fixture
def lists():
    """Mia, Noa and Oli (accounts) with a finished rated game of each kind, a SEVN table and a
    Sevens table in play: what the home page, the tables, the replays and a profile list."""
    people = [person(name) for name in ("Mia", "Noa", "Oli")]
    players = [player for _user, player in people]
    finished = {kind: play_out(rated_table(players, kind=kind, seed=3), players) for kind in ("sevn", "sevens")}
    playing = {kind: rated_table(players, kind=kind, seed=3) for kind in ("sevn", "sevens")}
    return people[0][0], finished, playing


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_of_a_list_is_wider_than_a_phone(browser, live_url, language, lists, shoot):
    mia, finished, playing = lists
    context = phone(browser)
    account_session(context, live_url, mia)
    page = context.new_page()
    pages = {
        "home": "/",
        "sevn": f"/t/{playing['sevn'].code}/",
        "sevens": f"/t/{playing['sevens'].code}/",
        "replay-sevn": f"/g/{finished['sevn'].public_id}/",
        "replay-sevens": f"/g/{finished['sevens'].public_id}/",
        "profile": "/u/Mia/",
        "verify": "/verify/",
    }
    for name, path in pages.items():
        page.goto(f"{live_url}/{language}{path}")
        if name in ("sevn", "sevens"):
            expect(page.locator("#table-presence[data-known]")).to_have_count(1)
            expect(page.locator("#table .reliable").first).to_be_visible()
        if name == "home":
            expect(page.locator(".recent-games__game")).to_have_count(2)  # signed in, the games listed
        width = page.evaluate("document.documentElement.scrollWidth")
        shoot(page, f"phone-fit-{language}-{name}")
        assert width <= PHONE["width"], (language, name, width, wider(page))
        if name == "verify":  # its file and link fields inside their panel, not poking out of it
            fields = page.evaluate(
                """() => [...document.querySelectorAll('.verify form input:not([type=hidden])')].map(input =>
                    input.closest('.panel').getBoundingClientRect().right - input.getBoundingClientRect().right)"""
            )
            assert fields and min(fields) > 0, (language, fields)
    # a badge longer than any wording now (French's first one, 401 px wide) wraps at its seat
    page.goto(f"{live_url}/{language}/t/{playing['sevens'].code}/")
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)
    page.evaluate(
        "() => document.querySelectorAll('#table .reliable__shown')"
        ".forEach(badge => { badge.textContent = 'parties terminées : 4 sur 4 ' + badge.textContent; })"
    )
    width = page.evaluate("document.documentElement.scrollWidth")
    shoot(page, f"phone-fit-{language}-sevens-long-badge", full_page=False)
    assert width <= PHONE["width"], (language, "long badge", width, wider(page))
    context.close()


def wider(page) -> list[str]:
    """What pokes out on the right (the innermost such elements, not those a scrolling strip such
    as the chat's phrases holds), to say in a failure."""
    return page.evaluate(
        """() => {
            const out = el => el.getBoundingClientRect().right > innerWidth + 0.5;
            const held = el => { for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
                if (getComputedStyle(up).overflowX !== 'visible' && !out(up)) return true; return false; };
            return [...document.querySelectorAll('body *')]
            .filter(el => out(el) && el.checkVisibility() && !held(el) && ![...el.children].some(out))
            .slice(0, 8)
            .map(el => `${el.localName}.${[...el.classList].join(".")}: ${el.textContent.trim().slice(0, 40)}`);
        }"""
    )
