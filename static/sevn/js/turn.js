/* Your turn, and the time it has: the countdown ring of the pending decision (the seconds
   left, counted from the server's clock: #table-meta's deadline and the time it was drawn); the
   tab's title and icon change, an optional sound plays (off unless chosen, remembered per
   browser), and a polite announcement says it. */

import { parts } from "./clock_words.js";
import { shell, table } from "./page.js";

var countdownTimer = null;

// A turn-based clock has days: the largest unit it has left, in the page's language (its short
// words are the countdown's data-day, data-hour, data-minute, each with the space its language puts
// before a unit: French "23 h", English "23h"), counted as the clocks' words count them
// (clock_words.js's parts), so a new 12-hour turn is "12h" beside "12 hours left"; a live clock
// counts its seconds.
export function shown(seconds, box) {
  var units = box ? box.dataset : {};
  var left = parts(seconds);
  if (left.days) return left.days + (units.day || "d");
  if (left.hours) return left.hours + (units.hour || "h");
  if (seconds >= 100) return left.minutes + (units.minute || "min");
  return String(seconds);
}

// The ring and the seconds change together, once a second, as the shown second turns: a step a
// second, like a watch's hand. (A 250 ms tick, each step eased over 250 ms, redrew the ring sixty
// times a second for as long as a clock ran: a fifth of a core per open table in headless
// Chromium, and a phone's battery.)
export function startCountdown() {
  if (countdownTimer) { clearTimeout(countdownTimer); countdownTimer = null; }
  var t = table(), meta = document.getElementById("table-meta");
  if (!t || !meta || !meta.dataset.deadline) return;
  var deadline = Number(meta.dataset.deadline);
  var offset = Number(meta.dataset.now) - Date.now();
  var total = Number(meta.dataset.timer || 0) * 1000;
  var ring = t.querySelector(".countdown__ring");
  var text = t.querySelector(".countdown__text");
  var box = t.querySelector(".countdown");
  function tick() {
    countdownTimer = null;
    var left = Math.max(0, deadline - (Date.now() + offset));
    if (text) text.textContent = shown(Math.ceil(left / 1000), box);
    if (ring && total) ring.style.strokeDashoffset = String(100 - Math.min(100, (left / total) * 100));
    if (box) box.classList.toggle("is-low", left < 5000);
    // next when the shown second turns (a few ms past it, so the second has turned)
    if (left > 0) countdownTimer = setTimeout(tick, (left % 1000 || 1000) + 5);
  }
  tick();
}

var myTurn = false;
var baseTitle = document.title;
var baseIcon = null;
var audio = null;

function soundOn() { try { return window.localStorage.getItem("sevn:sound") === "on"; } catch (e) { return false; } }
function beep() {
  var Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio = audio || new Context();
  if (audio.state === "suspended") audio.resume();
  var now = audio.currentTime;
  [660, 880].forEach(function (pitch, i) {
    var tone = audio.createOscillator(), gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = pitch;
    gain.gain.setValueAtTime(0.0001, now + i * 0.14);
    gain.gain.exponentialRampToValueAtTime(0.18, now + i * 0.14 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.22);
    tone.connect(gain).connect(audio.destination);
    tone.start(now + i * 0.14);
    tone.stop(now + i * 0.14 + 0.25);
  });
}
export function showSound() {
  document.querySelectorAll("[data-sound]").forEach(function (b) { b.setAttribute("aria-pressed", String(soundOn())); });
}
function toggleSound() {
  try { window.localStorage.setItem("sevn:sound", soundOn() ? "off" : "on"); } catch (e) { return; }
  showSound();
  if (soundOn()) beep();  // a click lets the page make sounds from now on; this one says how it sounds
}

export function isMyTurn() { return myTurn; }

// Says it when the decision bar becomes this viewer's (or stops being); returns whether it is.
export function markTurn() {
  var s = shell();
  var controls = document.querySelector("#controls.controls--active");
  var yours = !!controls;
  var icon = document.querySelector('link[rel="icon"]');
  if (icon && baseIcon === null) baseIcon = icon.getAttribute("href");
  if (s && yours !== myTurn) {
    document.title = yours ? "● " + s.dataset.turnTitle + " · " + baseTitle : baseTitle;
    if (icon) icon.setAttribute("href", yours ? s.dataset.turnIcon : baseIcon);
    var say = document.getElementById("turn-announce");
    if (say) say.textContent = yours ? s.dataset.turnTitle : "";
    if (yours && soundOn()) beep();
  }
  myTurn = yours;
  return yours;
}

document.addEventListener("click", function (event) {
  if (event.target.closest && event.target.closest("[data-sound]")) toggleSound();
});
