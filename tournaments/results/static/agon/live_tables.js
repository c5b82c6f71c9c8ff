// Games being played, on the round page and the results screen: each carries its live
// state (organiser_rows.live_html); this module draws its small board, and on every state
// the socket brings (live_socket.js) draws the board at once and has the page's poll
// (live.js) fetch the changed rows now rather than at its next tick.
import { follow } from "./live_socket.js";
import { drawMini, tickClocks } from "../games/mini_board.js";

const config = JSON.parse(document.getElementById("live-tables").textContent);

function draw(holder) {
  const figure = holder.querySelector("figure");
  if (!config.board || !figure) return;
  drawMini(figure, config.board.geometry, JSON.parse(holder.dataset.liveState), config.board.shapes);
}

function drawAll(root) {
  root.querySelectorAll("[data-live-game]").forEach(draw);
}

// At most one early poll per 300 ms, however many tables move at once.
let asking = null;
function askPage() {
  if (asking !== null) return;
  asking = setTimeout(() => {
    asking = null;
    document.body.dispatchEvent(new Event("live-now"));
  }, 300);
}

document.addEventListener("htmx:afterSettle", (event) => drawAll(event.detail.elt ?? document));
document.addEventListener("htmx:oobAfterSwap", (event) => drawAll(event.detail.target ?? document));
drawAll(document);
setInterval(() => tickClocks(document, config.clock), 1000);

follow({
  path: config.socket,
  onGame(state) {
    const holder = document.querySelector(`[data-live-game="${state.game}"]`);
    if (holder && state.status === "in_progress") {
      holder.dataset.liveState = JSON.stringify(state);
      draw(holder);
    }
    askPage();
  },
  onCatchUp: askPage,
});
