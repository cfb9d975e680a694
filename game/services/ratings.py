"""Results and ratings: when a game ends, one result row per signed-in person seated (the
profile's stats), and at a rated table new ratings from the finishing places.

Ratings are openskill's Plackett-Luce model (a Bayesian rating for games of many players,
ranked by place): each person has a mean skill `mu` and an uncertainty `sigma` per game, and
the number shown is the conservative `mu - 3 sigma`, scaled (`shown`). Only people are rated:
bots are left out of the ranking, and a person whose seat a bot took over because they left
(the seat went away during the game) ranks last, behind everyone who stayed; the game still
rates the others, unless someone left before the game was well under way (`left_early`): then
it rates only those who left, so that an account that joins and leaves at once cannot hand its
rating to the others. A game whose people all left (played out by computer players once nobody
came back: services.play.ABANDONED_AFTER) rates each of them as a loss, never as a tie among
them (a tie lifts a shown rating: its uncertainty shrinks). Leaving again and again, and rated
games between the same two accounts that always end the same way, are flagged for moderators
(services.rating_flags). Each result keeps how the person's part in the game ended, its outcome
(services.reliability, which follows up on them: pauses, flags). This module is the only writer
of results, ratings and their history.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence

from openskill.models import PlackettLuce

from game import registry
from game.models import Event, Game, GameResult, Rating, RatingChange, Seat, Table
from game.services import rating_flags, reliability

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, tau 25/300
SCALE, BASE = 40, 1000  # shown = BASE + SCALE * (mu - 3 sigma): a new player shows 1000
# A game is well under way once every person seated has made this many moves of their own (a
# move the clock or a computer player made for them does not count). The ratings page says so.
UNDER_WAY_MOVES = 3

Ratings = list[tuple[float, float]]


def shown(mu: float, sigma: float) -> int:
    """The rating people see: openskill's ordinal (mu - 3 sigma), scaled."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(alpha=SCALE, target=BASE))


def rate_places(ratings: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) for each player of one game from their finishing places (1 is first,
    equal places are ties). Plain Python: the simulation tests call it without a database."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = MODEL.rate(teams, ranks=[float(place) for place in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


def standings(places: Sequence[int], away: Sequence[bool]) -> list[int]:
    """The places the rating uses: those who stayed keep their order, those who left come after
    all of them (sharing the last place)."""
    stayed = sorted({place for place, gone in zip(places, away, strict=True) if not gone})
    rank = {place: position + 1 for position, place in enumerate(stayed)}
    last = len(stayed) + 1
    return [last if gone else rank[place] for place, gone in zip(places, away, strict=True)]


def left_early(records: Iterable[dict], people: Collection[int]) -> set[int]:
    """The seats marked away before the game was well under way: before every person's seat
    (`people`) had made UNDER_WAY_MOVES moves of its own. `records` are the game's "action" and
    "away" records in the order they were logged."""
    moves = dict.fromkeys(people, 0)
    early = set()
    for record in records:
        if record["type"] == "action" and not record.get("bot") and record["seat"] in moves:
            moves[record["seat"]] += 1
        elif record["type"] == "away" and min(moves.values(), default=0) < UNDER_WAY_MOVES:
            early.add(record["seat"])
    return early


def losses(ratings: Sequence[tuple[float, float]]) -> Ratings:
    """New (mu, sigma) for people who all left one game: each loses, as to an equal opponent."""
    return [rate_places([rating, rating], [2, 1])[0] for rating in ratings]


def game_finished(table: Table, game: Game, state: dict) -> None:
    """Record a game that has just ended (called by the play service inside its transaction,
    after the game's events are saved): results for the signed-in people, and their ratings
    when the table is rated."""
    kind = registry.of(table)
    points = kind.points(state)
    users = dict(Seat.objects.filter(table=table, bot_level="", user__isnull=False).values_list("index", "user_id"))
    if not users or points is None:
        return
    wanted = {*kind.figure_events, "action", *reliability.RECORDS}
    logged = list(Event.objects.filter(game=game, kind__in=wanted).order_by("seq").values_list("data", flat=True))
    away_at_end = set(Seat.objects.filter(table=table, away=True).values_list("index", flat=True))
    left = {event["seat"] for event in logged if event["type"] == "away"} | away_at_end
    places = kind.places(state)
    figures = kind.seat_figures(state, [event for event in logged if event["type"] in kind.figure_events])
    seats = sorted(users)
    rated = table.rated and len(seats) >= 2
    people = [index for index, bot in enumerate(game.bots) if not bot] or seats
    gone_early = left_early(logged, people)
    early = rated and bool(gone_early)
    counted = {seat for seat in seats if rated and (seat in left or not early)}  # whose rating this game moves
    dated = reliability.away_dated(game, users) if table.turn_based else set()
    ends = reliability.outcomes(table, logged, sorted({*people, *seats}), away_at_end, gone_early, dated)
    results = GameResult.objects.bulk_create(
        GameResult(
            game=game,
            user_id=users[seat],
            kind=kind.name,
            seat=seat,
            place=places[seat],
            won=places[seat] == 1,
            away=seat in left,
            points=points[seat],
            figures=figures[seat],
            rated=seat in counted,
            finished=game.finished,
            outcome=ends[seat][0],
            excuse=ends[seat][1],
            public=table.public,
        )
        for seat in seats
    )
    reliability.results_stored(table, game, results, logged, places)
    if not rated:
        return
    if all(seat in left for seat in seats):
        _rate(kind.name, game, [users[seat] for seat in seats], losses, counted={users[seat] for seat in seats})
    else:
        ranks = standings([places[s] for s in seats], [s in left for s in seats])
        _rate(
            kind.name,
            game,
            [users[seat] for seat in seats],
            lambda before: rate_places(before, ranks),
            counted={users[seat] for seat in counted},
        )
    rating_flags.game_rated(kind.name, game)


def _rate(kind: str, game: Game, user_ids: list[int], new: Callable[[Ratings], Ratings], *, counted: set[int]) -> None:
    """Each person's new rating from `new` (given everyone's ratings before, in `user_ids`'
    order); only the ratings of `counted` move, the others' only take part in the sum (someone
    not rated yet counts as new, and gets no rating row from it)."""
    for user_id in sorted(counted):
        Rating.objects.get_or_create(
            user_id=user_id,
            kind=kind,
            defaults={"mu": MODEL.mu, "sigma": MODEL.sigma, "value": shown(MODEL.mu, MODEL.sigma)},
        )
    # Locked in one order (by user), so two games ending at once never wait on each other.
    current = {
        row.user_id: row
        for row in Rating.objects.select_for_update().filter(kind=kind, user_id__in=user_ids).order_by("user_id")
    }
    fresh = Rating(kind=kind, mu=MODEL.mu, sigma=MODEL.sigma)
    before = [current.get(user_id, fresh) for user_id in user_ids]
    after = new([(row.mu, row.sigma) for row in before])
    changes = []
    for user_id, row, (mu, sigma) in zip(user_ids, before, after, strict=True):
        if user_id not in counted:
            continue
        old = row.value
        row.mu, row.sigma, row.value, row.games = mu, sigma, shown(mu, sigma), row.games + 1
        row.save(update_fields=["mu", "sigma", "value", "games", "updated"])
        changes.append(
            RatingChange(user_id=row.user_id, kind=kind, game=game, before=old, value=row.value, created=game.finished)
        )
    RatingChange.objects.bulk_create(changes)
