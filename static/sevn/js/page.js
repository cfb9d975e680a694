/* What several of the page's modules share and nothing that acts by itself: the live table's
   elements, this tab's remembered choices, whether things may move, and which socket an htmx
   event came from (a table page has two: the table's, and the signed-in person's own that
   invitations.js keeps; the table's modules hear only the table's). */

export var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function table() { return document.getElementById("table"); }
export function shell() { return document.querySelector(".table-shell"); }
export function remembered(key) { try { return window.sessionStorage.getItem(key); } catch (e) { return null; } }
export function remember(key, value) { try { window.sessionStorage.setItem(key, value); } catch (e) { /* private mode */ } }

// htmx's WebSocket events start at the element that holds the socket (.table-shell's ws-connect).
export function fromTable(event) {
  return !!(event.target && event.target.closest && event.target.closest(".table-shell"));
}
