// The challenger's page of a challenge: waits on the lobby socket and goes to the match once
// the challenge is accepted; reloads when it was declined (the page then says so).
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
