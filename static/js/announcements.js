// Shows staff announcements (for example "the server restarts in 5 minutes") on every page;
// `site.js` hands it the site socket's messages.

/** Show an `announcement` message in the page's banner (other messages are not its own). */
export function showAnnouncement(message, banner = document.getElementById("announcement")) {
  if (!banner || message.type !== "announcement") return;
  banner.textContent = message.text;
  banner.hidden = false;
}
