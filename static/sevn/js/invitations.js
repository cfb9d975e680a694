/* A signed-in person's pages each keep a small socket (game.live.people, /ws/me/) through htmx's
   WebSocket extension, as the table's is: an invitation that arrives is a toast with a Join
   button, put at the end of #invitations by the message itself (out of band), on whatever page
   is open. Here: the toast's form gets the page's CSRF token, an invitation sent again replaces
   its older toast, the region says whether its socket is open (data-live), and "Later" closes a
   toast. The extension reopens the socket after the closes it retries (a pause at random below
   1 s, 2 s, 4 s, then 8 s at most: connection.js sets it for the page's sockets); after any
   other close but 4401 (signed out, or put out: never again) this does, after a pause that
   doubles from 1 s to 30 s at most, or 30 s after 4430 (too many of this person's pages open:
   their others show the toasts). */

var RETRIED = [1006, 1011, 1012, 1013];  // the closes the extension reopens the socket after itself
var CLOSE_SIGNED_OUT = 4401;
var CLOSE_TOO_MANY_SOCKETS = 4430;
var LONGEST_MS = 30000;

var region = document.getElementById("invitations");
var pause = 1000;

function csrfToken() {
  try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || ""; } catch (e) { return ""; }
}

function toastsArrived() {
  region.querySelectorAll("[data-csrf]").forEach(function (input) { if (!input.value) input.value = csrfToken(); });
  var kept = {};
  Array.prototype.slice.call(region.querySelectorAll("[data-invitation]")).reverse().forEach(function (toast) {
    var id = toast.getAttribute("data-invitation");
    if (kept[id]) toast.remove();  // the latest of an invitation stays, at the end
    kept[id] = true;
  });
}

function closed(event) {
  var code = event.detail && event.detail.event ? event.detail.event.code : 1006;
  var socket = event.detail && event.detail.socketWrapper;
  region.removeAttribute("data-live");
  if (code === CLOSE_SIGNED_OUT || RETRIED.indexOf(code) >= 0 || !socket) return;
  setTimeout(socket.reconnect, code === CLOSE_TOO_MANY_SOCKETS ? LONGEST_MS : pause);
  pause = Math.min(pause * 2, LONGEST_MS);
}

if (region) {
  region.addEventListener("htmx:wsOpen", function () { pause = 1000; region.setAttribute("data-live", ""); });
  region.addEventListener("htmx:wsAfterMessage", toastsArrived);
  region.addEventListener("htmx:wsClose", closed);
  region.addEventListener("click", function (event) {
    var later = event.target.closest("[data-close-invitation]");
    if (later) later.closest(".invite-toast").remove();
  });
}
