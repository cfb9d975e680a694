/* Cards on the table take the keyboard's focus: one Tab stop per group of cards (a row, the
   centre, a pile), arrows move within it, Enter or Space shows the card's rule. Tap or click a
   card: its rule, in the page's language (the rulebook's text); Escape or a click elsewhere
   closes it. */

var CARD_GROUP = ".row, .table__center-cards, .pile, .queue, .crossroads-pair";

export function cardsOf(group) {
  return Array.prototype.filter.call(group.querySelectorAll(".card[data-code]"), function (card) {
    return !card.closest("button");
  });
}

export function focusableCards() {
  var table = document.getElementById("table");
  if (!table || !document.getElementById("card-rule")) return;
  var groups = new Set();
  cardsOf(table).forEach(function (card) {
    if (!card.hasAttribute("tabindex")) {
      card.setAttribute("tabindex", "-1");
      card.setAttribute("role", "button");
      card.setAttribute("aria-haspopup", "dialog");
    }
    groups.add(card.closest(CARD_GROUP) || card.parentElement);
  });
  groups.forEach(function (group) {
    var cards = cardsOf(group);
    var stop = cards.filter(function (card) { return card === document.activeElement; })[0] || cards[0];
    cards.forEach(function (card) { card.tabIndex = card === stop ? 0 : -1; });
  });
}

document.addEventListener("keydown", function (event) {
  var card = event.target && event.target.matches && event.target.matches("#table .card[data-code]") && event.target;
  if (!card) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    event.stopImmediatePropagation();
    openCardRule(card);
    return;
  }
  var step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step && event.key !== "Home" && event.key !== "End") return;
  var cards = cardsOf(card.closest(CARD_GROUP) || card.parentElement);
  var at = cards.indexOf(card);
  var next = event.key === "Home" ? 0 : event.key === "End" ? cards.length - 1
    : Math.max(0, Math.min(cards.length - 1, at + step));
  event.preventDefault();
  card.tabIndex = -1;
  cards[next].tabIndex = 0;
  cards[next].focus();
}, true);

var ruleFor = null;
function closeCardRule() {
  var box = document.getElementById("card-rule");
  if (box && !box.hidden) {
    box.hidden = true;
    if (ruleFor && ruleFor.isConnected) ruleFor.focus({ preventScroll: true });
    ruleFor = null;
  }
}
function openCardRule(card) {
  var box = document.getElementById("card-rule");
  var why = card.closest("[data-why]");  // a card of your Sevens hand: whether it fits, and why
  var rule = document.querySelector('#card-rules [data-rule="' + card.dataset.code + '"]');
  if (!box || !(rule || why)) return;
  var body = box.querySelector("[data-card-rule-body]");
  if (why) {
    var name = document.createElement("h3"), text = document.createElement("p");
    name.className = "card-rule__name";
    name.textContent = card.getAttribute("aria-label") || "";
    text.textContent = why.dataset.why;
    body.replaceChildren(name, text);
  } else {
    body.innerHTML = rule.innerHTML;
  }
  box.setAttribute("aria-label", card.getAttribute("aria-label") || "");
  box.hidden = false;
  var place = card.getBoundingClientRect();
  var width = box.offsetWidth, height = box.offsetHeight;
  var left = Math.min(Math.max(8, place.left + place.width / 2 - width / 2), window.innerWidth - width - 8);
  var top = place.top - height - 8 < 8 ? place.bottom + 8 : place.top - height - 8;
  box.style.left = left + "px";
  box.style.top = Math.min(top, window.innerHeight - height - 8) + "px";
  ruleFor = card;
  box.querySelector("[data-card-rule-close]").focus({ preventScroll: true });
}

// Escape closes it (not while typing in a field: the key is the field's then).
document.addEventListener("keydown", function (event) {
  if (event.key !== "Escape" || event.ctrlKey || event.metaKey || event.altKey) return;
  var target = event.target;
  if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
  closeCardRule();
});

document.addEventListener("click", function (event) {
  var target = event.target;
  if (!target.closest) return;
  if (target.closest("[data-card-rule-close]")) { closeCardRule(); return; }
  var card = target.closest("#table .card[data-code]");
  if (card && !card.closest("button")) { openCardRule(card); return; }
  if (!target.closest("#card-rule")) closeCardRule();
});
