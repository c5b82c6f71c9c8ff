// A small live board: a game's position as spectators see it on the projector, the round
// page and the results screen, drawn from the live state the server sends
// (tournaments/results/selectors/table_state.py) with the board page's own drawing (draw.js).

import { drawThings, el } from "./draw.js";

function frame(svg, geometry) {
  el("circle", { class: "pg-bg", r: geometry.size, cx: 0, cy: 0 }, svg);
  el("circle", { class: "pg-rim", r: geometry.rim, cx: 0, cy: 0 }, svg);
  for (const [a, b] of geometry.chords) {
    el("line", { class: "pg-line", x1: a[0], y1: a[1], x2: b[0], y2: b[1] }, svg);
  }
  for (const s of geometry.stops) {
    const colour = s.colour ? ` pg-c-${s.colour}` : "";
    el("circle", { class: `pg-stop pg-${s.kind}${colour}`, "data-stop": s.id, cx: s.x, cy: s.y, r: s.r }, svg);
  }
  return el("g", { class: "pg-things" }, svg);
}

/**
 * drawMini(figure, geometry, state, shapes): draw (or redraw) the board of a game's live
 * state into `figure`; shapes[position - 1] is the piece shape of a seat position. The
 * figure's label says the ply (for screen readers the text beside it says the rest).
 */
export function drawMini(figure, geometry, state, shapes) {
  let svg = figure.querySelector("svg");
  if (!svg) {
    svg = el("svg", { viewBox: geometry.viewbox, class: "pg-mini-svg", "aria-hidden": "true", focusable: "false" });
    frame(svg, geometry);
    figure.prepend(svg);
  }
  const things = svg.querySelector(".pg-things");
  // No position yet: an empty board, its coloured stops with their letters.
  const board = state.board ?? { pieces: [], black: [], grey: [] };
  // The board's seats are the engine's (moving order); shapes belong to seat positions.
  drawThings(things, geometry.stops, board, (seat) => shapes[state.order[seat - 1] - 1]);
}

/**
 * tickClocks(root, label): the egg timers (section 3) of the live games in `root`, each a
 * `[data-clock-deadline]` element (when the seat to move loses her turn), show the
 * seconds left ("%(seconds)s" in label, or label.left). With label.paused and label.up,
 * a paused timer (`data-clock-paused`) and one whose time is up with no lost turn
 * recorded (no device open at the table) say so, never "0 s left". Call it every second.
 */
export function tickClocks(root, label) {
  const words = typeof label === "string" ? { left: label } : label;
  for (const clock of root.querySelectorAll("[data-clock-deadline]")) {
    if (clock.dataset.clockPaused && words.paused) {
      clock.textContent = words.paused;
      clock.classList.remove("low");
      continue;
    }
    const left = Math.max(0, Math.ceil((Date.parse(clock.dataset.clockDeadline) - Date.now()) / 1000));
    clock.textContent = left === 0 && words.up ? words.up : words.left.replace("%(seconds)s", String(left));
    clock.classList.toggle("low", left <= 10);
  }
}
