/* The keyboard at the table: each decision's button has a key, the key hints show once a
   keyboard is in use, and your Sevens hand is one Tab stop. First of the modules (sevn.js), so
   that its listeners hear a key before table_cards.js's stop the keys they use. */

// Key hints show where a keyboard is in use: always with a fine pointer, and on a touch
// screen once a key is pressed (the style reads this class).
document.addEventListener("keydown", function () { document.documentElement.classList.add("uses-keyboard"); }, true);

// Keyboard: each button's key comes from its label in the page's language (data-key, drawn by
// the server: Draw is D, Ziehen is Z), digits pick a choice; never while typing in a field.
// (Escape closes a card's rule: table_cards.js.)
document.addEventListener("keydown", function (event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  var target = event.target;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  if (event.key === "Escape") return;
  var controls = document.getElementById("controls");
  if (!controls || !event.key) return;
  var key = event.key.toLowerCase();
  var button = controls.querySelector('[data-key="' + (window.CSS && CSS.escape ? CSS.escape(key) : key) + '"]');
  if (button && !button.disabled) {
    event.preventDefault();
    button.click();
  }
});

/* Your hand (a game's partial marks it: data-hand on the list, data-hand-card on each card,
   data-hand-play on a card's play button; Sevens' _hand.html) is one Tab stop: Tab lands on a card you can play, the arrows move over
   every card (those you cannot play too), Enter plays a playable card or shows why another
   does not fit. Which playable card was the stop is kept across redraws. Its keys are its own:
   the table cards' listener (table_cards.js) does not hear them. */

var HAND = "#controls [data-hand]";
var handStop = null;  // the code of the playable card that is the hand's stop
function handItems(hand) {
  return Array.prototype.map.call(hand.querySelectorAll("[data-hand-card]"), function (item) {
    return item.querySelector("[data-hand-play]") || item.querySelector(".card[data-code]");
  }).filter(Boolean);
}
function codeOf(item) { return item.dataset.card || item.dataset.code; }

export function handStops(focused) {
  var hand = document.querySelector(HAND);
  if (!hand) return;
  var items = handItems(hand);
  var playable = items.filter(function (item) { return item.matches("[data-hand-play]"); });
  var kept = playable.filter(function (item) { return codeOf(item) === handStop; })[0];
  var stop = focused || kept || playable[0] || items[0];
  items.forEach(function (item) { item.tabIndex = item === stop ? 0 : -1; });
}

document.addEventListener("focusin", function (event) {
  var item = event.target;
  if (!item.closest || !item.closest(HAND)) return;
  if (item.matches("[data-hand-play]")) handStop = codeOf(item);
  handStops(item);
});
document.addEventListener("focusout", function (event) {
  var hand = event.target.closest && event.target.closest(HAND);
  if (hand && !hand.contains(event.relatedTarget)) handStops();  // Tab comes back to a playable card
});
document.addEventListener("keydown", function (event) {
  var hand = event.target.closest && event.target.closest(HAND);
  if (!hand || event.ctrlKey || event.metaKey || event.altKey) return;
  var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step && event.key !== "Home" && event.key !== "End") return;
  var items = handItems(hand);
  var at = items.indexOf(event.target);
  var next = event.key === "Home" ? 0 : event.key === "End" ? items.length - 1
    : Math.max(0, Math.min(items.length - 1, at + step));
  event.preventDefault();
  event.stopImmediatePropagation();
  items[next].focus();
}, true);
