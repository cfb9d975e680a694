"""What travels between server processes (the channel layer, Redis in the scale-out set-up):
no player key of anyone (table updates, chat lines, a moderator's warning), only the tags the
renderer tells people apart by."""

from __future__ import annotations

import json

import pytest

from game import services
from game.core.identity import tag
from game.services import moderation
from game.services.staff import Person
from tests.factories import act, open_table
from tests.games.sevens.tables import sevens_table

pytestmark = pytest.mark.django_db


def test_no_update_message_carries_a_player_key():
    table, (ana, ben) = open_table(start=False)
    messages = [
        services.seat_take(code=table.code, player=type(ana)(key="guest:cleo"), nickname="Cleo"),
        services.game_start(code=table.code, player=ana),
    ]
    dealt, (dora, eli) = open_table(names=("Dora", "Eli"), deck=["5", "9", "4", "1", "2", "3"])
    messages.append(act(dealt, eli, {"kind": "draw"}))  # Eli, left of the dealer, decides first
    sevens, (mia, tom, zoe) = sevens_table(names=("Mia", "Tom", "Zoe"))
    messages.append(services.seat_remove_by_staff(seat_id=sevens.seats.get(index=2).id))
    messages.append(services.chat_post(code=sevens.code, player=mia, text="hello", phrase="", nickname=""))
    messages += [
        message
        for _code, message in moderation.player_warn(
            by=None, person=Person(tom.key, "Tom"), warning="rules", table_code=sevens.code
        )
    ]
    keys = [ana.key, ben.key, "guest:cleo", dora.key, eli.key, mia.key, tom.key, zoe.key]
    for message in messages:
        text = json.dumps(message)
        assert not [key for key in keys if key in text]
        assert "guest:" not in text
    seats = messages[1]["snapshot"]["seats"]
    assert [seat["who"] for seat in seats] == [tag(ana.key), tag(ben.key), tag("guest:cleo")]
    assert messages[1]["snapshot"]["table"]["host"] == tag(ana.key)
