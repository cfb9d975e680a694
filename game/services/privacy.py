"""Who may see whom: a private person's games, names and results are for themselves and their
friends; everyone else reads "a private player" where their name would be (in replays,
records, profile lists and leaderboards), with no link to their profile. A person who hides
where they play is never led to from a finished game's record to the table they still sit at.

Reads only; the pages and the record service ask here before they show a name.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext

from game.models import Friendship, Game, GameResult, ModAction, Profile, Seat, Table


def private_player() -> str:
    """What a viewer reads in place of a private person's name (in the active language)."""
    return gettext("a private player")


def hidden_from(viewer_id: int | None, user_ids: Iterable[int]) -> set[int]:
    """The people among `user_ids` the viewer may not see: private ones who are neither the
    viewer nor the viewer's friends."""
    private = set(Profile.objects.filter(user_id__in=set(user_ids), private=True).values_list("user_id", flat=True))
    if not private or viewer_id is None:
        return private
    private.discard(viewer_id)
    friends = Friendship.objects.filter(
        from_user_id=viewer_id, to_user_id__in=private, status=Friendship.Status.FRIENDS
    ).values_list("to_user_id", flat=True)
    return private - set(friends)


def seated_users(games: Iterable[Game]) -> dict[int, dict[int, int]]:
    """For each finished game, who had an account in which seat ({game id: {seat: user id}}):
    from the game's results, and for a seat without one (a guest who signed up later) the
    account now in that seat, if it is the one that played (the same name)."""
    games = list(games)
    found: dict[int, dict[int, int]] = {game.id: {} for game in games}
    for game_id, seat, user_id in GameResult.objects.filter(game__in=games).values_list("game_id", "seat", "user_id"):
        found[game_id][seat] = user_id
    by_table: dict[int, list[Game]] = {}
    for game in games:
        by_table.setdefault(game.table_id, []).append(game)
    rows = Seat.objects.filter(table_id__in=by_table, user__isnull=False).values_list(
        "table_id", "index", "nickname", "user_id"
    )
    for table_id, index, nickname, user_id in rows:
        for game in by_table[table_id]:
            if index < len(game.players) and game.players[index] == nickname:
                found[game.id].setdefault(index, user_id)
    _removed_by_staff(by_table, found)
    return found


NAME_KEPT = ModAction._meta.get_field("target_name").max_length  # the log keeps a name's first 20 letters


def _removed_by_staff(by_table: dict[int, list[Game]], found: dict[int, dict[int, int]]) -> None:
    """Accounts staff removed from a seat mid-game: the seat no longer names its account (a bot
    plays it on), so the moderators' log says whose it was (an account's player key is
    "user:<id>"), matched by the name the game shows at that seat."""
    codes = dict(Table.objects.filter(id__in=by_table).values_list("code", "id"))
    removed = ModAction.objects.filter(
        action=ModAction.Action.REMOVE, table_code__in=codes, target_key__startswith="user:"
    ).values_list("table_code", "target_name", "target_key")
    for code, name, key in removed:
        user_id = key.removeprefix("user:")
        if not user_id.isdigit():
            continue
        for game in by_table[codes[code]]:
            for index, shown in enumerate(game.players):
                if shown == name or (len(name) == NAME_KEPT and shown.startswith(name)):
                    found[game.id].setdefault(index, int(user_id))


def shown_names(names: list[str], hidden_seats: set[int]) -> list[str]:
    """The names of a game's seats as a viewer reads them: "a private player" for each hidden
    seat, every name still its own (a record's seats need different names; game.fair.verify)."""
    shown = list(names)
    taken = {name.casefold() for seat, name in enumerate(names) if seat not in hidden_seats}
    for seat in sorted(hidden_seats):
        if seat >= len(shown):
            continue
        name, count = private_player(), 1
        while name.casefold() in taken:
            count += 1
            name = f"{private_player()} ({count})"
        taken.add(name.casefold())
        shown[seat] = name
    return shown


def hidden_seats_of(games: list[Game], viewer_id: int | None) -> dict[int, set[int]]:
    """For each game, the seats whose person the viewer may not see ({game id: {seat}})."""
    seated = seated_users(games)
    hidden = hidden_from(viewer_id, {user_id for seats in seated.values() for user_id in seats.values()})
    return {
        game_id: {seat for seat, user_id in seats.items() if user_id in hidden} for game_id, seats in seated.items()
    }


def table_hidden(game: Game, seats: dict[int, int], viewer_id: int | None, viewer_key: str | None) -> bool:
    """Whether a finished game's record (which names its table: the deal's proof needs the
    code) must not be given to this viewer: its table is still open and someone of the game
    still sits there who hides from this viewer (who hides where they play, from everyone; or a
    private person the viewer may not see, whose name the open table would show), and the
    viewer does not sit there themselves. Seats stay after a game: the next one may be played
    there any time; once the table closes, the record is given, private people unnamed."""
    if game.table.status == game.table.Status.CLOSED:
        return False
    others = set(seats.values()) - {viewer_id}
    hiding = set(Profile.objects.filter(user_id__in=others, hide_online=True).values_list("user_id", flat=True))
    hiding |= hidden_from(viewer_id, others)
    if not hiding or not Seat.objects.filter(table_id=game.table_id, user_id__in=hiding).exists():
        return False
    return not (viewer_key and Seat.objects.filter(table_id=game.table_id, player_key=viewer_key).exists())
