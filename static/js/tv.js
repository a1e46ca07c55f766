// The TV: the match page of the top live game, watched as a spectator. The board marks the
// game's status on its root; once the game is over the page waits a moment, the end in view,
// and loads the TV again, which shows the next top game.
const config = JSON.parse(document.getElementById("tv-config").textContent);
const game = document.getElementById("game");
const OVER = new Set(["finished", "aborted"]);
let leaving = false;

function follow() {
  if (leaving || !OVER.has(game.dataset.status)) return;
  leaving = true;
  setTimeout(() => location.reload(), config.next_seconds * 1000);
}

if (game) {
  new MutationObserver(follow).observe(game, { attributes: true, attributeFilter: ["data-status"] });
  follow();
}
