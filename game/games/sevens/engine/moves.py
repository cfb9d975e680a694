"""The public verbs that read and change a game: legal_actions, apply, timeout.

`apply` checks the action completely before touching the state, then plays the card; play
runs on by itself (rounds.py) until the next seat with a choice.
"""

from __future__ import annotations

from .cards import ORDER, card_name
from .errors import IllegalAction
from .layout import Layout, fitting_cards, place, playable, why_it_does_not_fit
from .rounds import play_card
from .state import State


def legal_actions(state: State) -> list[dict]:
    """The plays open to the seat that must act now, in DECK order; empty when the game is over."""
    if state["over"]:
        return []
    hand = state["seats"][state["current"]]["hand"]
    return [{"kind": "play", "card": card} for card in playable(hand, state["layout"])]


def apply(state: State, action: dict, actor: int | None = None) -> list[dict]:
    """Apply one play in place and return the events it caused, in order.

    `actor`, when given, is the seat sending the action: any other seat than the one to act is
    refused. Anything refused raises IllegalAction and leaves the state unchanged.
    """
    card = _checked_card(state, action, actor)
    events: list[dict] = []
    play_card(state, state["current"], card, events)
    return events


def timeout(state: State) -> list[dict]:
    """The acting seat's clock ran out: it plays its default card, like `apply`."""
    if state["over"]:
        raise IllegalAction("The game is over.", "game_over")
    return apply(state, {"kind": "play", "card": default_card(state)})


def default_card(state: State) -> str:
    """Of the playable cards, the one after which most of the player's other cards fit;
    ties go to the first in DECK order."""
    hand = state["seats"][state["current"]]["hand"]
    layout = state["layout"]
    return max(playable(hand, layout), key=lambda card: (_fitting_after(hand, layout, card), -ORDER[card]))


def _fitting_after(hand: list[str], layout: Layout, card: str) -> int:
    after = {suit: None if row is None else list(row) for suit, row in layout.items()}
    place(after, card)
    fitting = fitting_cards(after)
    return sum(1 for other in hand if other != card and other in fitting)


def _checked_card(state: State, action: object, actor: object) -> str:
    """The card the action plays, if it is legal now; otherwise IllegalAction."""
    if state["over"]:
        raise IllegalAction("The game is over.", "game_over")
    current = state["current"]
    if actor is not None and (type(actor) is not int or actor != current):
        raise IllegalAction("It is not your turn.", "not_your_turn", seat=current)
    if not isinstance(action, dict) or action.get("kind") not in ("play", "pass"):
        raise IllegalAction('An action is an object {"kind": "play", "card": ...}.', "malformed")
    if action["kind"] == "pass":
        raise IllegalAction(
            "You have a card that fits, so you must play one; passing is only "
            "for when nothing fits, and that happens by itself.",
            "must_play",
        )
    if set(action) != {"kind", "card"}:
        raise IllegalAction("A play names exactly one card.", "malformed")
    card = action["card"]
    if not isinstance(card, str) or card not in ORDER:
        raise IllegalAction("That is not a card: a card is a rank and a suit letter, like 8D.", "not_a_card")
    if card not in state["seats"][current]["hand"]:
        raise IllegalAction(f"The {card_name(card)} is not in your hand.", "not_in_hand", card=card)
    if card not in fitting_cards(state["layout"]):
        raise IllegalAction(why_it_does_not_fit(card, state["layout"]), "does_not_fit", card=card)
    return card
