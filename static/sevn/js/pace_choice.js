/* Creating a table: the pace. Without JavaScript every field shows and the server takes what
   the chosen pace uses; with it, the live turn timer shows only for a live table, the playing
   hours only for a turn-based clock (not "no time limit"), the share of finished games asked
   for only at a public table (not "no time limit": friends only), and the time zone starts as this
   browser's own when the page did not say one. */

var CLOCKS = ["move-12h", "move-24h", "move-3d", "bank-3d"];

function setupPace(form) {
  var pace = form.querySelector('select[name="pace"]');
  if (!pace) return;
  var zone = form.querySelector('select[name="time_zone"]');
  if (zone && !zone.dataset.bound) {
    try {
      var here = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (here && zone.querySelector('option[value="' + here + '"]') && zone.value === "UTC") zone.value = here;
    } catch (e) { /* an old browser: UTC stays */ }
  }
  function show() {
    var chosen = pace.value || "live";
    form.querySelectorAll("[data-for-pace]").forEach(function (field) {
      var wants = field.getAttribute("data-for-pace");
      var on = wants === "live" ? chosen === "live" : wants === "turn" ? chosen !== "live"
        : wants === "public" ? chosen !== "none" : CLOCKS.indexOf(chosen) >= 0;
      field.hidden = !on;
    });
  }
  pace.addEventListener("change", show);
  show();
}

document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("form[data-create-table]").forEach(setupPace);
});
