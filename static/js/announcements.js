// Shows staff announcements (for example "the server restarts in 5 minutes") on every page.
import { ReconnectingSocket } from "./socket.js";

const banner = document.getElementById("announcement");

if (banner) {
  new ReconnectingSocket("/ws/site/", {
    baseDelayMs: 1000,
    maxDelayMs: 30_000,
    onMessage: (message) => {
      if (message.type !== "announcement") return;
      banner.textContent = message.text;
      banner.hidden = false;
    },
  });
}
