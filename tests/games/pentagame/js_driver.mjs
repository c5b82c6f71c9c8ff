// Driver for test_js_engine_agrees.py: reads one JSON request per line on stdin and
// answers each with one JSON line on stdout, so that one Node process serves a whole test
// module. Every answer is built from games/static/games/pentagame.js alone.
//
// Requests ({"cmd": ...}):
//   tables                    the board: stop names, adjacency, lines, chords, spellings
//   parse {texts}             parseMove of each: the move and its canonical text, or why not
//   stops {texts}             parseStop of each
//   records {records}         positionPayload, replay and replayFrames of each record
//   states {cases}            positions given whole: {state, moves} -> each move's outcome
//                             on the position (the state after it, or why not) and the
//                             legal entries
//   game {players, variant, moves, full, probes, detail}
//                             one game ply by ply: at each ply its frame (position, legal
//                             entries, result; the legal entries complete with `free` on
//                             the plies listed in `full`), as a SHA-1 of its canonical JSON
//                             unless `detail`; each probe (a move text at a ply) applied to
//                             that ply's position; then the payload of the whole record.

import { createHash } from "node:crypto";
import { createInterface } from "node:readline";

import {
  ADJ,
  CHORDS,
  LINES,
  Position,
  SPELLINGS,
  STOP_NAMES,
  formatMove,
  legalEntries,
  parseMove,
  parseStop,
  positionJSON,
  positionPayload,
  replay,
  replayFrames,
  result,
} from "../../../games/static/games/pentagame.js";

// JSON with sorted keys and every character outside printable ASCII escaped: what
// Python's json.dumps(sort_keys=True, separators=(",", ":")) writes.
function canonical(value) {
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${canonical(k)}:${canonical(value[k])}`).join(",")}}`;
}

const digest = (value) => createHash("sha1").update(canonical(value)).digest("hex");

function failure(error) {
  if (error && typeof error.reason === "string") return { error: error.reason, type: error.name };
  throw error;
}

function moveJSON(move) {
  return {
    kind: move.kind,
    frm: move.frm,
    to: move.to,
    piece: move.piece,
    target: move.target,
    seat: move.seat,
    black: move.black,
    grey: move.grey,
    grey_from: move.greyFrom,
  };
}

function attempt(fn) {
  try {
    return fn();
  } catch (error) {
    return failure(error);
  }
}

// The outcome of one move on a copy of a position.
function tryMove(game, text) {
  return attempt(() => {
    const after = game.copy();
    after.apply(text);
    return { state: after.state() };
  });
}

function lightEntries(game) {
  return game.legalMoves().map((m) => ({
    text: formatMove(m),
    kind: m.kind,
    from: m.frm < 0 ? null : m.frm,
    to: m.to < 0 ? null : m.to,
  }));
}

function frame(game, full) {
  const state = game.state();
  return {
    position: positionJSON(state),
    legal: full ? legalEntries(game) : lightEntries(game),
    result: result(state),
  };
}

function replayDict(res) {
  const { ok, plies, finished, to_move, out, error, out_colours, winners } = res;
  return { ok, plies, finished, to_move, out, error, out_colours, winners };
}

const handlers = {
  tables: () => ({
    stop_names: STOP_NAMES,
    adj: ADJ,
    lines: LINES,
    chords: CHORDS,
    spellings: Object.fromEntries(SPELLINGS),
  }),
  parse: ({ texts }) =>
    texts.map((t) =>
      attempt(() => {
        const move = parseMove(t);
        return { move: moveJSON(move), text: formatMove(move) };
      }),
    ),
  stops: ({ texts }) => texts.map((t) => attempt(() => ({ stop: parseStop(t) }))),
  records: ({ records }) =>
    records.map((record) => ({
      payload: attempt(() => ({ payload: positionPayload(record) })),
      replay: attempt(() => ({ replay: replayDict(replay(record)) })),
      frames: attempt(() => ({ frames: replayFrames(record) })),
    })),
  states: ({ cases }) =>
    cases.map(({ state, moves }) =>
      attempt(() => {
        const game = Position.fromState(state);
        return { applies: moves.map((m) => tryMove(game, m)), legal: legalEntries(game) };
      }),
    ),
  game: ({ players, variant, moves, full, probes, detail }) => {
    const game = Position.start(players, variant);
    const fullPlies = new Set(full);
    const frames = [];
    const probed = {};
    for (let ply = 0; ply <= moves.length; ply++) {
      const f = frame(game, fullPlies.has(ply));
      frames.push(detail ? f : digest(f));
      const texts = probes[String(ply)];
      if (texts) probed[ply] = texts.map((t) => tryMove(game, t));
      if (ply < moves.length) game.apply(moves[ply]);
    }
    const record = { players, variant, moves };
    return {
      frames,
      probes: probed,
      payload: positionPayload(record),
      replay: replayDict(replay(record)),
      replay_frames: digest(replayFrames(record)),
    };
  },
};

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let answer;
  try {
    const request = JSON.parse(line);
    answer = { ok: handlers[request.cmd](request) };
  } catch (error) {
    // An engine bug, not a refusal: report it with its stack rather than die silently.
    answer = { crash: String(error?.stack ?? error) };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
