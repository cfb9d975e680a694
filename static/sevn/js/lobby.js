/* The lobby: its invitation link made a whole address (this site's origin, as the browser
   sees it) that Copy puts on the clipboard, and the focus kept across its redraws. */

import { fromTable } from "./page.js";

function fullInviteUrl(input) {
  return window.location.origin + input.getAttribute("data-invite-path");
}
function fillInviteLinks() {
  document.querySelectorAll("[data-invite-path]").forEach(function (input) { input.value = fullInviteUrl(input); });
}

document.addEventListener("click", function (event) {
  var copy = event.target.closest && event.target.closest("[data-copy]");
  if (!copy) return;
  var input = document.querySelector(copy.getAttribute("data-copy"));
  if (!input) return;
  var url = fullInviteUrl(input);
  input.value = url;
  var done = function () {
    var label = copy.textContent;
    copy.textContent = copy.getAttribute("data-copied");
    setTimeout(function () { copy.textContent = label; }, 1600);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(url).then(done, function () { input.select(); document.execCommand("copy"); done(); });
  } else {
    input.select(); document.execCommand("copy"); done();
  }
});
document.addEventListener("htmx:wsAfterMessage", function (event) { if (fromTable(event)) fillInviteLinks(); });
document.addEventListener("DOMContentLoaded", fillInviteLinks);

/* The lobby is drawn again whole with every change, and the control that had the focus goes
   with it: the focus comes back to the same control, or after "Add bot" (its seat is taken
   now) to the next free seat's "Add bot", then to Start; after "Remove", to that seat's "Add
   bot". */

var lobbyFocus = null;  // {id, action, index} of the lobby control that had the focus

function lobbyControl(element) {
  var form = element.closest("form");
  var index = form && form.querySelector('input[name="index"]');
  return { id: element.id || null, action: element.dataset.action || (form ? form.getAttribute("action") : ""), index: index ? Number(index.value) : null };
}
function addBotAt(lobby, index) {
  var field = lobby.querySelector('form input[name="index"][value="' + index + '"]');
  return field ? field.form.querySelector('[data-action="add-bot"]') : null;
}

document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var target = event.detail && event.detail.target;
  if (target && target.id === "invitations") return;  // a toast: the lobby is not redrawn
  var active = document.activeElement;
  if (active && active.closest && active.closest("#table .lobby")) lobbyFocus = lobbyControl(active);
});

export function lobbyFocusBack() {
  var was = lobbyFocus;
  lobbyFocus = null;
  var lobby = document.querySelector("#table .lobby");
  var active = document.activeElement;
  if (!was || !lobby || (active && active !== document.body && active.isConnected)) return;
  var target = was.id ? document.getElementById(was.id) : null;
  if (!target && was.index !== null) {
    var field = lobby.querySelector('form input[name="index"][value="' + was.index + '"]');
    var same = field && Array.prototype.filter.call(field.form.querySelectorAll("button, select"), function (control) {
      return lobbyControl(control).action === was.action;
    })[0];
    target = same || addBotAt(lobby, was.index);
  }
  if (!target && was.action === "add-bot") {
    var free = Array.prototype.slice.call(lobby.querySelectorAll('[data-action="add-bot"]'));
    target = free.filter(function (button) { return lobbyControl(button).index > was.index; })[0] || free[0] || null;
  }
  if (!target) {
    var start = lobby.querySelector('[data-action="start"]');
    target = start && !start.disabled ? start : lobby.querySelector("#invite-link");
  }
  if (target) target.focus();
}
