// Drawing the Pentagame board's things in SVG: shared by the board page (board.js) and
// the small live boards of the projector, the round page and the results screen
// (mini_board.js), so that a piece looks the same everywhere.

const SVG = "http://www.w3.org/2000/svg";

export function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function polygon(points) {
  return points.map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" ");
}

export function ring(n, radius, turn = -90) {
  return Array.from({ length: n }, (_, i) => {
    const a = ((turn + (360 * i) / n) * Math.PI) / 180;
    return [radius * Math.cos(a), radius * Math.sin(a)];
  });
}

// One player's piece: the set's shape, filled with the piece's colour (book §1).
export function shape(kind, size, attrs, parent) {
  switch (kind) {
    case "triangle": {
      const pts = ring(3, size * 1.25).map(([x, y]) => [x, y + size * 0.18]);
      return el("polygon", { points: polygon(pts), ...attrs }, parent);
    }
    case "square":
      return el("rect", { x: -size * 0.85, y: -size * 0.85, width: size * 1.7, height: size * 1.7, ...attrs }, parent);
    case "star": {
      const outer = ring(5, size * 1.3);
      const inner = ring(5, size * 0.55, -54);
      return el("polygon", { points: polygon(outer.flatMap((p, i) => [p, inner[i]])), ...attrs }, parent);
    }
    case "diamond":
      return el("polygon", { points: polygon(ring(4, size * 1.25)), ...attrs }, parent);
    default:
      return el("circle", { r: size, ...attrs }, parent);
  }
}


// Everything on each stop: pieces first (by seat), then blocks.
function contents(pos) {
  const on = new Map();
  const add = (stop, thing) => {
    if (stop === null || stop === undefined) return;
    if (!on.has(stop)) on.set(stop, []);
    on.get(stop).push(thing);
  };
  for (const piece of pos.pieces) add(piece.stop, { type: "piece", piece });
  for (const stop of pos.black) add(stop, { type: "black" });
  for (const stop of pos.grey) add(stop, { type: "grey" });
  return on;
}

/**
 * drawThings(group, stops, pos, shapeOf): draw the pieces and blocks of a position (as
 * the server's position payload has them) into an SVG group; shapeOf(seat) names a
 * seat's piece shape. Returns what stands on each stop (a Map).
 */
export function drawThings(things, stops, pos, shapeOf) {
  things.replaceChildren();
  const on = contents(pos);
  for (const [stopId, list] of on) {
    const stop = stops[stopId];
    const n = list.length;
    // Several things share a stop only on the corners at the start; spread them out.
    const spread = n === 1 ? [[0, 0]] : ring(n, Math.min(stop.r * 0.5, 0.55 + 0.15 * n), -135);
    const size = n === 1 ? Math.min(0.78, stop.r * 0.78) : Math.min(0.72, (stop.r * 1.6) / n + 0.2);
    list.forEach((thing, i) => {
      const g = el("g", { transform: `translate(${(stop.x + spread[i][0]).toFixed(3)} ${(stop.y + spread[i][1]).toFixed(3)})` }, things);
      if (thing.type === "piece") {
        g.setAttribute("class", `pg-piece pg-c-${thing.piece.colour}`);
        g.dataset.seat = thing.piece.seat;
        g.dataset.colour = thing.piece.colour;
        g.dataset.stop = stopId;
        shape(shapeOf(thing.piece.seat), size, { class: "pg-piece-shape" }, g);
      } else {
        const side = Math.min(1.5, stop.r * 1.45);
        g.setAttribute("class", `pg-block pg-${thing.type}`);
        g.dataset.stop = stopId;
        el("rect", { x: -side / 2, y: -side / 2, width: side, height: side, rx: side * 0.18 }, g);
      }
    });
  }
  return on;
}
