// A signed-in player's notifications on every page: the header's badge and list, and the
// alerts that ask for an answer now (a challenge with its accept and decline, a rematch
// offer, a declined draw) shown over the page. A pure view of what the site socket sends
// (`notifications` on connect, `notification` for each new one); the words come from the
// page's `notifications-config` (the script holds no text of its own).
import { el, fill } from "./dom.js";
import { playSound } from "./sound.js";

/** The items after `item` arrived: it replaces one of its id, else goes first. */
export function withItem(items, item) {
  return [item, ...items.filter((other) => other.id !== item.id)];
}

/** The items that stand as alerts on a page that has just connected: unread challenges that
 *  can still be accepted (a rematch or a declined draw is only news when it happens). */
export function standingAlerts(items) {
  return items.filter((item) => item.alert && !item.read && item.accept_url);
}

export class NotificationCenter {
  constructor(config, doc) {
    this.config = config;
    this.labels = config.labels;
    this.doc = doc;
    this.items = [];
    this.alerted = new Map(); // id -> the alert's card (null once taken down)
    this.button = doc.getElementById("notify-button");
    this.badge = this.button?.querySelector(".notify-badge") ?? null;
    this.panel = doc.getElementById("notify-panel");
    this.list = this.panel?.querySelector("[data-role=list]") ?? null;
    this.alerts = doc.getElementById("notify-alerts");
    this.button?.addEventListener("click", (event) => {
      event.preventDefault();
      this.toggle(this.panel.hidden);
    });
    this.panel?.querySelector("[data-role=read-all]")?.addEventListener("click", () => this.markRead(null));
    doc.addEventListener("keydown", (event) => { if (event.key === "Escape") this.toggle(false); });
    doc.addEventListener("click", (event) => {
      if (this.panel && !this.panel.hidden && !this.button.parentElement.contains(event.target)) this.toggle(false);
    });
  }

  /** A message of the site socket (those that are not about notifications are ignored). */
  receive(message) {
    if (message.type === "notifications") {
      this.items = message.items;
      this.showUnread(message.unread);
      this.drawList();
      this.takeDownAnswered();
      for (const item of standingAlerts(this.items)) this.showAlert(item);
    } else if (message.type === "notification") {
      this.items = withItem(this.items, message.item);
      this.showUnread(message.unread);
      this.drawList();
      if (message.item.alert && !message.item.read) {
        this.showAlert(message.item);
        playSound("challenge");
      }
    }
  }

  /** Alerts whose item is read now (answered, dismissed, read on another page) go away. */
  takeDownAnswered() {
    for (const item of this.items) {
      const card = this.alerted.get(item.id);
      if (card && item.read) {
        card.remove();
        this.alerted.set(item.id, null);
      }
    }
  }

  toggle(open) {
    if (!this.panel) return;
    this.panel.hidden = !open;
    this.button.setAttribute("aria-expanded", String(open));
  }

  showUnread(count) {
    if (!this.badge) return;
    this.badge.textContent = String(count);
    this.badge.hidden = count === 0;
    this.badge.title = fill(this.labels.unread, { count });
  }

  drawList() {
    if (!this.list) return;
    this.list.replaceChildren();
    if (!this.items.length) {
      this.list.append(el("li", "notify-empty", this.labels.none));
      return;
    }
    for (const item of this.items) this.list.append(this.row(item));
  }

  row(item) {
    const li = el("li", { class: item.read ? "notify-item" : "notify-item unread", "data-kind": item.kind,
      "data-testid": "notify-item" });
    const link = el("a", { href: item.url }, item.text);
    link.addEventListener("click", () => { if (!item.read) this.markRead(item.id); });
    li.append(link, el("time", { datetime: new Date(item.created_ms).toISOString() },
      new Date(item.created_ms).toLocaleString(this.doc.documentElement.lang || undefined)));
    const actions = this.actions(item);
    if (actions) li.append(actions);
    return li;
  }

  /** The answers an item offers: a challenge's accept and decline (its own endpoints, as
   *  forms the browser posts), a rematch offer's page. */
  actions(item) {
    if (item.accept_url) {
      const box = el("div", "notify-actions");
      box.append(this.form(item.accept_url, this.labels.accept, "button small primary", "notify-accept"),
        this.form(item.decline_url, this.labels.decline, "button small", "notify-decline"));
      return box;
    }
    if (item.answer_url) {
      const box = el("div", "notify-actions");
      box.append(el("a", { class: "button small primary", href: item.answer_url, "data-testid": "notify-answer" },
        this.labels.answer));
      return box;
    }
    return null;
  }

  form(action, label, className, testid) {
    const form = el("form", { method: "post", action, class: "inline-form" });
    form.append(el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: this.config.csrfToken }),
      el("button", { type: "submit", class: className, "data-testid": testid }, label));
    return form;
  }

  showAlert(item) {
    if (!this.alerts || this.alerted.has(item.id)) return;
    const card = el("div", { class: `notify-alert kind-${item.kind}`, role: "alert", "data-testid": "notify-alert" });
    card.append(el("a", { href: item.url, class: "notify-alert-text" }, item.text));
    const actions = this.actions(item) ?? el("div", "notify-actions");
    const dismiss = el("button", { type: "button", class: "button small", "data-testid": "notify-dismiss" },
      this.labels.dismiss);
    dismiss.addEventListener("click", () => { card.remove(); this.markRead(item.id); });
    actions.append(dismiss);
    card.append(actions);
    this.alerts.append(card);
    this.alerted.set(item.id, card);
  }

  /** Mark one item (or all: null) read; the server tells every page of the player. */
  markRead(id) {
    const url = id === null ? this.config.readUrl : this.config.readOneUrl.replace("/0/", `/${id}/`);
    return fetch(url, {
      method: "POST",
      keepalive: true,
      credentials: "same-origin",
      headers: { "X-CSRFToken": this.config.csrfToken, Accept: "application/json" },
    }).then((response) => (response.ok ? response.json() : null))
      .then((answer) => { if (answer) this.showUnread(answer.unread); })
      .catch(() => { /* the next socket message brings the count */ });
  }
}
