/* A turn-based table's clocks (templates/table/_clocks.html) say the deciding seat's time left
   in words, drawn by the server with each update; between updates (a turn can last days) this
   keeps them right: every few seconds it says the time until the turn's deadline again, counted
   from the server's clock (#table-meta's data-now), in the page's language (the browser's
   Intl.NumberFormat names the units, with their plurals, and the server's own sentence,
   data-left-words, "%(time)s left", holds them). The largest two units that matter, as the
   server says them; a started minute counts. */

var DAY = 86400, HOUR = 3600;

function unit(language, name, n) {
  return new Intl.NumberFormat(language, { style: "unit", unit: name, unitDisplay: "long" }).format(n);
}

// The time left as days, hours and minutes, a started minute counted: the words below and the
// turn light's ring (turn.js) both count with it, so the two never say different hours.
export function parts(seconds) {
  var minutes = Math.ceil(Math.max(0, seconds) / 60);
  return { days: Math.floor(minutes / 1440), hours: Math.floor(minutes / 60) % 24, minutes: minutes % 60 };
}

export function words(language, seconds) {
  var left = parts(seconds), days = left.days, hours = left.hours, rest = left.minutes;
  if (days) return hours ? unit(language, "day", days) + " " + unit(language, "hour", hours) : unit(language, "day", days);
  if (hours) return rest ? unit(language, "hour", hours) + " " + unit(language, "minute", rest) : unit(language, "hour", hours);
  return unit(language, "minute", rest);
}

// The server's clock against this page's: #table-meta says the server's time when it was drawn,
// read here the first time each drawing is seen (as turn.js's countdown reads it).
var drawnAt = null, offset = 0;

function refresh() {
  var meta = document.getElementById("table-meta");
  if (meta && meta.dataset.now && meta.dataset.now !== drawnAt) {
    drawnAt = meta.dataset.now;
    offset = Number(drawnAt) - Date.now();
  }
  var language = document.documentElement.lang || "en";
  document.querySelectorAll("[data-left-until]").forEach(function (element) {
    var left = (Number(element.dataset.leftUntil) - (Date.now() + offset)) / 1000;
    if (left <= 0) return;  // the server says what happens then
    var said = element.dataset.leftWords.replace("%(time)s", words(language, left));
    if (element.textContent !== said) element.textContent = said;
  });
}

if (window.Intl && Intl.NumberFormat) setInterval(refresh, 5000);
