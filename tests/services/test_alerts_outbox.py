"""The outbox: a notice is written in the transaction of what it tells (rolled back with it),
sent once when due to every device of the person, encrypted for each (the receiver decrypts
it as the browser would), and not at all when the turn moved on, the person is at the table,
switched that kind off, or has no device; quiet hours hold it until they end; a device its push
service calls gone is removed."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from game import services
from game.core.identity import Player
from game.models import AlertSettings, Notice, Presence, PushSubscription
from game.services import alerts, friends, invitations, outbox
from tests.accounts.test_home import account
from tests.factories import game_of, stack, state_of

pytestmark = pytest.mark.django_db


def subscribed(user, device: dict) -> None:
    alerts.subscribe(
        user=user,
        endpoint=device["endpoint"],
        p256dh=device["keys"]["p256dh"],
        auth=device["keys"]["auth"],
        language="en",
    )


def a_table_of_two(turn_seconds: int = 30):
    """A game of SEVN between two people with accounts, named so that "Ana" decides first and
    "Ben" second (the deal says who begins)."""
    first, first_p = account("Ana")
    second, second_p = account("Ben")
    table = services.table_create(player=first_p, nickname="", seat_count=2, turn_seconds=turn_seconds)
    services.seat_take(code=table.code, player=second_p, nickname="")
    services.game_start(code=table.code, player=first_p)
    stack(table, ["5", "9", "4", "1", "2", "3", "6", "8", "10", "11", "12"])  # plain number cards
    game = game_of(table)  # whose turn it is, as the stacked deal says (stack() leaves Game.acting as dealt)
    game.acting = state_of(table)["pending"]["seat"]
    game.save(update_fields=["acting"])
    table.refresh_from_db()
    assert state_of(table)["pending"]["kind"] == "turn"
    people = {0: (first, first_p), 1: (second, second_p)}
    deciding = state_of(table)["pending"]["seat"]
    Notice.objects.all().delete()  # the deal's own "your move" is not what these tests look at
    return table, people[deciding], people[1 - deciding]


def move(table, player: Player, kind: str) -> None:
    services.game_act(code=table.code, player=player, action={"kind": kind}, version=game_of(table).version)


def later(seconds: float):
    return timezone.now() + timedelta(seconds=seconds)


def test_your_move_is_pushed_after_the_grace_to_every_device_encrypted(receiver):
    table, (ana, ana_p), (ben, _ben_p) = a_table_of_two()
    phone, laptop = receiver.device(), receiver.device()
    subscribed(ben, phone)
    subscribed(ben, laptop)
    before = state_of(table)["pending"]["seat"]
    move(table, ana_p, "pass")  # the first stops: the turn passes to the other
    assert state_of(table)["pending"]["seat"] == 1 - before
    turn = Notice.objects.get(user=ben, kind=Notice.Kind.TURN)
    assert turn.table_code == table.code and turn.done is None
    assert outbox.run_once(timezone.now()) == {}  # within the grace: nothing yet
    sent = outbox.run_once(later(21))
    assert sent.get("pushed") == 1, (sent, list(Notice.objects.values("kind", "outcome", "due", "done")))
    got = receiver.wait_for(2)
    assert {message.endpoint for message in got} == {phone["endpoint"], laptop["endpoint"]}
    payload = got[0].payload
    assert payload["title"] == "Your move" and payload["tag"] == table.code
    assert table.code in payload["body"] and payload["url"] == f"/en/t/{table.code}/"
    assert payload["badge"] == 1  # one table waits for Ben
    assert got[0].headers["topic"] == table.code and got[0].headers["urgency"] == "high"
    assert receiver.refused == []
    assert outbox.run_once(later(60)) == {} and len(receiver.received) == 2  # once


def test_a_quick_reply_sends_nothing(receiver):
    table, (_ana, ana_p), (ben, ben_p) = a_table_of_two()
    subscribed(ben, receiver.device())
    move(table, ana_p, "pass")
    move(table, ben_p, "pass")  # Ben answers within the grace
    outbox.run_once(later(21))
    notice = Notice.objects.get(user=ben, kind=Notice.Kind.TURN)
    assert notice.outcome == "moved on" and receiver.received == []


def test_nobody_is_pushed_at_a_table_they_have_open(receiver):
    table, (_ana, ana_p), (ben, ben_p) = a_table_of_two()
    subscribed(ben, receiver.device())
    Presence.objects.create(channel="c1", table=table, player_key=ben_p.key, seen=timezone.now())
    move(table, ana_p, "pass")
    outbox.run_once(later(21))
    assert Notice.objects.get(user=ben, kind=Notice.Kind.TURN).outcome == "at the table"
    assert receiver.received == []


def test_the_notice_rolls_back_with_the_move():
    table, (_ana, ana_p), (ben, _ben_p) = a_table_of_two()
    with pytest.raises(RuntimeError), transaction.atomic():
        move(table, ana_p, "pass")
        assert Notice.objects.filter(user=ben, kind=Notice.Kind.TURN).exists()
        raise RuntimeError("the move's transaction fails after it")
    assert not Notice.objects.filter(user=ben).exists()


def test_a_kind_switched_off_and_no_device_send_nothing(receiver):
    table, (_ana, ana_p), (ben, _ben_p) = a_table_of_two()
    move(table, ana_p, "pass")
    outbox.run_once(later(21))
    assert Notice.objects.get(user=ben, kind=Notice.Kind.TURN).outcome == "no device"
    subscribed(ben, receiver.device())
    alerts.settings_save(user=ben, language="en", push_game_over=False)
    game = game_of(table)
    alerts.game_finished(table, game, list(table.seats.all()))
    outbox.run_once(later(22))
    assert set(Notice.objects.filter(kind=Notice.Kind.GAME_OVER).values_list("user", "outcome")) == {
        (table.seats.exclude(user=ben).get().user_id, "no device"),
        (ben.pk, "off"),
    }
    assert receiver.received == []


def test_quiet_hours_hold_a_notice_until_they_end(receiver):
    table, (_ana, ana_p), (ben, _ben_p) = a_table_of_two()
    subscribed(ben, receiver.device())
    now = timezone.now()
    tz = "Asia/Tokyo"
    local = now.astimezone(alerts.zone(tz))
    start = (local - timedelta(hours=1)).time().replace(second=0, microsecond=0)
    end = (local + timedelta(hours=2)).time().replace(second=0, microsecond=0)
    alerts.settings_save(user=ben, language="en", time_zone=tz, quiet_from=start, quiet_until=end)
    alerts.friend_requested(
        friends.Friendship.objects.create(from_user=table.seats.first().user, to_user=ben, status="requested"), now
    )
    outbox.run_once(now)
    notice = Notice.objects.get(user=ben, kind=Notice.Kind.FRIEND_REQUEST)
    assert notice.done is None and receiver.received == []
    held_until = notice.due.astimezone(alerts.zone(tz))
    assert held_until.time() == end and notice.due > now
    outbox.run_once(notice.due + timedelta(seconds=1))
    assert receiver.wait_for(1)[0].payload["title"] == "Friend request"


def test_quiet_hours_across_midnight():
    row = AlertSettings(time_zone="Europe/Berlin", quiet_from=time(22), quiet_until=time(7))
    tz = alerts.zone("Europe/Berlin")
    at = timezone.datetime(2026, 12, 5, 23, 30, tzinfo=tz)
    assert outbox._quiet_until(row, at) == timezone.datetime(2026, 12, 6, 7, 0, tzinfo=tz)
    assert outbox._quiet_until(row, at.replace(hour=6)) == at.replace(hour=7, minute=0)
    assert outbox._quiet_until(row, at.replace(hour=12)) is None


def test_a_device_its_push_service_calls_gone_is_removed_and_a_failing_one_tried_later(receiver):
    table, (_ana, ana_p), (ben, _ben_p) = a_table_of_two()
    gone, failing = receiver.device(), receiver.device()
    subscribed(ben, gone)
    subscribed(ben, failing)
    receiver.answer(gone, 410)
    receiver.answer(failing, 503)
    move(table, ana_p, "pass")
    outbox.run_once(later(21))
    assert list(PushSubscription.objects.filter(user=ben).values_list("endpoint", flat=True)) == [failing["endpoint"]]
    notice = Notice.objects.get(user=ben, kind=Notice.Kind.TURN)
    assert notice.done is None and notice.attempts == 1 and notice.due > later(21)  # tried again later
    receiver.answer(failing, 201)
    outbox.run_once(notice.due + timedelta(seconds=1))
    notice.refresh_from_db()
    assert notice.outcome == "pushed" and len(receiver.wait_for(1)) == 1


def test_the_newest_five_devices_are_kept_and_strangers_endpoints_refused(receiver, settings):
    ben, _ = account("Ben")
    devices = [receiver.device() for _ in range(7)]
    for device in devices:
        subscribed(ben, device)
    kept = set(PushSubscription.objects.filter(user=ben).values_list("endpoint", flat=True))
    assert kept == {device["endpoint"] for device in devices[2:]}
    settings.SEVN_PUSH_HOSTS = ["fcm.googleapis.com"]
    with pytest.raises(services.ServiceError):
        subscribed(ben, receiver.device())  # not a push service's host: the site posts nowhere else


def test_each_notice_is_claimed_by_one_sender_only():
    _table, (_ana, _ana_p), (ben, _) = a_table_of_two()
    now = timezone.now()
    for number in range(30):
        Notice.objects.create(key=f"test:{number}", user=ben, kind=Notice.Kind.FRIEND_REQUEST, due=now)
    first = outbox.claim(now, "first", limit=20)
    second = outbox.claim(now, "second", limit=20)
    assert len(first) == 20 and len(second) == 10 and not set(first) & set(second)
    assert outbox.claim(now, "third") == []
    # a claim whose process died lapses: another sender takes it
    assert len(outbox.claim(now + timedelta(seconds=outbox.CLAIM_SECONDS + 1), "fourth")) == 30


def test_invitations_and_friend_requests_are_pushed_once(receiver, settings):
    table, (ana, ana_p), (ben, _ben_p) = a_table_of_two()
    subscribed(ben, receiver.device())
    carl, _ = account("Carl")
    subscribed(carl, receiver.device())
    friends.friend_request(user=carl, name=ben.username)
    friends.friend_accept(user=ben, from_id=carl.pk)
    friends.friend_request(user=ana, name=ben.username)
    friends.friend_accept(user=ben, from_id=ana.pk)
    invitations.invitation_send(user=ana, player=ana_p, code=table.code, friend_id=ben.pk)
    outbox.run_once(later(1))
    # (run_once returns once the push service has answered every post: what is not here now,
    # was not sent)
    titles = sorted(message.payload["title"] for message in receiver.received)
    # Ben: Carl's and Ana's requests were answered at once (no push: "answered"), then the invitation
    assert titles == ["Invitation"], titles
    invitation = receiver.received[0].payload
    assert (
        ana.username in invitation["body"]
        and invitation["tag"] == table.code
        and invitation["url"] == "/en/invitations/"
    )
    dana, _ = account("Dana")
    friends.friend_request(user=dana, name="Carl")
    outbox.run_once(later(2))
    assert receiver.wait_for(2)[-1].payload["body"] == "Dana would like to be your friend."
    # a request to someone who blocked you reaches nobody
    friends.friend_block(user=carl, other_id=ana.pk)
    friends.friend_request(user=ana, name="Carl")
    assert not Notice.objects.filter(user=carl, data__from=ana.username).exists()


def test_a_notice_in_the_persons_language(receiver):
    table, (_ana, ana_p), (ben, _ben_p) = a_table_of_two()
    subscribed(ben, receiver.device())
    alerts.settings_save(user=ben, language="de")
    move(table, ana_p, "pass")
    outbox.run_once(later(21))
    payload = receiver.wait_for(1)[0].payload
    assert payload["title"] == "Du bist dran" and payload["url"] == f"/de/t/{table.code}/"


def test_your_move_says_the_time_left_only_when_there_is_a_minute_or_more(receiver):
    table, (_ana, _ana_p), (ben, _ben_p) = a_table_of_two(turn_seconds=0)
    subscribed(ben, receiver.device())
    game, seat = game_of(table), table.seats.get(user=ben)
    now = timezone.now()
    alerts.turn_started(table, game, seat, now + timedelta(hours=24), now)
    outbox.run_once(now + timedelta(seconds=61))
    # as the table page says it: no comma between the units (French and German put none there)
    assert receiver.wait_for(1)[0].payload["body"].endswith("(23 hours 59 minutes left).")
    Notice.objects.all().delete()
    game.version += 1  # the next turn of his, on a live table's 30-second clock
    alerts.turn_started(table, game, seat, now + timedelta(seconds=30), now)
    outbox.run_once(now + timedelta(seconds=21))
    assert receiver.wait_for(2)[1].payload["body"] == f"SEVN at table {table.code}: it is your move."


def test_one_notice_per_turn_not_per_move():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table, (_ana, ana_p), (ben, ben_p) = a_table_of_two(turn_seconds=0)
    with CaptureQueriesContext(connection) as queries:
        move(table, ana_p, "pass")
    told = [query["sql"] for query in queries if "game_notice" in query["sql"]]
    assert len(told) == 1 and told[0].startswith("INSERT")  # one statement, in the move's transaction
    assert Notice.objects.filter(user=ben, kind=Notice.Kind.TURN).count() == 1
    move(table, ben_p, "draw")  # his decision again: he is at the table, nothing new to tell
    assert state_of(table)["pending"]["seat"] == table.seats.get(user=ben).index
    assert Notice.objects.filter(user=ben, kind=Notice.Kind.TURN).count() == 1
    # the same event told twice (a service retried) is one notice: its key
    game, seat = game_of(table), table.seats.get(user=ben)
    alerts.turn_started(table, game, seat, None)
    alerts.turn_started(table, game, seat, None)
    assert Notice.objects.filter(user=ben, kind=Notice.Kind.TURN).count() == 2
    outbox.run_once(later(21))
    assert set(Notice.objects.filter(user=ben).values_list("outcome", flat=True)) == {"moved on", "no device"}


def test_a_turn_based_tables_turn_brings_its_reminders_and_the_email_when_time_is_short():
    from tests.services.turn_based_tables import acting, turn_table

    table, players = turn_table(pace="move-24h")
    game = game_of(table)
    deciding = players[acting(table)]
    kinds = sorted(Notice.objects.filter(user_id=deciding.user_id).values_list("kind", "due"))
    assert [kind for kind, _due in kinds] == ["reminder", "reminder", "turn", "urgent"]
    given = game.deadline - game.turn_started
    assert given == timedelta(hours=24)
    dues = {kind: due for kind, due in kinds}
    reminders = sorted(due for kind, due in kinds if kind == "reminder")
    assert reminders == [game.turn_started + given * 0.8, game.deadline - timedelta(hours=1)]
    assert dues["urgent"] == game.deadline - timedelta(hours=2)
    assert [entry["code"] for entry in alerts.your_move(deciding.user_id)] == [table.code]
