"""Moderation in anyone's language, and no player key on any staff page: what moderators store
is a code drawn in the reader's language (a German moderator's ban reads in Polish to a Polish
player), admin names a guest by a short tag of their key and finds them by it, and the data
migration turns the words stored before into codes."""

from __future__ import annotations

import importlib
import re

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from game import services
from game.core import staff_words
from game.core.identity import Player, staff_tag
from game.models import ChatMessage, ModAction, Report, Sanction, Table
from tests.factories import open_table

pytestmark = pytest.mark.django_db


def login(user: User, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def moderator(name: str, language: str) -> Client:
    user = User.objects.create_user(name, is_staff=True)
    user.groups.add(Group.objects.get(name="Moderators"))
    return login(user, language)


def superuser(language: str = "en") -> Client:
    return login(User.objects.create_superuser(f"root-{language}", f"{language}@example.com", "pw-123456"), language)


def act(client: Client, report: Report, action: str, **fields):
    data = {f"{action}-{name}": value for name, value in fields.items()}
    response = client.post(f"/admin/game/report/{report.id}/act/{action}/", data)
    assert response.status_code == 302
    return response


@pytest.fixture
def reported():
    """Ben (a guest) insults Ana at a running table with a bot; Ana reports the line."""
    table, (ana, ben) = open_table()
    services.chat_post(code=table.code, player=ana, text="good luck all")
    line = services.chat_post(code=table.code, player=ben, text="you are all idiots")["body"]["line"]
    report = services.report_create(
        code=table.code, player=ana, reason="insults", comment="rude", message_id=line["id"]
    )
    return table, ana, ben, report


def test_a_german_moderators_ban_reads_in_polish_to_a_polish_player():
    """Ben hosts a lobby alone and is banned by a German superuser: the table closes, and a
    Polish visitor reads why in Polish, an English one in English."""
    lobby, (ben,) = open_table(names=("Ben",), seats=2, start=False)
    report = services.report_create(code=lobby.code, player=Player("guest:ana"), reason="nickname", seat_index=0)
    german = superuser("de")
    act(german, report, "ban", duration="24h", reason="Beleidigungen")
    lobby.refresh_from_db()
    assert lobby.status == Table.Status.CLOSED
    assert "Gastgeber" not in lobby.closed_reason and "Spielleitung" not in lobby.closed_reason  # a code
    polish = Client().get(f"/pl/t/{lobby.code}/").content.decode()
    english = Client().get(f"/en/t/{lobby.code}/").content.decode()
    assert "The host can no longer play here." in english
    in_english = staff_words.say(lobby.closed_reason)
    from django.utils.translation import override

    with override("pl"):
        in_polish = staff_words.say(lobby.closed_reason)
    assert in_polish != in_english and in_polish in polish


def test_a_moderators_log_and_resolution_read_in_each_moderators_language(reported):
    table, _ana, ben, report = reported
    german = moderator("gerda", "de")
    act(german, report, "warn", warning="insults")
    act(german, report, "mute", duration="1h", scope="table", reason="Beleidigungen")
    act(german, report, "handle", note="")
    rows = list(ModAction.objects.order_by("id"))
    assert all(row.detail.startswith("{") for row in rows)  # codes, not German words
    assert "Moderator" not in rows[0].reason and "moderator" not in rows[0].reason
    polish = moderator("piotr", "pl")
    log = polish.get("/admin/game/modaction/").content.decode()
    assert "Ostrzeżenie od moderacji" in log  # the warning Ben read, in Polish
    assert f"przy stole {table.code}" in log and "1 godzina" in log  # the log's nominative (review 2026-12)
    page = polish.get(f"/admin/game/report/{report.id}/change/").content.decode()
    english = superuser("en").get(f"/admin/game/report/{report.id}/change/").content.decode()
    assert f"Muted in chat (1 hour, at table {table.code}); No action" in english
    assert "Muted in chat (1 hour" not in page and "No action" not in page
    assert "Beleidigungen" in page  # a reason typed by a moderator stays as typed


def test_admin_pages_name_guests_by_a_tag_never_by_their_key(reported):
    table, ana, ben, report = reported
    root = superuser()
    act(root, report, "mute", duration="1h", scope="everywhere", reason="insults")
    act(root, report, "rename", nickname="Player2")
    sanction = Sanction.objects.get()
    line = ChatMessage.objects.filter(author_key=ben.key).first()
    seat = table.seats.get(player_key=ben.key)
    pages = [
        "/admin/game/modaction/",
        f"/admin/game/modaction/{ModAction.objects.first().id}/change/",
        "/admin/game/report/",
        f"/admin/game/report/{report.id}/change/",
        "/admin/game/sanction/",
        f"/admin/game/sanction/{sanction.id}/change/",
        "/admin/game/chatmessage/",
        f"/admin/game/chatmessage/{line.id}/change/",
        "/admin/game/seat/",
        f"/admin/game/seat/{seat.id}/change/",
        "/admin/game/table/",
        f"/admin/game/table/{table.id}/change/",
    ]
    ben_tag = staff_tag(ben.key)
    assert re.fullmatch(r"guest·[0-9a-f]{6}", ben_tag)
    for url in pages:
        html = root.get(url).content.decode()
        for key in (ana.key, ben.key):
            assert key not in html, url
        assert "guest:" not in html and "guest%3A" not in html, url  # nobody's key, raw or in a link
    assert ben_tag in root.get(f"/admin/game/report/{report.id}/change/").content.decode()
    assert staff_tag(ana.key) in root.get(f"/admin/game/table/{table.id}/change/").content.decode()  # the host

    # a tag finds the person: typed in a search box, or as the report page's links give it
    def results(url: str, term: str) -> int:
        html = root.get(url, {"q": term}).content.decode()
        if 'id="result_list"' not in html:
            return 0
        rows = html.split('id="result_list"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
        return rows.count("<tr")

    for url, ben_rows in (
        ("/admin/game/modaction/", 2),
        ("/admin/game/sanction/", 1),
        ("/admin/game/chatmessage/", 1),
        ("/admin/game/seat/", 1),
        ("/admin/game/report/", 1),
    ):
        assert results(url, ben_tag) == ben_rows, url
        assert results(url, ben_tag[-6:]) == ben_rows, url  # the hex part alone finds them too
        assert results(url, "guest·000000") == 0, url
    assert results("/admin/game/table/", staff_tag(ana.key)) == 1
    chat = root.get("/admin/game/chatmessage/", {"who": ben_tag}).content.decode()
    assert "you are all idiots" in chat and "good luck all" not in chat
    assert root.get("/admin/game/chatmessage/", {"who": "guest·000000"}).status_code == 200
    page = root.get(f"/admin/game/report/{report.id}/change/").content.decode()
    assert "?who=guest%C2%B7" + ben_tag[-6:] in page


def test_the_migration_turns_stored_words_into_codes(reported):
    from django.apps import apps
    from django.utils.translation import override

    migration = importlib.import_module("game.migrations.0008_staff_words_as_codes")
    table, _ana, ben, report = reported
    with override("de"):
        german_host_gone = str(staff_words.WORDS["host_gone"])
        german_mute = str(staff_words.SANCTIONS["mute"])
    Table.objects.filter(id=table.id).update(status="closed", closed_reason=german_host_gone)
    common = {"actor_name": "mod", "target_key": ben.key, "target_name": "Ben", "table_code": table.code}
    ModAction.objects.create(action="warn", detail="spam", reason="Eine Moderatorin warnt dich", **common)
    ModAction.objects.create(action="mute", detail="1h, everywhere", reason="insults", **common)
    ModAction.objects.create(action="ban", detail="24h, 2 seat(s)", reason="abuse", **common)
    ModAction.objects.create(action="lift", detail=german_mute, **common)
    ModAction.objects.create(action="rename", detail="Ben → Player2", **common)
    ModAction.objects.create(action="handle", detail="nothing found", **common)
    Report.objects.filter(id=report.id).update(
        resolution=f"warned (spam); muted 15m {table.code}; renamed to Player2; table closed; looked twice"
    )
    migration.forward(apps, None)
    with override("en"):
        table.refresh_from_db()
        assert staff_words.say(table.closed_reason) == "The host can no longer play here."
        said = [(staff_words.say(row.detail), staff_words.say(row.reason)) for row in ModAction.objects.order_by("id")]
        report.refresh_from_db()
        resolution = staff_words.say(report.resolution)
    assert said == [
        ("Warned (Spam)", "A moderator warns you: please stop flooding the chat."),
        ("Muted in chat (1 hour, everywhere)", "insults"),
        ("Banned from tables (24 hours); removed from 2 seats", "abuse"),
        ("Lifted: Muted in chat", ""),
        ("Renamed Ben → Player2", ""),
        ("nothing found", ""),
    ]
    assert resolution == (
        f"Warned (Spam); Muted in chat (15 minutes, at table {table.code}); Renamed Ben → Player2; "
        "Closed a table; looked twice"
    )
    with override("pl"):
        assert staff_words.say(table.closed_reason) != "The host can no longer play here."
    migration.backward(apps, None)  # and back to English words
    table.refresh_from_db()
    assert table.closed_reason == "The host can no longer play here."


def test_the_admin_lists_neither_allauths_user_sessions_nor_its_authenticators():
    """allauth's own pages for sessions and authenticators named them in English in every language
    and showed addresses and secret data: neither is on the admin. A ban ends the sessions; a
    person's passkeys are listed on their account's page (below)."""
    client = superuser("de")
    index = client.get("/admin/").content.decode()
    assert "/admin/usersessions/" not in index and "/admin/mfa/" not in index
    assert "User sessions" not in index and "Authenticators" not in index
    assert client.get("/admin/usersessions/usersession/").status_code == 404
    assert client.get("/admin/mfa/authenticator/").status_code == 404


def test_an_accounts_page_lists_its_passkeys_by_kind_and_date_without_their_secrets():
    from allauth.mfa.models import Authenticator

    person = User.objects.create_user("mia", "mia@example.com", "pw-123456")
    secret = {"name": "Mia's phone", "credential": "SECRET-1"}
    Authenticator.objects.create(user=person, type=Authenticator.Type.WEBAUTHN, data=secret)
    html = superuser("de").get(f"/admin/auth/user/{person.pk}/change/").content.decode()
    assert "Passkeys und Authenticator-Apps" in html
    assert "SECRET-1" not in html
    assert "+00:00" not in html  # its dates as the admin writes dates, not raw


def test_permissions_are_listed_in_the_staffs_language_and_only_for_what_the_admin_shows():
    """Permission names are stored in English; the lists say the model and what each allows in
    the staff's language, and leave out models the admin does not show."""
    group = Group.objects.get(name="Moderators")
    html = superuser("de").get(f"/admin/auth/group/{group.pk}/change/").content.decode()
    assert "Tische und Spiele | Meldung | Darf Spieler von Tischen sperren" in html
    assert "Konten | E-Mail-Adresse | Darf hinzufügen" in html
    assert "Can add" not in html and "Can ban" not in html
    assert "user session" not in html and "| Sitzung |" not in html
    person = User.objects.create_user("ida", "ida@example.com", "pw-123456")
    html = superuser("fr").get(f"/admin/auth/user/{person.pk}/change/").content.decode()
    assert "Can add" not in html and "Can change" not in html
    assert "| Peut supprimer<" in html


def test_admin_lists_describe_yes_and_no_in_words_and_filters_start_with_a_capital(reported):
    client = superuser("de")
    html = client.get("/admin/game/table/").content.decode()
    assert 'alt="True"' not in html and 'alt="False"' not in html
    assert 'alt="Search"' not in html and 'alt="Suchen"' in html
    headings = re.findall(r"<summary>\s*(.*?)\s*</summary>", html, re.S)
    assert headings and all(heading[0].isupper() for heading in headings), headings
    english = superuser("en").get("/admin/game/table/").content.decode()
    assert re.search(r"<summary>\s*By ", english)
    people = client.get("/admin/auth/user/").content.decode()  # active, staff: yes/no icons
    assert re.search(r'<img src="[^"]*icon-yes\.svg" alt="Ja">', people)
    assert 'alt="True"' not in people and 'alt="False"' not in people


def test_french_admin_agrees_with_its_feminine_nouns(reported):
    """Django's own French says "les tables sélectionnés" and "Ajouter table"; the site words them
    as its other admin titles ("Ajouter : table"), and a rating flag (une alerte) is "ouverte"."""
    client = superuser("fr")
    tables = client.get("/admin/game/table/").content.decode()
    assert "sélectionnés" not in tables
    assert "Supprimer la sélection\u202f: tables" in tables
    assert "Ajouter\u202f: table" in tables
    flags = client.get("/admin/game/ratingflag/").content.decode()
    assert ">Ouverte<" in flags and ">Traitée<" in flags


def test_the_moderators_group_and_a_reports_summary_read_in_the_staffs_language(reported):
    """The group the site's migration names "Moderators" is shown by its name in the staff's
    language; a Dutch summary keeps the reported person's tag beside their name."""
    table, ana, ben, report = reported
    client = superuser("de")
    person = User.objects.create_user("ida", "ida@example.com", "pw-123456")
    assert ">Moderation</option>" in client.get(f"/admin/auth/user/{person.pk}/change/").content.decode()
    assert ">Moderation<" in client.get("/admin/auth/group/").content.decode()
    dutch = superuser("nl")
    summary = dutch.get(f"/admin/game/report/{report.id}/change/").content.decode()
    assert re.search(rf"heeft {report.reported_name} \(guest·[0-9a-f]+\) gemeld", summary), summary[:0]
    assert "Notificaties" in dutch.get("/admin/").content.decode()


def test_saving_a_group_or_a_person_in_the_admin_keeps_every_permission_they_held():
    """The lists show fewer permissions than exist (those of models the admin shows, and the
    site's own); one already held is listed all the same, so saving never takes it away."""
    from django.contrib.auth.models import Permission

    group = Group.objects.get(name="Moderators")
    held = set(group.permissions.values_list("codename", flat=True))
    assert "suspend_account" in held
    client = superuser("de")
    page = client.get(f"/admin/auth/group/{group.pk}/change/").content.decode()
    listed = set(re.findall(r'<option value="(\d+)" selected>', page))
    assert listed == {str(pk) for pk in group.permissions.values_list("pk", flat=True)}
    person = User.objects.create_user("ida", "ida@example.com", "pw-123456")
    odd = Permission.objects.get(codename="view_session")  # sessions: not on the admin
    person.user_permissions.add(odd)
    page = client.get(f"/admin/auth/user/{person.pk}/change/").content.decode()
    assert f'<option value="{odd.pk}" selected>' in page


def test_the_people_list_filters_by_group_names_in_the_staffs_language_and_the_polish_log_says_what_was_done(
    reported,
):
    table, ana, ben, report = reported
    assert ">Moderatorzy</a>" in superuser("pl").get("/admin/auth/user/").content.decode()
    moderator_client = moderator("Ola", "pl")
    act(moderator_client, report, "mute", duration="24h", where="table", reason="spam")
    log = moderator_client.get("/admin/game/modaction/").content.decode()
    assert "Wyciszono na czacie" in log and "Wyciszenie na czacie" not in log
    sanctions = moderator_client.get("/admin/game/sanction/").content.decode()
    assert ">Obowiązujące</a>" in sanctions


@pytest.mark.parametrize(
    ("language", "said"),
    [("pl", "Ostrzeżenie (obrażanie innych)"), ("de", "(Beleidigungen)"), ("fr", "(insultes)")],
)
def test_a_label_in_brackets_keeps_its_capital_only_where_the_language_does(language, said):
    """German keeps a noun's capital inside brackets; Polish, Dutch and French write it small."""
    from django.utils import translation

    with translation.override(language):
        assert said in staff_words.say('{"code": "warned", "warning": "insults"}')


def test_the_admin_index_sorts_names_as_a_reader_does_accents_aside():
    """French "Événements" sits among the E's, not after "Tables"."""
    from game.moderation.admin_language import reading_order

    assert sorted(["Tables", "Événements", "Étapes", "Parties"], key=reading_order) == [
        "Étapes",
        "Événements",
        "Parties",
        "Tables",
    ]
    french = superuser("fr")
    html = french.get("/admin/").content.decode()
    assert html.index("Événements") < html.index(">Tables<")
    assert "Modification" not in html and "Modifier" in html  # the change link: a verb, as "Ajouter"
    person = User.objects.create_user("ida", "ida@example.com", "pw-123456")
    page = french.get(f"/admin/auth/user/{person.pk}/change/").content.decode()
    assert "Authentification multifacteur | clé d’accès ou application d’authentification | Peut supprimer" in page


def test_a_form_sent_incomplete_names_its_fields_by_their_labels_in_the_staffs_language(reported):
    """A mute sent without its length, place and reason is refused with each field named as the
    form shows it, in the moderator's language, never by its name in the code ("duration")."""
    _table, _ana, _ben, report = reported
    german = moderator("gerda", "de")
    page = german.post(f"/admin/game/report/{report.id}/act/mute/", {}, follow=True).content.decode()
    said = page.split("Bitte die Felder ", 1)[1].split("</li>", 1)[0]
    assert said.startswith("„Dauer“, „Wo“ und „Grund") and said.endswith("“ ausfüllen.")
    assert "duration" not in said and "scope" not in said and "reason" not in said
    assert not Sanction.objects.exists()


def test_a_groups_own_page_a_reports_dates_and_a_passwords_summary_read_in_the_staffs_language(reported):
    """The group's change page is titled by its name in the staff's language (its trail too), not
    the name stored by the migration; a report's dates are written out as the language writes
    them, not as ISO; French puts its narrow space before a password summary's colons."""
    _table, _ana, _ben, report = reported
    german = superuser("de")
    group = Group.objects.get(name="Moderators")
    page = german.get(f"/admin/auth/group/{group.pk}/change/").content.decode()
    assert "<title>Moderation |" in page and "&rsaquo; Moderation" in page
    assert page.count("Moderators") == 1 and 'value="Moderators"' in page  # the stored name, only where it is edited
    summary = german.get(f"/admin/game/report/{report.id}/change/").content.decode()
    assert re.search(r"· \d{1,2}\. \w+ 20\d\d", summary.split('class="moderation__summary"', 1)[1].split("</p>", 1)[0])
    assert not re.search(r"20\d\d-\d\d-\d\d \d\d:\d\d", summary)
    person = User.objects.create_user("ida", "ida@example.com", "pw-123456")
    french = superuser("fr").get(f"/admin/auth/user/{person.pk}/change/").content.decode()
    assert "</strong>\u202f: <bdi>" in french and "</strong>: <bdi>" not in french


def test_french_admin_writes_typographic_apostrophes_and_spaces(reported):
    """Django's own French writes "l'ajout" with a straight apostrophe and "actuellement : clair"
    with a breaking space; the site's catalogue words those as the rest of its French."""
    french = superuser("fr")
    person = User.objects.create_user("ida", "ida@example.com", "pw-123456")
    for url in ("/admin/", f"/admin/auth/user/{person.pk}/change/", "/admin/game/report/"):
        page = french.get(url).content.decode()
        shown = re.sub(r"<[^>]*>", " ", re.sub(r"(?s)<(script|style)\b.*?</\1>", "", page))
        assert not re.search(r"\w'\w|\w&#x27;\w", shown), re.findall(r".{20}\w(?:'|&#x27;)\w.{20}", shown)
        assert not re.search(r"\w [:;!?](?=\s)", shown), re.findall(r".{20}\w [:;!?].{5}", shown)


def test_the_menus_hidden_count_says_what_waits():
    """A screen reader hears "2 requests and invitations waiting for your answer", in each language with its noun."""
    from django.template.loader import render_to_string
    from django.utils import translation

    for language, noun in (
        ("en", "invitations"),
        ("de", "Einladungen"),
        ("nl", "uitnodigingen"),
        ("pl", "zaproszenia"),
        ("fr", "invitations"),
    ):
        with translation.override(language):
            said = render_to_string("_waiting_badge.html", {"which": "menu", "count": 2})
        assert noun in said, (language, said)


def test_the_log_the_trail_and_a_forms_errors_put_their_colons_as_the_language_does(reported):
    """A log entry names who did what to whom with a dash before the name ("Banned from tables –
    Ben", never "Banned from tables Ben"); French keeps its narrow space before each colon, in the
    entry, in the page's trail (Django cut it to words and rejoined them with plain spaces) and in
    a form sent incomplete; a ban's end reads "jusqu'au 7 décembre"."""
    _table, _ana, _ben, report = reported
    french = superuser("fr")
    page = french.post(f"/admin/game/report/{report.id}/act/mute/", {}, follow=True).content.decode()
    assert "Remplissez les champs «\u202fDurée\u202f», «\u202fOù\u202f» et «\u202fMotif" in page
    act(french, report, "ban", duration="24h", reason="insultes")
    entry = ModAction.objects.get(action=ModAction.Action.BAN)
    page = french.get(f"/admin/game/modaction/{entry.pk}/change/").content.decode()
    assert f"root-fr\u202f: Banni des tables – {report.reported_name}" in page
    trail = french.get(f"/admin/game/report/{report.id}/change/").content.decode()
    assert f"&rsaquo; {report.table_code}\u202f: " in trail.split('class="breadcrumbs"', 1)[1].split("</div>", 1)[0]
    assert "jusqu’au " in trail
    english = superuser("en").get(f"/admin/game/modaction/{entry.pk}/change/").content.decode()
    assert f"root-fr: Banned from tables – {report.reported_name}" in english


def test_a_groups_row_is_read_aloud_by_its_name_in_the_staffs_language():
    page = superuser("pl").get("/admin/auth/group/").content.decode()
    assert 'aria-label="Wybierz ten obiekt do wykonania akcji – Moderatorzy"' in page
    assert "Moderators" not in page


@pytest.mark.parametrize("language", ["de", "nl", "pl", "fr"])
def test_adding_an_account_in_admin_reads_in_the_staffs_language(language):
    """Django's German leaves the add page's password choice in English, and no language of
    Django's words the line under its title ("After you've created a user…") as the site does."""
    page = superuser(language).get("/admin/auth/user/add/").content.decode()
    for english in ("After you’ve created a user", "Password-based authentication", ">Enabled<", ">Disabled<"):
        assert english not in page, english


def test_a_ban_that_took_no_seat_says_no_count_of_seats():
    """A ban of someone seated nowhere: French writes 0 in the singular, so "retiré de 0 place"
    would read "retiré d’une place"; the log says the ban alone."""
    from django.utils.translation import override

    stored = staff_words.store(staff_words.entry("banned_seats", duration="24h", seats=0))
    one = staff_words.store(staff_words.entry("banned_seats", duration="24h", seats=1))
    with override("fr"):
        assert staff_words.say(stored) == "Banni des tables (24 heures)"
        assert "retiré d’une place" in staff_words.say(one)
    assert staff_words.say(stored) == staff_words.say(staff_words.store(staff_words.entry("banned", duration="24h")))
