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


// The book's letter for each colour (section 22: W B R Y G), shown inside every piece and
// every coloured stop so that colours are told apart without seeing them.
const LETTERS = { w: "W", b: "B", r: "R", y: "Y", g: "G" };

// Per piece shape, the letter's size and its centre's drop, as fractions of the piece's
// size: as large as fits inside the shape's outline (a triangle has its room below its
// middle, a star between its lower arms).
const LETTER_FIT = {
  circle: [1.3, 0],
  triangle: [1.1, 0.28],
  square: [1.4, 0],
  star: [1.1, 0.07],
  diamond: [1.3, 0],
};

// Letters are set at font size 10 and scaled down to `size` (board units): Chromium lays
// out and measures text under one unit badly, and a reader's minimum font size would
// blow a tiny font size up. A capital's height is about 0.72 of the font size: the
// baseline sits half of that below the centre (dominant-baseline is not read alike by
// every browser). In a piece a W, half as wide again as the other letters, is narrowed
// to their width.
function letter(colour, size, dy, parent, narrow = false) {
  const text = LETTERS[colour] ?? colour.toUpperCase();
  const attrs = {
    class: `pg-letter pg-on-${colour}`,
    x: 0,
    y: 3.6,
    "font-size": 10,
    "text-anchor": "middle",
    transform: `translate(0 ${dy.toFixed(3)}) scale(${(size / 10).toFixed(4)})`,
  };
  if (narrow && text === "W") Object.assign(attrs, { textLength: 7.8, lengthAdjust: "spacingAndGlyphs" });
  const node = el("text", attrs, parent);
  node.textContent = text;
  return node;
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
 * the server's position payload has them) into an SVG group, and the letter of every
 * coloured stop (corners and crossings); shapeOf(seat) names a seat's piece shape.
 * Returns what stands on each stop (a Map).
 */
export function drawThings(things, stops, pos, shapeOf) {
  things.replaceChildren();
  const on = contents(pos);
  for (const stop of stops) {
    const held = on.get(stop.id) ?? [];
    // A coloured stop's letter shows beside what stands on it, a full corner too: in a
    // place of its own among up to three things, in the middle of four or five (the
    // corners at the start of a game of four or five), whose pieces move out a little.
    const crowded = stop.colour && held.length >= 4;
    const list = stop.colour && !crowded ? [{ type: "letter" }, ...held] : held;
    const n = list.length;
    let spread;
    let size;
    if (crowded) {
      size = Math.min(0.72, stop.r * 0.28);
      spread = ring(n, stop.r - 1.3 * size - 0.05, -135);
    } else {
      // Several things share a stop only on the corners at the start; spread them out.
      spread = n === 1 ? [[0, 0]] : ring(n, Math.min(stop.r * 0.5, 0.55 + 0.15 * n), -135);
      size = n === 1 ? Math.min(0.78, stop.r * 0.78) : Math.min(0.72, (stop.r * 1.6) / n + 0.2);
    }
    const at = (dx, dy) => `translate(${(stop.x + dx).toFixed(3)} ${(stop.y + dy).toFixed(3)})`;
    const stopLetter = (dx, dy, fontSize) => {
      const g = el("g", { class: "pg-stop-letter", transform: at(dx, dy) }, things);
      g.dataset.stop = stop.id;
      g.dataset.colour = stop.colour;
      letter(stop.colour, fontSize, 0, g);
    };
    // The room in the middle of a crowded corner, inside its pieces' farthest points.
    if (crowded) stopLetter(0, 0, Math.min(size * 1.35, (stop.r - 2.6 * size - 0.05) / 0.6));
    list.forEach((thing, i) => {
      if (thing.type === "letter") return stopLetter(...spread[i], n === 1 ? stop.r * 0.8 : size * 1.35);
      const g = el("g", { transform: at(...spread[i]) }, things);
      g.dataset.stop = stop.id;
      if (thing.type === "piece") {
        const kind = shapeOf(thing.piece.seat);
        const [scale, drop] = LETTER_FIT[kind] ?? LETTER_FIT.circle;
        g.setAttribute("class", `pg-piece pg-c-${thing.piece.colour}`);
        g.dataset.seat = thing.piece.seat;
        g.dataset.colour = thing.piece.colour;
        shape(kind, size, { class: "pg-piece-shape" }, g);
        letter(thing.piece.colour, size * scale, size * drop, g, true);
      } else {
        const side = Math.min(1.5, stop.r * 1.45, n === 1 ? 1.5 : size * 2);
        g.setAttribute("class", `pg-block pg-${thing.type}`);
        el("rect", { x: -side / 2, y: -side / 2, width: side, height: side, rx: side * 0.18 }, g);
      }
    });
  }
  return on;
}

/**
 * focusRing(svg, stops): a focus ring of its own for the stop that has the keyboard's
 * focus (:focus-visible): a dark ring in a white one, so that one of them stands out on
 * every fill, and outside the selection and target marks. It is the SVG's last child, so
 * it is painted above the pieces and the marks (SVG paints in document order). The
 * listeners sit on the document: a focus listener on an SVG element would make Chromium
 * put that element in the tab order.
 */
export function focusRing(svg, stops) {
  const ring = el("g", { class: "pg-focus-ring", "aria-hidden": "true" }, svg);
  const halo = el("circle", { class: "pg-focus-halo", r: 1 }, ring);
  const core = el("circle", { class: "pg-focus-core", r: 1 }, ring);
  const update = () => {
    const focused = svg.querySelector(".pg-stop:focus-visible");
    ring.classList.toggle("pg-on", Boolean(focused));
    if (!focused) return;
    const s = stops[Number(focused.dataset.stop)];
    for (const circle of [halo, core]) {
      circle.setAttribute("cx", s.x);
      circle.setAttribute("cy", s.y);
      circle.setAttribute("r", (s.r + 0.7).toFixed(3));
    }
    // Whatever was drawn into the board since, the ring stays on top.
    if (svg.lastElementChild !== ring) svg.appendChild(ring);
  };
  const doc = svg.ownerDocument;
  // Focus moves on focusin; a key pressed on a stop clicked before makes its focus
  // visible, a click hides it again.
  for (const type of ["focusin", "focusout", "keyup", "pointerdown"]) {
    doc.addEventListener(type, () => queueMicrotask(update));
  }
  update();
  return ring;
}
