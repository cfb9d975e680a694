"""The Polish reader's second round (December 2026): the words added for turn-based tables,
account settings and the hard bot's analysis, kept as they were fixed."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext, ngettext

from tests.rules.test_wording import _msgstrs
from tests.rules.texts import all_text, read, read_sevens


def test_polish_second_round_2026_12():
    ui = " ".join(_msgstrs("pl"))
    for wrong in (
        "Odbierz moje miejsce",  # an imperative with "my": the button says "your own"
        "oceniane decyzje",  # "being judged": they were judged
        "Dodany %(added)s",  # masculine; the passkey's date is said impersonally
        "– utrata %(loss)s punktu",  # "punktu" is wrong for a whole number of points
        "otwarcie rzędu innym",  # read as "with another six"
        "Zamrożenie niewłaściwej",  # a mistake kind, lower case like the others
        "bliskie decyzje",  # a close call is "niewielka różnica" everywhere
    ):
        assert wrong not in ui, wrong
    with translation.override("pl"):
        assert gettext("Pace") == "Tempo gry" != gettext("Bot speed")
        assert gettext("Turn-based") == "Gra turowa"
        assert gettext("%(points)s points expected") == "średnio %(points)s\u00a0pkt"
        assert ngettext("Your move at %(n)s table", "Your move at %(n)s tables", 2).startswith(gettext("Your move"))
    prose = all_text(read("pl")) + all_text(read_sevens("pl"))
    assert "bliska decyzja" not in prose and "niewielka różnica" in prose
