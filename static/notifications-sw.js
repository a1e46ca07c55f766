// The service worker of the site's Web Push notifications, served from the site's root
// (/notifications-sw.js) so that its scope is every page. It shows what the server pushed
// (the JSON of `notifications.delivery.push_payload`: title, body, url, tag) and opens (or
// brings forward) that page when the notification is clicked.
"use strict";

self.addEventListener("push", (event) => {
  let data;
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  event.waitUntil(self.registration.showNotification(data.title || "", {
    body: data.body || "",
    tag: data.tag || undefined,
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((client) => client.url === target.href);
    return open ? open.focus() : self.clients.openWindow(target.href);
  }));
});
