"""The table as players asked for it: presence true from the first second and kept true, others'
moves easy to follow, round results and the game's end in view, notices that never block play."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from game import services
from game.games.sevens.engine import playable
from game.services import presence
from tests.browser import scenes
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.play import create_table, join
from tests.factories import act
from tests.games.sevens.tables import game_of, play, sevens_table, state_of
from tests.waiting import POLL_MS

pytestmark = pytest.mark.django_db(transaction=True)

# Each seat's presence mark as its viewer sees it: "online", "offline", or "" for a bot.
MARKS = """() => Object.fromEntries([...document.querySelectorAll('.seat[data-seat]')].map(seat => {
    const on = seat.querySelector('.presence__on'), off = seat.querySelector('.presence__off');
    const shown = el => el && getComputedStyle(el).display !== 'none';
    return [seat.dataset.seat, shown(on) ? 'online' : shown(off) ? 'offline' : ''];
}))"""


def marks(page) -> dict:
    return page.evaluate(MARKS)


def wait_for_marks(page, wanted: dict, seconds: float) -> None:
    """Once the page shows these marks (within `seconds`: time under test)."""
    try:
        page.wait_for_function(
            f"wanted => Object.entries(wanted).every(([seat, mark]) => ({MARKS})()[seat] === mark)",
            arg=wanted,
            timeout=max(seconds, 0.1) * 1000,
            polling=POLL_MS,
        )
    except PlaywrightTimeoutError:
        raise AssertionError(f"presence marks {marks(page)}, wanted {wanted}") from None


def seats_now(invite: str) -> list[tuple]:
    """What the server holds of the table's seats and sockets (for a failure's message)."""
    from game.models import Presence, Seat

    code = invite.rstrip("/").split("/")[-1]
    seats = Seat.objects.filter(table__code=code).select_related("table").order_by("index")
    rows = [(seat.index, seat.away, seat.last_seen, seat.timeouts_in_row, seat.table.status) for seat in seats]
    return rows + list(Presence.objects.filter(table__code=code).values_list("player_key", "seen"))


def sevens_host(page, base: str, nickname: str) -> str:
    """A three-seat Sevens table hosted from the home page: its invite link."""
    page.goto(f"{base}/en/")
    page.get_by_label("Sevens", exact=False).first.check()
    page.fill("#id_nickname", nickname)
    page.select_option("#id_seat_count", "3")
    page.select_option("#id_turn_seconds", "0")
    page.click(".panel--create button.button--primary")
    page.wait_for_url("**/t/**")
    expect(page.locator('body[data-socket="live"]')).to_have_count(1)
    return page.locator("#invite-link").input_value()


@pytest.mark.parametrize("game", ["sevn", "sevens"])
def test_people_connected_since_the_lobby_are_online_from_the_start_and_stay_so(browser, quick_presence_url, game):
    """Both online on each screen within 2 s of the game appearing there, and still after
    AWAY_AFTER (several heartbeats, past the sweep's STALE_AFTER); Ben closes his tab: offline on
    Ana's screen at once, away (a bot plays for him) after presence.AWAY_AFTER."""
    live_url = quick_presence_url
    contexts = [browser.new_context(viewport=size) for size in (DESKTOP, PHONE)]
    ana, ben = (context.new_page() for context in contexts)
    invite = create_table(ana, live_url, "Ana", seats=2) if game == "sevn" else sevens_host(ana, live_url, "Ana")
    join(ben, invite, "Ben")
    if game == "sevens":  # Sevens needs three: a bot in the last seat
        ana.locator('[data-action="add-bot"]').first.click()
        expect(ana.locator(".lobby-seat .badge--bot")).to_have_count(1)
    ana.click('[data-action="start"]')
    both = {"0": "online", "1": "online"}
    for page in (ana, ben):
        expect(page.locator("#table")).to_have_attribute("data-status", "playing")
        # within 2 s of the game appearing on this screen (what a loaded machine takes to get it
        # there is not under test): a lobby's screens that were never told would wait for a change
        wait_for_marks(page, both, 2)
    expect(ana.locator("#seat-0 .badge--you")).to_have_count(1)
    # time under test: online still once the sweep's thresholds have passed (nothing to wait for)
    ana.wait_for_timeout((presence.AWAY_AFTER.total_seconds() + 1) * 1000)
    for page in (ana, ben):
        assert all(marks(page)[seat] == "online" for seat in both), marks(page)
    contexts[1].close()
    closed = time.monotonic()
    wait_for_marks(ana, {"0": "online", "1": "offline"}, 2)
    if game == "sevens":  # the away mark is the platform's: one game shows it
        # the sweep runs every ABSENCE_CHECK_SECONDS; a loaded machine (the whole suite on two
        # cores) may add more
        stated = presence.AWAY_AFTER.total_seconds() + 20
        try:
            expect(ana.locator("#seat-1 .badge--away")).to_have_count(
                1, timeout=max(stated - (time.monotonic() - closed), 1) * 1000
            )
        except AssertionError as error:
            raise AssertionError(
                f"no away mark {time.monotonic() - closed:.1f} s after the close: {seats_now(invite)}"
            ) from error
        assert time.monotonic() - closed < stated
    contexts[0].close()


def _open(browser, live_url, table, player, size, language):
    context = browser.new_context(viewport=size, reduced_motion="reduce", has_touch=size["width"] < 500)
    scenes.seat_as(context, live_url, player)
    page = context.new_page()
    page.goto(f"{live_url}/{language}/t/{table.code}/")
    expect(page.locator("#table-presence[data-known]")).to_have_count(1)  # the socket is live
    return context, page


SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
# A deal where, four plays after the opener, the one to choose has two cards of the others to see
# marked. A random deal may have had both others pass right after that seat's last play: nothing
# to mark (16 of 20,000 seeds; seed 1386 failed this test).
LAST_MOVES_SEED = 3


def played_since_own_play(moves: list, seat: int) -> list[str]:
    """The cards played since `seat` last played one (its passes do not count), newest first."""
    since = []
    for by, card in reversed(moves):
        if by == seat and card:
            break
        if card:
            since.append(card)
    return since


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", SIZES)
def test_the_last_moves_are_marked_on_both_tables(browser, live_url, shoot, size, language):
    """Sevens rings what was played since your last turn; SEVN the card drawn last; a phone
    has the last move in one line near the table. Screenshots of both tables."""
    table, players = sevens_table(turn_seconds=0, seed=LAST_MOVES_SEED)
    for _ in range(4):  # a few plays after the opener
        state = state_of(table)
        seat = state["current"]
        cards = playable(state["seats"][seat]["hand"], state["layout"])
        if cards:
            play(table, players[seat], cards[0])
        else:
            services.game_act(
                code=table.code, player=players[seat], action={"kind": "pass"}, version=game_of(table).version
            )
    state = state_of(table)
    viewer = players[state["current"]]  # the one whose turn it is: the others' plays are marked
    assert played_since_own_play(state["moves"], state["current"]) == ["6H", "6S"]  # what the deal brings
    context, page = _open(browser, live_url, table, viewer, SIZES[size], language)
    expect(page.locator(".sevens-cell--recent .card").first).to_be_visible()
    expect(page.locator(".sevens-cell--recent .card")).to_have_count(2)
    strip = page.locator("#table-last-move")
    expect(strip).to_be_visible() if size == "phone" else expect(strip).to_be_hidden()
    shoot(page, f"polish-sevens-{size}-{language}", full_page=False)
    context.close()

    sevn, (ana, ben) = scenes.two_players()
    act(sevn, ben, {"kind": "draw"})
    context, page = _open(browser, live_url, sevn, ana, SIZES[size], language)
    expect(page.locator(".card.is-last")).to_have_count(1)
    expect(page.locator("#seat-1 .card.is-last")).to_have_attribute("data-code", "4")
    shoot(page, f"polish-sevn-{size}-{language}", full_page=False)
    context.close()
