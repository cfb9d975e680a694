"""Issue 35, item 8 in one process: the forwarded-address rule (game.runtime.proxy). The proxy
overwrites X-Forwarded-For; the app takes its right-most address that is not a trusted proxy,
and when every hop is one, the nearest (never one further left, which the client may have
written); a socket reads the header's lines as a page does. (Through nginx: tests/scaleout/
test_limits_everywhere.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from game.runtime import proxy
from sevn_site.asgi import application

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")


def test_every_hop_trusted_the_nearest_one_is_the_client(settings):
    settings.SEVN_TRUSTED_PROXIES = "127.0.0.0/8"
    assert proxy.resolve("127.0.0.1", "127.0.0.9, 127.0.0.1") == "127.0.0.1"
    assert proxy.resolve("127.0.0.1", "203.0.113.7, 127.0.0.1") == "203.0.113.7"  # right-most untrusted
    assert proxy.resolve("127.0.0.1", "127.0.0.1") == "127.0.0.1"


@pytest.mark.django_db
def test_a_client_on_a_trusted_address_cannot_pick_another_trusted_one(settings):
    """A local client (127.0.0.1, trusted) writing another trusted address left of its own was
    counted as that address: it spent another's look-ups, or escaped its own limit."""
    settings.SEVN_TRUSTED_PROXIES, settings.SEVN_LOOKUPS_PER_MINUTE = "127.0.0.0/8", 3
    local = Client(REMOTE_ADDR="127.0.0.1")
    statuses = [
        local.get(f"/en/t/ZZZZ{n:02d}/", HTTP_X_FORWARDED_FOR=f"127.0.5.{n}, 127.0.0.1").status_code for n in range(4)
    ]
    assert statuses == [404] * 4
    assert local.get("/en/t/ZZZZ99/").status_code == 429  # they all counted against 127.0.0.1


@pytest.mark.django_db(transaction=True)
async def test_a_socket_reads_every_forwarded_line_as_a_page_does(settings):
    """Two X-Forwarded-For lines: a page (Django joins them) and a socket must name one client."""
    settings.SEVN_LOOKUPS_PER_MINUTE = 2
    page = Client(REMOTE_ADDR="127.0.0.1")
    for n in range(3):
        await sync_to_async(page.get)(f"/en/t/ZZZZ{n:02d}/", HTTP_X_FORWARDED_FOR="198.51.100.5")
    lines = [(b"x-forwarded-for", b"198.51.100.5"), (b"x-forwarded-for", b"127.0.0.1")]
    socket = WebsocketCommunicator(application, "/ws/t/ZZZZ99/?lang=en", headers=[ORIGIN, HOST, *lines])
    socket.scope["client"] = ["127.0.0.1", 40000]
    assert (await socket.connect())[0]
    said = await socket.receive_from()
    assert (await socket.receive_output())["code"] == 4429 and "Too many tables looked up" in said
    await socket.disconnect()  # as the browser answers the close: the consumer ends at once


def test_the_shipped_nginx_config_overwrites_the_forwarded_address_in_every_location():
    """deploy/nginx/sevn.conf, which the scale-out stack runs: every location that proxies sets
    X-Forwarded-For to the connection's own address, and nothing appends to it."""
    site = (Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "sevn.conf").read_text()
    locations = re.findall(r"\n    location [^{]+\{(.*?)\n    \}", site, re.S)
    proxying = [body for body in locations if "proxy_pass" in body]
    uncommented = re.sub(r"#[^\n]*", "", site)
    assert len(proxying) == uncommented.count("proxy_pass ") >= 4  # every proxy_pass is in a location read here
    for body in proxying:
        assert "proxy_set_header X-Forwarded-For $remote_addr;" in body, body
    assert "$proxy_add_x_forwarded_for" not in re.sub(r"#[^\n]*", "", site)
