/* The note above the table that says how its socket stands (lost and reconnecting, turned away
   by a full server and when it tries again, closed for good and why), and the moves and chat
   it turns off meanwhile; with the pauses before each try. */

import { fromTable, table } from "./page.js";

// A socket lost (the network, a server restarting) is the extension's to
// reconnect: it tries again after a pause drawn at random below 1 s, 2 s, 4 s, then 8 s at most
// (each try costs a server that is down nothing), and the note says "Reconnecting…". It does
// so only after the closes in RETRIED (its onclose); any other close is final.
// A full server turns a new socket away with 4503, "busy" (game.runtime.capacity), which the
// extension would take as final: the note says busy until a table arrives, and the socket
// tries again after a pause drawn at random below a longest that doubles with each turn-away
// in a row (1 s, 2 s, … 64 s), so that the turned-away do not all come back at once: on a
// full server every try is a handshake it must answer, and many people wait at once. A server
// with room that only lets a crowd in a few at a time says so (4504, CLOSE_ARRIVING): that
// passes in moments, so the pause stops growing at ARRIVING_PAUSE_MAX_MS. A pause
// of COUNTDOWN_FROM_MS or more is shown as what it is, the seconds left (on screen, each
// second; a screen reader hears the state once), with "Try now" to try at once.
// The server closes a socket for good with a reason (game.live.consumers: too many sockets
// from the address, too many tables looked up, too many messages, its person suspended or
// banned (4403), or logged out in another tab (4401); the transport's 4429 for a
// socket whose frames it kept dropping), and nothing reconnects it: the note says the page is
// disconnected ("closed", the reason the toast gave kept under it, as the toast fades) with
// Reload; a table that no longer exists (4404) says so ("gone"), with the way to the start page
// (the toast that came before the close is taken away: the note says the same).
// While the socket is lost, turned away or closed, the table's moves are off (the extension
// would keep a move for a socket that may never open, or send it to one the server is closing,
// and it would be lost after the bar showed it sent): the table drawn on arrival brings them back.
var CLOSE_BUSY = 4503;
var CLOSE_NO_TABLE = 4404;
// the closes htmx's ws extension reconnects after (its onclose): no close frame, a server
// error, a server restarting, try again later
var RETRIED = [1006, 1011, 1012, 1013];
// the toasts game.live.consumers sends just before a final close (their data-reason)
var CLOSING_REASONS = ["too_many_sockets", "lookups", "flooding", "put_out", "signed_out"];
var COUNTDOWN_FROM_MS = 5000;
var CLOSE_ARRIVING = 4504;  // busy for moments only (game.live.admission)
var ARRIVING_PAUSE_MAX_MS = 4000;
var busyInARow = 0;
var nextTry = null;  // the turned-away socket's next try: {socket, at, timer, ticker}
// (htmx's setting, for every socket of the page: the person's own too, invitations.js)
window.htmx.config.wsReconnectDelay = function (retryCount) {
  return 1000 * Math.pow(2, Math.min(retryCount, 3)) * Math.random();
};
function connectionNote(state, seconds, detail) {
  var note = document.getElementById("connection");
  if (!note) return;
  note.hidden = state === null;
  note.classList.toggle("connection--busy", state === "busy" || state === "wait");
  note.classList.toggle("connection--closed", state === "closed" || state === "gone");
  var text = state === null ? "" : note.dataset[state].replace("{seconds}", String(seconds));
  var shown = note.querySelector("[data-connection-text]");
  if (shown.textContent !== text && state !== null) shown.textContent = text;
  if (note.dataset.state !== String(state)) {
    note.querySelector("[data-connection-said]").textContent = text;
    note.querySelectorAll("[data-connection-for]").forEach(function (control) {
      control.hidden = control.dataset.connectionFor !== state;
    });
    var more = note.querySelector("[data-connection-detail]");
    more.textContent = detail || "";
    more.hidden = !detail;
    note.dataset.state = String(state);
    movesOff(state !== null);
    if (state === "closed" || state === "gone") chatOff();
    placeNote(true);
  }
}
// A socket closed for good takes the chat with it: a line typed then would wait in the
// extension for a socket that never opens, and be lost after it looked sent.
function chatOff() {
  document.querySelectorAll("form[ws-send] button, form[ws-send] input:not([type=hidden])").forEach(function (control) {
    control.disabled = true;
  });
}
function movesOff(off) {
  var selector = off ? "#table form[ws-send] button:not([disabled])" : "#table button[data-busy-off]";
  document.querySelectorAll(selector).forEach(function (button) {
    button.disabled = off;
    button.toggleAttribute("data-busy-off", off);
  });
}
// Where the note shows. Above the table, in the page's flow: on a page at its top it pushes
// the table down and covers nothing. Once the page is scrolled past that place, a note kept
// in view there would cover the top of what is seen (the bar, the seats): it docks at the
// bottom instead, as wide as the table, over the controls it turned off (on a phone, the
// bottom panel). Its place above the table stays kept, so nothing moves; its height, in
// --connection-docked, keeps the toasts above it and leaves room below the page's end.
function undock(note, slot) {
  note.classList.remove("connection--docked");
  note.style.left = note.style.width = slot.style.height = "";
  document.documentElement.style.removeProperty("--connection-docked");
}
function placeNote(remeasure) {
  var note = document.getElementById("connection");
  if (!note) return;
  var slot = note.closest("[data-connection-slot]");
  var docked = note.classList.contains("connection--docked");
  if (docked && (remeasure || note.hidden)) {
    undock(note, slot);
    docked = false;
  }
  if (note.hidden) return;
  var past = slot.getBoundingClientRect().top < 0;
  if (past === docked) return;
  if (!past) { undock(note, slot); return; }
  slot.style.height = note.offsetHeight + parseFloat(window.getComputedStyle(note).marginBottom) + "px";
  var across = (table() || slot).getBoundingClientRect();
  note.style.left = across.left + "px";
  note.style.width = across.width + "px";
  note.classList.add("connection--docked");
  // its height and the gap below it
  document.documentElement.style.setProperty("--connection-docked", note.offsetHeight + 8 + "px");
}
window.addEventListener("scroll", function () { placeNote(false); }, { passive: true });
window.addEventListener("resize", function () { placeNote(true); });
function closingReason() {
  var toast = document.querySelector("#toast .toast[data-reason]");
  return toast && CLOSING_REASONS.indexOf(toast.dataset.reason) >= 0 ? toast.textContent.trim() : "";
}
function countDown() {
  connectionNote("wait", Math.max(1, Math.ceil((nextTry.at - Date.now()) / 1000)));
}
function tryNow() {
  if (!nextTry) return;
  clearTimeout(nextTry.timer);
  clearInterval(nextTry.ticker);
  var socket = nextTry.socket;
  nextTry = null;
  connectionNote("busy");
  socket.reconnect();
}
document.addEventListener("click", function (event) {
  if (!event.target.closest) return;
  if (event.target.closest("[data-connection-retry]")) tryNow();
  if (event.target.closest("[data-connection-reload]")) window.location.reload();
});
document.addEventListener("htmx:wsClose", function (event) {
  if (!fromTable(event)) return;
  var closed = event.detail && event.detail.event;
  var socket = event.detail && event.detail.socketWrapper;
  var code = closed ? closed.code : 1006;
  var busy = code === CLOSE_BUSY || code === CLOSE_ARRIVING;
  busyInARow = busy ? busyInARow + 1 : 0;
  if (code === CLOSE_NO_TABLE) {  // the note says it, with the way out: not twice
    var said = document.querySelector('#toast .toast[data-reason="no_table"]');
    if (said) said.remove();
    connectionNote("gone");
    return;
  }
  if (!busy && RETRIED.indexOf(code) < 0) { connectionNote("closed", 0, closingReason()); return; }
  if (!busy) { connectionNote("lost"); return; }
  if (!socket || !socket.reconnect) { connectionNote("busy"); return; }
  var longest = 1000 * Math.pow(2, Math.min(busyInARow - 1, 6));
  if (code === CLOSE_ARRIVING) longest = Math.min(longest, ARRIVING_PAUSE_MAX_MS);
  var pause = longest * Math.random();
  nextTry = { socket: socket, at: Date.now() + pause, timer: setTimeout(tryNow, pause), ticker: null };
  if (pause < COUNTDOWN_FROM_MS) { connectionNote("busy"); return; }
  countDown();
  nextTry.ticker = setInterval(countDown, 250);  // the seconds change on time, whatever the drift
});
document.addEventListener("htmx:wsOpen", function (event) {
  if (!fromTable(event)) return;
  if (!busyInARow) connectionNote(null);  // turned away or not is known at the first message
});
document.addEventListener("htmx:wsAfterMessage", function (event) {
  if (!fromTable(event) || !busyInARow) return;
  busyInARow = 0;
  connectionNote(null);
});
