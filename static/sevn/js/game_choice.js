/* Creating a table (the home page's form): the chosen game's own settings. Without JavaScript
   every field shows and the server takes the chosen game's; with it, the other games' fields
   hide and the seat choices are the chosen game's, as its radio button says them
   (data-seat-min, data-seat-max: drawn from the game's Kind by game.pages.forms). */

function seatRange(radio) {
  if (!radio || !radio.dataset.seatMin) return null;
  return [Number(radio.dataset.seatMin), Number(radio.dataset.seatMax)];
}

function setupGameChoice(form) {
  var seats = form.querySelector('select[name="seat_count"]');
  function show() {
    // none chosen (a browser that keeps no default): the first, the registry's default game
    var chosen = form.querySelector('input[name="kind"]:checked') || form.querySelector('input[name="kind"]');
    if (!chosen) return;
    form.querySelectorAll("[data-for-game]").forEach(function (field) {
      field.hidden = field.getAttribute("data-for-game") !== chosen.value;
    });
    var range = seatRange(chosen);
    if (!seats || !range) return;
    Array.prototype.forEach.call(seats.options, function (option) {
      var n = parseInt(option.value, 10);
      option.disabled = option.hidden = n < range[0] || n > range[1];
    });
    var now = parseInt(seats.value, 10);
    if (now < range[0] || now > range[1]) seats.value = String(Math.min(Math.max(now, range[0]), range[1]));
  }
  form.addEventListener("change", function (event) {
    if (event.target.name === "kind") show();
  });
  show();
}

document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("form[data-create-table]").forEach(setupGameChoice);
});
