// An arena's page, and the strip of an arena game's page: the live standings, the games in
// progress and the countdown, from the tournament socket; the player's next game as soon as
// the server pairs it. Every word shown comes from the page (config.labels).
import { el, fill } from "../dom.js";
import { ReconnectingSocket } from "../socket.js";

const configElement = document.getElementById("tournament-config");
const config = configElement ? JSON.parse(configElement.textContent) : null;
const labels = config?.labels ?? {};
const root = document.querySelector("[data-testid=tournament]");
let clockOffsetMs = 0;
let state = config?.state ?? null;
// The game this page showed as the reader's when it was made: they came here from it (to see
// the standings, or to pause), so being told of it again sends them nowhere.
const gameShown = config?.state?.me?.game_url ?? null;
const points = new Intl.NumberFormat(document.documentElement.lang, { maximumFractionDigits: 2 });

/** A Swiss's sheet: each round's result ("1", "½", "0"), a bye as "+". */
function swissSheetCell(sheet) {
  const cell = el("span", "sheet");
  for (const [, opponent, half] of sheet) {
    const mark = el("span", "sheet-game", opponent === 0 ? "+" : ["0", "½", "1"][half]);
    if (opponent === 0) mark.title = labels.bye;
    cell.append(mark);
  }
  return cell;
}

/** A score sheet's games as the page shows them: the points of each, marked when a streak
 *  doubled them or berserk won a point. */
function sheetCell(sheet) {
  const cell = el("span", "sheet");
  for (const [gamePoints, doubled, berserk] of sheet) {
    const mark = el("span", doubled ? "sheet-game doubled" : "sheet-game", String(gamePoints));
    if (doubled) mark.title = labels.onFire;
    if (berserk) {
      mark.classList.add("berserk");
      mark.title = labels.berserk;
    }
    cell.append(mark);
  }
  return cell;
}

function standingRow(row) {
  const tr = el("tr", { "data-testid": "standing", "data-player": row.player });
  tr.append(el("td", "rank", String(row.rank)));
  const name = el("td", "player");
  name.append(el("a", { href: `/@/${encodeURIComponent(row.player)}` }, row.player));
  if (row.fire) name.append(el("span", { class: "fire", title: labels.onFire, "data-testid": "on-fire" }, "🔥"));
  if (row.paused) name.append(el("span", { class: "paused muted", title: labels.paused }, "⏸"));
  tr.append(name, el("td", "rating", String(row.rating)), el("td", "games", String(row.games)));
  const score = el("td", "score");
  const swiss = row.points !== null && row.points !== undefined;
  score.append(swiss ? swissSheetCell(row.sheet) : sheetCell(row.sheet),
    el("strong", { "data-testid": "score" }, swiss ? points.format(row.points) : String(row.score)));
  tr.append(score);
  if (swiss) {
    tr.append(el("td", { "data-testid": "buchholz" }, points.format(row.buchholz)),
      el("td", { "data-testid": "sonneborn-berger" }, points.format(row.sonneborn_berger)));
  }
  return tr;
}

function renderStandings() {
  const body = root.querySelector("[data-role=standings]");
  body.replaceChildren(...state.standings.map(standingRow));
  if (!state.standings.length) {
    const empty = el("tr");
    empty.append(el("td", { colspan: state.kind === "swiss" ? "7" : "5", class: "muted" },
      labels.noPlayers));
    body.append(empty);
  }
}

function renderGames() {
  const list = root.querySelector("[data-role=games]");
  list.replaceChildren(...state.games.map((game) => {
    const item = el("li");
    item.append(el("a", { href: game.url, "data-testid": "arena-game" },
      `${game.players[0]} ${labels.vs} ${game.players[1]}`));
    return item;
  }));
  if (!state.games.length) list.append(el("li", "muted", labels.noGames));
}

function renderPodium() {
  const podium = root.querySelector("[data-testid=podium]");
  podium.hidden = state.status !== "finished" || !state.podium.length;
  podium.querySelector("[data-role=podium]").replaceChildren(...state.podium.map((row) =>
    el("li", { "data-testid": "podium-place" },
      `${row.player} · ${row.points != null ? points.format(row.points) : row.score}`)));
}

function renderMine() {
  const yourGame = document.querySelector("[data-testid=your-game]");
  if (!yourGame) return;
  const url = state.me?.game_url;
  yourGame.hidden = !url;
  if (url) {
    const link = yourGame.querySelector("[data-role=link]");
    link.href = url;
    link.textContent = labels.yourGame;
  }
}

function renderCountdown() {
  const label = document.querySelector("[data-role=countdown-label]");
  const value = document.querySelector("[data-role=countdown]");
  if (!label || !value || !state) return;
  const now = Date.now() + clockOffsetMs;
  if (state.status === "finished") {
    label.textContent = labels.finished;
    value.textContent = "";
    return;
  }
  if (state.status === "started" && state.kind === "swiss") {
    label.textContent = fill(labels.roundOf, { round: state.round, rounds: state.rounds });
    value.textContent = "";
    return;
  }
  const target = state.status === "created" ? state.starts_at_ms : state.ends_at_ms;
  label.textContent = state.status === "created" ? labels.startsIn : labels.endsIn;
  const seconds = Math.max(0, Math.round((target - now) / 1000));
  const minutes = Math.floor(seconds / 60);
  value.textContent = `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

function render() {
  if (root) {
    root.dataset.status = state.status;
    renderStandings();
    renderGames();
    renderPodium();
    renderMine();
  }
  renderCountdown();
}

function showStatus(status) {
  const line = document.querySelector("[data-role=status]");
  if (!line) return;
  const text = status === "open" ? "" : labels[status] ?? "";
  line.textContent = text;
  line.hidden = !text;
}

if (config) {
  if (state) render();
  setInterval(renderCountdown, 1000);
  const socket = new ReconnectingSocket(config.socketPath, {
    syncReply: "tournament",
    ping: { type: "sync" },
    onStatus: showStatus,
    onMessage: (message) => {
      if (message.type === "paired") {
        // On the game's own page (the strip of an arena game) there is nowhere to go.
        if (message.url !== location.pathname && message.url !== gameShown) {
          socket.close();
          location.assign(message.url);
        }
      } else if (message.type === "tournament") {
        clockOffsetMs = message.server_time_ms - Date.now();
        state = message;
        render();
      }
    },
  });
}
