"""What each piece of a SEVN table shows, as plain data from a snapshot (no language in it), and
the context its partial is drawn with (in the viewer's language): seats, the decider's choices,
the centre, the round summary, the standings, the scores, the log in words."""

from __future__ import annotations

from typing import NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from game.drawkit.common import Record, seat_record, winners_title
from game.drawkit.pieces import Piece
from game.games.sevn.bots.odds import bust_chance, crossroads_busts
from game.games.sevn.engine.cards import SEVN_DISTINCT, TRIPLE_DRAW_CARDS, VALUE
from game.games.sevn.faces import card_name, face

STATUS_LABELS = {
    "in": lambda: _("In round"),
    "passed": lambda: _("Passed"),
    "frozen": lambda: _("Frozen"),
    "bust": lambda: _("Bust"),
}


STEP_LABELS = {
    "sum": gettext_lazy("Sum of values"),
    "double": gettext_lazy("Doubled (×2)"),
    "plus": gettext_lazy("Plus cards"),
    "sevn": "SEVN",
    "floor": gettext_lazy("Never below zero"),
}


def step_label(name: str) -> str:
    """A scoring step's name: bonus cards' steps are named after their card."""
    return str(STEP_LABELS[name]) if name in STEP_LABELS else card_name(name)


def _cards(row: list[str], fresh: set[str], bust: bool, last: str | None = None) -> tuple[list[dict], list[dict]]:
    """A row split into scoring values and the rest, each in the order the cards joined; `last`:
    the card drawn last at the table (its latest copy in the row is marked)."""
    values, extras = [], []
    last_position = {code: position for position, code in enumerate(row)}
    for position, code in enumerate(row):
        card = {
            "face": face(code),
            "new": code in fresh and last_position[code] == position,
            "busting": bust and position == len(row) - 1,  # the duplicate that busted the row
            "last": code == last and last_position[code] == position,
        }
        (values if code in VALUE else extras).append(card)
    return values, extras


def fresh_cards(events: list[dict], round_number: int) -> dict[int, set[str]]:
    """Cards that joined a row in this update (they flip in), per seat, this round only."""
    fresh: dict[int, set[str]] = {}
    current_round = None
    for event in events:
        if event["type"] == "round_started":
            current_round = event["round"]
            fresh = {}
        elif event["type"] in ("joined", "bust") and current_round in (None, round_number):
            fresh.setdefault(event["seat"], set()).add(event["card"])
    return fresh


class SeatFacts(NamedTuple):
    """What a seat's panel shows, before anything is drawn: equal facts, equal panels."""

    over: bool
    index: int
    nickname: str
    bot_level: str
    away: bool
    is_dealer: bool
    status: str
    total: int
    round_score: int
    row: tuple[str, ...]
    winner: bool
    last: str | None = None  # the card drawn last at the table, if this seat drew it (marked)
    record: Record | None = None  # its account's finished games, beside the name (None: nothing shown)


def last_drawn(recent: tuple[dict, ...]) -> tuple[int, str] | None:
    """The seat that drew the card that last joined a row this round, and the card."""
    for event in reversed(recent):
        if event["type"] == "round_started":
            return None
        if event["type"] in ("joined", "bust"):
            return event["seat"], event["card"]
    return None


def seat_facts(snapshot: dict, index: int) -> SeatFacts:
    game = snapshot["game"]
    view = game["view"]
    seat_view = view["seats"][index]
    seat = next(
        (s for s in snapshot["seats"] if s["index"] == index),
        {"nickname": game["players"][index], "bot_level": "", "away": False},
    )
    row, status, round_score = seat_view["row"], seat_view["status"], seat_view["round_score"]
    if game["over"] and view["last_round"]:  # the game ended: show its last round as it ended
        final = view["last_round"]
        row, status, round_score = final["rows"][index], final["statuses"][index], final["scores"][index]
    return SeatFacts(
        game["over"],
        index,
        seat["nickname"],
        seat["bot_level"],
        seat["away"],
        index == view["dealer"],
        status,
        seat_view["total"],
        round_score,
        tuple(row),
        game["over"] and index == view["winner"],
        record=seat_record(seat),
    )


def points(n: int) -> str:
    """A number of points, in the plural form the language uses for it."""
    return ngettext("%(n)s point", "%(n)s points", n) % {"n": n}


def seat_label(nickname: str, status_label: str, total: int) -> str:
    """What a screen reader hears for a seat: one sentence, so each language orders it (and
    spaces its colon) as it must."""
    return _("%(name)s: %(status)s, %(points)s") % {"name": nickname, "status": status_label, "points": points(total)}


def dealer_mark() -> str:
    return pgettext("one-letter dealer chip", "D")


def seat_panel(facts: SeatFacts, fresh: set[str], shake: bool) -> dict:
    """The seat template's context: cards drawn, labels in the viewer's language."""
    values, extras = _cards(list(facts.row), fresh, facts.status == "bust", facts.last)
    status_label = STATUS_LABELS[facts.status]()
    return {
        "index": facts.index,
        "nickname": facts.nickname,
        "bot_level": facts.bot_level,
        "away": facts.away,
        "is_dealer": facts.is_dealer,
        "dealer_mark": dealer_mark(),
        "status": facts.status,
        "status_label": status_label,
        "label": seat_label(facts.nickname, status_label, facts.total),
        "total": facts.total,
        "round_score": facts.round_score,
        "values": values,
        "extras": extras,
        "distinct": sum(1 for code in facts.row if code in VALUE) if facts.status != "bust" else None,
        "shake": shake,
        "winner": facts.winner,
    }


def seat_context(facts: SeatFacts, once: tuple[tuple[str, ...], bool] | None = None) -> dict:
    """A seat's context; `once`: the cards that flip in and whether it shakes (a bust), this
    update only. Its head and status line are pieces of their own (they change less often)."""
    fresh, shake = once if once is not None else ((), False)
    seat = seat_panel(facts, set(fresh), shake)
    head = SeatHead(
        facts.index, facts.nickname, facts.bot_level, facts.away, facts.is_dealer, facts.total, facts.record
    )
    status = SeatStatus(facts.status, seat["distinct"], facts.round_score)
    return {
        "seat": seat,
        "head": Piece("sevn/_seat_head.html", head, seat_head_context),
        "status": Piece("sevn/_seat_status.html", status, seat_status_context),
    }


class SeatHead(NamedTuple):
    """A seat's name, badges and total: the same all round."""

    index: int
    nickname: str
    bot_level: str
    away: bool
    is_dealer: bool
    total: int
    record: Record | None = None


def seat_head_context(head: SeatHead) -> dict:
    return {"seat": {**head._asdict(), "dealer_mark": dealer_mark()}}


class SeatStatus(NamedTuple):
    """A seat's status line: in, passed, frozen or bust, its distinct values and round score."""

    status: str
    distinct: int | None
    round_score: int


def seat_status_context(status: SeatStatus) -> dict:
    label = STATUS_LABELS[status.status]()
    return {"seat": {**status._asdict(), "status_label": label}, "sevn_goal": SEVN_DISTINCT}


class Bar(NamedTuple):
    """The table's code, round and target, and whether a round was scored (its buttons)."""

    code: str
    round: int
    target: int
    summary: bool


def bar_context(bar: Bar) -> dict:
    return {"bar": bar}


class Pile(NamedTuple):
    kind: str  # deck or discard
    count: int


def pile_context(pile: Pile) -> dict:
    return {"pile": pile}


class Center(NamedTuple):
    """The cards in play in the middle; a card held for a decision says whose it is ("you" on the
    decider's own screen)."""

    revealed: tuple[str, ...]  # Crossroads' two cards
    active: str | None  # the action card resolving
    queue: tuple[tuple[str, str], ...]  # (card, its owner's name), oldest first
    held: str | None  # the card a decision is about
    holder: str | None  # whose decision that is
    yours: bool


def center_data(view: dict, names: tuple[str, ...], yours: bool) -> Center:
    pending = view["pending"]
    held = pending["card"] if pending and "card" in pending else None
    holder = names[view["current"]] if held and view["current"] is not None else None
    queue = tuple(zip(view["queue"], (names[seat] for seat in view["queue_seats"]), strict=True))
    return Center(tuple(view["revealed"]), view["active"], queue, held, holder, yours and bool(held))


def center_context(center: Center) -> dict:
    return {
        "current_name": center.holder,
        "yours": center.yours,
        "revealed": [face(code) for code in center.revealed],
        "held": face(center.held) if center.held else None,
        "active": face(center.active) if center.active else None,
        "queue": [
            {"face": face(code), "owner": owner, "size": "sm" if face(code)["short"] else "chip"}
            for code, owner in center.queue
        ],
    }


def access_keys(labels: list[str]) -> list[str]:
    """A key per button, from its label in the viewer's language: its first letter, or the
    first of its letters no button before it took (Pakken, Passen: p, a)."""
    taken: list[str] = []
    for label in labels:
        letters = [ch for ch in label.lower() if ch.isalpha()]
        taken.append(next((ch for ch in letters if ch not in taken), ""))
    return taken


class Decision(NamedTuple):
    """The pending decision (the engine's `pending`) as its decider sees it: what they may choose,
    drawn as the controls."""

    kind: str  # the pending decision: turn, freeze, triple_draw, gift, ballast, crossroads
    can_draw: bool = False
    bust_chance: int | None = None  # percent, when the table shows the odds
    options: tuple[Target, ...] = ()  # whom a Freeze, a Triple Draw or a Second Chance may go to
    card: str | None = None  # the Ballast to keep or discard
    picks: tuple[Pick, ...] = ()  # Crossroads' two cards


class Target(NamedTuple):
    seat: int
    name: str
    row_score: int
    is_you: bool


class Pick(NamedTuple):
    card: str
    busts: bool  # taking it would bust the decider


def decision(snapshot: dict, me: int | None, names: tuple[str, ...]) -> Decision | None:
    """What the deciding viewer may choose, with the odds the table shows; None for anyone else."""
    game = snapshot["game"]
    view = game["view"]
    if me is None or game["over"] or view["current"] != me or snapshot["table"]["status"] != "playing":
        return None
    pending = view["pending"]
    kind = pending["kind"]
    if kind == "turn":
        odds = round(100 * bust_chance(view, me)) if snapshot["table"]["options"]["show_odds"] else None
        return Decision(kind, can_draw=view["deck_count"] + view["discard_count"] > 0, bust_chance=odds)
    if kind in ("freeze", "triple_draw", "gift"):
        options = tuple(
            Target(seat, names[seat], view["seats"][seat]["round_score"], seat == me) for seat in pending["options"]
        )
        return Decision(kind, options=options)
    if kind == "ballast":
        return Decision(kind, card=pending["card"])
    busts = crossroads_busts(view, me)
    return Decision(kind, picks=tuple(Pick(card, bust) for card, bust in zip(pending["cards"], busts, strict=True)))


def decision_context(decision: Decision) -> dict:
    """The controls' context: labels, keys and cards in the viewer's language."""
    controls: dict = {"kind": decision.kind, "can_draw": decision.can_draw, "bust_chance": decision.bust_chance}
    if decision.kind == "turn":
        controls["draw_label"], controls["pass_label"] = _("Draw"), _("Pass")
        controls["draw_key"], controls["pass_key"] = access_keys([controls["draw_label"], controls["pass_label"]])
    elif decision.kind == "triple_draw":
        controls["prompt"] = ngettext(
            "Triple Draw: choose who takes up to %(n)s card.",
            "Triple Draw: choose who takes up to %(n)s cards.",
            TRIPLE_DRAW_CARDS,
        ) % {"n": TRIPLE_DRAW_CARDS}
    controls["options"] = [
        {
            "seat": target.seat,
            "name": target.name,
            "is_you": target.is_you,
            "row": ngettext("row: %(n)s point", "row: %(n)s points", target.row_score) % {"n": target.row_score},
        }
        for target in decision.options
    ]
    controls["card"] = face(decision.card) if decision.card else None
    controls["picks"] = [
        {"pick": i, "face": face(pick.card), "busts": pick.busts} for i, pick in enumerate(decision.picks)
    ]
    return {"decision": controls}


class Waiting(NamedTuple):
    """Someone else decides: a seated viewer waits for them, a spectator watches."""

    seated: bool
    current_name: str | None


def waiting_context(waiting: Waiting) -> dict:
    return {"decision": None, "over": False, **waiting._asdict()}


class Summary(NamedTuple):
    """The round just scored, as it ended: each seat's cards, scoring steps and score."""

    names: tuple[str, ...]
    round: int
    rows: tuple[tuple[str, ...], ...]
    statuses: tuple[str, ...]
    scores: tuple[int, ...]
    sevn: int | None
    steps: tuple[tuple[tuple[str, int, int], ...] | None, ...]  # per seat: (step, points, total)
    totals: tuple[int, ...]


def summary_data(view: dict, names: tuple[str, ...]) -> Summary:
    last = view["last_round"]
    return Summary(
        names,
        last["round"],
        tuple(tuple(row) for row in last["rows"]),
        tuple(last["statuses"]),
        tuple(last["scores"]),
        last["sevn"],
        tuple(
            None if not seat else tuple((s["step"], s["points"], s["total"]) for s in seat) for seat in last["steps"]
        ),
        tuple(seat["total"] for seat in view["seats"]),
    )


def summary_context(summary: Summary) -> dict:
    seats = []
    for index, steps in enumerate(summary.steps):
        row, status = summary.rows[index], summary.statuses[index]
        seats.append(
            {
                "name": summary.names[index],
                "score": summary.scores[index],
                "status": status,
                "sevn": summary.sevn == index,
                "cards": [
                    {"face": face(code), "busting": status == "bust" and i == len(row) - 1}
                    for i, code in enumerate(row)
                ],
                "steps": [
                    {"label": step_label(step), "step": step, "points": points, "total": total}
                    for step, points, total in steps
                ]
                if steps
                else None,
                "total": summary.totals[index],
            }
        )
    return {"summary": {"round": summary.round, "seats": seats}}


class Standings(NamedTuple):
    """Game over: everyone's total and the winner (None: the top totals share it)."""

    names: tuple[str, ...]
    totals: tuple[int, ...]
    winner: int | None
    ratings: tuple = ()  # per seat, a rated game's common.RatingMove (or None)


def standings_context(standings: Standings) -> dict:
    """The winner and the final standings, highest first (equal totals share a place)."""
    names, totals, winner = standings.names, standings.totals, standings.winner
    top = max(totals)
    rows = [
        {
            "name": names[i],
            "total": total,
            "points": points(total),
            "winner": i == winner or (winner is None and total == top),
            "rating": standings.ratings[i] if i < len(standings.ratings) else None,
        }
        for i, total in enumerate(totals)
    ]
    rows.sort(key=lambda row: -row["total"])
    place = 0
    for position, row in enumerate(rows):
        if position == 0 or row["total"] != rows[position - 1]["total"]:
            place = position + 1
        row["place"] = place
    return {"standings": rows, "title": winners_title([row["name"] for row in rows if row["winner"]])}


# Line colours of the score chart, one per seat (8 at most), each paired with its name in the
# table's head (never colour alone; sevn.css .swatch-N has the same); all readable on white.
CHART_COLOURS = ("#d6402b", "#1d4ed8", "#13795b", "#8a6206", "#6b2fa0", "#0e7490", "#b45309", "#334155")
CHART_W, CHART_H, CHART_PAD = 320, 150, 26


class Scores(NamedTuple):
    names: tuple[str, ...]
    history: tuple[tuple[int, ...], ...]  # each round's scores
    totals: tuple[int, ...]
    target: int
    over: bool


def scores_context(scores: Scores) -> dict:
    """Every round's score and the running totals per seat, and a line chart of the totals."""
    running = [0] * len(scores.names)
    rounds = []
    for number, round_scores in enumerate(scores.history, start=1):
        running = [total + score for total, score in zip(running, round_scores, strict=True)]
        cells = [{"score": score, "total": total} for score, total in zip(round_scores, running, strict=True)]
        rounds.append({"number": number, "cells": cells})
    board = {
        "names": scores.names,
        "rounds": rounds,
        "totals": scores.totals,
        "chart": score_chart(scores.history, scores.names, scores.target),
    }
    return {"board": board, "over": scores.over}


def score_chart(history: tuple[tuple[int, ...], ...], names: tuple[str, ...], target: int) -> dict:
    """The running totals as an SVG line chart (sevn/_chart.html), drawn on the server: no
    script needed. Coordinates are worked out here; the partial writes them."""
    totals = [[0] * len(names)]
    for scores in history:
        totals.append([total + score for total, score in zip(totals[-1], scores, strict=True)])
    top = max([target] + [max(row) for row in totals])
    width, height = CHART_W - 2 * CHART_PAD, CHART_H - 2 * CHART_PAD
    steps = max(1, len(totals) - 1)

    def point(i: int, value: int) -> str:
        return f"{CHART_PAD + width * i / steps:.1f},{CHART_PAD + height * (1 - value / top):.1f}"

    target_y = CHART_PAD + height * (1 - target / top)
    return {
        "width": CHART_W,
        "height": CHART_H,
        "pad": CHART_PAD,
        "bottom": CHART_PAD + height,
        "right": CHART_PAD + width,
        "target_y": f"{target_y:.1f}",
        "target_text_y": f"{target_y - 4:.1f}",
        "zero_text_y": CHART_H - 8,
        "target": target,
        "lines": [
            {
                "colour": CHART_COLOURS[seat % len(CHART_COLOURS)],
                "points": " ".join(point(i, row[seat]) for i, row in enumerate(totals)),
                "name": name,
                "total": points(totals[-1][seat]),
            }
            for seat, name in enumerate(names)
        ],
    }
