// The rules page: its card pictures are drawn by the same component as the board's.
import { hydrate } from "./cards.js";

const source = document.getElementById("card-labels");
const labels = source ? JSON.parse(source.textContent) : null;
hydrate(document.querySelector(".rules") || document.body, labels);
