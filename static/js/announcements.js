// Shows staff announcements (for example "the server restarts in 5 minutes") on every page.
const banner = document.getElementById("announcement");

function connect(delayMs) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/site/`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "announcement" && banner) {
      banner.textContent = message.text;
      banner.hidden = false;
    }
  });
  socket.addEventListener("open", () => { delayMs = 1000; });
  socket.addEventListener("close", () => {
    setTimeout(() => connect(Math.min(delayMs * 2, 30000)), delayMs);
  });
}

if (banner) connect(1000);
