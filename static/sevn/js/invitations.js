/* A signed-in person's pages each keep a small socket (game.live.people): an invitation that
   arrives shows as a toast with a Join button, on whatever page is open. */

var region = document.getElementById("invitations");
var delay = 1000;
function csrfToken() {
  try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || ""; } catch (e) { return ""; }
}
function connect() {
  var scheme = location.protocol === "https:" ? "wss://" : "ws://";
  var socket = new WebSocket(scheme + location.host + region.getAttribute("data-person-socket"));
  socket.onopen = function () { delay = 1000; region.setAttribute("data-live", ""); };
  socket.onmessage = function (event) {
    var holder = document.createElement("div");
    holder.innerHTML = event.data;  // drawn by the server's templates, escaped there
    var toast = holder.firstElementChild;
    if (!toast) return;
    toast.querySelectorAll("[data-csrf]").forEach(function (input) { input.value = csrfToken(); });
    var same = region.querySelector('[data-invitation="' + toast.getAttribute("data-invitation") + '"]');
    if (same) same.remove();
    region.appendChild(toast);
  };
  socket.onclose = function (event) {
    region.removeAttribute("data-live");
    if (event.code === 4401) return;  // signed out meanwhile
    if (event.code === 4430) delay = 30000;  // too many of this person's pages open: their others show the toasts
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 30000);
  };
}
if (region && window.WebSocket) {
  region.addEventListener("click", function (event) {
    var later = event.target.closest("[data-close-invitation]");
    if (later) later.closest(".invite-toast").remove();
  });
  connect();
}
