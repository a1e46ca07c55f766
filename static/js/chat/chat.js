// Game chat: the panel of the game page. It shows what the match socket sends (the reader's
// room, its lines with phrases already in the reader's language, what they may say) and sends
// intents; every rule (who may write, limits, mutes) is the server's.

import { el } from "../dom.js";

export class Chat {
  /** `root`: the chat panel; `send(message)`: sends on the match socket. */
  constructor(root, send) {
    this.root = root;
    this.send = send;
    this.part = (name) => root.querySelector(`[data-part=${name}]`);
    this.part("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const input = this.part("chat-form").querySelector("input");
      const text = input.value.trim();
      if (!text) return;
      this.send({ type: "chat", kind: "text", body: text });
      input.value = "";
    });
    // Present only for a signed-in reader, listing the seated players other than them.
    const reportPlayer = this.part("report-player");
    reportPlayer?.addEventListener("submit", (event) => {
      event.preventDefault();
      this.postReport(new FormData(reportPlayer));
    });
  }

  /** A message of the match socket about chat: `chat_history` or `chat`. */
  receive(message) {
    if (message.type === "chat_history") this.start(message);
    else if (message.type === "chat") this.add(message.line);
  }

  start(history) {
    const title = this.part("chat-title");
    title.textContent = title.dataset[history.room];
    this.root.dataset.room = history.room;
    this.part("chat-lines").replaceChildren();
    for (const line of history.lines) this.add(line);
    const phrases = this.part("chat-phrases");
    phrases.replaceChildren(...history.phrases.map(([id, words]) => {
      const button = el("button", { type: "button", class: "chip", "data-phrase": id, "data-testid": `phrase-${id}` }, words);
      button.addEventListener("click", () => this.send({ type: "chat", kind: "phrase", body: id }));
      return button;
    }));
    const reactions = this.part("chat-reactions");
    reactions.replaceChildren(...history.reactions.map((emoji, index) => {
      const button = el("button", { type: "button", class: "chip emoji", "data-testid": `reaction-${index}` }, emoji);
      button.addEventListener("click", () => this.send({ type: "chat", kind: "emoji", body: emoji }));
      return button;
    }));
    this.part("chat-form").hidden = !history.free_text;
    // A visitor without an account reads the room and is told how to speak in it.
    const silent = Boolean(history.may_speak);
    phrases.hidden = silent;
    reactions.hidden = silent;
    if (silent) this.part("chat-form").hidden = true;
    this.setMuted(history.muted);
    if (silent) this.notice(history.may_speak);
    this.root.hidden = false;
  }

  setMuted(words) {
    this.muted = Boolean(words);
    this.notice(words || "");
    for (const button of this.root.querySelectorAll(".chip, [data-testid=chat-send]")) button.disabled = this.muted;
    this.part("chat-form").querySelector("input").disabled = this.muted;
  }

  notice(words) {
    const notice = this.part("chat-notice");
    notice.textContent = words;
    notice.hidden = !words;
  }

  add(line) {
    const item = el("li", { class: `chat-line kind-${line.kind}${line.mine ? " mine" : ""}`, "data-testid": "chat-line", "data-id": String(line.id) });
    item.append(el("span", "chat-author", line.author), el("span", { class: "chat-text", "data-testid": "chat-text-shown" }, line.text));
    if (line.reportable) {
      const report = el("button", { type: "button", class: "chat-report", "data-testid": "chat-report", title: this.root.dataset.labelReport }, "⚑");
      report.setAttribute("aria-label", this.root.dataset.labelReport);
      report.addEventListener("click", () => this.report(line.id, report));
      item.append(report);
    }
    const lines = this.part("chat-lines");
    lines.append(item);
    lines.scrollTop = lines.scrollHeight;
  }

  /** A refusal of a line (`for: "chat"`): said in the panel, in the server's words. */
  refused(error) {
    if (error.code === "chat_muted") this.setMuted(error.detail);
    else this.notice(error.detail);
  }

  async report(messageId, button) {
    const body = new FormData();
    body.append("message", String(messageId));
    if (await this.postReport(body)) button.disabled = true;
  }

  /** Sends a report (a line's or a player's form data); says how it went, and whether it went. */
  async postReport(body) {
    try {
      const response = await fetch(this.root.dataset.reportUrl, {
        method: "POST", credentials: "same-origin", body,
        headers: { Accept: "application/json", "X-CSRFToken": this.root.dataset.csrf },
      });
      const answer = await response.json();
      this.notice(response.ok ? this.root.dataset.labelReported : answer.detail);
      return response.ok;
    } catch {
      this.notice(this.root.dataset.labelReportFailed);
      return false;
    }
  }
}
