/* SEVN: small enhancements on server-rendered pages. Everything works without it; with it
   you get keyboard play, the turn countdown, the round summary sheet and the rulebook demos. */
(function () {
  "use strict";

  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  /* ---------- the live table ---------- */

  function table() { return document.getElementById("table"); }

  // Keyboard: D draws, P passes, digits pick a choice (never while typing in a field).
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var controls = document.getElementById("controls");
    if (!controls) return;
    var key = event.key.toLowerCase();
    var button = controls.querySelector('[data-key="' + key + '"]');
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  // One click per decision: disable the bar until the server's redraw arrives.
  document.addEventListener("htmx:wsBeforeSend", function (event) {
    var controls = document.getElementById("controls");
    if (controls && controls.contains(event.target)) {
      controls.querySelectorAll("button:not([disabled])").forEach(function (b) {
        b.disabled = true;
        b.setAttribute("data-sending", "");
      });
      controls.classList.add("is-sending");
    }
  });

  // Countdown ring for the pending decision.
  var countdownTimer = null;
  function startCountdown() {
    if (countdownTimer) { clearInterval(countdownTimer); countdownTimer = null; }
    var t = table(), meta = document.getElementById("table-meta");
    if (!t || !meta || !meta.dataset.deadline) return;
    var deadline = Number(meta.dataset.deadline);
    var offset = Number(meta.dataset.now) - Date.now();
    var total = Number(meta.dataset.timer || 0) * 1000;
    var ring = t.querySelector(".countdown__ring");
    var text = t.querySelector(".countdown__text");
    var box = t.querySelector(".countdown");
    function tick() {
      var left = Math.max(0, deadline - (Date.now() + offset));
      var seconds = Math.ceil(left / 1000);
      if (text) text.textContent = seconds;
      if (ring && total) ring.style.strokeDashoffset = String(100 - Math.min(100, (left / total) * 100));
      if (box) box.classList.toggle("is-low", left < 5000);
      if (left <= 0 && countdownTimer) { clearInterval(countdownTimer); countdownTimer = null; }
    }
    tick();
    countdownTimer = setInterval(tick, 250);
  }

  function openSummary(force) {
    var dialog = document.getElementById("summary");
    if (!dialog || typeof dialog.showModal !== "function" || dialog.open) return;
    var meta = document.getElementById("table-meta");
    var fresh = meta && meta.hasAttribute("data-show-summary");
    if (fresh) meta.removeAttribute("data-show-summary");  // once per scored round
    if (force || fresh) dialog.showModal();
  }

  // The round summary stays open while play goes on: it says so when the next decision is yours.
  function markYourTurn() {
    var meta = document.getElementById("table-meta");
    var mine = document.querySelector(".seat--you");
    var yours = !!(meta && mine && meta.dataset.turn !== "" && meta.dataset.turn === mine.dataset.seat);
    document.querySelectorAll("[data-your-turn]").forEach(function (mark) { mark.hidden = !yours; });
  }

  function afterRedraw() {
    // A message that did not redraw the table (an error for this player) gives the
    // choices back; a redraw brings new controls anyway.
    var sending = document.querySelector("#controls.is-sending");
    if (sending) {
      sending.classList.remove("is-sending");
      sending.querySelectorAll("button[data-sending]").forEach(function (b) {
        b.disabled = false;
        b.removeAttribute("data-sending");
      });
    }
    startCountdown();
    openSummary(false);
    markYourTurn();
    var log = document.getElementById("log-list");
    if (log) log.scrollTop = log.scrollHeight;
  }

  document.addEventListener("htmx:wsAfterMessage", afterRedraw);
  document.addEventListener("htmx:afterSwap", afterRedraw);
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.target && event.target.id === "table") afterRedraw();
  });
  document.addEventListener("click", function (event) {
    var opener = event.target.closest && event.target.closest("[data-open-summary]");
    if (opener) openSummary(true);
    var copy = event.target.closest && event.target.closest("[data-copy]");
    if (copy) {
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
    }
  });

  function fullInviteUrl(input) {
    return window.location.origin + input.getAttribute("data-invite-path");
  }
  function fillInviteLinks() {
    document.querySelectorAll("[data-invite-path]").forEach(function (input) { input.value = fullInviteUrl(input); });
  }
  document.addEventListener("htmx:wsAfterMessage", fillInviteLinks);

  // Connection state: the extension reconnects by itself; the server re-sends the whole table.
  document.addEventListener("htmx:wsClose", function () {
    var note = document.getElementById("connection");
    if (note) note.hidden = false;
  });
  document.addEventListener("htmx:wsOpen", function () {
    var note = document.getElementById("connection");
    if (note) note.hidden = true;
  });

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

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-choice-demo]").forEach(setupChoice);
    document.querySelectorAll("[data-demo]").forEach(setupDemo);
    document.querySelectorAll("[data-scoring]").forEach(setupScoring);
    fillInviteLinks();
    afterRedraw();
  });
})();
