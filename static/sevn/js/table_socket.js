/* The table's socket (htmx's WebSocket extension on .table-shell) as the page uses it: a move
   carries the table its screen shows, the decision bar takes one click per decision, and after
   each message (or an htmx answer, or a replay's step: replay.js) everything the page keeps
   beside the server's HTML catches up (afterRedraw). What a lost or refused socket shows is
   connection.js's. */

import { fromTable } from "./page.js";
import { startCountdown, isMyTurn, markTurn, showSound } from "./turn.js";
import { applyScores, measurePanel, showGameOver, showSummary } from "./table_panels.js";
import { focusableCards } from "./table_cards.js";
import { handStops } from "./keyboard.js";
import { focusWasSent, restoreFocus } from "./focus.js";
import { lobbyFocusBack } from "./lobby.js";

/* After the table is drawn, in this order: the decision bar comes back, the clock, the bottom
   panel's height, the round's panels, the turn, the cards' and the hand's Tab stops, then the
   focus, and the log scrolls to its last line. */
var shownVersion = null;  // the table version last drawn (#table-meta)

export function afterRedraw(event) {
  // The choices come back once the table has moved on (a decision like the last one keeps its
  // controls, so they are not sent again) or when this player's move was refused; a chat
  // line or a presence mark arriving meanwhile leaves them disabled.
  var meta = document.getElementById("table-meta");
  var version = meta ? meta.dataset.version : null;
  var message = event && event.detail && event.detail.message;
  var refused = typeof message === "string" && message.indexOf('class="toast"') >= 0;
  var sending = document.querySelector("#controls.is-sending");
  if (sending && (refused || version !== sending.dataset.sentOn)) {
    sending.classList.remove("is-sending");
    sending.querySelectorAll("button[data-sending]").forEach(function (b) {
      b.disabled = false;
      b.removeAttribute("data-sending");
    });
  }
  var moved = version !== shownVersion;
  shownVersion = version;
  var was = isMyTurn();
  startCountdown();
  measurePanel();
  showSummary(false);
  applyScores();
  showSound();
  showGameOver();
  var yours = markTurn();
  focusableCards();
  handStops();
  restoreFocus(yours && (!was || moved), moved);  // a new decision, even one like the last
  lobbyFocusBack();
  var log = document.getElementById("log-list");
  if (log) log.scrollTop = log.scrollHeight;
}

// A move carries the table its screen shows (#table-meta, swapped in with every change):
// the version it was made on, and the game's number. The server refuses a move on an older
// table, so of two identical moves only one applies, and none lands in a rematch.
document.addEventListener("htmx:wsConfigSend", function (event) {
  var meta = document.getElementById("table-meta");
  if (!meta || !event.target.closest || !event.target.closest("#table")) return;
  event.detail.parameters.version = meta.dataset.version;
  event.detail.parameters.game = meta.dataset.game;
});

// One click per decision: disable the bar until the table moves on or the move is refused.
document.addEventListener("htmx:wsBeforeSend", function (event) {
  var controls = document.getElementById("controls");
  var meta = document.getElementById("table-meta");
  if (controls && controls.contains(event.target)) {
    focusWasSent();
    controls.dataset.sentOn = meta ? meta.dataset.version : "";
    controls.querySelectorAll("button:not([disabled])").forEach(function (b) {
      b.disabled = true;
      b.setAttribute("data-sending", "");
    });
    controls.classList.add("is-sending");
  }
});

document.addEventListener("htmx:wsAfterMessage", function (event) { if (fromTable(event)) afterRedraw(event); });
document.addEventListener("htmx:afterSwap", afterRedraw);
document.addEventListener("DOMContentLoaded", function () { afterRedraw(); });

// The socket's first table has arrived (what a test, or a script, waits for before acting).
document.addEventListener("htmx:wsAfterMessage", function (event) {
  if (fromTable(event)) document.body.setAttribute("data-socket", "live");
});

/* A form's answer can arrive after the socket redrew the part that held the form (a lobby
   button, the composer): htmx would look for the toast's place inside the detached form and
   find none. Such an answer's out-of-band parts go to the page itself. */
document.addEventListener("htmx:beforeRequest", function (event) {
  var target = event.detail && event.detail.target;
  if (!target || !target.addEventListener) return;
  function answered(swap) {
    if (swap.target !== target) return;
    target.removeEventListener("htmx:beforeSwap", answered);
    if (target.isConnected || !swap.detail.shouldSwap) return;
    swap.detail.shouldSwap = false;
    var html = swap.detail.serverResponse;
    if (typeof html === "string" && html.indexOf("hx-swap-oob") >= 0) {
      window.htmx.swap(document.body, html, { swapStyle: "none" });
    }
  }
  target.addEventListener("htmx:beforeSwap", answered);
});
