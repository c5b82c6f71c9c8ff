// The results screen: one row per game, keyboard first. htmx posts a game's field when it
// changes (as the organiser leaves it) and swaps in the row the server answers, a refused
// one with its message. This module moves between the fields (Tab or Enter to the next
// game, Shift back) and sends one save at a time, in the order the fields were left.
// Without signal (issue 25) a row's save goes to the offline queue instead, with the key
// it got when typed; the row shows "waiting", the progress line counts it apart and the
// way on (closing the round, pairing the next) waits until the queue is empty.
import { newKey, enqueue, list, onChange } from "./offline_queue.js";
import { fill, scopes } from "./offline.js";

const fields = () => [...document.querySelectorAll("input.pieces-out")];

document.addEventListener("keydown", (event) => {
  const input = event.target;
  if (!input.matches?.("input.pieces-out") || !["Enter", "Tab"].includes(event.key)) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  event.preventDefault();
  const all = fields();
  const next = all[all.indexOf(input) + (event.shiftKey ? -1 : 1)];
  if (next) {
    next.focus();
    next.select();
  } else {
    input.blur();
    wayOn();
  }
});

// The way on after the last game (tournaments/_round_progress.html): closing the round
// once the last save's answer says every game is in, else the progress line, so that
// focus never falls to the page. The progress line holds it at once; the saves' answers
// (the progress comes swapped in beside the row) decide, or 10 seconds without one.
function wayOn() {
  const progress = () => document.querySelector("#round-progress [tabindex]");
  progress()?.focus();
  const started = Date.now();
  const look = setInterval(() => {
    const button = document.querySelector("#round-progress .way-on button");
    const saving = document.querySelector("tr.result-row[data-busy]");
    if (button || !saving || Date.now() - started > 10000) {
      clearInterval(look);
      (button ?? progress())?.focus();
    }
  }, 100);
}

// htmx asks before each request: it waits for the one before. A row being saved takes no
// second request; its answer keeps what was typed meanwhile, which is saved next.
let queue = Promise.resolve();
document.addEventListener("htmx:confirm", (event) => {
  const { elt, issueRequest } = event.detail;
  const row = elt.closest?.("tr.result-row");
  if (!row) return;
  event.preventDefault();
  if (row.dataset.busy) return;
  if (!navigator.onLine || row.dataset.waiting) {
    // No signal (or this game's earlier save still waits): after it, in the queue.
    queueRow(row);
    return;
  }
  row.dataset.busy = "1";
  const send = () =>
    new Promise((done) => {
      elt.addEventListener("htmx:afterRequest", done, { once: true });
      if (elt.isConnected) issueRequest(true);
      if (!elt.classList.contains("htmx-request")) done(); // not sent after all
    });
  queue = queue.then(send, send).finally(() => delete row.dataset.busy);
});
let again = null;
document.addEventListener("htmx:beforeSwap", ({ detail }) => {
  const input = detail.shouldSwap && detail.target.querySelector?.("input.pieces-out");
  const sent = detail.requestConfig?.formData?.get("out");
  again = input && typeof sent === "string" && input.value !== sent ? [input.id, input.value] : null;
});
document.addEventListener("htmx:afterSettle", () => {
  const input = again && document.getElementById(again[0]);
  if (input) [input.value, input.closest("tr").dataset.unsaved] = [again[1], "1"];
  if (input && input !== document.activeElement) htmx.trigger(input, "change");
  again = null;
});

// No answer, or a server error: the row says it was not saved; leaving the field retries.
function failed({ detail }) {
  const row = detail.elt.closest?.("tr.result-row");
  const text = document.querySelector(".results-screen").dataset.failed;
  if (row) row.dataset.unsaved = "1";
  if (row) row.querySelector("[data-error]").textContent = text.replace("%(status)s", detail.xhr.status);
}
document.addEventListener("htmx:responseError", failed);

// --- without signal -------------------------------------------------------------------

const screen = document.querySelector(".results-screen");
const scope = scopes[0];

// Each save carries a key made when it was typed: sent again (from the queue, after an
// answer that never came) it is stored once.
document.addEventListener("htmx:configRequest", ({ detail }) => {
  const row = detail.elt.closest?.("tr.result-row");
  if (!row || detail.verb !== "post") return;
  row.dataset.key = newKey();
  detail.headers["Idempotency-Key"] = row.dataset.key;
});
// The request went out and no answer came: into the queue, with the same key.
document.addEventListener("htmx:sendError", (event) => {
  const row = event.detail.elt.closest?.("tr.result-row");
  if (row?.dataset.key) queueRow(row, row.dataset.key);
  else failed(event);
});

// "Table 3, game 2", as the server's messages name a game.
function rowLabel(row) {
  const game = row.cells[2]?.firstChild?.textContent.trim() ?? "";
  return fill(screen.dataset.rowLabel, { table: row.querySelector("th")?.textContent.trim(), game });
}

async function queueRow(row, key = newKey()) {
  const form = document.getElementById(`result-${row.dataset.game}`);
  if (!form) return;
  const data = new FormData(form);
  // A field emptied is nothing to send (the server would refuse it): the row stays.
  const typed = [...data].some(([name, value]) => name !== "version" && name !== "csrfmiddlewaretoken" && String(value).trim());
  if (!typed) return;
  const body = new URLSearchParams(data).toString();
  markWaiting(row);
  await enqueue({
    url: form.getAttribute("action"),
    body,
    type: "application/x-www-form-urlencoded",
    // HX-Request: answered with the row (swapped in then); answered JSON, the row is fetched.
    headers: { "X-CSRFToken": form.querySelector("[name=csrfmiddlewaretoken]")?.value ?? "", "HX-Request": "true" },
    group: `game-${row.dataset.game}`,
    scope,
    kind: "result",
    label: rowLabel(row),
    key,
  });
}

function markWaiting(row) {
  row.dataset.waiting = "1";
  row.classList.add("is-waiting");
  delete row.dataset.unsaved;
  // Under the field, where a phone shows it (the state column is off to the side there).
  const error = row.querySelector("[data-error]");
  if (error && !row.querySelector(".offline-waiting")) {
    const mark = document.createElement("strong");
    mark.className = "offline-waiting";
    mark.textContent = screen.dataset.waiting;
    mark.title = screen.dataset.waitingTitle;
    error.before(mark);
  }
  if (error) error.textContent = "";
}

// What waits in the queue for this round, by game.
async function waitingGames() {
  const items = (await list(scope)).filter((item) => item.state === "waiting" && item.kind === "result");
  return new Map(items.map((item) => [item.group, item]));
}

// The progress line counts the waiting games apart; the way on waits for them.
async function showWaiting() {
  const waiting = await waitingGames();
  for (const row of document.querySelectorAll("tr.result-row")) {
    const item = waiting.get(`game-${row.dataset.game}`);
    if (!item) continue;
    if (!row.dataset.waiting) markWaiting(row);
    // Reloaded without signal: the row shows what was typed, not the page's old value
    // (unless it is being typed over).
    const typed = new URLSearchParams(item.body).get("out");
    const input = row.querySelector("input.pieces-out");
    if (input && typed !== null && input.value === input.defaultValue) input.value = typed;
  }
  const progress = document.querySelector("#round-progress");
  const status = progress?.querySelector("[role=status]");
  if (!status) return;
  status.querySelector(".waiting-count")?.remove();
  progress.querySelector(".waits-reason")?.remove();
  const count = waiting.size;
  const ways = progress.querySelectorAll(".way-on button");
  ways.forEach((button) => (button.disabled = count > 0));
  if (!count) return;
  const form = new Intl.PluralRules(document.documentElement.lang || "en").select(count) === "one" ? "One" : "Other";
  const span = Object.assign(document.createElement("span"), { className: "waiting-count" });
  span.textContent = `, ${fill(screen.dataset[`waitingCount${form}`], { n: count })}`;
  status.append(span);
  if (ways.length) {
    const reason = Object.assign(document.createElement("span"), { className: "waits-reason", id: "waits-reason" });
    reason.textContent = screen.dataset.waitsReason;
    ways.forEach((button) => button.setAttribute("aria-describedby", "waits-reason"));
    progress.append(reason);
  }
}
document.addEventListener("htmx:afterSettle", showWaiting);
document.addEventListener("htmx:oobAfterSwap", showWaiting);

// An answer to a queued save: the row as the server answers it (its message if refused),
// or, answered JSON, the server's word in the row and the row fetched as it now is.
onChange(async ({ item, answer }) => {
  if (item.scope !== scope || item.kind !== "result") return;
  if (item.state === "waiting") return showWaiting();
  const row = document.getElementById(`game-${item.group.slice(5)}`);
  if (row && answer && !answer.json && answer.type.includes("html") && answer.text.trim()) {
    delete row.dataset.waiting;
    htmx.swap(row, answer.text, { swapStyle: "outerHTML" });
  } else if (row) {
    delete row.dataset.waiting;
    row.classList.remove("is-waiting");
    row.querySelector(".offline-waiting")?.remove();
    const url = document.getElementById(`result-${row.dataset.game}`)?.getAttribute("action");
    try {
      const response = await fetch(url, { headers: { "HX-Request": "true" } });
      if (response.ok) htmx.swap(row, await response.text(), { swapStyle: "outerHTML" });
    } catch {
      // Gone again: the row stays as it is, the server's word is shown in it below.
    }
    const fresh = document.getElementById(`game-${item.group.slice(5)}`);
    if (fresh && item.state !== "saved" && item.state !== "duplicate") {
      const error = fresh.querySelector("[data-error]");
      error.textContent = item.detail;
      error.setAttribute("role", "alert");
      fresh.dataset.outcome = item.state;
    }
  }
  showWaiting();
});
window.addEventListener("offline", showWaiting);
showWaiting();
document.addEventListener("focusout", ({ target }) => {
  if (target.matches?.("input.pieces-out") && target.closest("[data-unsaved]")) htmx.trigger(target, "change");
});

// Start at the table the page was opened at (#table-3), else in the first game without a result.
const anchor = /^#[\w-]+$/.test(window.location.hash) ? document.querySelector(window.location.hash) : null;
const first = anchor?.closest("tr")?.querySelector("input.pieces-out") || fields().find((f) => !f.value.trim());
if (first && document.activeElement === document.body) first.focus();
document.body.classList.add("results-live");
