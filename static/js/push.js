// The settings page's switch for Web Push in this browser: it registers the site's service
// worker, asks the browser for a push subscription with the site's VAPID public key, and
// hands it to the server (or takes it back). The words come from the page's `push-config`.
import { el } from "./dom.js";

const config = JSON.parse(document.getElementById("push-config").textContent);
const panel = document.getElementById("push-panel");
const statusLine = panel.querySelector("[data-role=status]");
const toggle = panel.querySelector("[data-role=toggle]");

/** The bytes of a base64url string (the VAPID key as `applicationServerKey` wants it). */
export function base64UrlBytes(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
}

function csrfToken() {
  return document.querySelector("[name=csrfmiddlewaretoken]")?.value ?? "";
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken(), Accept: "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
}

function show(words, buttonWords = null) {
  statusLine.replaceChildren(el("span", null, words));
  toggle.hidden = buttonWords === null;
  if (buttonWords !== null) toggle.textContent = buttonWords;
}

async function current() {
  const registration = await navigator.serviceWorker.register(config.workerUrl, { scope: "/" });
  return { registration, subscription: await registration.pushManager.getSubscription() };
}

async function refresh() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    show(config.labels.unsupported);
    return;
  }
  if (Notification.permission === "denied") {
    show(config.labels.denied);
    return;
  }
  const { subscription } = await current();
  if (subscription) show(config.labels.enabled, config.labels.disable);
  else show("", config.labels.enable);
}

toggle.addEventListener("click", async () => {
  toggle.disabled = true;
  try {
    const { registration, subscription } = await current();
    if (subscription) {
      await post(config.unsubscribeUrl, { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    } else if ((await Notification.requestPermission()) === "granted") {
      const created = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: base64UrlBytes(config.publicKey),
      });
      await post(config.subscribeUrl, created.toJSON());
    }
    await refresh();
  } catch {
    show(config.labels.failed, config.labels.enable);
  } finally {
    toggle.disabled = false;
  }
});

refresh().catch(() => show(config.labels.unsupported));
