/* Focus survives redraws: a swapped-in piece takes the focus away with the element it
   replaced. It comes back to the control that makes sense: the first choice when it is your
   decision (Draw), or the decision bar; or to the card that had it, at its place in its piece.
   Focus elsewhere (the log, a link) is left alone. (The lobby's controls: lobby.js.) */

import { cardsOf } from "./table_cards.js";

var focusWasInControls = false;
var focusedCard = null;  // {piece, at}: the card that had the focus, by its piece's id and place
var handCard = null;  // the code of the card of your hand that had the focus (keyboard.js's hand)

// A move sent from the decision bar (table_socket.js) had the focus there.
export function focusWasSent() { focusWasInControls = true; }

document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var target = event.detail && event.detail.target;
  if (target && target.id === "invitations") return;  // a toast: nothing of the table is redrawn
  var active = document.activeElement;
  var controls = document.getElementById("controls");
  if (active && controls && controls.contains(active)) focusWasInControls = true;
  var inHand = active && active.closest && active.closest("#controls [data-hand]");
  if (inHand) handCard = active.dataset.card || active.dataset.code || null;  // (a frame swaps several pieces)
  if (active && active.matches && active.matches(".card[data-code]")) {
    var piece = active.closest("[id]");
    if (piece) focusedCard = { piece: piece.id, at: cardsOf(piece).indexOf(active) };
  }
});

function cardBack() {
  var was = focusedCard;
  focusedCard = null;
  var piece = was && document.getElementById(was.piece);
  if (!piece) return false;
  var cards = cardsOf(piece);
  var card = cards[Math.min(was.at, cards.length - 1)];
  if (!card) return false;
  card.focus({ preventScroll: true });
  return true;
}

// The same card of your hand, if it is still there: a redraw of the same table (someone's
// presence, the socket back after a drop) while the arrows go over the hand leaves the focus
// where the person had it.
function handCardBack() {
  var code = handCard;
  handCard = null;
  var hand = code && document.querySelector("#controls [data-hand]");
  if (!hand) return false;
  var same = Array.prototype.filter.call(hand.querySelectorAll("[data-card], .card[data-code]"), function (item) {
    return (item.dataset.card || item.dataset.code) === code && (item.matches("[data-hand-play]") || !item.closest("[data-hand-play]"));
  })[0];
  if (!same) return false;
  same.focus({ preventScroll: true });
  return true;
}

export function restoreFocus(turnStarted, moved) {
  var active = document.activeElement;
  var lost = !active || active === document.body || !active.isConnected;
  // The same table drawn again (a presence, a socket that came back): the same card
  if (lost && !moved && handCardBack()) { focusWasInControls = false; return; }
  handCard = null;
  if (lost && !focusWasInControls && cardBack()) return;
  var inControls = !lost && !!(active.closest && active.closest("#controls"));
  var wasInControls = focusWasInControls;
  focusWasInControls = false;
  if (!lost && !inControls) return;  // where the person put it
  var controls = document.getElementById("controls");
  if (!controls) return;
  if (controls.classList.contains("controls--active")) {
    if (inControls && !turnStarted) return;  // on a choice already
    var first = controls.querySelector("button:not([disabled])");
    if (first) first.focus({ preventScroll: true });
  } else if (lost && wasInControls) {
    controls.focus({ preventScroll: true });
  }
}
