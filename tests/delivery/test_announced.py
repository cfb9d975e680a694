"""Writers announce their own changes (game.delivery.announce): no commit leaves a screen behind.

A walk takes every service that writes, as pages, sockets, admin and the timers call them, and
after each step compares what a screen of each table would show, drawn from nothing but what
was announced (from what it read when the table first appeared), with the table the database
holds: its snapshot (seats, game, clock, status), its chat lines and spectators' switch, and
who is connected. A service that commits a change of a table and does not announce it fails
here, with the step and what its screens missed. Which services must be walked is read from
their source: every public function of game/services that writes (or locks a table to), or
calls one that does, unless it is one of the few steps other services take under their lock.
"""

from __future__ import annotations

import ast
import random
import re
from datetime import timedelta
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from game import registry, services
from game.core.identity import Player, tag
from game.delivery import announce, broadcast
from game.fair import seeds
from game.live import watch
from game.models import ChatMessage, Game, Invitation, LeavePause, Profile, RatingFlag, Sanction, Seat, Table
from game.services import (
    accounts,
    alerts,
    analysis,
    chat,
    fair,
    friends,
    invitations,
    lobby,
    moderation,
    online,
    outbox,
    play,
    presence,
    rating_flags,
    reliability,
    reports,
    staff,
    table_reads,
    waiting,
)
from game.services.staff import Person

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ROOT / "game" / "services"
# What a call writes with: the ORM's writes, and SQL (services.store; its locks count too:
# every writer takes its table's lock, and a function that takes it means to write).
WRITES = frozenset({"save", "update", "delete", "create", "bulk_create", "bulk_update", "get_or_create"})
WRITES |= {"update_or_create", "execute"}
# Modules every service works through, under its own lock: their writes are their caller's.
UNDER_EVERY_SERVICE = {
    "store": "the SQL of a move and of every lock, run by the service that holds the lock",
    "common": "the lock and presence count every service shares",
    "selectors": "reads",
    "table_reads": "reads",
    "your_move": "reads (whose move it is: one SELECT of its own, hence `execute`), and the hooks play calls "
    "when a turn starts or ends, under the lock of the move",
}
# Public functions that are steps of other services, inside their transactions: the service
# that takes the step announces what it changed (its walk checks it). None is called from
# outside game/services (checked below), so no page or socket can skip the announcement.
STEPS = {
    "play.refresh_deadline": "after seats changed hands, under the lock of presence's and staff's services",
    "staff.remove_seat": "of seat_remove_by_staff and player_ban",
    "staff.log_action": "the moderators' log line of each staff action",
    "staff.mark_handled": "a report's resolution, in each staff action",
    "ratings.game_finished": "results and ratings, in the move that ends a game",
    "rating_flags.game_rated": "flags for moderators, in game_finished",
    "analysis.game_finished": "the analysis queued, in the move that ends a game",
    "alerts.turn_started": "the outbox's 'your move', in the move that passed the turn",
    "alerts.game_finished": "the outbox's 'game over', in the move that ends a game",
    "alerts.invitation_sent": "the outbox's notice, in the service that invites",
    "alerts.friend_requested": "the outbox's notice, in friend_request",
    "reliability.results_stored": "pauses and flags that follow a game's outcomes, in game_finished",
}


def _calls(function: ast.FunctionDef) -> tuple[set[str], set[str]]:
    """The names a function calls, and the methods it calls."""
    names, methods = set(), set()
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                names.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                names.add(node.func.attr)  # services.refresh_deadline(...), store.save_move(...)
                methods.add(node.func.attr)
    return names, methods


def service_writers() -> set[str]:
    """Every function of game/services ("module.name") that writes, or calls (by its name) one
    of game/services that does."""
    calls = {}
    for path in SERVICES.glob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef):
                calls[f"{path.stem}.{node.name}"] = _calls(node)
    writing = {name for name, (_names, methods) in calls.items() if methods & WRITES}
    while True:
        written_by = {name.split(".")[1] for name in writing}
        more = {name for name, (names, _methods) in calls.items() if name not in writing and names & written_by}
        if not more:
            return writing
        writing |= more


def to_walk() -> set[str]:
    return {
        name
        for name in service_writers()
        if not name.split(".")[1].startswith("_") and name.split(".")[0] not in UNDER_EVERY_SERVICE
    } - set(STEPS)


class Screens:
    """What a screen of each table shows, from the announcements alone (table updates, chat
    lines and switches), starting from the table as the database held it when it appeared."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, dict]] = []
        self.invited: list[tuple[int, dict]] = []
        self.put_out: list[tuple[str, int | None, str]] = []
        self.shown: dict[str, dict] = {}
        self.walked: set[str] = set()

    def hear(self, code: str, update: dict) -> None:
        self.heard.append((code, update))

    def out(self, player_tag: str, user_id: int | None, why: str) -> None:
        self.put_out.append((player_tag, user_id, why))

    def step(self, service, /, *args, **kwargs):
        """Call a service as its callers do, then look at every table."""
        result = service(*args, **kwargs)
        name = f"{service.__module__.rsplit('.', 1)[-1]}.{service.__name__}"
        self.walked.add(name)
        self.look(name)
        return result

    def look(self, step: str) -> None:
        for code, update in self.heard:
            if code in self.shown:  # (a table new in this step is read whole below)
                self._draw(self.shown[code], update)
        self.heard.clear()
        for table in Table.objects.order_by("id"):
            held = _held(table)
            shown = self.shown.setdefault(table.code, held)
            missed = {
                part: (shown[part], held[part])
                for part in ("snapshot", "spectator_chat", "online")
                if shown[part] != held[part] and (part != "online" or _shows_who_is_here(table))
            }
            if not held["lines"] <= shown["lines"]:
                missed["lines"] = (shown["lines"], held["lines"])
            assert not missed, f"after {step}, the screens of table {table.code} show {_differences(missed)}"

    @staticmethod
    def _draw(shown: dict, update: dict) -> None:
        if "snapshot" in update:
            shown["snapshot"] = update["snapshot"]
            for event in update["events"]:
                if event["type"] == "presence" and event["told"] > shown["told"]:
                    shown["online"], shown["told"] = event["online"], event["told"]
        elif update["chat"] == "line":
            shown["lines"] = shown["lines"] | {update["body"]["line"]["id"]}
        elif update["chat"] == "settings":
            shown["spectator_chat"] = update["body"]["spectator_chat"]


def _held(table: Table) -> dict:
    """The table as the database holds it, in the parts a screen shows."""
    return {
        "snapshot": table_reads.snapshot(table),
        "lines": set(ChatMessage.objects.filter(table=table).values_list("id", flat=True)),
        "spectator_chat": table.spectator_chat,
        "online": table_reads.online(table.id),
        "told": table.presence_told,
    }


def _shows_who_is_here(table: Table) -> bool:
    """Who is connected is drawn at a game (presence), not in a lobby or at a closed table."""
    return table.status in (Table.Status.PLAYING, Table.Status.FINISHED)


def _differences(missed: dict) -> str:
    """Where the screens and the database differ, briefly: the snapshot's parts that differ."""
    said = []
    for part, (shown, held) in missed.items():
        if part == "snapshot":
            for key in ("table", "seats", "game"):
                if shown[key] != held[key]:
                    inner = held[key] if isinstance(held[key], dict) else {}
                    fields = [k for k in inner if not isinstance(shown[key], dict) or shown[key].get(k) != inner[k]]
                    said.append(f"old {key}" + (f" ({', '.join(fields)})" if fields else ""))
        else:
            said.append(f"old {part}: {shown} (the database: {held})")
    return "; ".join(said)


@pytest.fixture
def screens(monkeypatch) -> Screens:
    """What services announce, caught where it leaves for the channel layer (a thread's sends)."""
    screens = Screens()
    monkeypatch.setattr(broadcast, "send", screens.hear)
    monkeypatch.setattr(broadcast, "send_to_people", screens.invited.extend)
    monkeypatch.setattr(broadcast, "put_out", screens.out)
    return screens


def signed_up(screens: Screens, name: str) -> tuple[User, Player]:
    user = User.objects.create_user(name, f"{name.lower()}@example.com", "a-long-password-1")
    key = screens.step(accounts.account_signed_in, user=user, guest_key=None).key
    return user, Player(key=key, user_id=user.pk, username=name)


def deciding(code: str) -> dict:
    """The move of whoever decides now at the table (a bot's choice, made for them), as their
    screen sends it."""
    table = Table.objects.get(code=code)
    game = table_reads.current_game(table)
    kind = registry.of(table)
    state = kind.from_json(game.state)
    seat = table.seats.get(index=kind.acting(state))
    action = kind.bot_action("easy", state, random.Random(game.version))
    player = Player(key=seat.player_key, user_id=seat.user_id)
    return {"code": code, "player": player, "action": action, "version": game.version, "game": game.number}


def acting_seat(code: str) -> Seat:
    table = Table.objects.get(code=code)
    kind = registry.of(table)
    return table.seats.get(index=kind.acting(kind.from_json(table_reads.current_game(table).state)))


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


def test_every_change_a_service_commits_reaches_the_screens_of_its_table(screens):
    step = screens.step
    ana_user, ana = signed_up(screens, "Ana")
    ben_user, ben = signed_up(screens, "Ben")
    di_user, _di = signed_up(screens, "Di")
    cy, eve = Player("guest:cy"), Player("guest:eve")

    # friends (no table's screen shows them; walked all the same)
    step(friends.friend_request, user=ana_user, name="Ben")
    step(friends.friend_accept, user=ben_user, from_id=ana_user.pk)
    step(friends.friend_remove, user=ana_user, other_id=ben_user.pk)
    step(friends.friend_request, user=ben_user, name="Ana")
    step(friends.friend_request, user=ana_user, name="Ben")  # they asked first: friends at once
    step(friends.friend_request, user=di_user, name="Ana")
    step(friends.friend_decline, user=ana_user, from_id=di_user.pk)
    step(friends.friend_block, user=ana_user, other_id=di_user.pk)
    step(friends.friend_unblock, user=ana_user, other_id=di_user.pk)

    # a lobby
    code = step(lobby.table_create, player=ana, nickname="", seat_count=4, turn_seconds=30).code
    step(lobby.seat_take, code=code, player=ben, nickname="")
    step(lobby.seat_take, code=code, player=cy, nickname="Cy")
    step(lobby.bot_add, code=code, player=ana, level="easy")
    step(lobby.seat_remove, code=code, player=ana, index=Seat.objects.get(table__code=code, bot_level="easy").index)
    step(lobby.seat_leave, code=code, player=cy)
    step(lobby.seat_take, code=code, player=cy, nickname="Cy")
    step(lobby.bot_add, code=code, player=ana, level="medium")
    step(chat.chat_post, code=code, player=ana, text="good luck")
    step(chat.spectator_chat_set, code=code, player=ana, on=False)
    next_deal = seeds.commitment(Table.objects.get(code=code).next_seed)
    step(fair.client_seed_set, code=code, player=ben, seed="abc123", commitment=next_deal)
    [(_to, sent)] = step(invitations.invitation_send, user=ana_user, player=ana, code=code, friend_id=ben_user.pk)
    assert screens.invited[-1] == (ben_user.pk, sent)
    step(invitations.invitation_answer, user=ben_user, invitation_id=sent["id"])
    step(invitations.invitation_send, user=ana_user, player=ana, code=code, friend_id=ben_user.pk)
    step(invitations.invitation_decline, user=ben_user, invitation_id=Invitation.objects.get().id)
    for player in (ana, ben, cy):
        step(presence.arrived, code=code, player_key=player.key, channel=f"{player.key}-1")

    # the game
    step(play.game_start, code=code, player=ana)
    for _move in range(3):
        step(play.game_act, **deciding(code))
    step(chat.chat_post, code=code, player=cy, text="nice")
    decider = acting_seat(code)
    step(presence.left, channel=f"{decider.player_key}-1")  # their last socket: gone in GRACE
    table_id = Table.objects.get(code=code).id
    step(play.hurry, table_id=table_id, seat_index=decider.index, now=later(20))
    step(play.unhurry, table_id=table_id, seat_index=decider.index, now=later(21))
    step(play.game_expire, game_id=table_reads.current_game(Table.objects.get(id=table_id)).id, now=later(40))
    step(presence.left_all, channels=[f"{key}-1" for key in (ana.key, ben.key, cy.key)])
    step(presence.arrived, code=code, player_key=ana.key, channel="ana-2")
    step(presence.heartbeat, sockets={"ana-2": (code, ana.key), "ana-3": (code, ana.key)})  # ana-3's row made again
    step(presence.mark_absent, now=later(70))  # stale rows forgotten, the quiet ones away
    step(presence.arrived, code=code, player_key=ben.key, channel="ben-2")  # back from away
    step(presence.arrived, code=code, player_key=cy.key, channel="cy-2")
    step(play.game_act, **deciding(code))

    # moderation and staff
    person = Person(cy.key, "Cy")
    step(moderation.player_rename, by=None, table_id=table_id, person=person, nickname="Cyrus")
    step(moderation.player_warn, by=None, person=person, warning="insults")
    table = Table.objects.get(code=code)
    step(moderation.player_mute, by=None, person=person, duration="15m", reason="spam", table=table)
    step(moderation.sanction_lift, by=None, sanction_id=Sanction.objects.get().id)
    seat_of_cy = Seat.objects.get(table_id=table_id, player_key=cy.key)
    report = step(reports.report_create, code=code, player=ana, reason="insults", seat_index=seat_of_cy.index)
    step(moderation.report_handle, by=None, report_id=report.id, note="looked at it")
    step(staff.seat_remove_by_staff, seat_id=seat_of_cy.id, by=None, reason="spam")

    # a rated game everyone left: finished by its computer players, then a rematch
    rated = step(lobby.table_create, player=ana, nickname="", seat_count=2, rated=True).code
    step(lobby.seat_take, code=rated, player=ben, nickname="")
    step(play.game_start, code=rated, player=ana)
    step(presence.mark_absent, now=later(130))
    step(play.game_expire, game_id=table_reads.current_game(Table.objects.get(code=rated)).id, now=later(600))
    assert Table.objects.get(code=rated).status == Table.Status.FINISHED
    # its analysis, queued by the end and worked out in the background (no table's screen shows it)
    ended = Game.objects.get(table__code=rated, over=True)
    step(analysis.of_game, ended.id)
    step(analysis.queue, ended)
    claimed = step(analysis.claim_next, later(601))
    step(analysis.fail, claimed[0])
    step(analysis.run_one, lambda name, record: {"cpu_s": 0.0})
    step(analysis.finish, claimed[0], {"cpu_s": 0.0})
    # play again, once the game is over: a new table, the friend seated there invited
    again, invited, _left_out = step(invitations.table_again, user=ana_user, player=ana, code=rated)
    assert invited and screens.invited[-len(invited) :] == invited
    step(play.rematch_ask, code=rated, player=ben)
    step(play.game_start, code=rated, player=ana)
    step(rating_flags.flags_handle, flag_ids=list(RatingFlag.objects.values_list("id", flat=True)), by=None)

    # a turn-based table: two clocks of one person run out (a bot plays each turn, then keeps
    # the seat) and they take it back
    slow = step(lobby.table_create, player=ana, nickname="", seat_count=2, pace="move-12h").code
    step(lobby.seat_take, code=slow, player=ben, nickname="")
    step(play.game_start, code=slow, player=ana)
    for hours in (13, 26, 39):
        step(
            play.game_expire, game_id=table_reads.current_game(Table.objects.get(code=slow)).id, now=later(hours * 3600)
        )
    away = Seat.objects.filter(table__code=slow, away=True).first()
    # the other one, still playing, lets the away one go (their leave excused: #39)
    step(play.seat_let_go, code=slow, player=ben if away.player_key == ana.key else ana, index=away.index)
    step(play.seat_reclaim, code=slow, player=ana if away.player_key == ana.key else ben)

    # a guest seated in a lobby logs in to an account made elsewhere (their seat moves)
    open_lobby = step(lobby.table_create, player=eve, nickname="Eve", seat_count=3)
    step(lobby.seat_take, code=open_lobby.code, player=Player("guest:dee"), nickname="Dee")
    step(accounts.account_signed_in, user=di_user, guest_key="guest:dee")
    assert Seat.objects.get(table=open_lobby, nickname="Dee").user_id == di_user.pk
    step(accounts.profile_update, user=di_user, private=True, hide_online=False)
    step(accounts.away_dates_set, user=di_user, start=timezone.localdate(), end=timezone.localdate())
    step(reliability.clear_pauses, pause_ids=list(LeavePause.objects.values_list("id", flat=True)), by=None)
    # what waits, and who is on the site: no table's screen shows either (the header does)
    step(waiting.take_notices, ana_user.pk)
    step(waiting.friend_request_shown, user_id=ana_user.pk, from_id=ben_user.pk)
    step(waiting.invitation_shown, user_id=ana_user.pk, invitation_id=invited[0][1]["id"])
    step(online.page_opened, channel="ana-page", user_id=ana_user.pk)
    step(online.heartbeat, pages={"ana-page": ana_user.pk})
    step(online.page_closed, channel="ana-page")
    step(accounts.two_factor_off, user=di_user)
    step(accounts.account_suspend, by=None, user=di_user, reason="spam", duration="24h")
    assert screens.put_out[-1] == (tag(Profile.objects.get(user=di_user).player_key), di_user.pk, "suspended")
    Profile.objects.filter(user=di_user).update(suspended_until=later(-1))
    assert step(accounts.suspension_lapsed, di_user)

    # Sevens: each seat's hand is its own, in the snapshot the screens are sent
    sevens = step(lobby.table_create, player=eve, nickname="Eve", seat_count=3, kind="sevens").code
    for name in ("Fay", "Gus"):
        step(lobby.seat_take, code=sevens, player=Player(f"guest:{name.lower()}"), nickname=name)
    step(play.game_start, code=sevens, player=eve)
    for _move in range(4):
        step(play.game_act, **deciding(sevens))

    # alerts off the site (no table's screen shows them; walked all the same)
    step(alerts.settings_save, user=ben_user, language="de", email_digest=True, digest_hour=9)
    step(alerts.language_seen, user=ben_user, language="fr")
    endpoint = "https://fcm.googleapis.com/fcm/send/device"
    step(alerts.subscribe, user=ben_user, endpoint=endpoint, p256dh="B" * 87, auth="a" * 22, language="en")
    step(alerts.unsubscribe, user=ben_user, endpoint=endpoint)
    step(alerts.schedule_digests, later(2 * 86400))
    step(outbox.run_once, later(2 * 86400))
    taken = step(outbox.take, later(2 * 86400 + 60))
    step(outbox.settle, taken.token, [], later(2 * 86400 + 60))
    step(outbox.claim, later(2 * 86400 + 61), "one process")
    step(outbox.forget_old, later(90 * 86400))
    step(alerts.digest_unsubscribe, token=alerts.unsubscribe_token(ben_user.pk))

    # a ban: Ben leaves every table (a bot keeps his seats in running games), then is put out
    step(moderation.player_ban, by=None, person=Person(ben.key, "Ben", ben_user.pk), duration="24h", reason="cheat")
    assert screens.put_out[-1] == (tag(ben.key), ben_user.pk, "banned")
    step(staff.table_close, code=code, reason="", by=None)

    missing = to_walk() - screens.walked
    assert not missing, f"services that write and that this walk never took: {sorted(missing)}"


def test_the_services_to_walk_are_read_from_their_source():
    """The reading of the source finds the writers it must (a move, through its helpers; a
    lobby's seat), leaves out the readers, and every step excused from the walk is a writer no
    page, socket, admin or timer calls: its service's walk checks it."""
    walked = to_walk()
    assert {"play.game_act", "lobby.seat_take", "presence.arrived", "chat.chat_post"} <= walked
    assert not any(name.startswith(("selectors.", "table_reads.", "store.")) for name in walked)
    assert "table_reads.snapshot" not in service_writers()
    writers = service_writers()
    outside = [path for folder in ("game", "rules", "sevn_site") for path in (ROOT / folder).rglob("*.py")]
    outside = [path.read_text() for path in outside if SERVICES not in path.parents]
    for step in STEPS:
        assert step in writers, f"{step} is excused from the walk but writes nothing: take it off STEPS"
        called = re.compile(rf"\.{step.split('.')[1]}\(|import [^\n]*\b{step.split('.')[1]}\b")
        assert not any(called.search(text) for text in outside), f"{step} is called outside the services"


def test_a_change_rolled_back_is_never_announced(screens):
    """What a service says goes out at the commit: a transaction that fails after it said it
    (here the caller's, around the service) sends nothing; a caller's transaction that commits
    sends it then, not before."""
    table, (ana, ben) = _lobby()
    with pytest.raises(RuntimeError), transaction.atomic():
        services.seat_take(code=table.code, player=ben, nickname="Ben")
        assert screens.heard == []  # not yet: the caller's transaction is still open
        raise RuntimeError("the caller fails")
    assert screens.heard == [] and not table.seats.filter(player_key=ben.key).exists()
    with transaction.atomic():
        services.seat_take(code=table.code, player=ben, nickname="Ben")
        assert screens.heard == []
    [(code, update)] = screens.heard
    assert code == table.code and [seat["nickname"] for seat in update["snapshot"]["seats"]] == ["Ana", "Ben"]
    assert ana.key not in repr(update)


def _lobby():
    ana, ben = Player("guest:ana"), Player("guest:ben")
    return services.table_create(player=ana, nickname="Ana", seat_count=3), (ana, ben)


async def test_a_socket_s_service_sends_what_it_said_from_the_loop_once_it_returns(monkeypatch):
    """Called from the event loop (watch.call), a service's announcements wait in the order said
    and go out from the loop once it returns: the database thread never sends (nor waits for
    the loop or Redis), and what committed before a failure is sent too."""
    table, (ana, ben) = await database_sync_to_async(_lobby)()
    told: list[tuple[str, dict]] = []

    async def tell(code: str, update: dict) -> None:
        told.append((code, update))

    def from_the_thread(code: str, update: dict) -> None:
        raise AssertionError("sent from the database thread")

    monkeypatch.setattr(watch, "tell", tell)
    monkeypatch.setattr(broadcast, "send", from_the_thread)
    update = await watch.call(services.seat_take, code=table.code, player=ben, nickname="Ben")
    assert told == [(table.code, update)]

    def two_changes_then_a_failure():
        services.bot_add(code=table.code, player=ana, level="easy")
        services.chat_post(code=table.code, player=ana, text="a bot joins")
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        await watch.call(two_changes_then_a_failure)
    assert [("snapshot" in update, update.get("chat")) for _code, update in told[1:]] == [(True, None), (False, "line")]
    assert announce._held.get() is None  # nothing held once the call is over
