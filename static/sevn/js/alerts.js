/* The installable app and its notices. Every page registers the site's service worker
   (/sw.js: notices pushed while the site is closed, the rulebook offline, the app's badge) and
   keeps the installed app's badge at the number of tables waiting for your move (the page's
   #your-move-count, swapped in again by the person's socket when it changes). On the notification settings ([data-push-device]),
   the buttons subscribe this browser to the site's notices (the browser's push service, with
   the site's VAPID key) or stop them, and the line above them says where this device stands.
   A person who never saved their choices is offered their device's time zone.
   A signed-in page also hands the browser's subscription to the site once a session, so that
   one the browser renewed by itself is known again. */

var device = document.querySelector("[data-push-device]");

function csrfToken() {
  try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"] || ""; } catch (e) { return ""; }
}

function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function keyBytes(base64url) {
  var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  var raw = atob(padded);
  var bytes = new Uint8Array(raw.length);
  for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function tell(url, body) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
  }).then(function (response) {
    return response.json().then(function (answer) {
      if (!response.ok) throw new Error(answer.error || String(response.status));
      return answer;
    });
  });
}

function setBadge() {
  // how many tables wait for your move: the page says it (#your-move-count, game.pages.context)
  var element = document.getElementById("your-move-count");
  if (!element || !("setAppBadge" in navigator)) return;
  var count = Number(element.dataset.count || 0);
  (count > 0 ? navigator.setAppBadge(count) : navigator.clearAppBadge()).catch(function () {});
}

function say(word, detail) {
  var status = device.querySelector("[data-push-status]");
  var words = device.querySelector("[data-push-words]");
  var found = words && words.content.querySelector('[data-word="' + word + '"]');
  status.textContent = (found ? found.textContent : word) + (detail ? " (" + detail + ")" : "");
  device.setAttribute("data-push-state", word);
}

function showButtons(subscribed) {
  device.querySelector("[data-push-on]").hidden = subscribed;
  device.querySelector("[data-push-off]").hidden = !subscribed;
}

function subscriptionOf(registration) {
  return registration.pushManager.getSubscription();
}

function subscribe(registration) {
  return Notification.requestPermission().then(function (permission) {
    if (permission !== "granted") {
      say("blocked");
      return null;
    }
    return registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(device.getAttribute("data-key")),
    }).then(function (subscription) {
      return tell(device.getAttribute("data-url"), Object.assign({ action: "subscribe" }, subscription.toJSON()))
        .then(function () { return subscription; });
    });
  });
}

function setUpDevice(registration) {
  if (!pushSupported()) {
    say("unsupported");
    return;
  }
  subscriptionOf(registration).then(function (subscription) {
    if (Notification.permission === "denied") say("blocked");
    else say(subscription ? "on" : "off");
    showButtons(Boolean(subscription));
  });
  device.querySelector("[data-push-on]").addEventListener("click", function () {
    subscribe(registration).then(function (subscription) {
      if (!subscription) return;
      say("on");
      showButtons(true);
    }).catch(function (error) { say("failed", error.message); });
  });
  device.querySelector("[data-push-off]").addEventListener("click", function () {
    subscriptionOf(registration).then(function (subscription) {
      if (!subscription) return null;
      return tell(device.getAttribute("data-url"), { action: "unsubscribe", endpoint: subscription.endpoint })
        .then(function () { return subscription.unsubscribe(); });
    }).then(function () {
      say("off");
      showButtons(false);
    }).catch(function (error) { say("failed", error.message); });
  });
}

function renewKnown(registration) {
  // once a session: the browser may have renewed its subscription since the site last heard of it
  var url = document.body.getAttribute("data-push-url");
  if (!url || !pushSupported() || Notification.permission !== "granted") return;
  try { if (sessionStorage.getItem("sevn-push-told")) return; } catch (e) { return; }
  subscriptionOf(registration).then(function (subscription) {
    if (!subscription) return;
    return tell(url, Object.assign({ action: "subscribe" }, subscription.toJSON())).then(function () {
      sessionStorage.setItem("sevn-push-told", "1");
    });
  }).catch(function () {});
}

function guessZone() {
  // someone who never saved their choices starts from their device's time zone, not UTC
  var select = document.querySelector("form[data-zone-guess] select[name='time_zone']");
  if (!select) return;
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  if (select.querySelector('option[value="' + zone + '"]')) select.value = zone;
}

setBadge();
// the person's socket replaces #your-move-count (a child of <body>) whenever the number changes
new MutationObserver(function (changes) {
  var replaced = changes.some(function (change) {
    return Array.prototype.some.call(change.addedNodes, function (node) { return node.id === "your-move-count"; });
  });
  if (replaced) setBadge();
}).observe(document.body, { childList: true });
guessZone();
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (registration) {
    if (device) setUpDevice(registration);
    renewKnown(registration);
  }).catch(function () {
    if (device) say("unsupported");
  });
} else if (device) {
  say("unsupported");
}
