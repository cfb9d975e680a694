/* SEVN's service worker (served at /sw.js by sevn_site/installable.py): shows the notices the
   site pushes (one per table: a newer one replaces the last, their tag being the table's code),
   sets the installed app's badge to the number of tables waiting for your move, opens the
   page a notice is about when it is clicked, and keeps an offline copy of every rulebook page
   (the tutorial among them) in every language, with what they need to look right. */
"use strict";

const VERSION = "{{ version }}";
const CACHE = "sevn-offline-" + VERSION;
const PAGES = {{ pages|safe }};
const ASSETS = {{ assets|safe }};
const ICON = {{ icon|safe }};

async function keep(cache, url) {
  try {
    const response = await fetch(url, { credentials: "omit" });  // as anybody sees it: no name, no token
    if (response.ok) await cache.put(url, response.clone());
    return response.ok ? response : null;
  } catch (error) {
    return null;
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const wanted = new Set(ASSETS);
    await Promise.all(PAGES.map(async (url) => {
      const response = await keep(cache, url);
      if (!response) return;
      const html = await response.text();  // what the page itself links: stylesheets, scripts
      for (const match of html.matchAll(/(?:href|src)="(\/static\/[^"]+)"/g)) wanted.add(match[1]);
    }));
    await Promise.all([...wanted].map((url) => keep(cache, url)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("sevn-offline-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const page = request.mode === "navigate" && PAGES.includes(url.pathname);
  if (!page && !url.pathname.startsWith("/static/")) return;  // everything else is the network's
  // the network first (a page always as fresh as it is); the copy only when there is none
  event.respondWith(fetch(request).catch(async () => {
    const kept = await caches.match(page ? url.pathname : request, { cacheName: CACHE, ignoreSearch: page });
    return kept || Response.error();
  }));
});

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch (error) {
    notice = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil((async () => {
    await self.registration.showNotification(notice.title || "SEVN", {
      body: notice.body || "",
      tag: notice.tag || "notice",
      renotify: Boolean(notice.tag),  // the newer notice of a table replaces the last, and is heard
      icon: ICON,
      data: { url: notice.url || "/", kind: notice.kind || "" },
    });
    if (typeof notice.badge === "number" && "setAppBadge" in self.navigator) {
      try {
        if (notice.badge > 0) await self.navigator.setAppBadge(notice.badge);
        else await self.navigator.clearAppBadge();
      } catch (error) { /* not installed: no badge to set */ }
    }
  })());
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => new URL(client.url).pathname.endsWith(target.pathname));
    if (open) return open.focus();
    return self.clients.openWindow(target.href);
  })());
});
