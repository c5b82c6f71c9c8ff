// The JavaScript half of bench/engine_js.py (not a test): reads {records, positions,
// payloads, repeat} as JSON on stdin, times the browser's engine
// (games/static/games/pentagame.js) on them and prints the timings as JSON. CPU time of
// this process (process.cpuUsage), the fastest of `repeat` runs and the median.

import { readFileSync } from "node:fs";

import { Position, legalEntries, positionJSON, replay } from "../games/static/games/pentagame.js";

const input = JSON.parse(readFileSync(0, "utf-8"));
const { records, positions: wanted, payloads: wantedPayloads, repeat } = input;

function cpu() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

// Positions spread evenly over the corpus (before each ply), as bench/engine.py picks them.
function spread(limit) {
  const total = records.reduce((n, r) => n + r.moves.length, 0);
  const step = Math.max(1, Math.floor(total / limit));
  const out = [];
  let k = 0;
  for (const rec of records) {
    const game = Position.start(rec.players, rec.variant);
    for (const text of rec.moves) {
      if (k % step === 0 && out.length < limit) out.push(game.copy());
      game.apply(text);
      k += 1;
    }
  }
  return out;
}

function time(run) {
  const times = [];
  let count = 0;
  for (let i = 0; i < repeat; i++) {
    const start = cpu();
    count = run();
    times.push(cpu() - start);
  }
  times.sort((a, b) => a - b);
  return { count, best: times[0], median: times[Math.floor(times.length / 2)] };
}

const positions = spread(wanted);
const payloadPositions = spread(wantedPayloads);
const result = {
  replay: time(() => {
    let plies = 0;
    for (const rec of records) {
      const res = replay(rec);
      if (!res.ok) throw new Error(`corpus game is illegal: ${JSON.stringify(res.error)}`);
      plies += res.plies;
    }
    return plies;
  }),
  codes: time(() => {
    let moves = 0;
    for (const game of positions) moves += game.legalCodes().length;
    return moves;
  }),
  moves: time(() => {
    let moves = 0;
    for (const game of positions) moves += game.legalMoves().length;
    return moves;
  }),
  payload: time(() => {
    let moves = 0;
    for (const game of payloadPositions) {
      positionJSON(game.state());
      moves += legalEntries(game).length;
    }
    return moves;
  }),
  positions: positions.length,
  payload_positions: payloadPositions.length,
  node: process.version,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
