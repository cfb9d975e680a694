/* Focus survives redraws: a swapped-in piece takes the focus away with the element it
   replaced. It comes back to the control that makes sense: the first choice when it is your
   decision (Draw), or the decision bar; or to the card that had it, at its place in its piece.
   Focus elsewhere (the log, a link) is left alone. (The lobby's controls: lobby.js.) */

import { cardsOf } from "./table_cards.js";

var focusWasInControls = false;
var focusedCard = null;  // {piece, at}: the card that had the focus, by its piece's id and place

// A move sent from the decision bar (table_socket.js) had the focus there.
export function focusWasSent() { focusWasInControls = true; }

document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var target = event.detail && event.detail.target;
  if (target && target.id === "invitations") return;  // a toast: nothing of the table is redrawn
  var active = document.activeElement;
  var controls = document.getElementById("controls");
  if (active && controls && controls.contains(active)) focusWasInControls = true;
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

export function restoreFocus(turnStarted) {
  var active = document.activeElement;
  var lost = !active || active === document.body || !active.isConnected;
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
