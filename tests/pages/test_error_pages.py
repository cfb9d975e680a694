"""Error pages in the reader's language, inside the site's own frame, with the way back: an
address with no page (404), a page not open to this person (403), a request the site could not
read (400), and the site's own failure (500, drawn with no context at all)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.test import RequestFactory
from django.utils import translation
from django.views import defaults

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lang", "heading"),
    [
        ("en", "There is no page at this address"),
        ("de", "Unter dieser Adresse gibt es keine Seite"),
        ("fr", "Il n’y a pas de page à cette adresse"),
    ],
)
def test_an_address_with_no_page_says_so_in_the_reader_s_language(client, settings, lang, heading):
    settings.DEBUG = False
    prefix = "" if lang == "en" else f"/{lang}"
    page = client.get(f"{prefix}/no-such-page/")
    assert page.status_code == 404
    text = page.content.decode()
    assert heading in text and 'class="site-header"' in text  # the site's own frame, with its menu
    assert 'href="/' in text and "Not Found" not in text


def test_a_profile_that_does_not_exist_gets_the_same_page(client, settings):
    settings.DEBUG = False
    page = client.get("/nl/u/Nobody-at-all/")
    assert page.status_code == 404
    assert "Op dit adres staat geen pagina" in page.content.decode()


def test_a_page_s_own_reason_is_said_under_the_heading(client, settings):
    """A page that knows why there is nothing (an unknown table code) says that, not the guess
    about a mistyped address."""
    settings.DEBUG = False
    page = client.get("/de/t/ZZZZZZ/")
    text = page.content.decode()
    assert page.status_code == 404 and "Unter dieser Adresse gibt es keine Seite" in text
    assert "Es gibt keinen Tisch mit diesem Code." in text and "vertippt" not in text


@pytest.mark.parametrize(
    ("view", "error", "status", "words"),
    [
        (defaults.permission_denied, PermissionDenied(), 403, "Diese Seite ist für dich nicht zugänglich"),
        (defaults.bad_request, SuspiciousOperation(), 400, "Die Website konnte diese Anfrage nicht lesen"),
    ],
)
def test_a_refused_request_says_why_in_the_reader_s_language(rf: RequestFactory, view, error, status, words):
    from django.contrib.auth.models import AnonymousUser

    request = rf.get("/de/")
    request.user = AnonymousUser()
    request.session = {}
    with translation.override("de"):
        page = view(request, error)
    assert page.status_code == status and words in page.content.decode()


def test_the_site_s_own_failure_is_drawn_without_any_context(rf: RequestFactory):
    """server_error renders 500.html with an empty context: nothing the failure may have broken
    (the database, a context processor) is needed to tell the person."""
    with translation.override("pl"):
        page = defaults.server_error(rf.get("/pl/"))
    text = page.content.decode()
    assert page.status_code == 500 and 'lang="pl"' in text
    assert "Coś poszło nie tak po naszej stronie" in text
