/* The header's menu on a phone (templates/base.html's <details class="site-menu">, which opens
   and closes without this): Escape closes it and gives the focus back to its button, a tap or
   a click outside it closes it, and so does choosing a link in it. On a wide screen the menu's
   content shows while it is closed (sevn.css's ::details-content); a browser that cannot do
   that gets it opened here instead, for as long as the screen is wide. */

var WIDE = "(min-width: 761px)";

function menus() { return document.querySelectorAll("[data-site-menu]"); }

function close(menu, focusButton) {
  if (!menu.open) return;
  menu.open = false;
  if (focusButton) menu.querySelector("summary").focus();
}

document.addEventListener("keydown", function (event) {
  if (event.key !== "Escape") return;
  menus().forEach(function (menu) {
    if (menu.open && !window.matchMedia(WIDE).matches) close(menu, menu.contains(document.activeElement));
  });
});

document.addEventListener("click", function (event) {
  if (window.matchMedia(WIDE).matches) return;
  menus().forEach(function (menu) {
    if (!menu.open) return;
    if (!menu.contains(event.target)) close(menu, false);
    else if (event.target.closest && event.target.closest(".site-menu__panel a")) close(menu, false);
  });
});

var showsClosedContent = window.CSS && CSS.supports && CSS.supports("selector(::details-content)");
if (!showsClosedContent && window.matchMedia) {
  var wide = window.matchMedia(WIDE);
  var follow = function () {
    menus().forEach(function (menu) {
      menu.classList.toggle("site-menu--wide", wide.matches);
      menu.open = wide.matches;
    });
  };
  follow();
  wide.addEventListener("change", follow);
}
