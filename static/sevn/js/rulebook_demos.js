/* The rulebook's pictures that move: step 2's Draw or Pass, the round that plays itself, the
   scoring order step by step, and the Sevens page's "what fits this layout". Without it each
   shows whole and still. */

import { reduceMotion } from "./page.js";

/* ---------- rulebook: step 2, Draw or Pass ---------- */

function setupChoice(root) {
  var row = root.querySelector("[data-choice-row]");
  var next = root.querySelector("[data-choice-card]");
  var safe = root.querySelector("[data-choice-safe]");
  var result = root.querySelector("[data-choice-result]");
  root.querySelectorAll("[data-choice]").forEach(function (button) {
    button.addEventListener("click", function () {
      var draw = button.getAttribute("data-choice") === "draw";
      row.classList.toggle("is-passed", !draw);
      next.hidden = !draw;
      safe.hidden = draw;
      if (draw) {
        var card = next.querySelector(".card");
        card.classList.remove("is-new"); void card.offsetWidth; card.classList.add("is-new");
      }
      result.textContent = result.getAttribute(draw ? "data-after-draw" : "data-after-pass");
    });
  });
}

/* ---------- rulebook: the round that plays itself ---------- */

function setupDemo(root) {
  var frames = Array.prototype.slice.call(root.querySelectorAll("[data-frame]"));
  var controls = root.querySelector("[data-demo-controls]");
  var toggle = root.querySelector("[data-demo-toggle]");
  if (!frames.length) return;
  controls.hidden = false;
  var index = 0;
  var playing = !reduceMotion;
  var timer = null;
  function show(i) {
    index = (i + frames.length) % frames.length;
    frames.forEach(function (frame, n) { frame.hidden = n !== index; });
  }
  function schedule() {
    clearTimeout(timer);
    if (playing) timer = setTimeout(function () { show(index + 1); schedule(); }, 3600);
  }
  function setPlaying(on) {
    playing = on;
    toggle.textContent = toggle.getAttribute(on ? "data-label-pause" : "data-label-play");
    toggle.setAttribute("aria-pressed", on ? "false" : "true");
    schedule();
  }
  root.querySelector("[data-demo-prev]").addEventListener("click", function () { setPlaying(false); show(index - 1); });
  root.querySelector("[data-demo-next]").addEventListener("click", function () { setPlaying(false); show(index + 1); });
  toggle.addEventListener("click", function () { setPlaying(!playing); });
  root.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") { setPlaying(false); show(index + 1); }
    if (event.key === "ArrowLeft") { setPlaying(false); show(index - 1); }
  });
  setPlaying(playing);
}

/* ---------- rulebook: the scoring order, step by step ---------- */

function setupScoring(root) {
  var steps = Array.prototype.slice.call(root.querySelectorAll("[data-step]"));
  var total = root.querySelector("[data-scoring-total]");
  var controls = root.querySelector("[data-scoring-controls]");
  var next = root.querySelector("[data-scoring-next]");
  if (!steps.length) return;
  controls.hidden = false;
  var index = 0;
  var timer = null;
  function show(i) {
    index = Math.min(i, steps.length - 1);
    steps.forEach(function (step, n) {
      step.classList.toggle("is-current", n === index);
      step.classList.toggle("is-pending", n > index);
    });
    total.textContent = steps[index].getAttribute("data-total");
    next.disabled = index === steps.length - 1;
  }
  function autoplay() {
    clearTimeout(timer);
    if (index < steps.length - 1) timer = setTimeout(function () { show(index + 1); autoplay(); }, 1500);
  }
  next.addEventListener("click", function () { clearTimeout(timer); show(index + 1); });
  root.querySelector("[data-scoring-restart]").addEventListener("click", function () { show(0); autoplay(); });
  show(0);
  if (!reduceMotion && "IntersectionObserver" in window) {
    var seen = new IntersectionObserver(function (entries) {
      if (entries.some(function (e) { return e.isIntersecting; })) { seen.disconnect(); autoplay(); }
    }, { threshold: 0.4 });
    seen.observe(root);
  }
}

/* ---------- the Sevens page's "what fits this layout" ----------
   Every verdict is in the page, written by the server from the Sevens engine; this only shows
   the one for the card you choose (click, tap, or arrows and Space/Enter: one Tab stop). */
function setupFits(root) {
  var hand = root.querySelector("[data-fits-hand]");
  var result = root.querySelector("[data-fits-result]");
  var list = root.querySelector("[data-fits-verdicts]");
  if (!hand || !result || !list) return;
  var picks = Array.prototype.slice.call(hand.querySelectorAll("[data-pick]"));
  if (!picks.length) return;

  function choose(index, focus) {
    var code = picks[index].getAttribute("data-pick");
    var verdict = list.querySelector('[data-verdict="' + code + '"]');
    var fits = verdict.getAttribute("data-fits") === "true";
    picks.forEach(function (pick, n) {
      var on = n === index;
      pick.classList.toggle("is-chosen", on);
      pick.classList.toggle("is-fits", on && fits);
      pick.classList.toggle("is-blocked", on && !fits);
      pick.setAttribute("aria-checked", String(on));
      pick.tabIndex = on ? 0 : -1;
    });
    result.className = "fits__result verdict verdict--" + (fits ? "fits" : "blocked");
    result.textContent = "";
    result.appendChild(verdict.querySelector(".verdict__mark").cloneNode(true));
    result.appendChild(document.createTextNode(" " + verdict.querySelector(".verdict__text").textContent));
    if (focus) picks[index].focus();
  }

  hand.setAttribute("role", "radiogroup");
  picks.forEach(function (pick, index) {
    pick.setAttribute("role", "radio");
    pick.setAttribute("aria-checked", "false");
    pick.tabIndex = index === 0 ? 0 : -1;
    pick.addEventListener("click", function (event) { event.preventDefault(); choose(index, false); });
  });
  hand.addEventListener("keydown", function (event) {
    var index = picks.indexOf(document.activeElement);
    if (index < 0) return;
    var steps = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key in steps) index = (index + steps[event.key] + picks.length) % picks.length;
    else if (event.key === "Home") index = 0;
    else if (event.key === "End") index = picks.length - 1;
    else if (event.key !== " " && event.key !== "Enter") return;
    event.preventDefault();
    choose(index, true);
  });
  list.hidden = true;
  result.textContent = result.getAttribute("data-prompt");
  result.hidden = false;
}

document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("[data-choice-demo]").forEach(setupChoice);
  document.querySelectorAll("[data-demo]").forEach(setupDemo);
  document.querySelectorAll("[data-scoring]").forEach(setupScoring);
  document.querySelectorAll("[data-fits-example]").forEach(setupFits);
});
