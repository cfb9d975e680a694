/* The fair-deal panel (game.screen.fair). Each deal gets a fresh random client seed from this
   browser (shown, and changeable before the deal), sent once the deal's commitment is on the
   table: a seed the server knew before it committed could be played against, so none is ever
   reused for another deal. */

import { fromTable, remember, remembered } from "./page.js";

function randomSeed() {
  var bytes = new Uint8Array(32);
  window.crypto.getRandomValues(bytes);
  return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
}
var seedSentFor = {};  // commitment -> the seed sent for it from this page
function seedKey(form) { return "sevn:seed:" + form.querySelector("input[name=commitment]").value; }
function fairSeed() {
  var panel = document.querySelector("[data-fair-panel]");
  if (panel && remembered("sevn:fair-open") === "1") panel.open = true;
  var form = document.querySelector("form[data-fair-seed]");
  if (!form || !window.crypto || !window.htmx) return;
  var input = form.querySelector("input[name=seed]");
  var seed = remembered(seedKey(form));
  if (!seed) { seed = randomSeed(); remember(seedKey(form), seed); }
  if (document.activeElement !== input) input.value = seed;
  var commitment = form.querySelector("input[name=commitment]").value;
  if (seedSentFor[commitment] !== seed) window.htmx.trigger(form, "submit");
  else form.querySelector("[data-fair-status]").textContent = form.dataset.sent;
}
document.addEventListener("htmx:configRequest", function (event) {
  var form = event.target && event.target.closest && event.target.closest("form[data-fair-seed]");
  if (!form) return;
  var seed = event.detail.parameters.seed;
  remember(seedKey(form), seed);  // a seed typed in counts for this deal, like the random one
  seedSentFor[form.querySelector("input[name=commitment]").value] = seed;
});
document.addEventListener("htmx:afterRequest", function (event) {
  var form = event.target && event.target.closest && event.target.closest("form[data-fair-seed]");
  if (!form) return;
  var status = form.querySelector("[data-fair-status]");
  // 204: counted; a refusal comes back as a toast (a new commitment brings the form again)
  if (event.detail.xhr && event.detail.xhr.status === 204) status.textContent = form.dataset.sent;
  else { status.textContent = ""; seedSentFor = {}; }
});
document.addEventListener("input", function (event) {  // an edited seed is not sent yet
  var form = event.target && event.target.closest && event.target.closest("form[data-fair-seed]");
  if (form) form.querySelector("[data-fair-status]").textContent = "";
});
document.addEventListener("toggle", function (event) {
  if (event.target.matches && event.target.matches("[data-fair-panel]")) remember("sevn:fair-open", event.target.open ? "1" : "0");
}, true);
document.addEventListener("htmx:wsAfterMessage", function (event) { if (fromTable(event)) fairSeed(); });
document.addEventListener("htmx:afterSwap", fairSeed);
document.addEventListener("DOMContentLoaded", fairSeed);
