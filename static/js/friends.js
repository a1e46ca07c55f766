// The friends list of the header: who is online, who plays (a link to watch), a challenge in
// one click. It shows the `friends` messages of the site socket (site.js passes every message
// of it on as a "site-message" event); the server decides everything in it.

import { el } from "./dom.js";

const root = document.querySelector("[data-testid=friends]");

function row(friend) {
  const item = el("li", { class: `friend${friend.online ? " online" : ""}`, "data-testid": "friend", "data-name": friend.name, "data-online": String(friend.online) });
  item.append(el("span", { class: "presence", "aria-hidden": "true" }, friend.online ? "●" : "○"));
  const link = el("a", { href: friend.url, "data-testid": "friend-link" }, friend.name);
  item.append(link, el("span", "visually-hidden", friend.online ? root.dataset.labelOnline : root.dataset.labelOffline));
  if (friend.watch_url) {
    item.append(el("a", { href: friend.watch_url, class: "friend-watch", "data-testid": "friend-watch" }, root.dataset.labelWatch));
  } else if (friend.online) {
    // A plain form: its POST carries the CSRF token as the site's forms do (a field).
    const form = el("form", { action: friend.challenge_url, class: "inline-form" });
    form.method = "post";
    const token = el("input", { type: "hidden", name: "csrfmiddlewaretoken", value: root.dataset.csrf });
    form.append(token, el("button", { type: "submit", class: "link-button", "data-testid": "friend-challenge" }, root.dataset.labelChallenge));
    item.append(form);
  }
  return item;
}

function show(friends) {
  root.querySelector("[data-part=friends-list]").replaceChildren(...friends.map(row));
  root.querySelector("[data-part=friends-empty]").hidden = friends.length > 0;
  root.querySelector("[data-part=friends-count]").textContent = String(friends.filter((f) => f.online).length);
  root.dataset.ready = "true";
}

if (root) {
  document.addEventListener("site-message", (event) => {
    if (event.detail.type === "friends") show(event.detail.friends);
  });
}
