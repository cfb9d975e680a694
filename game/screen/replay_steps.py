"""A finished game's replay (/g/<id>/): its record dealt again and played move by move, each step
drawn by the same pieces as live play, as a spectator sees the table, with every hand face up
where hands were secret (the game is over). A game still running has no replay."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from game import registry
from game.core.identity import Player
from game.screen.log import log_entries, log_lines
from game.screen.replay_analysis import analysis_context, marked_lines
from game.screen.table import table_context, table_view
from game.services.records import game_record, recorded_game
from game.services.table_reads import table_dict

RECENT = 64  # the latest events the pieces' marks read (as a live screen keeps them)


def _numbered(events: list[dict], first: int) -> list[dict]:
    return [{"seq": first + index, **event} for index, event in enumerate(events)]


def _moves_log(record: dict, step: int) -> tuple[list[dict], list[dict], list[int]]:
    """The log's events up to this step (the deal is step 0) and this step's own, as recorded; and
    the number of each move's first event (move n's at [n - 1])."""
    deal = record["deal"]
    current = deal.get("notes", []) + deal["events"]
    earlier: list[dict] = list(current)
    starts = []
    for move in record["moves"][:step]:
        starts.append(len(earlier))
        current = move["events"] + move.get("notes", [])
        earlier += current
    numbered = _numbered(earlier, 0)
    return numbered, numbered[len(numbered) - len(current) :], starts


def _snapshot(record: dict, game, kind, state: dict, version: int) -> dict:
    names = [seat["name"] for seat in record["seats"]]
    # a replay shows no clocks (a turn-based table's are of the game as it was played)
    table = {**table_dict(game.table), "status": "finished" if state["over"] else "playing", "pace": None}
    fair = record["fair"]
    return {
        "table": table,
        "seats": [
            {
                "index": seat["seat"],
                "nickname": seat["name"],
                "who": "",
                "bot_level": seat.get("level", ""),
                "away": False,
            }
            for seat in record["seats"]
        ],
        "game": {
            "id": game.id,
            "public_id": game.public_id,
            "number": record["number"],
            "version": version,
            **kind.views(state),
            "deadline": None,
            "over": state["over"],
            "winner": kind.winner(state) if state["over"] else None,
            "players": names,
            "fair": {
                "commitment": fair["commitment"],
                "client_seeds": fair["client_seeds"],
                "server_seed": fair["server_seed"] if state["over"] else None,
            },
        },
    }


def replay_analysis(game_id: int, step: object, viewer: Player | None = None) -> dict | None:
    """The replay's analysis alone at this step (what its "Analysing…" note asks for until it is
    ready), or None for a game without a replay for this viewer (as replay_step)."""
    record = game_record(game_id, viewer)
    if record is None:
        return None
    try:
        step = min(max(int(str(step)), 0), len(record["moves"]))
    except ValueError:
        step = 0
    game = recorded_game(game_id)
    return {"record": record, "game_id": game.public_id, "step": step, **analysis_context(game.id, record, step)}


def replay_step(game_id: int, step: object, viewer: Player | None = None) -> dict | None:
    """What the replay shows at this step (0: the deal, n: after the n-th move), or None for a game
    without a replay (unknown, still running, or without a record for this viewer: its names
    and whether they may have it are the record's, services.records.game_record)."""
    record = game_record(game_id, viewer)
    if record is None:
        return None
    game = recorded_game(game_id)
    kind = registry.of(game.table)
    steps = len(record["moves"])
    try:
        step = min(max(int(str(step)), 0), steps)
    except ValueError:
        step = 0
    replay = kind.replay
    state = replay.new(len(record["seats"]), record["fair"]["engine_seed"], dict(record["options"]), [])
    for move in record["moves"][:step]:
        if move.get("timeout"):
            replay.timeout(state)
        else:
            replay.apply(state, move["action"], move["seat"])
    version = record["moves"][step - 1]["version"] + 1 if step else 0
    snapshot = _snapshot(record, game, kind, state, version)
    logged, current, starts = _moves_log(record, step)
    seen = table_view(snapshot, None, current, recent=tuple(logged[-RECENT:]))
    context = table_context(snapshot, None, current, seen=seen)
    hands = kind.open_hands(snapshot) if kind.secret else None
    move = record["moves"][step - 1] if step else None
    judged = analysis_context(game.id, record, step)
    return {
        "record": record,
        "label": kind.label,
        "game_id": game.public_id,
        "step": step,
        "steps": steps,
        "previous": max(step - 1, 0),
        "next": min(step + 1, steps),
        "move": move,
        "mover": record["seats"][move["seat"]]["name"] if move else None,
        "table_html": mark_safe(render_to_string(context["table_template"], context)),
        "hands_html": mark_safe(render_to_string(hands.template, hands.context(hands.data))) if hands else "",
        "caption": log_lines(log_entries(snapshot, current)),
        **judged,
        "lines": marked_lines(log_entries(snapshot, logged), starts, judged.get("marks", ())),
    }
