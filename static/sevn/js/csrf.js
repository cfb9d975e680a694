/* Every form and htmx request of an open page sends the CSRF token the browser holds now, not
   the one the page was drawn with. Signing up or logging in, in another tab, gives the browser a
   new token (Django rotates it at a log-in), and a page drawn before kept sending the old one:
   its Start, Rematch, seed and chat buttons were refused (403) with nothing said until a reload.

   So: before an htmx request is sent, and before a plain form is submitted, the token is read
   from the browser's cookie (the page's own copies, in <body hx-headers> and in its forms, are
   brought up to date too, for whatever reads them). Should a request still be refused for its
   token (no cookie to read, or one that changed under it), the server says so
   (game.pages.stale: X-SEVN-CSRF), this asks it for the current token (/csrf-token/), and the
   request is sent once more; refused again, the server's note is shown with a Reload button.
   A page drawn for an account that is no longer the one signed in (logged out, or into
   another account, elsewhere) is told so by the server (X-SEVN-Stale): nothing is done as
   someone else, and the note says to reload. Sockets need none of this: the browser's cookies
   open them, and a table's socket follows its person's log-in (game.live.consumers). */

var COOKIE = "csrftoken";  // Django's CSRF_COOKIE_NAME (sevn_site/settings.py keeps the default)
var fetched = "";  // a token the server gave when there was no cookie to read
var retried = new WeakSet();  // elements whose request was sent again once already

function fromCookie() {
  var found = document.cookie.split(";").map(function (part) { return part.trim(); })
    .filter(function (part) { return part.indexOf(COOKIE + "=") === 0; })[0];
  return found ? decodeURIComponent(found.slice(COOKIE.length + 1)) : "";
}

function current() { return fromCookie() || fetched; }

function pageHeaders() {
  try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}"); } catch (e) { return {}; }
}

// The page's own copies: <body hx-headers> and every form's hidden field.
function refresh(token) {
  if (!token) return;
  var headers = pageHeaders();
  if (headers["X-CSRFToken"] !== token) {
    headers["X-CSRFToken"] = token;
    document.body.setAttribute("hx-headers", JSON.stringify(headers));
  }
  document.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach(function (input) {
    if (input.value) input.value = token;
  });
}

document.body.addEventListener("htmx:configRequest", function (event) {
  var token = current();
  if (!token || event.detail.verb === "get") return;
  event.detail.headers["X-CSRFToken"] = token;
  var parameters = event.detail.parameters;
  if (parameters && parameters.csrfmiddlewaretoken) parameters.csrfmiddlewaretoken = token;  // the field wins over the header
  refresh(token);
});

// A plain form (invite a friend, add a friend, log out, the settings): the same, as it is sent.
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!form || (form.method || "").toLowerCase() !== "post" || form.hasAttribute("hx-post")) return;
  var token = current();
  var field = form.querySelector("input[name=csrfmiddlewaretoken]");
  if (token && field) field.value = token;
}, true);

function notice(html) {
  var region = document.getElementById("toast");
  if (!region) {
    region = document.createElement("div");
    region.className = "stale-note";
    region.setAttribute("role", "alert");
    (document.getElementById("main") || document.body).prepend(region);
  }
  var holder = document.createElement("div");
  holder.innerHTML = html;
  var drawn = holder.firstElementChild;  // the server's toast (table/_toast.html), in the page's language
  region.innerHTML = drawn && drawn.id === "toast" ? drawn.innerHTML : html;
  var button = region.querySelector("[data-reload]");
  if (button) button.addEventListener("click", function () { window.location.reload(); });
}

document.body.addEventListener("htmx:responseError", function (event) {
  var xhr = event.detail.xhr;
  if (!xhr || xhr.status !== 403) return;
  var element = event.detail.elt;
  if (xhr.getResponseHeader("X-SEVN-Stale")) { notice(xhr.responseText); return; }
  if (!xhr.getResponseHeader("X-SEVN-CSRF")) return;
  if (retried.has(element)) { retried.delete(element); notice(xhr.responseText); return; }
  retried.add(element);
  fetch("/csrf-token/", { credentials: "same-origin", headers: { "Accept": "application/json" } })
    .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); })
    .then(function (answer) {
      fetched = answer.token || "";
      refresh(current());
      var config = event.detail.requestConfig || {};
      return window.htmx.ajax(config.verb || "post", config.path || element.getAttribute("hx-post"), {
        source: element, swap: "none"
      });
    })
    .catch(function () { retried.delete(element); notice(xhr.responseText); });
});

document.body.addEventListener("htmx:afterRequest", function (event) {
  if (event.detail.successful && event.detail.elt) retried.delete(event.detail.elt);
});
