// The tables for 3 and 4 in the lobby: the open public ones with who sits where, and the
// player's own tables (public or private; one live, several correspondence ones) with what
// their creator may do. A pure view of the `lobby` message: which seats are empty, whether a
// table may start and in how many days a correspondence table closes come from the server.
import { el, fill } from "../dom.js";

function rating(seat) {
  return `${seat.rating}${seat.provisional ? "?" : ""}`;
}

function seatText(seat, labels) {
  if (seat.kind === "person") return `${seat.player} (${rating(seat)})`;
  if (seat.kind === "ai") return fill(labels.ai, { level: seat.ai_level });
  return labels.emptySeat;
}

function levelSelect(levels) {
  const select = el("select", { "data-testid": "table-ai-level" });
  // The third level (a club player) first: it plays like a person who knows the game.
  const preselected = Math.min(2, levels.length - 1);
  levels.forEach(([number, name], index) => {
    const option = el("option", { value: String(number) }, name);
    if (index === preselected) option.setAttribute("selected", "");
    select.append(option);
  });
  return select;
}

function terms(table, view) {
  const { labels } = view;
  const mode = table.rated ? labels.rated : labels.casual;
  const listed = table.public ? labels.public : labels.private;
  const control = table.correspondence
    ? fill(labels.correspondence, { control: table.time_control }) : table.time_control;
  const closes = table.closes_in_days == null ? ""
    : ` · ${fill(labels.closesIn[view.plural(table.closes_in_days)], { count: table.closes_in_days })}`;
  return `${fill(labels.tableOf, { name: table.creator, players: table.players })} · `
    + `${control} · ${mode} · ${listed}${closes}`;
}

/** One table: its terms and its seats. `mine`: the player sits here (the actions of their
 *  own table), else a seat may be taken. */
function tableItem(table, view, mine) {
  const { labels, levels, userId, send } = view;
  const item = el("li", { class: `table-item${table.correspondence ? " correspondence" : ""}`,
    "data-testid": "table", "data-token": table.token,
    "data-correspondence": String(table.correspondence) });
  item.append(el("div", { class: "table-terms", "data-testid": "table-terms" }, terms(table, view)));
  const seats = el("ul", { class: "table-seats" });
  const creator = table.creator_id === userId;
  const seated = table.seats.some((seat) => seat.player_id === userId);
  for (const seat of table.seats) {
    const cell = el("li", {
      class: `table-seat ${seat.kind}`, "data-testid": "table-seat",
      "data-seat": String(seat.index), "data-kind": seat.kind,
    });
    cell.append(el("span", { "data-testid": "table-seat-name" }, seatText(seat, labels)));
    if (seat.kind === "empty" && !seated) {
      const sit = el("button", { type: "button", class: "button small primary",
        "data-testid": "table-sit" }, labels.sitDown);
      sit.addEventListener("click", () => send({ type: "table_join", table: table.token, seat: seat.index }));
      cell.append(sit);
    } else if (seat.kind === "empty" && mine && creator && !table.rated) {
      const level = levelSelect(levels);
      const fillButton = el("button", { type: "button", class: "button small",
        "data-testid": "table-fill-ai" }, labels.fillAI);
      fillButton.addEventListener("click", () => send({
        type: "table_fill_ai", table: table.token, seat: seat.index, level: Number(level.value),
      }));
      cell.append(level, fillButton);
    } else if (seat.kind === "ai" && mine && creator) {
      const remove = el("button", { type: "button", class: "button small",
        "data-testid": "table-remove-ai" }, labels.removeAI);
      remove.addEventListener("click", () => send({ type: "table_seat_clear", table: table.token, seat: seat.index }));
      cell.append(remove);
    }
    seats.append(cell);
  }
  item.append(seats);
  return item;
}

/** The open public tables (`tables` of the lobby message). */
export function renderTables(list, tables, view) {
  list.replaceChildren();
  if (!tables.length) {
    list.append(el("li", { class: "muted", "data-testid": "no-tables" }, view.labels.noTables));
    return;
  }
  for (const table of tables) list.append(tableItem(table, view, false));
}

/** The player's own live table (`me.table`, `me.can_start`), or nothing. */
export function renderMyTable(section, me, view) {
  renderMyTables(section, me.table ? [{ table: me.table, can_start: me.can_start }] : [], view);
}

/** The player's own tables (`me.correspondence_tables`: each `{table, can_start}`), each with
 *  its link if private and what its creator may do; the section hidden when there is none. */
export function renderMyTables(section, own, view) {
  const holder = section.querySelector("[data-role=table]");
  holder.replaceChildren();
  section.hidden = own.length === 0;
  for (const { table, can_start: canStart } of own) holder.append(ownTable(table, canStart, view));
}

function ownTable(table, canStart, view) {
  const { labels, send } = view;
  const holder = el("div", { class: "own-table", "data-testid": "own-table", "data-token": table.token });
  const list = el("ul", { class: "table-list" });
  list.append(tableItem(table, view, true));
  holder.append(list);
  if (!table.public) {
    const link = el("input", { class: "share-url", type: "text", readonly: "",
      "data-testid": "table-link", value: new URL(table.url, location.href).href });
    holder.append(link);
  }
  const actions = el("div", { class: "table-actions" });
  if (canStart) {
    const start = el("button", { type: "button", class: "button primary",
      "data-testid": "table-start" }, labels.start);
    start.addEventListener("click", () => send({ type: "table_start", table: table.token }));
    actions.append(start);
  } else {
    actions.append(el("span", { class: "muted" }, labels.waitingForPlayers));
  }
  const leave = el("button", { type: "button", class: "button small",
    "data-testid": "table-leave" }, labels.leave);
  leave.addEventListener("click", () => send({ type: "table_leave", table: table.token }));
  actions.append(leave);
  holder.append(actions);
  return holder;
}
