"""E-mails through a real SMTP server (aiosmtpd on this machine): the daily e-mail of the tables
waiting for your move arrives once a day at the chosen hour in the person's time zone and
language, with a one-click unsubscribe that works; the e-mail when time is short goes only to
someone no push reached."""

from __future__ import annotations

import email
import email.policy
import threading
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from django.test import Client
from django.utils import timezone

from deploy.local_stack import free_port
from game.models import AlertSettings, Notice
from game.services import alerts, outbox
from tests.factories import game_of
from tests.services.test_alerts_outbox import a_table_of_two, move, subscribed

pytestmark = pytest.mark.django_db


class Inbox:
    """What the SMTP server was handed, parsed."""

    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []
        self.arrived = threading.Event()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        self.arrived.set()
        return "250 OK"


@pytest.fixture
def smtp(settings):
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.SEVN_SITE_URL = "https://sevn.example.org"
    yield inbox
    controller.stop()


def test_the_daily_email_comes_once_at_the_hour_in_the_persons_zone_and_language(smtp):
    table, (_ana, ana_p), (ben, _ben_p) = a_table_of_two(turn_seconds=0)
    move(table, ana_p, "pass")  # Ben's move now, for as long as he likes (no turn timer)
    row = alerts.settings_save(user=ben, language="de", email_digest=True, digest_hour=8, time_zone="Europe/Berlin")
    due = row.next_digest
    local = due.astimezone(alerts.zone("Europe/Berlin"))
    assert (local.hour, local.minute) == (8, 0) and timezone.now() < due <= timezone.now() + timedelta(days=1)
    assert outbox.run_once(due - timedelta(minutes=1)) == {}  # not before the hour
    assert outbox.run_once(due + timedelta(seconds=1)) == {"mailed": 1, "failed": 0, "gone": 0}
    assert smtp.arrived.wait(10)
    message = smtp.messages[0]
    assert message["To"] == ben.email
    assert message["Subject"] == "SEVN: 1 Tisch wartet auf deinen Zug", message["Subject"]
    body = message.get_content()
    assert table.code in body and f"https://sevn.example.org/t/{table.code}/" in body
    assert "https://sevn.example.org/de/settings/notifications/" in body
    unsubscribe = str(message["List-Unsubscribe"]).strip().strip("<>")
    assert unsubscribe.startswith("https://sevn.example.org/de/alerts/unsubscribe/")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # the process was down for five hours: it catches up with nothing more for that day
    assert outbox.run_once(due + timedelta(hours=5)) == {}
    assert len(smtp.messages) == 1
    assert Notice.objects.filter(user=ben, kind=Notice.Kind.DIGEST).count() == 1
    # the next day at eight: the next one
    smtp.arrived.clear()
    outbox.run_once(due + timedelta(days=1, seconds=1))
    assert smtp.arrived.wait(10) and len(smtp.messages) == 2
    # the mail program's one-click unsubscribe: a POST with no session, the token its proof
    path = unsubscribe.removeprefix("https://sevn.example.org")
    response = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert not AlertSettings.objects.get(user=ben).email_digest
    assert outbox.run_once(due + timedelta(days=2, seconds=1)) == {} and len(smtp.messages) == 2


def test_no_daily_email_on_a_day_nothing_waits(smtp):
    table, (_ana, _ana_p), (ben, _ben_p) = a_table_of_two(turn_seconds=0)  # the other one's move
    row = alerts.settings_save(user=ben, language="en", email_digest=True, digest_hour=20, time_zone="America/New_York")
    outbox.run_once(row.next_digest + timedelta(seconds=1))
    assert Notice.objects.get(user=ben, kind=Notice.Kind.DIGEST).outcome == "nothing"
    assert smtp.messages == []


def test_a_forged_or_damaged_unsubscribe_link_changes_nothing(client):
    _table, (_ana, _), (ben, _) = a_table_of_two(turn_seconds=0)
    alerts.settings_save(user=ben, language="en", email_digest=True)
    token = alerts.unsubscribe_token(ben.pk)
    page = client.get(f"/en/alerts/unsubscribe/{token}/")
    assert page.status_code == 200 and b"Stop the daily e-mail" in page.content
    assert AlertSettings.objects.get(user=ben).email_digest  # opening the link (a mail scanner) changes nothing
    response = client.post(f"/en/alerts/unsubscribe/{token[:-3]}xyz/")
    assert response.status_code == 400 and b"This link does not work" in response.content
    assert AlertSettings.objects.get(user=ben).email_digest


def test_the_email_when_time_is_short_goes_only_where_no_push_arrived(smtp, receiver):
    table, (_ana, ana_p), (ben, _ben_p) = a_table_of_two(turn_seconds=0)
    move(table, ana_p, "pass")
    Notice.objects.all().delete()
    game = game_of(table)
    seat = table.seats.get(user=ben)
    now = timezone.now()
    deadline = now + timedelta(hours=12)  # a turn-based clock's deadline: a move within 12 hours
    alerts.turn_started(table, game, seat, deadline, now)
    kinds = dict(Notice.objects.filter(user=ben).values_list("key", "due"))
    assert sorted(key.split(":")[0] for key in kinds) == ["hour", "late", "mail", "turn"]
    assert kinds[f"late:{game.id}:{game.version}"] == now + timedelta(hours=12) * 0.8
    assert kinds[f"hour:{game.id}:{game.version}"] == deadline - timedelta(hours=1)
    assert kinds[f"mail:{game.id}:{game.version}"] == deadline - timedelta(hours=2)
    # no device: the push finds none, and two hours before the deadline the e-mail goes
    outbox.run_once(deadline - timedelta(hours=2))
    assert smtp.arrived.wait(10)
    assert smtp.messages[0]["Subject"].strip().startswith(f"SEVN: your move at table {table.code},")
    assert "and 2 hours are left" in smtp.messages[0].get_content()
    # someone whose phone got the push gets no e-mail
    smtp.messages.clear()
    Notice.objects.all().delete()
    subscribed(ben, receiver.device())
    alerts.turn_started(table, game, seat, deadline, now)
    # a process that was down all along catches up at once: the push first, and the e-mail
    # (put off in that batch until the push has answered) is then not needed
    outbox.run_once(deadline - timedelta(hours=2))
    assert Notice.objects.get(user=ben, kind=Notice.Kind.TURN).outcome == "pushed"
    assert Notice.objects.get(user=ben, kind=Notice.Kind.URGENT_EMAIL).done is None
    outbox.run_once(deadline - timedelta(hours=1, minutes=50))
    assert Notice.objects.get(user=ben, kind=Notice.Kind.URGENT_EMAIL).outcome == "pushed"
    assert Notice.objects.get(user=ben, kind=Notice.Kind.TURN).outcome == "pushed"
    assert smtp.messages == []
