// The challenger's page of a challenge: waits on the lobby socket and goes to the match once
// the challenge is accepted; reloads when it was declined (the page then says so). Its copy
// button puts the share link on the clipboard and says so with the page's own word.
import { connectLobby, readConfig } from "./socket.js";

const config = readConfig();
const panel = document.querySelector("[data-testid=challenge]");

if (config && panel) {
  const token = panel.dataset.token;
  connectLobby(config, {
    lobby(message) {
      if (!message.me.challenges_out.includes(token)) location.reload();
    },
  });
}

const copy = document.querySelector("[data-copy]");
if (copy) {
  const field = document.getElementById(copy.dataset.copy);
  const status = document.querySelector("[data-testid=copy-status]");
  copy.addEventListener("click", async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      // Without the clipboard API (an insecure origin), the selected text is copied the old way.
      document.execCommand("copy");
    }
    status.textContent = copy.dataset.done;
  });
}
