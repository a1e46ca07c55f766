// The site socket of every page (one per page, through the one reconnecting socket): staff
// announcements for all, and a signed-in player's notifications (`notifications.js`).
import { showAnnouncement } from "./announcements.js";
import { NotificationCenter } from "./notifications.js";
import { ReconnectingSocket } from "./socket.js";

const configNode = document.getElementById("notifications-config");
const center = configNode ? new NotificationCenter(JSON.parse(configNode.textContent), document) : null;

new ReconnectingSocket("/ws/site/", {
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  onMessage: (message) => {
    showAnnouncement(message);
    center?.receive(message);
    // Other scripts of the page hear it too (the lists of correspondence games).
    document.dispatchEvent(new CustomEvent("site-message", { detail: message }));
  },
});
