// The Pentagame board page. The server sends the geometry, the record and, after every
// ply, the position with the legal moves (see tournaments/results/views/board.py); this module only draws
// them and turns taps and keys into one of those legal moves. No rule lives here. The
// replay gets the record alone and finds each position with the browser's port of the
// engine (pentagame.js): a position per ply sent by the server made a long game's page
// hundreds of kilobytes.
// A game not over yet is recorded live: each ply is saved as it is made (with a key, so a
// retry is stored once), and the page follows what other devices record (live_socket.js).
// Recording needs no signal (issue 25): the position and the legal moves after a tap come
// from the browser's engine, and every ply goes through the offline queue
// (agon/offline_queue.js), sent at once with signal and when it returns without.
import { enqueue, list, onChange } from "./offline_queue.js";
import { drawThings, el, focusRing, shape } from "../games/draw.js";
import { follow } from "./live_socket.js";
import { positionPayload, replayFrames } from "../games/pentagame.js";

const data = JSON.parse(document.getElementById("pg-data").textContent);
// Every text the script writes, in the page's language (views_board.board_text).
const words = JSON.parse(document.getElementById("pg-text").textContent);
const COLOUR_NAMES = words.colours;

function fill(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
}
const svg = document.getElementById("pg-svg");
const things = svg.querySelector(".pg-things");
const marks = svg.querySelector(".pg-marks");
const statusLine = document.getElementById("pg-status");
const errorBox = document.getElementById("pg-error");
const movesList = document.getElementById("pg-moves");
const stops = data.board.stops;
const stopEls = [...svg.querySelectorAll(".pg-stop")];
const players = data.players;
movesList.style.setProperty("--players", players.length);
const csrf = document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";

// --- drawing -----------------------------------------------------------------------

function seatOf(seat) {
  return players[seat - 1];
}

function describePiece(piece) {
  const p = seatOf(piece.seat);
  return fill(words.piece, { name: p.name, colour: COLOUR_NAMES[piece.colour] });
}

function drawPosition(pos) {
  const on = drawThings(things, stops, pos, (seat) => seatOf(seat).shape);
  // Screen readers hear what stands on a stop in its label.
  stopEls.forEach((node, id) => {
    const list = on.get(id) ?? [];
    const what = list.map((t) => (t.type === "piece" ? describePiece(t.piece) : words[`${t.type}_block`]));
    const s = stops[id];
    const base = s.kind === "stop" ? s.name : fill(words.stop_on, { stop: s.name, colour: COLOUR_NAMES[s.colour], kind: words.kinds[s.kind] ?? s.kind });
    node.setAttribute("aria-label", fill(words.stop_holds, { stop: base, what: what.length ? what.join(", ") : words.empty }));
  });
  document.querySelectorAll(".pg-player").forEach((li) => {
    const seat = Number(li.dataset.seat);
    li.classList.toggle("pg-to-move", pos.to_move === seat);
    li.toggleAttribute("aria-current", pos.to_move === seat);
    const out = li.querySelector(".pg-out");
    const colours = pos.out[seat - 1] ?? [];
    out.replaceChildren(...colours.map((c) => {
      const dot = document.createElement("span");
      dot.className = `pg-dot pg-c-${c}`;
      dot.title = COLOUR_NAMES[c];
      return dot;
    }));
    out.setAttribute(
      "aria-label",
      colours.length
        ? fill(words.out_colours, { count: colours.length, colours: colours.map((c) => COLOUR_NAMES[c]).join(", ") })
        : fill(words.out, { count: 0 }),
    );
  });
}

function mark(stopIds, cls) {
  for (const id of stopIds) {
    const s = stops[id];
    el("circle", { cx: s.x, cy: s.y, r: s.r + 0.28, class: `pg-mark ${cls}` }, marks);
  }
}

function drawLast(pos) {
  if (pos.last) mark(pos.last, "pg-last");
}

function drawMoves(moves, currentPly, linkFor) {
  movesList.replaceChildren();
  moves.forEach((text, i) => {
    const li = document.createElement("li");
    const seat = seatOf((i % players.length) + 1);
    const label = `${seat.name}: ${text}`;
    if (linkFor) {
      const a = document.createElement("a");
      a.href = linkFor(i + 1);
      a.textContent = text;
      a.dataset.ply = i + 1;
      a.setAttribute("aria-label", label);
      li.appendChild(a);
    } else {
      li.textContent = text;
      li.setAttribute("aria-label", label);
    }
    li.dataset.seat = (i % players.length) + 1;
    if (i + 1 === currentPly) li.setAttribute("aria-current", "step");
    movesList.appendChild(li);
  });
  // Scroll the list only, never the page: the board must stay where the player looks.
  const current = movesList.querySelector("[aria-current]") ?? movesList.lastElementChild;
  if (current) {
    const top = current.offsetTop;
    if (top < movesList.scrollTop || top + current.offsetHeight > movesList.scrollTop + movesList.clientHeight) {
      movesList.scrollTop = top - movesList.clientHeight / 2;
    }
  }
}

function showError(message) {
  errorBox.textContent = message ?? "";
  errorBox.hidden = !message;
}

// Player icons beside the names use the same shapes as the pieces.
document.querySelectorAll(".pg-shape-icon").forEach((icon) => {
  shape(icon.dataset.shape, 1, { class: "pg-piece-shape" }, icon);
});

// --- keyboard: one stop of the board is in the tab order; arrows move between stops ---

let roving = 0;

function setRoving(id, focus = false) {
  stopEls[roving].setAttribute("tabindex", "-1");
  roving = id;
  stopEls[id].setAttribute("tabindex", "0");
  if (focus) stopEls[id].focus();
}

function nearestInDirection(from, dx, dy) {
  const a = stops[from];
  let best = null;
  let bestScore = Infinity;
  for (const b of stops) {
    if (b.id === from) continue;
    const vx = b.x - a.x;
    const vy = b.y - a.y;
    const along = vx * dx + vy * dy;
    if (along <= 0.1) continue;
    const across = Math.abs(vx * dy - vy * dx);
    if (across > along * 1.2) continue; // within about 50° of the arrow's direction
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = b.id;
    }
  }
  return best;
}

const ARROWS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

function installKeyboard(onActivate) {
  setRoving(0);
  svg.addEventListener("keydown", (event) => {
    const id = Number(event.target.dataset?.stop);
    if (Number.isNaN(id)) return;
    if (ARROWS[event.key]) {
      const next = nearestInDirection(id, ...ARROWS[event.key]);
      if (next !== null) setRoving(next, true);
      event.preventDefault();
      event.stopPropagation();
    } else if (event.key === "Enter" || event.key === " ") {
      onActivate(id);
      event.preventDefault();
    }
  });
  // On the figure, not the SVG: Chromium puts an SVG element with a focus listener in
  // the tab order.
  svg.parentElement.addEventListener("focusin", (event) => {
    const id = Number(event.target.dataset?.stop);
    if (!Number.isNaN(id)) setRoving(id);
  });
  focusRing(svg, stops);
}

// A tap near a stop counts for the nearest stop that can be chosen now: the line stops
// are small on a phone.
function installPointer(onActivate, activeStops) {
  svg.addEventListener("click", (event) => {
    const direct = event.target.dataset?.stop;
    const active = activeStops();
    if (direct !== undefined && active.has(Number(direct))) {
      onActivate(Number(direct));
      return;
    }
    const ctm = svg.getScreenCTM();
    if (!ctm) return;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
    let best = null;
    let bestD = 2.6;
    for (const id of active) {
      const d = Math.hypot(stops[id].x - p.x, stops[id].y - p.y) - stops[id].r;
      if (d < bestD) {
        bestD = d;
        best = id;
      }
    }
    if (best !== null) onActivate(best);
    else if (direct !== undefined) onActivate(Number(direct));
  });
}

// --- replay mode -----------------------------------------------------------------------

function startReplay() {
  // The position before the first ply and after each legal one; the moves up to the first
  // the engine refuses (the record is then shown up to the ply before it).
  let frames = replayFrames(data.record);
  let moves = data.record.moves.slice(0, frames.length - 1);
  let ply = Math.min(data.ply, moves.length);
  const link = document.getElementById("pg-link");
  const plyLabel = document.getElementById("pg-ply");
  const url = (n) => `${data.urls.replay}?ply=${n}`;

  function show(n, push = true) {
    ply = Math.max(0, Math.min(n, moves.length));
    const pos = frames[ply];
    marks.replaceChildren();
    drawPosition(pos);
    drawLast(pos);
    drawMoves(moves, ply, url);
    plyLabel.textContent = `${ply} / ${moves.length}`;
    link.href = url(ply);
    document.getElementById("pg-first").disabled = document.getElementById("pg-prev").disabled = ply === 0;
    document.getElementById("pg-next").disabled = document.getElementById("pg-last").disabled = ply === moves.length;
    const who = pos.to_move ? fill(words.to_move, { name: seatOf(pos.to_move).name }) : words.game_over;
    statusLine.textContent = ply === 0 ? fill(words.start, { who }) : fill(words.after, { ply, move: moves[ply - 1], who });
    if (push) history.replaceState(null, "", url(ply));
  }

  document.getElementById("pg-first").addEventListener("click", () => show(0));
  document.getElementById("pg-prev").addEventListener("click", () => show(ply - 1));
  document.getElementById("pg-next").addEventListener("click", () => show(ply + 1));
  document.getElementById("pg-last").addEventListener("click", () => show(moves.length));
  movesList.addEventListener("click", (event) => {
    const a = event.target.closest("a[data-ply]");
    if (!a) return;
    event.preventDefault();
    show(Number(a.dataset.ply));
  });
  document.addEventListener("keydown", (event) => {
    if (event.target.closest?.("svg, input, select, textarea")) return;
    const step = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: moves.length }[event.key];
    if (step !== undefined) {
      show(step);
      event.preventDefault();
    }
  });
  installKeyboard(() => {});
  if (data.live) {
    // A game being played: the page follows it, and stays at the newest ply if it was there.
    let version = data.version;
    const refresh = async () => {
      try {
        const response = await fetch(`${data.urls.state}?legal=0`, { headers: { Accept: "application/json" } });
        if (!response.ok) return;
        const state = await response.json();
        // Answers may come out of order: an older state never replaces a newer one.
        if (state.version <= version) return;
        const atEnd = ply === moves.length;
        version = state.version;
        frames = replayFrames({ ...data.record, moves: state.moves });
        moves = state.moves.slice(0, frames.length - 1);
        show(atEnd ? moves.length : ply, atEnd);
      } catch {
        // The next message or poll tries again.
      }
    };
    follow({
      path: data.urls.socket,
      onGame: (state) => {
        if (state.game === data.game && state.version > version) refresh();
      },
      onCatchUp: refresh,
    });
  }
  if (frames.length - 1 < data.record.moves.length) {
    // The stored record is longer than what could be replayed: say so.
    showError(fill(words.record_stops, { ply: frames.length, move: data.record.moves[frames.length - 1] }));
  }
  show(ply, false);
}

// --- record mode -----------------------------------------------------------------------

function startRecord() {
  let moves = [...data.record.moves];
  let pos = data.position;
  let version = data.version;
  let busy = false;
  // The choice being built: a piece, then its target, then where taken blocks go.
  let pick = null;
  const storageKey = `agon-board-${data.urls.replay}`;
  const choiceBox = document.getElementById("pg-choice");
  const choiceButtons = choiceBox.querySelector(".pg-choice-buttons");
  const undo = document.getElementById("pg-undo");
  const cancel = document.getElementById("pg-cancel");
  const pass = document.getElementById("pg-pass");
  const saved = document.getElementById("pg-saved");
  const name = (id) => stops[id].name;

  function fromStops() {
    return new Set(pos.legal.filter((m) => m.from !== null).map((m) => m.from));
  }

  // Stops a tap may choose at this step.
  function active() {
    if (busy || !pos.ok) return new Set();
    if (!pick) return fromStops();
    switch (pick.step) {
      case "target":
        return new Set(pick.moves.map((m) => m.to).filter((t) => t !== null));
      case "black":
        return new Set(pick.move.free);
      case "grey_from":
        return new Set(pick.move.grey_from);
      case "grey":
        return new Set(pick.move.free.filter((s) => s !== pick.black));
      default:
        return new Set();
    }
  }

  function prompt() {
    const seat = pos.to_move ? seatOf(pos.to_move) : null;
    if (!pos.ok) return fill(words.not_legal, { ply: pos.error.ply, reason: pos.error.reason });
    if (pos.finished) return fill(data.live || data.ended ? words.over_live : words.over, { count: moves.length });
    if (!pick) {
      if (pos.legal.length === 1 && pos.legal[0].kind === "pass") return fill(words.must_pass, { name: seat.name });
      return fill(words.choose_piece, { name: seat.name, shapes: seat.shapes });
    }
    switch (pick.step) {
      case "target":
        return fill(words.choose_target, { name: seat.name, stop: name(pick.from) });
      case "choose":
        return fill(words.choose_move, { name: seat.name });
      case "black":
        return fill(words.choose_black, { move: pick.move.text });
      case "grey_from":
        return fill(words.choose_grey_from, { move: pick.move.text });
      case "grey":
        return fill(words.choose_grey, { move: pick.move.text });
      default:
        return "";
    }
  }

  function render() {
    drawPosition(pos);
    marks.replaceChildren();
    drawLast(pos);
    const can = active();
    if (pick) mark([pick.from], "pg-selected");
    if (pick?.to !== undefined && pick.to !== null) mark([pick.to], "pg-selected");
    if (pick?.black !== undefined) mark([pick.black], "pg-selected");
    mark([...can], pick ? "pg-target" : "pg-can");
    stopEls.forEach((node, id) => node.setAttribute("aria-disabled", String(!can.has(id))));
    drawMoves(moves, moves.length, null);
    statusLine.textContent = prompt();
    // Live, only the seat that sent the last ply may take it back (a director any).
    const mine = !data.live || !data.by_player || lastBy === data.player_position;
    undo.disabled = busy || (moves.length === 0 && !pick) || (!pick && !mine);
    cancel.disabled = busy || !pick;
    const onlyPass = pos.ok && pos.legal.length === 1 && pos.legal[0].kind === "pass";
    pass.hidden = !onlyPass;
    pass.disabled = busy;
    choiceBox.hidden = pick?.step !== "choose";
    if (can.size && !can.has(roving)) setRoving([...can][0]);
  }


  // --- live: one ply at a time --------------------------------------------------------
  const clockBox = document.getElementById("pg-clock");
  const timerBox = document.getElementById("pg-timer-box");
  const timerButton = document.getElementById("pg-timer");
  const endBox = document.getElementById("pg-end");
  const confirmButton = document.getElementById("pg-confirm");
  let deadline = data.deadline ? Date.parse(data.deadline) : null;
  let paused = Boolean(data.paused);
  let left = data.left;
  let lastBy = data.last_by;
  let timeoutSent = 0;
  // Since when this page has been awake and visible with the server's state read: a
  // deadline that passed before (a phone asleep, a board opened late) is not this
  // device's to record (the table may have played on on the wooden board).
  let awakeSince = Date.now();

  function adoptTimer(state) {
    deadline = state.deadline ? Date.parse(state.deadline) : null;
    paused = Boolean(state.paused);
    left = state.left;
  }

  function adopt(state) {
    version = state.version;
    moves = state.moves;
    pos = state.position;
    lastBy = state.last_by;
    adoptTimer(state);
    if (state.status !== "pending" && state.status !== "in_progress") {
      saved.textContent = "";
      showEnd(state);
    } else {
      endBox.hidden = true;
      saved.textContent = moves.length ? fill(words.saved_ply, { ply: moves.length }) : "";
    }
  }

  // The end of a live game: the seat whose confirmation is awaited gets the button that
  // confirms the result; the others read whose it is; then that it is confirmed.
  function showEnd(state) {
    const done = { status: words.status[state.status] ?? state.status, out: state.out.join(":") };
    const reporter = players.find((p) => p.position === state.reported_by);
    const others = players.filter((p) => p.position !== state.reported_by).map((p) => p.name);
    const mine = data.by_player && data.player_position !== state.reported_by;
    let text;
    if (state.confirmed) text = fill(words.end_confirmed, done);
    else if (mine) text = fill(words.end_confirm, { ...done, name: reporter?.name ?? "" });
    else text = fill(words.end_awaiting, { ...done, names: others.join(words.or) });
    document.getElementById("pg-end-text").textContent = text;
    confirmButton.hidden = state.confirmed || !mine;
    endBox.hidden = false;
  }

  // The plies (and undos) of this game still in the queue, oldest first.
  const group = `game-${data.game}`;
  // Every save of this board (a ply, an undo, the whole record) goes through the
  // device's queue: kept until the server has answered (agon/offline_queue.js).
  function queueSave(body, kind, label) {
    return enqueue({
      url: data.save_url,
      body: JSON.stringify(body),
      type: "application/json",
      headers: { "X-CSRFToken": csrf },
      group,
      scope: group,
      kind,
      label,
      // Plies and undos that wait go many in one request (the batch door).
      ...(kind === "ply" ? { batch: data.urls.batch } : {}),
      ...(body.key ? { key: body.key } : {}),
    });
  }
  async function queued() {
    return (await list(group)).filter((item) => item.state === "waiting" && item.kind === "ply");
  }

  function localPosition(next) {
    return positionPayload({ ...data.record, moves: next });
  }

  // Plies drawn and not yet in the queue: storing one in IndexedDB takes a moment, and
  // an answer or a poll read in that moment would take the page back a ply (and the
  // piece a fast player had just picked with it).
  let enqueuing = 0;
  // What this device recorded and has not sent yet is ahead of the server's record.
  async function ahead() {
    return enqueuing > 0 || (await queued()).length > 0 || enqueuing > 0;
  }

  // One read of the game at a time, and one more after it when news came meanwhile:
  // with two reads in flight, the first one's answer changed the moves under the second,
  // which then took the newer state for a ply drawn here and dropped it (the page stayed
  // a ply behind until the next one).
  let reading = null;
  let readAgain = false;
  function refresh() {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        await readState();
      } while (readAgain);
    })().finally(() => {
      reading = null;
    });
    return reading;
  }

  async function readState() {
    if (busy || (await ahead())) return;
    const drawn = moves.length;
    try {
      const response = await fetch(data.urls.state, { headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const state = await response.json();
      if (moves.length !== drawn || (await ahead())) return; // a ply was drawn meanwhile
      if (state.version === version && state.moves.length === moves.length) return;
      pick = null;
      adopt(state);
      showError(pos.ok ? "" : fill(words.illegal_ply, pos.error));
      render();
    } catch {
      // Offline for a moment: the next message or poll tries again.
    }
  }

  // A ply is drawn at once and queued; the queue sends it (now, or when the signal
  // returns), in order, with its key, so a retry counts once (agon/offline_queue.js).
  async function send(body) {
    const next = body.undo ? moves.slice(0, -1) : [...moves, body.move];
    let after;
    try {
      after = localPosition(next);
    } catch (error) {
      showError(fill(words.unchecked, { error: error.reason ?? error.message }));
      return;
    }
    const label = body.undo
      ? fill(words.undo_label, { ply: moves.length, move: moves[moves.length - 1] })
      : `${next.length}. ${body.move}`;
    moves = next;
    pos = after;
    lastBy = body.undo ? null : data.by_player ? data.player_position : lastBy;
    pick = null;
    showError(pos.ok ? "" : fill(words.illegal_ply, pos.error));
    render();
    enqueuing += 1;
    try {
      await queueSave(body, "ply", label);
    } finally {
      enqueuing -= 1;
    }
  }

  // What the server said of each ply sent: once nothing of this game waits, the page
  // takes the server's record (the same as drawn, unless a ply was refused).
  onChange(async ({ item, answer }) => {
    if (item.group !== group || item.state === "waiting") return;
    if (item.kind === "record") return savedRecord(item, answer);
    if (item.kind === "confirm") {
      confirmButton.disabled = false;
      if (item.state === "refused") return showError(item.detail);
      if (answer?.json?.status) showEnd(answer.json);
      return;
    }
    if (item.kind !== "ply") return;
    if (item.state === "refused" || item.state === "dispute" || item.state === "conflict") showError(item.detail);
    takeAnswer(item, answer);
  });

  // The latest ply's answer is taken once nothing of this game waits: a batch's hundred
  // answers come at once, and each check reads the queue; the last answer holds the
  // state after all of them.
  let answered = null;
  let taking = null;
  function takeAnswer(item, answer) {
    answered = { item, answer };
    taking ??= (async () => {
      while (answered) {
        const { item: last, answer: its } = answered;
        answered = null;
        if (await ahead()) continue;
        const state = its?.json;
        if (last.state !== "refused" && state?.moves && state.moves.length === moves.length && state.position) {
          adopt(state);
          render();
        } else {
          refresh();
        }
      }
    })().finally(() => {
      taking = null;
      if (answered) takeAnswer(answered.item, answered.answer);
    });
  }

  // Plies queued before this page was loaded (a reload without signal) are drawn again.
  async function takeUpQueued() {
    const waiting = await queued();
    let next = moves;
    for (const item of waiting) {
      const body = JSON.parse(item.body);
      if (body.undo !== undefined && body.undo === next.length) next = next.slice(0, -1);
      else if (body.ply === next.length + 1) next = [...next, body.move];
    }
    if (next === moves) return;
    moves = next;
    pos = localPosition(moves);
    render();
  }

  function key() {
    return crypto.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  }

  // The egg timer (section 3; tournaments/results/egg_timer.py): the server says when the seat
  // to move loses her turn; when that time is over while this page is awake and shown,
  // the device sends the engine's pass (the server records one lost turn at a time).
  let lastTick = Date.now();
  function wake() {
    // Asleep or hidden: what the table did meanwhile is read before anything is sent.
    awakeSince = Infinity;
    refresh().finally(() => {
      awakeSince = Date.now();
    });
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") wake();
    else awakeSince = Infinity;
  });

  function tick() {
    const now = Date.now();
    // A tick long overdue: the phone slept (timers stop with it).
    if (now - lastTick > 2000 && document.visibilityState === "visible") wake();
    lastTick = now;
    const running = data.clock && data.live && pos.ok && !pos.finished && (deadline || paused);
    timerBox.hidden = !running;
    if (!running) {
      clockBox.hidden = true;
      return;
    }
    timerButton.textContent = paused ? words.resume : words.pause;
    clockBox.hidden = false;
    if (paused) {
      clockBox.textContent = fill(words.clock_paused, { seconds: left ?? 0 });
      clockBox.classList.remove("pg-clock-low");
      return;
    }
    const seconds = Math.ceil((deadline - now) / 1000);
    // Over before this page was awake: the table's, not this device's, to record.
    const missed = deadline <= awakeSince;
    clockBox.textContent = seconds <= 0 && missed ? words.clock_up : fill(words.clock, { seconds: Math.max(0, seconds) });
    clockBox.classList.toggle("pg-clock-low", seconds <= 10);
    if (seconds <= 0 && !missed && !busy && document.visibilityState === "visible" && now - timeoutSent > 2000) {
      timeoutSent = now;
      send({ ply: moves.length + 1, move: "pass", key: key(), timeout: true });
    }
  }

  // Pause and resume go straight to the server (a pause sent later would stop the
  // wrong moment); every device at the table follows through the socket.
  timerButton.addEventListener("click", async () => {
    timerButton.disabled = true;
    showError("");
    try {
      const response = await fetch(data.save_url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({ timer: paused ? "resume" : "pause" }),
      });
      const state = await response.json();
      if (!response.ok) showError(state.error?.message ?? "");
      else {
        version = Math.max(version, state.version);
        adoptTimer(state);
        tick();
      }
    } catch {
      showError(words.no_signal);
    } finally {
      timerButton.disabled = false;
    }
  });

  confirmButton.addEventListener("click", async () => {
    confirmButton.disabled = true;
    showError("");
    await queueSave({ confirm: true }, "confirm", document.getElementById("pg-title").textContent);
  });

  async function load(next) {
    if (data.live && next.length === moves.length + 1 && next.slice(0, -1).every((m, i) => m === moves[i])) {
      return send({ ply: next.length, move: next[next.length - 1], key: key() });
    }
    if (data.live && next.length === moves.length - 1) return send({ undo: moves.length });
    // The browser's engine gives the position: no request, with signal or without.
    try {
      pos = localPosition(next);
      moves = next;
      showError(pos.ok ? "" : fill(words.illegal_ply, pos.error));
      localStorage.setItem(storageKey, JSON.stringify({ version, moves }));
      saved.textContent = "";
    } catch (error) {
      showError(fill(words.unchecked, { error: error.reason ?? error.message }));
    } finally {
      pick = null;
      render();
    }
  }

  function finish(move, black, greyFrom, grey) {
    let text = move.text;
    if (black !== undefined) text += `:${name(black)}`;
    if (grey !== undefined) text += `z${greyFrom !== undefined ? name(greyFrom) + ">" : ""}${name(grey)}`;
    load([...moves, text]);
  }

  // Once the move itself is known, ask for what it still needs, in notation order.
  function complete(move) {
    pick = { ...pick, move, to: move.to };
    if (move.black && pick.black === undefined) pick.step = "black";
    else if (move.out && move.grey_from && pick.greyFrom === undefined) pick.step = "grey_from";
    else if (move.out && pick.grey === undefined) pick.step = "grey";
    else return finish(move, pick.black, pick.greyFrom, pick.grey);
    render();
  }

  function offerChoice(candidates) {
    pick.step = "choose";
    choiceButtons.replaceChildren(
      ...candidates.map((move) => {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = move.text;
        button.addEventListener("click", () => complete(move));
        return button;
      }),
    );
    render();
    choiceButtons.querySelector("button")?.focus();
  }

  function activate(id) {
    if (!active().has(id)) {
      // A tap on a stop with no piece to move says so (no piece is chosen yet).
      if (!pick && !busy && pos.ok && !pos.finished && pos.to_move) {
        statusLine.textContent = fill(words.no_piece, { name: seatOf(pos.to_move).name, stop: name(id) });
      }
      return;
    }
    showError("");
    if (!pick) {
      const mine = pos.legal.filter((m) => m.from === id);
      // A piece waiting on its goal has only one move: out, so go straight on.
      if (mine.length === 1 && mine[0].to === null) {
        pick = { from: id, moves: mine };
        return complete(mine[0]);
      }
      pick = { from: id, moves: mine, step: "target" };
      return render();
    }
    switch (pick.step) {
      case "target": {
        const candidates = pick.moves.filter((m) => m.to === id);
        pick.to = id;
        return candidates.length === 1 ? complete(candidates[0]) : offerChoice(candidates);
      }
      case "black":
        pick.black = id;
        return complete(pick.move);
      case "grey_from":
        pick.greyFrom = id;
        return complete(pick.move);
      case "grey":
        pick.grey = id;
        return complete(pick.move);
    }
  }

  function cancelPick() {
    pick = null;
    render();
  }

  installKeyboard(activate);
  installPointer(activate, active);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && pick) cancelPick();
  });
  cancel.addEventListener("click", cancelPick);
  undo.addEventListener("click", () => {
    if (pick) return cancelPick();
    if (moves.length) load(moves.slice(0, -1));
  });
  pass.addEventListener("click", () => load([...moves, "pass"]));

  document.getElementById("pg-save-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const position = document.getElementById("pg-position");
    const body = { moves, version };
    if (position) body.position = position.value ? Number(position.value) : null;
    saved.textContent = words.saving;
    showError("");
    // Through the queue like a ply: kept on this device until the server has answered.
    await queueSave(body, "record", document.getElementById("pg-title").textContent);
  });

  function savedRecord(item, answer) {
    const state = answer?.json;
    if (item.state === "refused") {
      saved.textContent = "";
      showError(item.detail);
      return;
    }
    localStorage.removeItem(storageKey);
    if (!state?.version) {
      saved.textContent = item.detail;
      return;
    }
    version = state.version;
    const done = { status: words.status[state.status] ?? state.status, out: state.out.join(":") };
    saved.textContent = fill(state.confirmed ? words.saved : words.saved_unconfirmed, done);
    const replay = document.createElement("a");
    replay.href = state.replay_url;
    replay.textContent = ` ${words.replay_it}`;
    saved.appendChild(replay);
  }

  // A record left unsaved on this device (a reload, a flat battery) can be taken up again.
  const restoreBox = document.getElementById("pg-restore-box");
  try {
    const kept = JSON.parse(localStorage.getItem(storageKey) ?? "null");
    if (kept && kept.version === version && kept.moves.length > moves.length) {
      restoreBox.hidden = false;
      document.getElementById("pg-restore").textContent = fill(words.restore, { count: kept.moves.length });
      document.getElementById("pg-restore").addEventListener("click", () => {
        restoreBox.hidden = true;
        load(kept.moves);
      });
    }
  } catch {
    localStorage.removeItem(storageKey);
  }

  if (data.ended) {
    // A live record has its result: nothing to save, the seats confirm it.
    document.getElementById("pg-save").hidden = true;
    showEnd(data);
  }
  if (data.live || data.ended) {
    // Every ply is saved as it is made: no save button (its status line stays).
    document.getElementById("pg-save").hidden = true;
    follow({
      path: data.urls.socket,
      onGame: (state) => {
        if (state.game === data.game && state.version > version) refresh();
      },
      onCatchUp: refresh,
    });
    if (data.clock) setInterval(tick, 250);
    if (moves.length) saved.textContent = fill(words.saved_ply, { ply: moves.length });
  }
  render();
  takeUpQueued();
}

if (data.mode === "record") startRecord();
else startReplay();
