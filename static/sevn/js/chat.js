/* The table's chat: who this browser muted, counts of lines that came while a box was folded,
   the spectators' channel open or closed as this tab left it, what is being typed kept across
   the composer's redraws, a sent line kept until it comes back said, the counter at the field's
   cap, and a mute or ban that ends on its own; the dialog that reports a line or a seat, and the
   Understood button of a notice staff sent. */

import { fromTable, remember, remembered, shell } from "./page.js";

// Whom this browser muted at this table: author tokens (never keys) and the names they showed.
function mutedKey() { var s = shell(); return "sevn:muted:" + (s ? s.dataset.code : ""); }
function mutedPeople() {
  try { return JSON.parse(window.localStorage.getItem(mutedKey()) || "{}") || {}; } catch (e) { return {}; }
}
function saveMuted(people) { try { window.localStorage.setItem(mutedKey(), JSON.stringify(people)); } catch (e) { /* private mode */ } }
function applyMutes() {
  var people = mutedPeople();
  document.querySelectorAll(".chat__line[data-author]").forEach(function (line) {
    line.hidden = Object.prototype.hasOwnProperty.call(people, line.dataset.author);
  });
  var names = Object.keys(people).map(function (token) { return people[token]; });
  var note = document.querySelector("[data-chat-muted]");
  if (note) {
    note.hidden = names.length === 0;
    note.querySelector("[data-chat-muted-names]").textContent = names.join(", ");
  }
}

// A count of lines that came while a chat box was folded: the whole chat's, and the
// spectators' channel's (folded for players) on its own summary.
function countUnread(badge, more) {
  if (!badge) return;
  badge.textContent = String(Number(badge.getAttribute("data-count") || 0) + more);
  badge.setAttribute("data-count", badge.textContent);
  if (badge.dataset.label) badge.setAttribute("title", badge.dataset.label);
  badge.hidden = false;
}
function clearUnread(badge) {
  if (!badge) return;
  badge.hidden = true;
  badge.textContent = "";
  badge.removeAttribute("data-count");
}
var chatSeen = {};
function chatArrived() {
  ["chat-table-list", "chat-spectators-list"].forEach(function (id) {
    var list = document.getElementById(id);
    if (!list) return;
    var count = list.children.length;
    if (chatSeen[id] !== count) {
      list.scrollTop = list.scrollHeight;
      var more = chatSeen[id] !== undefined && count > chatSeen[id] ? count - chatSeen[id] : 0;
      var box = document.querySelector("[data-chat-box]");
      if (more && box && !box.open) countUnread(document.querySelector("[data-chat-unread]"), more);
      var spectators = document.querySelector("[data-chat-spectators]");
      if (more && id === "chat-spectators-list" && spectators && !spectators.open) {
        countUnread(document.querySelector("[data-spectators-unread]"), more);
      }
      chatSeen[id] = count;
    }
  });
  applyMutes();
}

function spectatorsKey() { var s = shell(); return "sevn:spectators:" + (s ? s.dataset.code : ""); }
function applySpectators() {
  var box = document.querySelector("[data-chat-spectators]");
  var chosen = remembered(spectatorsKey());
  if (box && chosen) box.open = chosen === "open";
}
document.addEventListener("toggle", function (event) {
  var target = event.target;
  if (target.matches && target.matches("[data-chat-spectators]")) {
    remember(spectatorsKey(), target.open ? "open" : "closed");
    if (target.open) clearUnread(document.querySelector("[data-spectators-unread]"));
  }
  if (target.matches && target.matches("[data-chat-box]") && target.open) clearUnread(document.querySelector("[data-chat-unread]"));
}, true);

// The composer is drawn again when the socket opens or someone sits down: what is being typed
// (and the focus) moves into the new one.
var typing = null;
document.addEventListener("htmx:oobBeforeSwap", function (event) {
  var target = event.detail && event.detail.target;
  if (!target || target.id !== "chat-compose") return;
  typing = {};
  target.querySelectorAll("input[id]:not([type=hidden])").forEach(function (field) {
    typing[field.id] = { value: field.value, focused: document.activeElement === field };
  });
});
document.addEventListener("htmx:oobAfterSwap", function (event) {
  if (!event.target || event.target.id !== "chat-compose") return;
  if (typing) {
    Object.keys(typing).forEach(function (id) {
      var field = document.getElementById(id);
      if (!field) return;
      field.value = typing[id].value;
      if (typing[id].focused && !field.disabled) field.focus({ preventScroll: true });
    });
  }
  typing = null;
  chatCount(false);
  chatRefusalEnds();
});

// A line sent stays in the field until it comes back said (this person's own line): a line
// refused (too fast, muted) keeps what was typed, with the reason in the toast.
var sentLine = null;
document.addEventListener("htmx:wsAfterSend", function (event) {
  var form = event.target && event.target.closest && event.target.closest("[data-chat-form]");
  var field = form && form.querySelector("input[name=text]");
  if (field) sentLine = field.value;
});
document.addEventListener("htmx:wsAfterMessage", function (event) {
  if (sentLine === null || !fromTable(event)) return;
  var message = event && event.detail && event.detail.message;
  if (typeof message !== "string") return;
  if (message.indexOf("chat__line--mine") >= 0) {
    var field = document.getElementById("chat-text");
    if (field && field.value === sentLine) { field.value = ""; chatCount(false); }
    sentLine = null;
  } else if (message.indexOf('class="toast"') >= 0) {
    sentLine = null;
  }
});

// The counter under the field, and what it says at the cap (a paste cut short says so).
function chatCount(cut) {
  var field = document.getElementById("chat-text");
  var counter = document.querySelector("[data-chat-count]");
  var limit = document.querySelector("[data-chat-limit]");
  if (!field || !counter) return;
  var max = Number(counter.dataset.max);
  var length = field.value.length;
  counter.querySelector("[data-chat-count-number]").textContent = String(length);
  counter.classList.toggle("is-full", length >= max);
  if (limit) limit.textContent = cut ? counter.dataset.cut : length >= max ? counter.dataset.full : "";
}
var pastedCut = false;
document.addEventListener("paste", function (event) {
  var field = event.target;
  if (!field || field.id !== "chat-text") return;
  var pasted = (event.clipboardData || window.clipboardData).getData("text") || "";
  var kept = field.value.length - ((field.selectionEnd || 0) - (field.selectionStart || 0));
  pastedCut = kept + pasted.length > Number(field.getAttribute("maxlength"));
});
document.addEventListener("input", function (event) {
  if (!event.target || event.target.id !== "chat-text") return;
  chatCount(pastedCut);
  pastedCut = false;
});

// A mute or ban that ends on its own: the box opens again then, without a reload.
var refusalTimer = null;
function chatRefusalEnds() {
  if (refusalTimer) { window.clearTimeout(refusalTimer); refusalTimer = null; }
  var refused = document.querySelector("[data-chat-refused][data-until]");
  if (!refused) return;
  var wait = Number(refused.dataset.until) - Date.now();
  refusalTimer = window.setTimeout(function () {
    var compose = document.getElementById("chat-compose");
    if (!compose || !compose.contains(refused)) return;
    compose.querySelectorAll("input[disabled], button[disabled]").forEach(function (control) { control.disabled = false; });
    compose.querySelectorAll(".chat__phrases[hidden]").forEach(function (row) { row.hidden = false; });
    var field = document.getElementById("chat-text");
    if (field) field.setAttribute("aria-describedby", "chat-count");
    refused.remove();
  }, Math.max(0, Math.min(wait, 2147483000)));
}

document.addEventListener("click", function (event) {
  var target = event.target;
  if (!target.closest) return;
  var mute = target.closest("[data-chat-mute]");
  if (mute) {
    var person = mute.closest("[data-author]");
    var people = mutedPeople();
    people[person.dataset.author] = person.dataset.nickname;
    saveMuted(people);
    applyMutes();
    return;
  }
  if (target.closest("[data-chat-unmute]")) { saveMuted({}); applyMutes(); }
});
document.addEventListener("htmx:wsAfterMessage", function (event) { if (fromTable(event)) chatArrived(); });
document.addEventListener("DOMContentLoaded", function () {
  applySpectators();
  chatArrived();
  chatCount(false);
  chatRefusalEnds();
});

/* Reports (a chat line, or a seat from the players' list beside the chat): the dialog closes once
   the report is taken; a refusal comes back as a toast. A staff notice goes with Understood. */
function openReport(button, field, value) {
  var dialog = document.getElementById("report-dialog");
  if (!dialog || !dialog.showModal) return;
  var form = dialog.querySelector("[data-report-form]");
  var who = button.closest("[data-nickname]");
  var title = dialog.querySelector("[data-report-title]");
  var line = button.closest(".chat__line");
  form.reset();
  form.querySelector("[data-report-message-field]").value = field === "message" ? value : "";
  form.querySelector("[data-report-seat-field]").value = field === "seat" ? value : "";
  title.textContent = title.getAttribute(field === "message" ? "data-title-message" : "data-title-seat");
  // The name in bold before the line, as the chat draws it: no colon, whose spacing differs by
  // language (French puts a narrow no-break space before it).
  var whoBox = dialog.querySelector("[data-report-who]");
  whoBox.textContent = "";
  if (who) {
    var name = document.createElement("strong");
    name.textContent = who.dataset.nickname;
    whoBox.appendChild(name);
  }
  if (line) whoBox.appendChild(document.createTextNode((who ? " " : "") + line.querySelector(".chat__text").textContent));
  dialog.showModal();
}
document.addEventListener("htmx:afterRequest", function (event) {
  var form = event.target && event.target.closest && event.target.closest("[data-report-form]");
  if (form && event.detail.successful) form.closest("dialog").close();
});

document.addEventListener("click", function (event) {
  var target = event.target;
  if (!target.closest) return;
  var message = target.closest("[data-report-message]");
  if (message) { openReport(message, "message", message.getAttribute("data-report-message")); return; }
  var seat = target.closest("[data-report-seat]");
  if (seat) { openReport(seat, "seat", seat.getAttribute("data-report-seat")); return; }
  if (target.closest("[data-report-cancel]")) { target.closest("dialog").close(); return; }
  var notice = target.closest("[data-close-notice]");
  if (notice) notice.closest(".notice-banner").remove();
});
