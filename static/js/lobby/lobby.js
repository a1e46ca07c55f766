// The lobby: quick-pairing pools, the live lists of seeks and tables, challenges for the player.
// Every word shown comes from the page (config.labels); the server's messages are shown as sent.
import { el, fill } from "../dom.js";
import { renderCreateForm } from "./forms.js";
import { connectLobby, readConfig } from "./socket.js";
import { renderMyTable, renderMyTables, renderTables } from "./tables.js";

const config = readConfig();
const labels = config.labels;
const root = document.querySelector("[data-testid=lobby]");
const status = document.getElementById("lobby-status");
const searching = document.getElementById("searching");
const seeksBody = root.querySelector("[data-role=seeks]");
const challengesIn = document.getElementById("challenges-in");
const liveMatch = document.getElementById("live-match");
const tablesList = root.querySelector("[data-role=tables]");
const myTable = document.getElementById("my-table");
// A correspondence table fills over days beside a live one: a section of its own.
const myDaysTable = document.getElementById("my-correspondence-table");
const fillAI = searching.querySelector("[data-role=fill-ai]");
let searchingSince = null;
let fillAIAt = null;
let clockOffsetMs = 0;
// Whether the person plays a live game (the server's `live_match`): no live game may be made.
let playing = false;
const createForms = [document.getElementById("table-form"), document.getElementById("seek-form")];
function renderCreateForms() {
  for (const form of createForms) renderCreateForm(form, { playing });
}
for (const form of createForms) form.addEventListener("change", renderCreateForms);

function say(text, isError = false) {
  status.textContent = text;
  status.hidden = !text;
  status.classList.toggle("error", isError);
}

// The view gives a count's label in each plural form of the language (see i18n.plural_labels).
const plurals = new Intl.PluralRules(document.documentElement.lang);

function formatWaited(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function tickWaited() {
  if (searchingSince === null) return;
  const now = Date.now() + clockOffsetMs;
  searching.querySelector("[data-role=waited]").textContent = formatWaited(now - searchingSince);
  // At a table pool the server says from when the AI may fill the other seats.
  fillAI.hidden = fillAIAt === null || now < fillAIAt;
}
setInterval(tickWaited, 250);

function renderCounts(pools) {
  for (const pool of pools) {
    const button = root.querySelector(`[data-pool="${CSS.escape(pool.key)}"]`);
    if (!button) continue;
    button.querySelector("[data-role=waiting]").textContent =
      pool.waiting ? fill(labels.waiting[plurals.select(pool.waiting)], { count: pool.waiting }) : "";
  }
}

function renderPools(pools, me) {
  renderCounts(pools);
  for (const button of root.querySelectorAll("[data-pool]")) {
    button.classList.toggle("active", me.searching?.pool === button.dataset.pool);
  }
  if (me.searching) {
    searchingSince = me.searching.since_ms;
    fillAIAt = me.searching.fill_ai_at_ms;
    searching.querySelector("[data-role=pool]").textContent = me.searching.pool;
    searching.hidden = false;
    tickWaited();
  } else {
    searchingSince = null;
    fillAIAt = null;
    fillAI.hidden = true;
    searching.hidden = true;
  }
}

function renderSeeks(seeks) {
  seeksBody.replaceChildren();
  if (!seeks.length) {
    const row = el("tr");
    row.append(el("td", { colspan: "5", class: "empty", "data-testid": "no-seeks" },
      labels.noSeeks));
    seeksBody.append(row);
    return;
  }
  for (const seek of seeks) {
    const row = el("tr", { "data-testid": "seek", "data-seek-id": String(seek.id) });
    const player = el("td", { "data-testid": "seek-player" });
    player.append(el("a", { href: seek.player_url }, seek.player));
    row.append(player);
    row.append(el("td", {}, `${seek.rating}${seek.provisional ? "?" : ""}`));
    row.append(el("td", {}, seek.time_control));
    row.append(el("td", {}, seek.rated ? labels.rated : labels.casual));
    const cell = el("td");
    if (seek.player_id === config.userId) {
      const cancel = el("button", { type: "button", class: "button small",
        "data-testid": "seek-cancel" }, labels.cancel);
      cancel.addEventListener("click", () => lobby.send({ type: "seek_cancel", id: seek.id }));
      cell.append(el("span", { class: "muted" }, labels.yours), " ", cancel);
    } else {
      const accept = el("button", { type: "button", class: "button small primary",
        "data-testid": "seek-accept" }, labels.accept);
      accept.addEventListener("click", () => lobby.send({ type: "seek_accept", id: seek.id }));
      cell.append(accept);
    }
    row.append(cell);
    seeksBody.append(row);
  }
}

function renderMe(me) {
  const list = challengesIn.querySelector("[data-role=list]");
  list.replaceChildren();
  for (const challenge of me.challenges_in) {
    const item = el("li", { "data-testid": "challenge-in" });
    item.append(`${fill(labels.challengeFrom, { name: challenge.from })} · `
      + `${challenge.time_control} · ${challenge.rated ? labels.rated : labels.casual} `);
    item.append(el("a", { href: challenge.url, class: "button small primary" }, labels.open));
    list.append(item);
  }
  challengesIn.hidden = me.challenges_in.length === 0;
  liveMatch.hidden = !me.live_match;
  playing = Boolean(me.live_match);
  renderCreateForms();
  if (me.live_match) {
    liveMatch.querySelector("[data-role=text]").textContent = labels.liveMatch;
    const link = liveMatch.querySelector("[data-role=link]");
    link.textContent = labels.goToGame;
    link.href = me.live_match.url;
  }
}

const lobby = connectLobby(config, {
  status(connection, detail) {
    if (connection === "open") say("");
    else if (connection === "failed") say(detail.final ? labels.connectionFailedFinal : labels.connectionFailed, true);
    else if (connection === "reconnecting") say(labels.disconnected, true);
  },
  lobby(message) {
    clockOffsetMs = message.server_time_ms - Date.now();
    renderPools(message.pools, message.me);
    renderSeeks(message.seeks);
    renderMe(message.me);
    renderTables(tablesList, message.tables, tableView);
    renderMyTable(myTable, message.me, tableView);
    renderMyTables(myDaysTable, message.me.correspondence_tables, tableView);
  },
  pools(message) { renderCounts(message.pools); },
  ok() { say(""); },
  error(message) { say(message.detail, true); },
  paired() { say(labels.paired); },
});

// What the tables' buttons need; `send` is bound once the socket exists.
const tableView = {
  labels, levels: config.levels, userId: config.userId, plural: (n) => plurals.select(n),
  send: (message) => lobby.send(message),
};
fillAI.textContent = labels.fillRest;
fillAI.addEventListener("click", () => lobby.send({ type: "pool_fill_ai" }));
document.getElementById("table-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  lobby.send({
    type: "table_create",
    players: Number(form.elements.players.value),
    time_control: form.elements.time_control.value,
    rated: form.elements.rated.checked,
    public: form.elements.public.checked,
  });
});

for (const button of root.querySelectorAll("[data-pool]")) {
  button.addEventListener("click", () => lobby.send({ type: "pool_join", pool: button.dataset.pool }));
}
searching.querySelector("[data-role=cancel]").addEventListener("click", () => {
  lobby.send({ type: "pool_leave" });
});
document.getElementById("seek-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  lobby.send({
    type: "seek_create",
    time_control: form.elements.time_control.value,
    rated: form.elements.rated.checked,
  });
});
