// The projector: shows the round's tables, then the standings, a screenful at a time,
// and polls the JSON endpoint (If-None-Match) so results appear without a reload.
// Games being played show a small live board that moves with every saved ply: the
// socket (live_socket.js) brings each game's state as it is saved.
// Keys: right/left arrow = next/previous screen, space = pause.
import { follow } from "./live_socket.js";
import { drawMini, tickClocks } from "../games/mini_board.js";

const config = JSON.parse(document.getElementById("projector-config").textContent);
const labels = config.labels;
const lang = document.documentElement.lang || "en";
const score = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
const twoDigits = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const clock = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

const sections = {
  tables: document.getElementById("pj-tables"),
  standings: document.getElementById("pj-standings"),
};
const where = document.getElementById("pj-where");
const status = document.getElementById("pj-status");
const announce = document.getElementById("pj-announce");

let etag = config.etag;
let data = config.data;
let slides = [];
let current = 0;
let paused = false;
let timer = null;
let signatures = new Map();
let pollTimer = null;

function fill(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function lines(values) {
  return values.map((v) => el("div", {}, v));
}

function gameText(game) {
  // A 3-player match's decider (a 2-player game of the two leaders) says so.
  const prefix = game.decider ? `${labels.decider}: ` : "";
  if (game.out) return prefix + game.out.join(":");
  return prefix + (game.plies === null || game.plies === undefined ? "—" : fill(labels.in_progress, { ply: game.plies }));
}

// One figure per game, kept between renders: only its pieces are drawn again.
const boards = new Map();

function liveGame(game, seats) {
  const live = game.live;
  const text = el("span", { class: "game live" }, gameText(game));
  if (!live) return [text];
  const mover = seats.find((s) => s.position === live.to_move);
  const parts = [text];
  if (mover) parts.push(el("span", { class: "to-move" }, fill(labels.to_move, { name: mover.name })));
  if (live.clock) {
    const attrs = { class: "clock", "data-clock-deadline": live.clock.deadline ?? "" };
    // Paused at the table: it says so, not a count that stands still.
    if (live.clock.paused) attrs["data-clock-paused"] = "1";
    parts.push(el("span", attrs));
  }
  if (config.board) {
    let figure = boards.get(game.id);
    if (!figure) {
      figure = el("figure", { class: "pg pg-mini", "data-game": String(game.id) });
      boards.set(game.id, figure);
    }
    drawMini(figure, config.board.geometry, live, config.board.shapes);
    parts.push(figure);
  }
  return [el("span", { class: "live-game" }, ...parts)];
}

function renderTables() {
  const title = sections.tables.querySelector("h2");
  title.textContent = data.round ? fill(labels.tables, { number: data.round.number }) : labels.tables_none;
  const body = sections.tables.querySelector("tbody");
  const rows = data.tables.map((table) => {
    const signature = JSON.stringify(table);
    const key = table.bye ? "bye" : table.number;
    const changed = signatures.has(key) && signatures.get(key) !== signature;
    signatures.set(key, signature);
    const games = table.games.flatMap((g) =>
      g.live
        ? liveGame(g, table.seats)
        : [el("span", { class: "game" + (g.out && !g.confirmed ? " unconfirmed" : "") }, gameText(g))],
    );
    return el(
      "tr",
      { class: `state-${table.state}` + (changed ? " changed" : "") },
      el("th", { scope: "row", class: "num" }, table.bye ? labels.bye : String(table.number)),
      el("td", {}, ...lines(table.seats.map((s) => s.name))),
      el("td", { class: "num" }, ...lines(table.seats.map((s) => (s.score === null ? "—" : score.format(s.score))))),
      el(
        "td",
        { class: "games" },
        ...games.flatMap((g) => [g, " "]),
        table.match ? el("div", { class: "match-result" }, table.match) : null,
      ),
      el("td", {}, labels[table.state]),
    );
  });
  body.replaceChildren(...rows);
}

function renderStandings() {
  const standings = data.standings;
  sections.standings.querySelector("h2").textContent = standings.rounds_closed
    ? fill(labels.standings, { number: standings.rounds_closed })
    : labels.standings_none;
  const body = sections.standings.querySelector("tbody");
  if (!standings.rows.length) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: "6" }, labels.no_results)));
    return;
  }
  body.replaceChildren(
    ...standings.rows.map((row) =>
      el(
        "tr",
        row.withdrawn ? { class: "withdrawn" } : {},
        el("td", { class: "num" }, String(row.rank)),
        el("th", { scope: "row" }, row.name + (row.withdrawn ? ` (${labels.withdrawn})` : "")),
        el("td", { class: "num" }, el("strong", {}, score.format(row.score))),
        el("td", { class: "num" }, String(row.rounds)),
        el("td", { class: "num" }, String(row.games)),
        el("td", { class: "num" }, twoDigits.format(row.per_game)),
      ),
    ),
  );
}

// Split a section's rows into screenfuls by measuring them.
function pages(section) {
  const rows = [...section.querySelector("tbody").rows];
  for (const s of Object.values(sections)) s.hidden = s !== section;
  rows.forEach((r) => (r.hidden = false));
  if (!rows.length) return [[]];
  const bottom = window.innerHeight - 16;
  const top = rows[0].getBoundingClientRect().top;
  const result = [];
  let page = [];
  let used = 0;
  for (const row of rows) {
    const height = row.getBoundingClientRect().height;
    if (page.length && top + used + height > bottom) {
      result.push(page);
      page = [];
      used = 0;
    }
    page.push(row);
    used += height;
  }
  result.push(page);
  return result;
}

function layout() {
  const keep = slides[current];
  slides = [];
  for (const [kind, section] of Object.entries(sections)) {
    if (kind === "tables" && !data.tables.length) continue;
    const split = pages(section);
    split.forEach((rows, i) => slides.push({ kind, section, rows, page: i + 1, pages: split.length }));
  }
  const again = keep && slides.findIndex((s) => s.kind === keep.kind && s.page === keep.page);
  current = again >= 0 ? again : 0;
  show();
}

function show() {
  const slide = slides[current];
  if (!slide) return;
  for (const section of Object.values(sections)) section.hidden = section !== slide.section;
  const visible = new Set(slide.rows);
  for (const row of slide.section.querySelector("tbody").rows) row.hidden = !visible.has(row);
  where.textContent = slide.pages > 1 ? fill(labels.page, { page: slide.page, pages: slide.pages }) : "";
}

function step(by) {
  if (!slides.length) return;
  current = (current + by + slides.length) % slides.length;
  show();
}

function restart() {
  clearInterval(timer);
  timer = setInterval(() => paused || step(1), config.dwell);
}

async function poll() {
  try {
    const response = await fetch(config.url, {
      headers: { "If-None-Match": etag, Accept: "application/json" },
      cache: "no-store",
      credentials: "same-origin",
    });
    if (response.status === 200) {
      etag = response.headers.get("ETag") || etag;
      data = keepNewer(await response.json());
      renderTables();
      renderStandings();
      layout();
      announce.textContent = labels.announce;
    } else if (response.status !== 304) {
      throw new Error(`HTTP ${response.status}`);
    }
    status.textContent = paused ? labels.paused : fill(labels.updated, { time: clock.format(new Date()) });
    status.classList.remove("offline");
  } catch {
    status.textContent = labels.offline;
    status.classList.add("offline");
  } finally {
    clearTimeout(pollTimer);
    pollTimer = pollTimer = setTimeout(poll, config.poll);
  }
}

document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowRight") step(1);
  else if (event.key === "ArrowLeft") step(-1);
  else if (event.key === " ") {
    paused = !paused;
    status.textContent = paused ? labels.paused : "";
  } else return;
  event.preventDefault();
  restart();
});

let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(layout, 200);
});

// The newest state the socket brought of each game being played. A poll's answer can
// be older than it (read just before a ply was saved, arriving just after its news):
// such a game keeps the socket's state, or the projector would step back a ply until
// the next poll.
const fromSocket = new Map();
function keepNewer(polled) {
  for (const table of polled.tables) {
    for (const game of table.games) {
      const state = fromSocket.get(game.id);
      if (state && state.version > game.version) {
        game.status = state.status;
        game.plies = state.plies;
        game.live = state;
      }
    }
  }
  return polled;
}

// A saved game state from the socket: put it in the data and draw again (at most every
// 200 ms, however many tables move at once). Results and standings come by the poll.
let drawing = null;
function gameChanged(state) {
  const known = fromSocket.get(state.game);
  if (known && known.version > state.version) return; // an older state, come late
  if (state.status === "in_progress") fromSocket.set(state.game, state);
  else fromSocket.delete(state.game);
  for (const table of data.tables) {
    for (const game of table.games) {
      if (game.id !== state.game) continue;
      if (state.status === "in_progress") {
        game.status = state.status;
        game.plies = state.plies;
        game.live = state;
      } else {
        // A result (or the game cleared): the poll brings it with the standings at once.
        clearTimeout(pollTimer);
        poll();
        return;
      }
    }
  }
  if (drawing === null) {
    drawing = setTimeout(() => {
      drawing = null;
      renderTables();
      layout(); // the rows are new: paginate them again (the slide stays where it was)
    }, 200);
  }
}
follow({ path: config.socket, onGame: gameChanged, onCatchUp: () => {}, pollMs: 60000 });
const clockWords = { left: labels.clock, paused: labels.clock_paused, up: labels.clock_up };
setInterval(() => tickClocks(sections.tables, clockWords), 1000);

document.body.classList.add("live");
renderTables();
renderStandings();
layout();
restart();
pollTimer = setTimeout(poll, config.poll);
