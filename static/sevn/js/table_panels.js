/* The table's panels: the sticky one at the bottom (its height kept for the style), the round
   summary (opened once per scored round, never a cover over the controls), the scoreboard (open
   or closed as this tab left it), and the winner brought into view once at game over. */

import { reduceMotion, remember, remembered, shell, table } from "./page.js";

/* The sticky panel at the bottom of the table (the dock; at game over only the rematch bar):
   its height in --dock-space, so that scrolling into view leaves it out and a sheet above the
   table is never taller than the screen above it (sevn.css). */
var panelWatch = window.ResizeObserver ? new ResizeObserver(measurePanel) : null;
var watchedPanel = null;

function bottomPanel() {
  var t = table();
  if (!t) return null;
  var found = t.querySelectorAll(".table__dock, .table__dock > .controls");
  for (var i = 0; i < found.length; i++) {
    var style = window.getComputedStyle(found[i]);
    if (style.position === "sticky" && style.display !== "contents") return found[i];
  }
  return null;
}

export function measurePanel() {
  var panel = bottomPanel();
  var height = panel ? Math.ceil(panel.getBoundingClientRect().height) : 0;
  document.documentElement.style.setProperty("--dock-space", height + "px");
  if (panelWatch && panel !== watchedPanel) {
    if (watchedPanel) panelWatch.unobserve(watchedPanel);
    if (panel) panelWatch.observe(panel);
    watchedPanel = panel;
  }
}

window.addEventListener("resize", measurePanel);

/* The round summary: a panel at the top of the table that never stops play (no modal, no
   cover over the controls); it opens once per scored round and stays closed once closed. */
function summaryKey(panel) {
  var meta = document.getElementById("table-meta");
  var s = shell();
  return "sevn:summary:" + (s ? s.dataset.code : "") + ":" + (meta ? meta.dataset.game : "") + ":" + panel.dataset.round;
}
export function showSummary(force) {
  var panel = document.getElementById("summary");
  if (!panel) return;
  var meta = document.getElementById("table-meta");
  var fresh = meta && meta.hasAttribute("data-show-summary");
  if (fresh) meta.removeAttribute("data-show-summary");  // once per scored round
  var closed = remembered(summaryKey(panel)) === "closed";
  if (force) {
    remember(summaryKey(panel), "open");
    panel.hidden = false;
    panel.scrollIntoView({ block: "nearest", behavior: reduceMotion ? "auto" : "smooth" });
  } else if ((fresh && !closed) || remembered(summaryKey(panel)) === "open") {
    if (fresh) remember(summaryKey(panel), "open");
    panel.hidden = false;
    if (fresh) panel.scrollIntoView({ block: "nearest", behavior: reduceMotion ? "auto" : "smooth" });
  }
}
function closeSummary() {
  var panel = document.getElementById("summary");
  if (!panel) return;
  remember(summaryKey(panel), "closed");
  panel.hidden = true;
}

// The scoreboard: open or closed as this tab left it (always open at game over).
export function applyScores() {
  var panel = document.getElementById("scores");
  var s = shell();
  if (!panel || panel.classList.contains("scores--over")) return;
  var open = remembered("sevn:scores:" + (s ? s.dataset.code : "")) === "open";
  panel.hidden = !open;
  document.querySelectorAll("[data-toggle-scores]").forEach(function (b) { b.setAttribute("aria-expanded", String(open)); });
}
function toggleScores() {
  var panel = document.getElementById("scores");
  var s = shell();
  if (!panel) return;
  if (panel.classList.contains("scores--over")) { panel.scrollIntoView({ block: "start" }); return; }
  remember("sevn:scores:" + (s ? s.dataset.code : ""), panel.hidden ? "open" : "closed");
  applyScores();
  if (!panel.hidden) panel.scrollIntoView({ block: "nearest" });
}

// Game over is a moment: the winner is brought into view once per game.
export function showGameOver() {
  var standings = document.getElementById("standings");
  var meta = document.getElementById("table-meta");
  var s = shell();
  if (!standings || !meta || !s) return;
  var key = "sevn:over:" + s.dataset.code + ":" + meta.dataset.game;
  if (remembered(key)) return;
  remember(key, "seen");
  standings.scrollIntoView({ block: "nearest" });
}

document.addEventListener("click", function (event) {
  var target = event.target;
  if (!target.closest) return;
  if (target.closest("[data-open-summary]")) showSummary(true);
  if (target.closest("[data-close-summary]")) closeSummary();
  if (target.closest("[data-toggle-scores]")) toggleScores();
});
