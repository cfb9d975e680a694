"""Reads about people: their tables, games, profiles, friends, invitations, the leaderboards
and their statistics (the hot table snapshot is services.table_reads')."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q, QuerySet

from game import registry
from game.core.identity import Player, tag
from game.drawkit.words import place_of
from game.models import (
    Friendship,
    Game,
    GameResult,
    Invitation,
    Presence,
    Profile,
    Rating,
    RatingChange,
    Seat,
    Table,
)
from game.services import online, privacy
from game.services.results import final_scores


def tables_of(player_key: str) -> QuerySet[Table]:
    """The open tables a player sits at or hosts, newest first. Their ids are one union of two
    index reads (an OR of the two had PostgreSQL read every table: 11 ms among 20,000)."""
    seated = Seat.objects.filter(player_key=player_key).order_by().values("table_id")
    hosted = Table.objects.filter(host_key=player_key).order_by().values("id")
    return Table.objects.exclude(status=Table.Status.CLOSED).filter(id__in=seated.union(hosted)).order_by("-created")


def account_player(user_id: int) -> Player | None:
    """The player a signed-in person is, from their account (a socket that learns of a log-in)."""
    profile = Profile.objects.select_related("user").filter(user_id=user_id).first()
    if profile is None:
        return None
    return Player(key=profile.player_key, user_id=user_id, username=profile.user.get_username()[:20])


def your_tables(player_key: str, limit: int = 20, skip: Iterable[str] = ()) -> list[dict]:
    """A person's open tables, the ones waiting for their move first: {"table", "your_move"}.
    `skip`: the codes of tables listed elsewhere on the page (skipped before the limit)."""
    tables = list(tables_of(player_key).exclude(code__in=list(skip))[:limit])
    seats = dict(Seat.objects.filter(player_key=player_key, table__in=tables).values_list("table_id", "index"))
    playing = [table for table in tables if table.status == Table.Status.PLAYING and table.id in seats]
    # whose decision it is: Game.acting, kept at every move (services.play); a game begun before
    # it was kept has none until its next move, and is read from its state
    acting = dict(Game.objects.filter(table__in=playing, over=False).values_list("table_id", "acting"))
    unknown = [table_id for table_id, seat in acting.items() if seat is None]
    if unknown:
        by_id = {table.id: table for table in tables}
        for table_id, state in Game.objects.filter(table_id__in=unknown, over=False).values_list("table_id", "state"):
            kind = registry.of(by_id[table_id])
            acting[table_id] = kind.acting(kind.from_json(state))
    rows = []
    for table in tables:
        your_move = table.id in acting and acting[table.id] == seats[table.id]
        rows.append({"table": table, "your_move": your_move})
    rows.sort(key=lambda row: not row["your_move"])  # stable: newest first within each
    return rows


def recent_games(user_id: int, limit: int = 10, viewer_id: int | None = None) -> list[dict]:
    """A person's finished games, newest first, as `viewer_id` may see them: when, which game,
    who played, who won, whether they did, everyone's final score best first and their place
    ({"game", "kind", "players", "winner", "won", "scores", "seat", "place"}: "2nd of 4"); a
    private person the viewer may not see is "a private player" (services.privacy)."""
    seats = dict(Seat.objects.filter(user_id=user_id).values_list("table_id", "index"))
    games = list(
        Game.objects.filter(over=True, table_id__in=seats).select_related("table").order_by("-finished", "-id")[:limit]
    )
    played = dict(GameResult.objects.filter(user_id=user_id, game__in=games).values_list("game_id", "seat"))
    hidden = privacy.hidden_seats_of(games, viewer_id)
    rows = []
    for game in games:
        names = privacy.shown_names(list(game.players), hidden[game.id])
        winner = names[game.winner] if game.winner is not None and game.winner < len(names) else None
        seat = played.get(game.id, seats.get(game.table_id))
        scores = final_scores(game, names)
        place = next((row.place for row in scores if row.seat == seat), None)
        rows.append(
            {
                "game": game,
                "kind": registry.of(game.table).label,
                "players": names,
                "winner": winner,
                "won": place == 1 if place is not None else game.winner is not None and game.winner == seat,
                "scores": scores,
                "seat": seat,
                "place": place_of(place, len(scores)) if place is not None else "",
            }
        )
    return rows


def profile_of(name: str) -> Profile | None:
    """A person's profile by their username (exactly as written, or in other letter case)."""
    return Profile.objects.select_related("user").filter(user__username__iexact=name, user__is_active=True).first()


def profile_stats(user_id: int, opponents: int = 5, viewer_id: int | None = None) -> dict:
    """A person's finished games: played and won per game, and whom they played most often
    ({"per_kind": [{"kind", "played", "won"}], "opponents": [(name, games)]}), each opponent
    as `viewer_id` may see them: a private person is "a private player" (services.privacy)."""
    seats = dict(Seat.objects.filter(user_id=user_id).values_list("table_id", "index"))
    counts: dict[str, list[int]] = {}
    met: dict[tuple, int] = {}
    games = list(Game.objects.filter(over=True, table_id__in=seats).only("id", "table_id", "winner", "players"))
    kinds = dict(Table.objects.filter(id__in=seats).values_list("id", "kind"))
    seated = privacy.seated_users(games)
    hidden = privacy.hidden_from(viewer_id, {user for found in seated.values() for user in found.values()})
    for game in games:
        tally = counts.setdefault(kinds[game.table_id], [0, 0])
        tally[0] += 1
        tally[1] += game.winner is not None and game.winner == seats[game.table_id]
        for index, name in enumerate(game.players):
            if index != seats[game.table_id]:
                user = seated[game.id].get(index)
                who = ("hidden", user) if user in hidden else ("name", name)  # one private person, one line
                met[who] = met.get(who, 0) + 1
    per_kind = [
        {"kind": registry.KINDS[kind].label if kind in registry.KINDS else kind, "played": p, "won": w}
        for kind, (p, w) in sorted(counts.items())
    ]
    named = [
        (privacy.private_player() if who[0] == "hidden" else who[1], games, who[0] == "hidden")
        for who, games in met.items()
    ]
    named.sort(key=lambda item: (-item[1], item[2], item[0]))
    return {"per_kind": per_kind, "opponents": [(name, games) for name, games, _hidden in named[:opponents]]}


def friends_of(user_id: int) -> list[dict]:
    """A person's friends, online ones first: {"user", "name", "online", "table"}: online with any
    page of the site open (services.online), and the open table where they have a socket; neither
    for one who hides where they play. A suspended account is left
    out, as everywhere (its friendships come back with it)."""
    rows = list(
        Friendship.objects.filter(from_user_id=user_id, status=Friendship.Status.FRIENDS, to_user__is_active=True)
        .select_related("to_user__sevn_profile")
        .order_by("to_user__username")
    )
    keys = {}
    for row in rows:
        profile = getattr(row.to_user, "sevn_profile", None)
        if profile is not None and not profile.hide_online:
            keys[profile.player_key] = row.to_user_id
    where = dict(
        Presence.objects.filter(player_key__in=keys)
        .exclude(table__status=Table.Status.CLOSED)
        .values_list("player_key", "table__code")
    )
    at = {keys[key]: code for key, code in where.items()}
    here = online.on_site(keys.values()) | set(at)  # any page of the site open, or a table's
    friends = [
        {
            "user": row.to_user,
            "name": row.to_user.get_username(),
            "online": row.to_user_id in here,
            "table": at.get(row.to_user_id),
        }
        for row in rows
    ]
    friends.sort(key=lambda friend: not friend["online"])
    return friends


def friend_tags(user_id: int | None) -> frozenset[str]:
    """The tags (identity.tag) of a person's friends' player keys: what a table's screen compares
    with its seats' to show a private profile's record to its friends (game.screen.table.seen_by)."""
    if user_id is None:
        return frozenset()
    keys = Profile.objects.filter(
        user__relations_in__from_user_id=user_id, user__relations_in__status=Friendship.Status.FRIENDS
    ).values_list("player_key", flat=True)
    return frozenset(tag(key) for key in keys)


def friend_requests(user_id: int) -> dict:
    """Requests made to a person and by them, and whom they blocked: {"incoming", "outgoing",
    "blocked"}. A request from someone they blocked is not theirs to see (services.friends)."""
    rows = (
        Friendship.objects.filter(Q(to_user_id=user_id, status=Friendship.Status.REQUESTED) | Q(from_user_id=user_id))
        .exclude(status=Friendship.Status.FRIENDS)
        .select_related("from_user", "to_user")
    )
    found: dict[str, list] = {"incoming": [], "outgoing": [], "blocked": []}
    for row in rows:
        if row.to_user_id == user_id:
            if row.from_user.is_active:  # a suspended account is nobody, here as on its profile
                found["incoming"].append(row.from_user)
        elif row.status == Friendship.Status.REQUESTED:
            if row.to_user.is_active:
                found["outgoing"].append(row.to_user)
        else:
            found["blocked"].append(row.to_user)
    blocked = {person.pk for person in found["blocked"]}
    found["incoming"] = [person for person in found["incoming"] if person.pk not in blocked]
    return found


def relation(user_id: int, other_id: int) -> str | None:
    """How a person stands to another: "friends", "requested" (asked by them), "asked_you",
    "blocked" (by them), or None. Their own side first: a person they blocked has not "asked
    them"; a person who blocked them is whatever their own side says (a block is never shown)."""
    rows = {
        row.from_user_id: row.status
        for row in Friendship.objects.filter(
            Q(from_user_id=user_id, to_user_id=other_id) | Q(from_user_id=other_id, to_user_id=user_id)
        )
    }
    if user_id in rows:
        return rows[user_id]
    if rows.get(other_id) == Friendship.Status.REQUESTED:
        return "asked_you"
    return None


def table_people(table_id: int, viewer_id: int) -> list[dict]:
    """The people with an account seated at a table, but the viewer, and how the viewer stands
    to each ({"user_id", "name", "relation"}: see `relation`)."""
    seated = list(
        Seat.objects.filter(table_id=table_id, user__isnull=False)
        .exclude(user_id=viewer_id)
        .values_list("user_id", "user__username")
    )
    ids = [user_id for user_id, _name in seated]
    mine = dict(
        Friendship.objects.filter(from_user_id=viewer_id, to_user_id__in=ids).values_list("to_user_id", "status")
    )
    asked = set(
        Friendship.objects.filter(
            to_user_id=viewer_id, from_user_id__in=ids, status=Friendship.Status.REQUESTED
        ).values_list("from_user_id", flat=True)
    )
    return [
        {"user_id": user_id, "name": name, "relation": mine.get(user_id) or ("asked_you" if user_id in asked else None)}
        for user_id, name in seated
    ]


def invitations_of(user_id: int) -> list[dict]:
    """A person's unanswered invitations to tables still open, newest first."""
    rows = (
        Invitation.objects.filter(
            to_user_id=user_id,
            answered__isnull=True,
            table__status__in=(Table.Status.LOBBY, Table.Status.PLAYING),
            from_user__is_active=True,  # a suspended account invites nobody (nor is anybody)
        )
        .select_related("table", "from_user")
        .order_by("-created")[:50]
    )
    return [
        {
            "id": row.id,
            "code": row.table.code,
            "game": registry.of(row.table).label,
            "from": row.from_user.get_username(),
            "created": row.created,
            "status": row.table.get_status_display(),
        }
        for row in rows
    ]


def leaderboard(kind: str, viewer_id: int | None = None, *, friends: bool = False, limit: int = 100) -> list[dict]:
    """The best ratings in one game ({"rank", "name", "value", "games", "you", "hidden"}):
    everyone's, a private person as "a private player" to those who may not see them
    (services.privacy; `hidden`: no link to their profile), or the viewer's and their friends'
    only. A suspended account is nobody: not listed."""
    rows = Rating.objects.filter(kind=kind, games__gt=0, user__is_active=True).select_related("user")
    if friends:
        ids = set(
            Friendship.objects.filter(from_user_id=viewer_id, status=Friendship.Status.FRIENDS).values_list(
                "to_user_id", flat=True
            )
        )
        rows = rows.filter(user_id__in=ids | {viewer_id})
    best = list(rows.order_by("-value", "user__username")[:limit])
    hidden = privacy.hidden_from(viewer_id, {row.user_id for row in best})
    return [
        {
            "rank": rank,
            "name": privacy.private_player() if row.user_id in hidden else row.user.get_username(),
            "value": row.value,
            "games": row.games,
            "you": row.user_id == viewer_id,
            "hidden": row.user_id in hidden,
        }
        for rank, row in enumerate(best, start=1)
    ]


RATING_HISTORY = 200  # the profile's chart draws a person's last this many rated games per game


def game_stats(user_id: int) -> list[dict]:
    """A person's figures per game, from their recorded results: games, wins, average points,
    the game's own figures in words (its Kind's `figure_lines`), and their rating with its
    history, oldest first ({"kind", "label", "games", "wins", "points", "lines", "rating",
    "rated_games", "history": [(when, rating)]}). Games they have no result in are left out."""
    tallies: dict[str, dict] = {}
    for kind, won, points, figures in GameResult.objects.filter(user_id=user_id).values_list(
        "kind", "won", "points", "figures"
    ):
        tally = tallies.setdefault(kind, {"games": 0, "wins": 0, "points": 0, "figures": {}})
        tally["games"] += 1
        tally["wins"] += won
        tally["points"] += points
        for name, value in figures.items():
            tally["figures"][name] = tally["figures"].get(name, 0) + value
    ratings = {row.kind: row for row in Rating.objects.filter(user_id=user_id)}
    found = []
    for name, kind in registry.KINDS.items():
        tally = tallies.get(name)
        if tally is None:
            continue
        rating = ratings.get(name)
        history: list[tuple] = []
        if rating is not None:
            changes = list(
                RatingChange.objects.filter(user_id=user_id, kind=name)
                .order_by("-created", "-id")
                .values_list("created", "before", "value")[:RATING_HISTORY]
            )[::-1]
            if changes:
                history = [(changes[0][0], changes[0][1])] + [(when, value) for when, _before, value in changes]
        found.append(
            {
                "kind": name,
                "label": kind.label,
                "games": tally["games"],
                "wins": tally["wins"],
                "points": tally["points"] / tally["games"],
                "lines": kind.figure_lines(tally["figures"], tally["games"]),
                "rating": rating.value if rating is not None else None,
                "rated_games": rating.games if rating is not None else 0,
                "history": history,
            }
        )
    return found
