/* Creating a table (the home page's form): the chosen game's own settings. Without JavaScript
   every field shows and the server takes the chosen game's; with it, the other game's fields
   hide and the seat choices are the chosen game's (Sevens: 3 to 7). */

var SEATS = { sevn: [2, 8], sevens: [3, 7] };
function setupGameChoice(form) {
  var seats = form.querySelector('select[name="seat_count"]');
  function show() {
    var chosen = form.querySelector('input[name="kind"]:checked');
    var game = chosen ? chosen.value : "sevn";
    form.querySelectorAll("[data-for-game]").forEach(function (field) {
      field.hidden = field.getAttribute("data-for-game") !== game;
    });
    if (!seats) return;
    var range = SEATS[game] || SEATS.sevn;
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
