// Pentagame's rules in the browser: a port of the Python engine (games/pentagame/), so
// that the recording board can find the position and the legal moves after a ply
// without asking the server, and the replay (board.js) every position from the moves
// alone. The Python engine stays the authority (every saved record is replayed there);
// tests/games/pentagame/test_js_engine_agrees.py checks at every ply
// of recorded and random games that both engines agree: positions, legal moves, results
// and the reasons given for illegal plies. docs/rules.md lists the rules and the
// readings chosen; the comments below cite the book's sections as the Python code does.
//
// An ES module without dependencies. Exports:
//
//   positionPayload(record) -> object
//       What games/pictures/pentagame.py `position_payload(record)` returns (the JSON
//       the board page POSTs for): {ply, last, pieces, black, grey, to_move, finished,
//       out, ok, plies, moves, winners, error, legal}. `record` is {players, variant,
//       moves}; throws RecordError (with .reason) when it is not a record at all.
//   replayFrames(record) -> [position, ...]
//       games/pictures/pentagame.py `replay_frames`: the position before the first ply
//       and after each legal ply.
//   replay(record) -> {ok, plies, finished, to_move, out, out_colours, winners, error,
//       state, game}
//       games.pentagame.replay: every move checked; error is {ply, move, reason} for the
//       first illegal or unreadable move (nothing of it applied), else null. `game` is
//       the Position after the last legal move.
//   class Position
//       Position.start(players, variant = "standard"), Position.fromState(state),
//       .copy(), .state(), .apply(moveOrText) (throws IllegalMove or NotationError and
//       then changes nothing), .legalMoves() (Move objects: canonical, without `:` and
//       `z` parts; [PASS] when nothing else is legal, [] once the game is over),
//       .legalCodes() (the fast int form of games/pentagame/movegen.py), .finished,
//       .ply, .seat (0-based seat to move).
//   legalEntries(game) -> [{text, kind, from, to, black?, out?, grey_from?, free?}]
//       The payload's `legal` list for a position.
//   positionJSON(state) -> the payload's position part.
//   initialState(players, variant), applyMove(state, moveOrText) -> state
//       The immutable form: a state is {players, variant, pieces, black, grey, to_move,
//       ply, last, out, finished} as games.pentagame.State (stops are ids 0..99, -1 when
//       out or in the reserve; to_move is 1-based, null once the game is over).
//   result(state) -> {finished, out, out_colours, winners, team_out}
//       Pieces out per seat, their colours in order, the winners (1-based seats).
//   parseMove(text) -> Move, formatMove(move) -> text, parseStop(text) -> id,
//   formatStop(id) -> name
//       The book's notation in ASCII. A Move is {kind, frm, to, piece, target, seat,
//       black, grey, greyFrom}: kind is "-", "x", "s", "s!", "z" or "pass"; stops are ids,
//       colours 0..4 (w b r y g), seat 1-based; absent parts are null.
//   rulesFor(players, variant) -> the frozen rules of a table (throws IllegalMove).
//   PentagameError, NotationError, IllegalMove, RecordError: errors with .reason.
//   PLAYABLE_VARIANTS, COLOURS, COLOUR_NAMES, N_STOPS, STOP_NAMES, ADJ, LINES, CHORDS,
//   SPELLINGS (a Map: every accepted stop spelling -> id), PASS.

// --- errors -----------------------------------------------------------------------------

export class PentagameError extends Error {
  constructor(reason) {
    super(reason);
    this.name = new.target.name;
    this.reason = reason;
  }
}
export class NotationError extends PentagameError {}
export class IllegalMove extends PentagameError {}
export class RecordError extends PentagameError {}

// --- strings as Python reads them -------------------------------------------------------

// The Python engine strips and splits on str.isspace() characters; JavaScript's \s is a
// slightly different set, so the reasons quoting a move would differ without this.
const PY_SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const PY_SPACES = new RegExp(`${PY_SPACE}+`, "g");
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, "g");
const pyStrip = (text) => text.replace(PY_STRIP, "");

// Python compares strings by code point, JavaScript's sort by UTF-16 unit.
function byCodePoint(a, b) {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

// --- the board (games/pentagame/board.py) -------------------------------------------------

export const COLOURS = "wbryg";
export const COLOUR_NAMES = Object.freeze(["white", "blue", "red", "yellow", "green"]);
const NODE_NAMES = "WBRYGwbryg";
export const N_STOPS = 100;

const corner = (colour) => colour;
const crossing = (colour) => 5 + colour;

// Ids 0..4 are the corners W B R Y G clockwise round the rim, 5..9 the crossings; each
// crossing lies opposite the corner of its colour (book §1). Rim and inner lines run
// clockwise (3 stops each); the long lines (6 stops) start at their corner and join it
// to the crossings of the two corners not next to it.
export const LINES = Object.freeze(
  [
    ...Array.from({ length: 5 }, (_, i) => [corner(i), corner((i + 1) % 5), 3]),
    ...Array.from({ length: 5 }, (_, i) => [crossing(i), crossing((i + 1) % 5), 3]),
    ...Array.from({ length: 10 }, (_, j) => [corner(j >> 1), crossing(((j >> 1) + 2 + (j & 1)) % 5), 6]),
  ].map((line) => Object.freeze(line)),
);
const LINE_BASE = [];
{
  let base = 10;
  for (const [, , n] of LINES) {
    LINE_BASE.push(base);
    base += n;
  }
}
const NODE_LINES = Array.from({ length: 10 }, (_, node) =>
  LINES.flatMap(([a, b], li) => (a === node || b === node ? [[li, a === node ? b : a]] : [])),
);

function lineSequence(li) {
  const [a, b, n] = LINES[li];
  return [a, ...Array.from({ length: n }, (_, k) => LINE_BASE[li] + k), b];
}

function lineBetween(x, y) {
  for (const [li, other] of NODE_LINES[x]) if (other === y) return li;
  return -1;
}

export const ADJ = (() => {
  const adj = Array.from({ length: N_STOPS }, () => []);
  LINES.forEach((_, li) => {
    const seq = lineSequence(li);
    for (let k = 1; k < seq.length; k++) {
      adj[seq[k - 1]].push(seq[k]);
      adj[seq[k]].push(seq[k - 1]);
    }
  });
  return Object.freeze(adj.map((s) => Object.freeze(s.sort((a, b) => a - b))));
})();

// The five straight chords corner-crossing-crossing-corner, every stop in order (the
// notation counts along them: `Wb3` is `W3r`).
export const CHORDS = Object.freeze(
  Array.from({ length: 5 }, (_, i) => {
    const nodes = [corner(i), crossing((i + 2) % 5), crossing((i + 1) % 5), corner((i + 3) % 5)];
    const seq = [nodes[0]];
    for (let k = 1; k < nodes.length; k++) {
      const part = lineSequence(lineBetween(nodes[k - 1], nodes[k]));
      if (part[0] !== nodes[k - 1]) part.reverse();
      seq.push(...part.slice(1));
    }
    return Object.freeze(seq);
  }),
);

// Stops from node x to node y along their line or chord (both included), or null.
function walk(x, y) {
  const li = lineBetween(x, y);
  if (li >= 0) {
    const seq = lineSequence(li);
    return seq[0] === x ? seq : seq.reverse();
  }
  for (const chord of CHORDS) {
    const i = chord.indexOf(x);
    const j = chord.indexOf(y);
    if (i >= 0 && j >= 0) return i < j ? chord.slice(i, j + 1) : chord.slice(j, i + 1).reverse();
  }
  return null;
}

// Canonical names: a stop is named from the nearer node; the middle stop of a 3-stop
// line from the node that comes first clockwise (docs/rules.md, "Canonical names").
export const STOP_NAMES = Object.freeze(
  (() => {
    const names = [...NODE_NAMES];
    for (const [a, b, n] of LINES) {
      const A = NODE_NAMES[a];
      const B = NODE_NAMES[b];
      for (let k = 1; k <= n; k++) {
        if (n === 6) names.push(k <= 3 ? `${A}${k}${B}` : `${B}${n + 1 - k}${A}`);
        else if (k === n) names.push(`${B}1${A}`);
        else names.push(`${A}${k}${B}`);
      }
    }
    return names;
  })(),
);

// --- notation (games/pentagame/notation.py) -----------------------------------------------

// Every accepted spelling of every stop (book annex "Notation of moves": node of origin,
// node towards which to go, stops to go; the count is dropped at a node, `Wr` = `r`).
export const SPELLINGS = (() => {
  const names = new Map(STOP_NAMES.map((name, i) => [name, i]));
  const put = (key, stop) => {
    if (!names.has(key)) names.set(key, stop);
  };
  for (let x = 0; x < 10; x++) {
    for (let y = 0; y < 10; y++) {
      const path = x !== y ? walk(x, y) : null;
      if (path === null) continue;
      const X = NODE_NAMES[x];
      const Y = NODE_NAMES[y];
      put(`${X}${Y}`, path[path.length - 1]);
      for (let k = 1; k < path.length; k++) {
        put(`${X}${k}${Y}`, path[k]);
        put(`${X}${Y}${k}`, path[k]);
      }
    }
  }
  return names;
})();

const NODE_RE = "[WBRYGwbryg]";
const STOP_RE = `${NODE_RE}(?:[0-9]+${NODE_RE}|${NODE_RE}[0-9]*)?`;
const COL_RE = "(?:\\[([A-Za-z])\\])?";
const MOVE_RE = new RegExp(
  `^(${STOP_RE})${COL_RE}(?:` +
    `(z)(${STOP_RE})(?:>(${STOP_RE}))?` +
    `|(-|x|X|×|s!|s)([0-9]?)(${STOP_RE})${COL_RE}(?::(${STOP_RE}))?(?:z(${STOP_RE})(?:>(${STOP_RE}))?)?` +
    ")$",
);
const STOP_PREFIX_RE = new RegExp(`^${STOP_RE}`);
// The plain forms, read without the full grammar (Python's `.` is "not a newline").
const PLAIN_RE = /^([^-xs:z>]+)(-|x|s!|s)([^:z>]+)(?::([^z>]+))?(?:z([^>]+)(?:>([^\n]+))?)?$/;
const OP_ALIASES = { X: "x", "×": "x" };

function makeMove(kind, frm = -1, to = -1, piece = null, target = null, seat = null, black = null, grey = null, greyFrom = null) {
  return { kind, frm, to, piece, target, seat, black, grey, greyFrom };
}

export const PASS = Object.freeze(makeMove("pass"));

export function parseStop(text) {
  const stop = typeof text === "string" ? SPELLINGS.get(pyStrip(text)) : undefined;
  if (stop === undefined) throw new NotationError(`\`${text}\` is not a stop`);
  return stop;
}

export function formatStop(stop) {
  if (!(Number.isInteger(stop) && stop >= 0 && stop < STOP_NAMES.length)) {
    throw new NotationError(`${stop} is not a stop id`);
  }
  return STOP_NAMES[stop];
}

export function parseMove(text) {
  if (typeof text !== "string") throw new NotationError("a move must be a string");
  const move = readMove(text);
  if (typeof move === "string") throw new NotationError(move);
  return move;
}

function colourOf(letter, where) {
  if (letter === undefined) return null;
  const c = letter.toLowerCase();
  if (!COLOURS.includes(c)) {
    throw new NotationError(`\`[${letter}]\` after ${where} is not a colour (w, b, r, y, g)`);
  }
  return COLOURS.indexOf(c);
}

// The Move of a text, or the reason it cannot be read.
function readMove(text) {
  const get = (t) => SPELLINGS.get(t);
  // Fast path for the plain forms: the separators never occur in a stop's name, so when
  // every part is a known stop the text reads exactly as the grammar would read it.
  const dash = text.indexOf("-");
  if (dash >= 0) {
    const frm = get(text.slice(0, dash));
    const to = get(text.slice(dash + 1));
    if (frm !== undefined && to !== undefined) return makeMove("-", frm, to);
  }
  let m = PLAIN_RE.exec(text);
  if (m !== null) {
    const [, frmT, op, toT, blackT, greyT, greyToT] = m;
    const frm = get(frmT);
    const to = get(toT);
    if (frm !== undefined && to !== undefined) {
      const black = blackT === undefined ? null : get(blackT);
      const grey = greyT === undefined ? null : get(greyT);
      const greyTo = greyToT === undefined ? null : get(greyToT);
      if (black !== undefined && grey !== undefined && greyTo !== undefined) {
        if (greyTo !== null) return makeMove(op, frm, to, null, null, null, black, greyTo, grey);
        return makeMove(op, frm, to, null, null, null, black, grey, null);
      }
    }
  }
  let s = text.replace(PY_SPACES, "");
  if (s.startsWith("(") && s.endsWith(")")) s = s.slice(1, -1);
  if (!s) return "the move is empty";
  m = MOVE_RE.exec(s);
  if (m === null) return s.toLowerCase() === "pass" ? PASS : explain(s);
  const g = m.slice(1);
  const quoted = pyStrip(text);
  const parts = [g[0], g[3], g[4], g[7], g[9], g[10], g[11]];
  const stops = parts.map((t) => (t === undefined ? null : (get(t) ?? -1)));
  const bad = stops.indexOf(-1);
  if (bad >= 0) return `\`${quoted}\`: \`${parts[bad]}\` is not a stop`;
  const [frm, zGrey, zTo, to, black, grey, greyTo] = stops;
  let piece;
  let target;
  try {
    piece = colourOf(g[1], "the starting stop");
    target = colourOf(g[8], "the target stop");
  } catch (error) {
    if (error instanceof NotationError) return `\`${quoted}\`: ${error.reason}`;
    throw error;
  }
  if (g[2] === "z") {
    if (zTo !== null) return makeMove("z", frm, -1, piece, null, null, null, zTo, zGrey);
    return makeMove("z", frm, -1, piece, null, null, null, zGrey, null);
  }
  const op = OP_ALIASES[g[5]] ?? g[5];
  const seat = g[6] ? Number(g[6]) : null;
  if (seat !== null && op !== "s!") return `\`${quoted}\`: a seat number only follows \`s!\`, not \`${op}\``;
  if (seat !== null && !(seat >= 1 && seat <= 5)) return `\`${quoted}\`: seat ${seat} does not exist`;
  if (to === null) return `\`${quoted}\`: no target stop`;
  if (greyTo !== null) return makeMove(op, frm, to, piece, target, seat, black, greyTo, grey);
  return makeMove(op, frm, to, piece, target, seat, black, grey, null);
}

// A reason for text that does not match the move grammar.
function explain(s) {
  const m = STOP_PREFIX_RE.exec(s);
  if (m === null) {
    return `\`${s}\` does not start with a stop (a corner W B R Y G, a crossing w b r y g, or e.g. W3r)`;
  }
  const rest = s.slice(m[0].length);
  if (!SPELLINGS.has(m[0])) return `\`${m[0]}\` is not a stop`;
  if (!rest) return `\`${s}\` has a stop but no move (expected -, x, s, s! or z after it)`;
  const first = String.fromCodePoint(rest.codePointAt(0));
  if (!"-xX×s[z".includes(first)) {
    return `\`${first}\` after ${m[0]} is not a move sign (expected -, x, s, s! or z)`;
  }
  return `\`${s}\` is not a move in the book's notation, e.g. W-W3r, Wxr:G2W, GsW, Gs!W, rzG2W`;
}

export function formatMove(move) {
  if (move.kind === "pass") return "pass";
  let out = formatStop(move.frm);
  if (move.piece !== null) out += `[${COLOURS[move.piece]}]`;
  if (move.kind !== "z") {
    out += move.kind;
    if (move.seat !== null) out += String(move.seat);
    out += formatStop(move.to);
    if (move.target !== null) out += `[${COLOURS[move.target]}]`;
    if (move.black !== null) out += `:${formatStop(move.black)}`;
  }
  if (move.grey !== null) {
    out += "z";
    if (move.greyFrom !== null) out += `${formatStop(move.greyFrom)}>`;
    out += formatStop(move.grey);
  } else if (move.kind === "z") {
    out += "z";
  }
  return out;
}

// --- variants (games/pentagame/rules.py) ----------------------------------------------

const VARIANT_FLAGS = ["standard", "teams", "inside-out", "five"];
// Every table a record can name: the game for 2 to 5 players, the 2 vs 2 team game, and
// each of them inside out (book §3).
export const PLAYABLE_VARIANTS = Object.freeze(
  [
    [2, "standard"],
    [3, "standard"],
    [4, "standard"],
    [4, "teams"],
    [5, "standard"],
    [2, "inside-out"],
    [3, "inside-out"],
    [4, "inside-out"],
    [4, "teams+inside-out"],
    [5, "inside-out"],
  ].map((v) => Object.freeze(v)),
);
const BLACK_BASE = 100;
const GREY_BASE = 200;
const EMPTY = -1;
const MIXED = -2; // several pieces on one stop (only start nodes hold more than one thing)
const OUT = -1;
const FORCED = 127;

const RULES = new Map();

export function rulesFor(players, variant = "standard") {
  if (typeof players !== "number" || !Number.isInteger(players)) {
    throw new IllegalMove("`players` must be a whole number from 2 to 5");
  }
  if (typeof variant !== "string") throw new IllegalMove("`variant` must be a string");
  const key = `${players}|${variant}`;
  let rules = RULES.get(key);
  if (!rules) {
    rules = makeRules(players, variant);
    RULES.set(key, rules);
  }
  return rules;
}

function makeRules(players, variant) {
  const flags = new Set(
    variant
      .replaceAll(",", "+")
      .split("+")
      .map((f) => pyStrip(f).toLowerCase())
      .filter((f) => f),
  );
  const unknown = [...flags].filter((f) => !VARIANT_FLAGS.includes(f)).sort(byCodePoint);
  if (unknown.length) {
    throw new IllegalMove(`unknown variant \`${unknown[0]}\` (known: standard, teams, inside-out, five)`);
  }
  if (!(players >= 2 && players <= 5)) throw new IllegalMove(`Pentagame is played by 2 to 5 players, not ${players}`);
  const teams = flags.has("teams");
  const insideOut = flags.has("inside-out");
  // Five players: each seat plays the four alike pieces of one colour (book §3).
  const five = players === 5;
  if (flags.has("five") && !five) throw new IllegalMove("the five-player variant needs players=5");
  if (teams && players !== 4) throw new IllegalMove("the team variant needs players=4");
  // Inside out: from the crossings to the corners (book §3).
  const [home, away] = insideOut ? [crossing, corner] : [corner, crossing];
  const owner = [];
  const colour = [];
  for (let seat = 0; seat < players; seat++) {
    for (let k = 0; k < (five ? 4 : 5); k++) {
      owner.push(seat);
      colour.push(five ? seat : k);
    }
  }
  const names = teams ? ["teams"] : [];
  // `standard` with 5 players is read as the five-player game and named so.
  if (five) names.push("five");
  if (insideOut) names.push("inside-out");
  return Object.freeze({
    players,
    variant: names.join("+") || "standard",
    teams,
    five,
    insideOut,
    owner: Object.freeze(owner),
    colour: Object.freeze(colour),
    start: Object.freeze(colour.map(home)),
    goal: Object.freeze(colour.map(away)),
    seatPieces: Object.freeze(
      Array.from({ length: players }, (_, s) => Object.freeze(owner.flatMap((o, p) => (o === s ? [p] : [])))),
    ),
    blackStart: Object.freeze([0, 1, 2, 3, 4].map(away)),
    // Teams play to 5 pieces between partners (book §3, §19), everyone else to 3.
    winOut: teams ? 5 : 3,
  });
}

export function initialState(players, variant = "standard") {
  const rules = rulesFor(players, variant);
  return {
    players,
    variant: rules.variant,
    pieces: [...rules.start],
    black: [...rules.blackStart],
    grey: [OUT, OUT, OUT, OUT, OUT],
    to_move: 1,
    ply: 0,
    last: Array(players).fill(null),
    out: Array.from({ length: players }, () => []),
    finished: false,
  };
}

// --- paths (games/pentagame/paths.py) ---------------------------------------------------

// A piece moves along free stops and turns only at free nodes; it never jumps (book §2).
// A line stop has two neighbours, so a search that continues through free stops only
// walks the lines and turns exactly at the free nodes.
const ADJ_START = new Int32Array(N_STOPS + 1);
const ADJ_FLAT = new Int32Array(ADJ.reduce((n, a) => n + a.length, 0));
ADJ.forEach((a, s) => {
  ADJ_START[s + 1] = ADJ_START[s] + a.length;
  ADJ_FLAT.set(a, ADJ_START[s]);
});
// Scratch for the searches: a stop was seen in the search numbered by its stamp.
const SEEN = new Int32Array(N_STOPS);
const STACK = new Int32Array(N_STOPS);
let stamp = 0;

function nextStamp() {
  stamp += 1;
  if (stamp === 0x7fffffff) {
    SEEN.fill(0);
    stamp = 1;
  }
  return stamp;
}

// Marks (with the returned stamp) every stop a piece on frm reaches, frm included.
function search(frm, cnt) {
  const mark = nextStamp();
  SEEN[frm] = mark;
  STACK[0] = frm;
  let top = 1;
  while (top) {
    const s = STACK[--top];
    for (let i = ADJ_START[s], end = ADJ_START[s + 1]; i < end; i++) {
      const t = ADJ_FLAT[i];
      if (SEEN[t] !== mark) {
        SEEN[t] = mark;
        if (!cnt[t]) STACK[top++] = t;
      }
    }
  }
  return mark;
}

// Whether a piece on frm can end its move on to; stops as soon as it knows.
function reaches(frm, to, cnt) {
  if (frm === to) return false;
  const mark = nextStamp();
  SEEN[frm] = mark;
  STACK[0] = frm;
  let top = 1;
  while (top) {
    const s = STACK[--top];
    for (let i = ADJ_START[s], end = ADJ_START[s + 1]; i < end; i++) {
      const t = ADJ_FLAT[i];
      if (t === to) return true;
      if (SEEN[t] !== mark) {
        SEEN[t] = mark;
        if (!cnt[t]) STACK[top++] = t;
      }
    }
  }
  return false;
}

function distances(src) {
  const dist = new Array(N_STOPS).fill(-1);
  dist[src] = 0;
  const queue = [src];
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head];
    for (const t of ADJ[s]) {
      if (dist[t] < 0) {
        dist[t] = dist[s] + 1;
        queue.push(t);
      }
    }
  }
  return dist;
}

// A stop that blocks the way from frm to to: on a shortest board path, the occupied stop
// nearest to frm (only to explain an illegal move).
function blockingStop(frm, to, cnt) {
  const dFrom = distances(frm);
  const dTo = distances(to);
  const total = dFrom[to];
  let best = -1;
  for (let s = 0; s < N_STOPS; s++) {
    if (s === frm || s === to || !cnt[s]) continue;
    if (dFrom[s] + dTo[s] === total && (best < 0 || dFrom[s] < dFrom[best])) best = s;
  }
  if (best >= 0) return best;
  for (const s of ADJ[to]) if (cnt[s] && s !== frm) return s;
  return to;
}

// --- the game ---------------------------------------------------------------------------

const sameKey = (a, b) => a !== null && b !== null && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

// The move's from and to with another sign, to suggest the right spelling.
const plain = (move, sign) => formatMove(makeMove(sign, move.frm, move.to, move.piece, move.target));

export class Position {
  // A mutable working copy of a state: a ply costs a few array writes.
  constructor(state) {
    const r = rulesFor(state.players, state.variant);
    this.rules = r;
    this.pos = [...state.pieces];
    this.black = [...state.black];
    this.grey = [...state.grey];
    this.seat = (state.to_move || 1) - 1;
    this.ply = state.ply;
    this.last = state.last.map((k) => (k === null ? null : [...k]));
    this.out = state.out.map((o) => [...o]);
    this.finished = state.finished;
    this.cnt = new Uint8Array(N_STOPS);
    this.cell = new Int16Array(N_STOPS).fill(EMPTY);
    this.onGoal = 0;
    const put = (thing, s) => {
      if (s >= 0) {
        this.cnt[s] += 1;
        this.cell[s] = thing;
      }
    };
    this.pos.forEach((s, p) => {
      put(p, s);
      if (s === r.goal[p]) this.onGoal += 1;
    });
    this.black.forEach((s, i) => put(BLACK_BASE + i, s));
    this.grey.forEach((s, i) => put(GREY_BASE + i, s));
  }

  static start(players, variant = "standard") {
    return new Position(initialState(players, variant));
  }

  static fromState(state) {
    return new Position(state);
  }

  copy() {
    const c = Object.create(Position.prototype);
    c.rules = this.rules;
    c.pos = [...this.pos];
    c.black = [...this.black];
    c.grey = [...this.grey];
    c.seat = this.seat;
    c.ply = this.ply;
    c.last = this.last.map((k) => (k === null ? null : [...k]));
    c.out = this.out.map((o) => [...o]);
    c.finished = this.finished;
    c.cnt = this.cnt.slice();
    c.cell = this.cell.slice();
    c.onGoal = this.onGoal;
    return c;
  }

  state() {
    return {
      players: this.rules.players,
      variant: this.rules.variant,
      pieces: [...this.pos],
      black: [...this.black],
      grey: [...this.grey],
      to_move: this.finished ? null : this.seat + 1,
      ply: this.ply,
      last: this.last.map((k) => (k === null ? null : [...k])),
      out: this.out.map((o) => [...o]),
      finished: this.finished,
    };
  }

  // --- bookkeeping --------------------------------------------------------------------

  take(stop, thing) {
    const c = this.cnt[stop] - 1;
    this.cnt[stop] = c;
    if (c === 0) this.cell[stop] = EMPTY;
    else if (c === 1) this.cell[stop] = this.onlyPiece(stop, thing);
  }

  put(stop, thing) {
    const c = this.cnt[stop] + 1;
    this.cnt[stop] = c;
    this.cell[stop] = c === 1 ? thing : MIXED;
  }

  onlyPiece(stop, leaving) {
    for (let p = 0; p < this.pos.length; p++) if (this.pos[p] === stop && p !== leaving) return p;
    return EMPTY;
  }

  piecesOn(stop) {
    const c = this.cnt[stop];
    if (c === 0) return [];
    if (c === 1) {
      const t = this.cell[stop];
      return t < BLACK_BASE ? [t] : [];
    }
    const out = [];
    for (let p = 0; p < this.pos.length; p++) if (this.pos[p] === stop) out.push(p);
    return out;
  }

  // Pieces of the seat to move that stand on their goal and must go out.
  waiting() {
    const r = this.rules;
    return r.seatPieces[this.seat].filter((p) => this.pos[p] === r.goal[p]);
  }

  // What stands on a stop, for the reasons.
  describe(stop) {
    const t = this.cell[stop];
    if (this.cnt[stop] > 1) return `${this.cnt[stop]} pieces`;
    if (t >= GREY_BASE) return "a grey block";
    if (t >= BLACK_BASE) return "a black block";
    // (Python reads index -1 as the last piece; never reached for a legal reason.)
    const p = t < 0 ? this.pos.length + t : t;
    return `seat ${this.rules.owner[p] + 1}'s ${COLOUR_NAMES[this.rules.colour[p]]} piece`;
  }

  pieceLabel(p) {
    if (this.rules.five) return `seat ${this.rules.owner[p] + 1}'s piece`;
    return `${COLOUR_NAMES[this.rules.colour[p]]} piece`;
  }

  // --- applying a move ------------------------------------------------------------------

  // Apply a move (a Move or its text) in place, or throw and change nothing.
  apply(move) {
    if (typeof move === "string") move = parseMove(move);
    if (this.finished) throw new IllegalMove("the game is over");
    const kind = move.kind;
    // A lost turn is legal at any time (book §3, time limits).
    if (kind === "pass") return this.endTurn(null);
    if (kind === "z") return this.moveOut(move, this.onGoal ? this.waiting() : []);
    // A piece put on its goal by a swap goes out on its owner's next turn, and that is
    // the whole turn (book §3: "Moving out is an action!").
    const waiting = this.onGoal ? this.waiting() : null;
    if (waiting && waiting.length) {
      const p = waiting[0];
      const g = formatStop(this.pos[p]);
      throw new IllegalMove(
        `your ${this.pieceLabel(p)} stands on its goal ${g} and must go out this turn (write ${g}z<stop>)`,
      );
    }
    const r = this.rules;
    const seat = this.seat;
    const cnt = this.cnt;
    const cell = this.cell;
    const { frm, to } = move;
    let mover = cell[frm];
    if (cnt[frm] !== 1 || mover >= BLACK_BASE || r.owner[mover] !== seat || move.piece !== null) {
      mover = this.mover(move);
    }
    if (frm === to) throw new IllegalMove("a move must end on another stop");
    // Never jump; turn only at free nodes (book §2).
    if (!reaches(frm, to, cnt)) {
      const block = blockingStop(frm, to, cnt);
      throw new IllegalMove(
        `the path from ${formatStop(frm)} to ${formatStop(to)} is blocked at ${formatStop(block)} (${this.describe(block)})`,
      );
    }
    // What stands on the target, and does the sign fit it?
    const cntTo = cnt[to];
    const thing = cell[to];
    let other = EMPTY;
    if (cntTo === 0) {
      if (move.target !== null) throw new IllegalMove(this.noSuchTarget(move, "it is empty", "-"));
      if (kind !== "-") throw new IllegalMove(`${formatStop(to)} is empty: write ${plain(move, "-")}`);
    } else if (cntTo === 1 && thing >= BLACK_BASE) {
      if (move.target !== null) {
        throw new IllegalMove(this.noSuchTarget(move, `it holds ${this.describe(to)}`, "x"));
      }
      this.checkTake(move, thing);
    } else {
      other = this.swapPartner(move, seat);
    }
    if (move.black !== null && kind !== "x") {
      throw new IllegalMove("`:` re-places a taken black block, and this move takes none");
    }
    // Ko: not the very same move (piece, from, to) as this seat's previous turn (book §5
    // version (b), §2); alike pieces of the five-player game count by colour.
    const key = [r.five ? r.colour[mover] : mover, frm, to];
    if (sameKey(this.last[seat], key)) {
      throw new IllegalMove(
        "you made this very same move on your previous turn; it may not be repeated in immediate succession (Ko)",
      );
    }
    // A piece that ends its move on its goal goes out (book §2).
    const goesOut = to === r.goal[mover];
    const swap = other !== EMPTY;
    let blackTaken = -1;
    let greyTaken = -1;
    if (cntTo && !swap) {
      if (thing >= GREY_BASE) greyTaken = thing - GREY_BASE;
      else blackTaken = thing - BLACK_BASE;
    }
    if (blackTaken >= 0 || goesOut) {
      // Whether stop s is empty once the piece has moved: the stop just left counts as
      // empty, and so does the goal of a piece that went out (book §2, §3).
      const emptyAfter = (s) => {
        let c = cnt[s];
        if (s === frm) c += (swap ? 1 : 0) - 1;
        if (s === to) c += (goesOut ? 0 : 1) - (cntTo ? 1 : 0);
        return c === 0;
      };
      if (blackTaken >= 0) {
        // A taken black block is re-placed on a free stop of the player's choice (§2).
        if (move.black === null) throw new IllegalMove("taking a black block needs a stop to put it on");
        if (!emptyAfter(move.black)) {
          throw new IllegalMove(
            `the black block cannot go on ${formatStop(move.black)}: it is not empty (${this.describe(move.black)})`,
          );
        }
      }
      if (goesOut) {
        let reserve = this.grey.filter((g) => g === OUT).length;
        if (greyTaken >= 0) reserve += 1;
        this.checkGrey(move, reserve, emptyAfter, greyTaken);
      }
    }
    if (!goesOut && move.grey !== null) {
      throw new IllegalMove(
        `the ${this.pieceLabel(mover)} does not reach its goal on ${formatStop(to)}, so no grey block is placed (no \`z\`)`,
      );
    }
    // All checks passed: change the position.
    this.pos[mover] = goesOut ? OUT : to;
    if (cnt[frm] === 1 && !swap) {
      cnt[frm] = 0;
      cell[frm] = EMPTY;
    } else {
      this.take(frm, mover);
    }
    if (swap) {
      // The swapped piece goes to the stop the mover came from; no adjacency is needed,
      // only the free path (docs/rules.md, "Swaps").
      this.take(to, other);
      this.pos[other] = frm;
      this.put(frm, other);
      if (r.goal[other] === to) this.onGoal -= 1;
      if (r.goal[other] === frm) this.onGoal += 1;
    } else if (cntTo) {
      // A taken grey block leaves the board again (book §2: "one time blocks").
      if (blackTaken >= 0) this.black[blackTaken] = EMPTY;
      else this.grey[greyTaken] = OUT;
      cnt[to] = 0;
      cell[to] = EMPTY;
    }
    if (!goesOut) {
      const c = cnt[to] + 1;
      cnt[to] = c;
      cell[to] = c === 1 ? mover : MIXED;
    }
    // Abracadabra: the black block is re-placed first, then the grey (book §3).
    if (blackTaken >= 0) {
      this.black[blackTaken] = move.black;
      this.put(move.black, BLACK_BASE + blackTaken);
    }
    if (goesOut) {
      this.out[seat].push(r.colour[mover]);
      this.placeGrey(move);
    }
    this.endTurn(key);
  }

  noSuchTarget(move, why, sign) {
    // A bracket after the target names a piece to swap with; there is none there.
    const colour = move.target !== null ? COLOURS[move.target] : "?";
    const bare = { ...move, target: null, kind: sign, seat: null };
    if (sign === "-") bare.black = null;
    return `\`[${colour}]\` after ${formatStop(move.to)} names no piece there: ${why} (write ${formatMove(bare)})`;
  }

  checkTake(move, thing) {
    const what = thing >= GREY_BASE ? "grey" : "black";
    const to = move.to;
    if (move.kind !== "x") {
      throw new IllegalMove(
        `${formatStop(to)} holds a ${what} block: take it with ${plain(move, "x")}${what === "black" ? ":<stop>" : ""}`,
      );
    }
    if (what === "black" && move.black === null) {
      throw new IllegalMove(
        `taking the black block on ${formatStop(to)} needs the stop it is re-placed on: ${plain(move, "x")}:<stop>`,
      );
    }
    if (what === "grey" && move.black !== null) {
      throw new IllegalMove("a grey block that is taken leaves the board: write no `:` after it");
    }
  }

  mover(move) {
    const r = this.rules;
    const frm = move.frm;
    const own = this.piecesOn(frm).filter((p) => r.owner[p] === this.seat);
    if (!own.length) throw new IllegalMove(`you have no piece on ${formatStop(frm)}`);
    if (move.piece !== null) {
      const named = own.filter((p) => r.colour[p] === move.piece);
      if (!named.length) {
        throw new IllegalMove(`you have no ${COLOUR_NAMES[move.piece]} piece on ${formatStop(frm)}`);
      }
      return named[0];
    }
    // Several of one's own pieces on a stop: the mover must be named (docs/rules.md).
    if (new Set(own.map((p) => r.colour[p])).size > 1) {
      const names = own.map((p) => `${formatStop(frm)}[${COLOURS[r.colour[p]]}]`).join(", ");
      throw new IllegalMove(`you have several pieces on ${formatStop(frm)}; name one: ${names}`);
    }
    return own[0];
  }

  // The piece swapped with. On a stop with several pieces the player chooses (book §2):
  // `s` among their own, `s!` among the others', named when ambiguous.
  swapPartner(move, seat) {
    const r = this.rules;
    const to = move.to;
    const here = this.piecesOn(to);
    let cands;
    if (move.kind === "s") {
      cands = here.filter((p) => r.owner[p] === seat);
      if (!cands.length) {
        const foreign = here.length ? "; to swap with another player's piece write s!" : "";
        throw new IllegalMove(`there is no piece of yours on ${formatStop(to)}${foreign}`);
      }
    } else if (move.kind === "s!") {
      cands = here.filter((p) => r.owner[p] !== seat);
      if (!cands.length) {
        throw new IllegalMove(
          `there is no other player's piece on ${formatStop(to)}` +
            (here.length ? "; to swap with your own piece write s" : ""),
        );
      }
      if (move.seat !== null) {
        cands = cands.filter((p) => r.owner[p] === move.seat - 1);
        if (!cands.length) throw new IllegalMove(`seat ${move.seat} has no piece on ${formatStop(to)}`);
      } else {
        const seats = [...new Set(cands.map((p) => r.owner[p] + 1))].sort((a, b) => a - b);
        if (seats.length > 1) {
          throw new IllegalMove(
            `pieces of seats ${seats.join(", ")} stand on ${formatStop(to)}; name whose, e.g. s!${seats[0]}`,
          );
        }
      }
    } else {
      const sign = here.some((p) => r.owner[p] === seat) ? "s" : "s!";
      throw new IllegalMove(`${formatStop(to)} holds ${this.describe(to)}: swap with ${plain(move, sign)}`);
    }
    if (move.target !== null) {
      const named = cands.filter((p) => r.colour[p] === move.target);
      if (!named.length) {
        throw new IllegalMove(`there is no ${COLOUR_NAMES[move.target]} piece to swap with on ${formatStop(to)}`);
      }
      return named[0];
    }
    if (new Set(cands.map((p) => r.colour[p])).size > 1) {
      const names = [...cands]
        .sort((a, b) => a - b)
        .map((p) => `${formatStop(to)}[${COLOURS[r.colour[p]]}]`)
        .join(", ");
      throw new IllegalMove(`several pieces stand on ${formatStop(to)}; name one: ${names}`);
    }
    return cands[0];
  }

  // The grey block placed when a piece goes out: from the reserve, or, when none is
  // left, one on the board re-positioned (sheet, edge case 5).
  checkGrey(move, reserve, emptyAfter, taken) {
    if (move.grey === null) {
      throw new IllegalMove(
        "the piece reaches its goal and goes out: place a grey block with z<stop>" +
          (reserve ? "" : " (none is left in the reserve: z<from>><to>)"),
      );
    }
    const g = move.grey;
    const placedBlack = move.kind === "x" ? move.black : null;
    if (reserve) {
      if (move.greyFrom !== null) {
        throw new IllegalMove("grey blocks are still in the reserve: place one with z<stop>, without `>`");
      }
    } else {
      const src = move.greyFrom;
      if (src === null) {
        throw new IllegalMove("no grey block is left in the reserve: move one on the board with z<from>><to>");
      }
      if (!this.grey.includes(src) || this.grey.indexOf(src) === taken) {
        throw new IllegalMove(`there is no grey block on ${formatStop(src)}`);
      }
      if (src === g) throw new IllegalMove("the grey block must move to another stop");
    }
    // The two blocks of an abracadabra may not share a stop.
    if (g === placedBlack || !emptyAfter(g)) {
      const what = g === placedBlack ? "the black block" : this.describe(g);
      throw new IllegalMove(`the grey block cannot go on ${formatStop(g)}: it holds ${what}`);
    }
  }

  placeGrey(move) {
    if (move.grey === null) throw new IllegalMove("taking a grey block needs a stop to put it on");
    let i;
    if (move.greyFrom === null) {
      i = this.grey.indexOf(OUT);
    } else {
      i = this.grey.indexOf(move.greyFrom);
      this.take(move.greyFrom, GREY_BASE + i);
    }
    this.grey[i] = move.grey;
    this.put(move.grey, GREY_BASE + i);
  }

  // `<goal>z<stop>`: a piece that waits on its goal goes out; one per turn, the player
  // chooses which (docs/rules.md, "Several pieces waiting").
  moveOut(move, waiting) {
    const r = this.rules;
    let cands = waiting.filter((p) => this.pos[p] === move.frm);
    if (move.piece !== null) cands = cands.filter((p) => r.colour[p] === move.piece);
    if (!cands.length) {
      throw new IllegalMove(
        `no piece of yours waits on its goal at ${formatStop(move.frm)} ` +
          "(`z` right after a stop takes out a piece that was put on its goal)",
      );
    }
    const p = cands[0];
    const reserve = this.grey.filter((g) => g === OUT).length;
    const frm = move.frm;
    this.checkGrey(move, reserve, (s) => this.cnt[s] - (s === frm ? 1 : 0) === 0, -1);
    this.pos[p] = OUT;
    this.onGoal -= 1;
    this.take(frm, p);
    this.out[this.seat].push(r.colour[p]);
    this.placeGrey(move);
    this.endTurn(null);
  }

  endTurn(key) {
    this.last[this.seat] = key;
    this.ply += 1;
    this.seat += 1;
    if (this.seat === this.rules.players) {
      this.seat = 0;
      this.roundComplete();
    }
  }

  // The game ends when a round is complete and someone has 3 pieces out, or a team 5:
  // the last round is played out so that everyone had as many turns (book §2, §3).
  roundComplete() {
    const out = this.out;
    if (this.rules.teams) {
      this.finished = out[0].length + out[2].length >= 5 || out[1].length + out[3].length >= 5;
    } else if (out.some((o) => o.length >= 3)) {
      this.finished = true;
    }
  }

  // --- legal moves (games/pentagame/movegen.py) -------------------------------------------

  // Every legal move as an int: to | from << 7 | piece << 14 | (partner + 1) << 20, the
  // partner only when several pieces on the target could be meant; to = 127 takes out a
  // piece that waits on its goal. Empty: only `pass`.
  legalCodes() {
    if (this.finished) return [];
    const r = this.rules;
    const pos = this.pos;
    const mine = r.seatPieces[this.seat];
    if (this.onGoal) {
      const codes = [];
      for (const p of mine) if (pos[p] === r.goal[p]) codes.push(FORCED | (pos[p] << 7) | (p << 14));
      if (codes.length) return codes;
    }
    const cnt = this.cnt;
    const five = r.five;
    const last = this.last[this.seat];
    const codes = [];
    const rest = [];
    const doneFrom = five ? new Uint8Array(N_STOPS) : null;
    for (const p of mine) {
      const frm = pos[p];
      if (frm < 0) continue;
      if (five) {
        // Alike pieces on one stop move alike.
        if (doneFrom[frm]) continue;
        doneFrom[frm] = 1;
      }
      const mark = search(frm, cnt);
      const ko = last !== null && last[1] === frm && last[0] === (five ? r.colour[p] : p) ? last[2] : -1;
      const base = (frm << 7) | (p << 14);
      rest.length = 0;
      for (let t = 0; t < N_STOPS; t++) {
        if (SEEN[t] !== mark || t === frm || t === ko) continue;
        if (cnt[t] > 1) {
          for (const partner of this.partners(t)) codes.push(base | t | ((partner + 1) << 20));
        } else {
          rest.push(base | t);
        }
      }
      for (const c of rest) codes.push(c);
    }
    return codes;
  }

  // One representative piece for each distinct choice of swap partner on a stop.
  partners(stop) {
    const r = this.rules;
    const seen = new Set();
    const out = [];
    for (const q of this.piecesOn(stop)) {
      const key = r.owner[q] * 8 + (r.five ? 7 : r.colour[q]);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(q);
      }
    }
    return out;
  }

  // The canonical Move (without `:` and `z` parts) of a code: brackets and seat numbers
  // only where the move would be ambiguous without them.
  codeToMove(code) {
    const r = this.rules;
    const seat = this.seat;
    const to = code & 127;
    const frm = (code >> 7) & 127;
    const p = (code >> 14) & 63;
    let partner = (code >> 20) - 1;
    const ownHere = this.piecesOn(frm).filter((q) => r.owner[q] === seat);
    const named = !r.five && ownHere.length > 1;
    const piece = named ? r.colour[p] : null;
    if (to === FORCED) return makeMove("z", frm, -1, piece);
    const thing = this.cell[to];
    if (this.cnt[to] === 0) return makeMove("-", frm, to, piece);
    if (this.cnt[to] === 1 && thing >= BLACK_BASE) return makeMove("x", frm, to, piece);
    if (partner < 0) partner = thing;
    const here = this.piecesOn(to);
    if (r.owner[partner] === seat) {
      const same = here.filter((q) => r.owner[q] === seat);
      const target = !r.five && same.length > 1 ? r.colour[partner] : null;
      return makeMove("s", frm, to, piece, target);
    }
    const foreign = here.filter((q) => r.owner[q] !== seat);
    const owners = new Set(foreign.map((q) => r.owner[q]));
    const seatNo = owners.size > 1 ? r.owner[partner] + 1 : null;
    const theirs = foreign.filter((q) => r.owner[q] === r.owner[partner]);
    const target = !r.five && theirs.length > 1 ? r.colour[partner] : null;
    return makeMove("s!", frm, to, piece, target, seatNo);
  }

  // Every legal move, canonical; `pass` only when nothing else is legal (a player with
  // every piece out passes), none once the game is over.
  legalMoves() {
    if (this.finished) return [];
    const codes = this.legalCodes();
    if (!codes.length) return [PASS];
    return codes.map((c) => this.codeToMove(c));
  }
}

export function applyMove(state, move) {
  const game = new Position(state);
  game.apply(move);
  return game.state();
}

// --- result (games/pentagame/result.py) ---------------------------------------------------

export function result(state) {
  const rules = rulesFor(state.players, state.variant);
  const out = state.out.map((o) => o.length);
  const outColours = state.out.map((o) => o.map((c) => COLOUR_NAMES[c]));
  const teamOut = rules.teams ? [out[0] + out[2], out[1] + out[3]] : null;
  let winners = [];
  if (state.finished) {
    // The best score among those who reached the target wins; ties are possible (§2).
    if (teamOut !== null) {
      const best = Math.max(...teamOut);
      winners = [0, 1, 2, 3].filter((s) => teamOut[s % 2] === best && best >= rules.winOut).map((s) => s + 1);
    } else {
      const best = Math.max(...out);
      winners = out.flatMap((n, s) => (n === best && n >= rules.winOut ? [s + 1] : []));
    }
  }
  return { finished: state.finished, out, out_colours: outColours, winners, team_out: teamOut };
}

// --- replay (games/pentagame/replay.py, games/engine_common/replay.py) --------------------

function checkRecord(record) {
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    throw new RecordError("a record is a JSON object with `players`, `variant` and `moves`");
  }
  const players = record.players;
  if (typeof players !== "number" || !Number.isInteger(players)) {
    throw new RecordError("`players` must be a whole number from 2 to 5");
  }
  const variant = Object.hasOwn(record, "variant") ? record.variant : "standard";
  if (typeof variant !== "string") throw new RecordError("`variant` must be a string");
  const moves = record.moves;
  if (!Array.isArray(moves) || !moves.every((m) => typeof m === "string")) {
    throw new RecordError("`moves` must be a list of strings");
  }
  return [players, variant, moves];
}

function startGame(players, variant) {
  try {
    return Position.start(players, variant);
  } catch (error) {
    // An impossible table is a wrong record, not a wrong move.
    if (error instanceof IllegalMove) throw new RecordError(error.reason);
    throw error;
  }
}

export function replay(record) {
  const [players, variant, moves] = checkRecord(record);
  const game = startGame(players, variant);
  let error = null;
  for (let i = 0; i < moves.length; i++) {
    const move = readMove(moves[i]);
    try {
      if (typeof move === "string") throw new IllegalMove(move);
      game.apply(move);
    } catch (e) {
      if (!(e instanceof PentagameError)) throw e;
      error = { ply: i + 1, move: pyStrip(moves[i]), reason: e.reason };
      break;
    }
  }
  const state = game.state();
  const res = result(state);
  return {
    ok: error === null,
    plies: game.ply,
    finished: state.finished,
    to_move: state.to_move,
    out: res.out,
    out_colours: res.out_colours,
    winners: res.winners,
    error,
    state,
    game,
  };
}

// --- the board page's payload (games/pictures/pentagame.py) -------------------------------

export function positionJSON(state) {
  const rules = rulesFor(state.players, state.variant);
  // Turns go round strictly (a lost turn is a ply too), so ply k was seat (k-1) % n's.
  const last = state.ply ? state.last[(state.ply - 1) % state.players] : null;
  return {
    ply: state.ply,
    last: last === null ? null : [last[1], last[2]],
    pieces: state.pieces.map((stop, p) => ({
      id: p,
      seat: rules.owner[p] + 1,
      colour: COLOURS[rules.colour[p]],
      stop: stop === OUT ? null : stop,
    })),
    black: [...state.black],
    grey: state.grey.map((g) => (g === OUT ? null : g)),
    to_move: state.to_move,
    finished: state.finished,
    out: state.out.map((seat) => seat.map((c) => COLOURS[c])),
  };
}

function moverOf(game, move) {
  const r = game.rules;
  return r.seatPieces[game.seat].find(
    (p) => game.pos[p] === move.frm && (move.piece === null || r.colour[p] === move.piece),
  );
}

// What a move still needs besides from and to: where a taken black block goes, where the
// grey block goes when the piece goes out, which grey block moves when the reserve is
// empty; null when the move is complete as it stands. As on the server, the stops offered
// are found by the rules themselves: the move is applied once with probe stops, and
// every stop empty afterwards (plus the probes) could have taken the block.
function freeAfter(game, move) {
  const r = game.rules;
  const thing = move.to >= 0 && game.cnt[move.to] === 1 ? game.cell[move.to] : -1;
  const takesBlack = move.kind === "x" && thing >= BLACK_BASE && thing < GREY_BASE;
  const takesGrey = move.kind === "x" && thing >= GREY_BASE;
  const goesOut = move.kind === "z" || r.goal[moverOf(game, move)] === move.to;
  if (!takesBlack && !goesOut) return null;
  const movesGrey = goesOut && !game.grey.includes(OUT) && !takesGrey;
  const empty = [];
  for (let s = 0; s < N_STOPS; s++) if (game.cnt[s] === 0 && s !== move.to) empty.push(s);
  const blackProbes = takesBlack ? [...empty, move.frm] : [null];
  const sources = movesGrey ? game.grey.filter((g) => g !== OUT) : [null];
  for (const black of blackProbes) {
    for (const grey of goesOut ? empty.filter((s) => s !== black) : [null]) {
      const after = game.copy();
      try {
        after.apply({ ...move, black, grey, greyFrom: sources[0] });
      } catch (error) {
        if (error instanceof PentagameError) continue;
        throw error;
      }
      const free = new Set();
      for (let s = 0; s < N_STOPS; s++) if (after.cnt[s] === 0) free.add(s);
      if (black !== null) free.add(black);
      if (grey !== null) free.add(grey);
      free.delete(sources[0]); // it held a grey block while the move was made
      return {
        black: takesBlack,
        out: goesOut,
        grey_from: movesGrey ? sources : null,
        free: [...free].sort((a, b) => a - b),
      };
    }
  }
  return null;
}

export function legalEntries(game) {
  return game.legalMoves().map((move) => {
    const entry = {
      text: formatMove(move),
      kind: move.kind,
      from: move.frm < 0 ? null : move.frm,
      to: move.to < 0 ? null : move.to,
    };
    if (move.kind !== "pass") {
      const needs = freeAfter(game, move);
      if (needs) Object.assign(entry, needs);
    }
    return entry;
  });
}

export function positionPayload(record) {
  const res = replay(record);
  return {
    ...positionJSON(res.state),
    ok: res.ok,
    plies: res.plies,
    moves: record.moves.slice(0, res.plies),
    winners: res.winners,
    error: res.error,
    legal: res.ok ? legalEntries(res.game) : [],
  };
}

export function replayFrames(record) {
  const [players, variant, moves] = checkRecord(record);
  const game = startGame(players, variant);
  const frames = [positionJSON(game.state())];
  for (const text of moves) {
    try {
      game.apply(parseMove(text));
    } catch (error) {
      if (error instanceof PentagameError) break;
      throw error;
    }
    frames.push(positionJSON(game.state()));
  }
  return frames;
}
