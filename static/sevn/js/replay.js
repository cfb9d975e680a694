/* A finished game's replay (/g/<id>/, game.screen.replay_steps). Arrow keys, the slider, the step
   links and the analysis' marked moves fetch one step (its table, hands, judgement and log) and swap
   each part in by its id; the address
   follows (?step=N), so any step can be linked to. Without it the links and the slider's form
   load whole pages. */

import { afterRedraw } from "./table_socket.js";

function replayRoot() { return document.querySelector("[data-replay]"); }
var replayAsked = null;
var replayAgain = false;  // the analysis came while a step was on its way: read that step again once it lands
function replayGo(step, again) {
  var root = replayRoot();
  if (!root) return;
  var last = parseInt(root.dataset.steps, 10);
  step = Math.max(0, Math.min(last, step));
  if (step === replayAsked || !again && String(step) === root.dataset.step && replayAsked === null) return;
  replayAsked = step;
  var url = root.dataset.url + "?step=" + step;
  fetch(url, { headers: { "X-Replay-Step": "1" }, credentials: "same-origin" })
    .then(function (response) { if (!response.ok) throw new Error(response.status); return response.text(); })
    .then(function (html) {
      if (replayAsked !== step) return;  // a later step was asked for meanwhile
      var parts = document.createElement("template");
      parts.innerHTML = html;
      parts.content.querySelectorAll("[id]").forEach(function (part) {
        var shown = document.getElementById(part.id);
        if (shown && part.parentNode === parts.content) shown.replaceWith(part);
      });
      root.dataset.step = String(step);
      replayAsked = null;
      var slider = document.getElementById("replay-slider");
      if (slider && document.activeElement !== slider) slider.value = String(step);
      var links = { first: 0, previous: Math.max(step - 1, 0), next: Math.min(step + 1, last), last: last };
      root.querySelectorAll("[data-replay-to]").forEach(function (link) { link.setAttribute("href", "?step=" + links[link.dataset.replayTo]); });
      window.history.replaceState(null, "", url);
      var log = document.querySelector("#replay-log .log__list");
      if (log) log.scrollTop = log.scrollHeight;
      afterRedraw();
      if (replayAgain) { replayAgain = false; replayGo(step, true); }
    })
    .catch(function () { replayAsked = null; window.location.href = url; });
}
document.addEventListener("keydown", function (event) {
  var root = replayRoot();
  if (!root || event.ctrlKey || event.metaKey || event.altKey) return;
  var target = event.target;
  if (target && target.id !== "replay-slider" && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
  if (target && target.id === "replay-slider") return;  // the slider moves itself (its input event)
  var step = parseInt(replayAsked !== null ? replayAsked : root.dataset.step, 10);
  var moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: parseInt(root.dataset.steps, 10) };
  if (!(event.key in moves)) return;
  event.preventDefault();
  replayGo(moves[event.key]);
});
document.addEventListener("input", function (event) {
  if (event.target && event.target.id === "replay-slider") replayGo(parseInt(event.target.value, 10));
});
document.addEventListener("click", function (event) {
  var jump = event.target.closest && event.target.closest("[data-replay-jump]");
  if (jump && replayRoot()) {  // a marked move or someone's worst moment, in the analysis
    event.preventDefault();
    replayGo(parseInt(jump.dataset.replayJump, 10));
    var counter = document.getElementById("replay-counter");
    if (counter) counter.scrollIntoView({ block: "nearest" });
    return;
  }
  var link = event.target.closest && event.target.closest("[data-replay-to]");
  if (!link || !replayRoot()) return;
  event.preventDefault();
  replayGo(parseInt(link.getAttribute("href").split("=")[1], 10));
});
// The analysis, polled while it is made (game/_replay_analysis.html), has just come: the step shown
// reads it again, so its judgement appears without a reload.
function analysisArrived() {
  var panel = document.getElementById("replay-analysis");
  var root = replayRoot();
  if (!root || !panel || panel.dataset.analysis !== "done" || panel.dataset.shown) return;
  panel.dataset.shown = "1";
  // A step on its way (an arrow key, the slider) stays the one asked for: asking for the step shown
  // instead would drop it (seen under load: the slider to the end, the analysis in, step 2 again).
  if (replayAsked !== null) replayAgain = true;
  else replayGo(parseInt(root.dataset.step, 10), true);
}
document.addEventListener("htmx:afterSwap", analysisArrived);
document.addEventListener("htmx:afterSettle", analysisArrived);
document.addEventListener("DOMContentLoaded", function () {
  var panel = document.getElementById("replay-analysis");
  if (panel) panel.dataset.shown = "1";  // drawn with the page: the step shown has its judgement already
  var log = document.querySelector("#replay-log .log__list");
  if (log) log.scrollTop = log.scrollHeight;
});
