// The pages that work without signal (issue 25): a player's link, the recording board,
// the results screen and the round page load this module. It registers the service
// worker (agon/sw.js, served at /sw.js), hands it what this page loaded the first time,
// and keeps the page's status line (tournaments/_offline_status.html): offline or not,
// how many entries of this page wait to be sent, and what the server said of each one
// sent. Its texts are the template's data attributes, in the page's language.
//
// A form marked data-offline-form (a player's report and confirmation) is sent through
// the queue (agon/offline_queue.js) with its idempotency key, with signal or without.
import { enqueue, flush, list, markSeen, onChange } from "./offline_queue.js";

const box = document.getElementById("offline-status");
export const scopes = (box?.dataset.scopes ?? "").split(" ").filter(Boolean);
const text = box?.dataset ?? {};
const plural = new Intl.PluralRules(document.documentElement.lang || "en");

export function fill(template, values) {
  return (template ?? "").replace(/%\((\w+)\)s/g, (_, name) => String(values[name] ?? ""));
}
function counted(prefix, count) {
  const form = plural.select(count) === "one" ? "One" : "Other";
  return fill(text[`${prefix}${form}`], { n: count });
}

// --- the service worker -----------------------------------------------------------------

async function register() {
  if (!("serviceWorker" in navigator)) return;
  const controlled = Boolean(navigator.serviceWorker.controller);
  try {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  } catch (error) {
    console.warn("service worker", error);
    return;
  }
  const ready = await navigator.serviceWorker.ready;
  // A page the worker did not answer (the first visit) is kept now, with what it loaded;
  // pages to have at hand (the round's score sheets) every time.
  const also = [...document.querySelectorAll("[data-offline-also]")].map((a) => a.href);
  const urls = controlled ? also : [window.location.href, ...loaded(), ...also];
  if (urls.length && navigator.onLine) ready.active?.postMessage({ type: "keep", urls });
}
function loaded() {
  return performance
    .getEntriesByType("resource")
    .map((entry) => entry.name)
    .filter((name) => new URL(name).origin === window.location.origin);
}

// --- the status line ----------------------------------------------------------------------

const mine = (item) => scopes.includes(item.scope);
const changeListeners = new Set();
export function onQueueChange(callback) {
  changeListeners.add(callback);
}
const shown = new Set(); // answered items this page has listed
const loadedAt = new Date().toISOString();
const shownOld = new Set(); // of those, answered before this page was loaded

export async function waiting() {
  return (await list()).filter((item) => mine(item) && item.state === "waiting");
}

// The box's words are the page's language: the heading of an item's outcome from the
// template, and under it the game as this page names it with the server's reason where
// that is the news. A saved entry is told in the server's own words (in the language the
// page was sent in), as the page's message after a form's redirect would tell it ("…:
// result reported; an opponent must confirm it."); a repeated one by its game alone.
const ORDER = ["refused", "dispute", "conflict", "duplicate", "saved"];
function outcomeText(item) {
  const row = document.getElementById(`${item.group}-title`) ?? document.querySelector(`#${CSS.escape(item.group)} > strong`);
  const label = row?.textContent.trim() || item.label;
  if (item.state === "saved" && item.detail) return item.detail;
  if (item.state === "duplicate" || !item.detail) return label;
  return fill(text.outcomeDetail, { label, detail: item.detail });
}
function group(outcomes, state) {
  let section = outcomes.querySelector(`[data-group="${state}"]`);
  if (section) return section.querySelector("ul");
  section = document.createElement("div");
  section.dataset.group = state;
  const heading = document.createElement("p");
  heading.dataset.heading = "";
  heading.textContent = text[`heading${state[0].toUpperCase()}${state.slice(1)}`] ?? "";
  section.append(heading, document.createElement("ul"));
  const after = [...outcomes.querySelectorAll("[data-group]")].find((s) => ORDER.indexOf(s.dataset.group) > ORDER.indexOf(state));
  outcomes.insertBefore(section, after ?? null);
  return section.querySelector("ul");
}
// Dismissed answers stay gone: seen, so no later page lists them either.
const dismissed = new Set();
box?.querySelector("[data-dismiss]")?.addEventListener("click", () => {
  const ids = [...shown];
  ids.forEach((id) => dismissed.add(id));
  box.querySelectorAll("[data-group]").forEach((section) => section.remove());
  markSeen(ids).catch(() => {});
  render();
});

// With signal an entry is stored within a blink: the line tells of waiting ones only
// once one has waited this long. Telling of each ply at once made the line come and go
// above the board at every tap, moving the board under the next tap.
const QUIET_MS = 2000;
let quietTimer = null;

// One drawing at a time, and one more after it for whatever changed meanwhile: a batch's
// hundred answers come at once, and each drawing reads the whole queue.
let drawing = null;
let drawAgain = null;
export function render() {
  if (!drawing) {
    drawing = draw().finally(() => {
      drawing = null;
    });
    return drawing;
  }
  drawAgain ??= drawing.then(() => {
    drawAgain = null;
    return render();
  });
  return drawAgain;
}

async function draw() {
  if (!box) return;
  const items = (await list()).filter(mine);
  const queued = items.filter((item) => item.state === "waiting");
  const count = queued.length;
  const offline = !navigator.onLine;
  const line = box.querySelector("[data-line]");
  const now = Date.now();
  const overdue = queued.filter((item) => now - Date.parse(item.queuedAt) >= QUIET_MS).length;
  clearTimeout(quietTimer);
  if (!offline && count > overdue) {
    const youngest = Math.max(...queued.map((item) => Date.parse(item.queuedAt)));
    quietTimer = setTimeout(render, Math.max(0, youngest + QUIET_MS - now) + 50);
  }
  if (offline) line.textContent = count ? counted("offlineWaiting", count) : text.offline;
  else line.textContent = overdue ? counted("waiting", count) : "";
  box.classList.toggle("is-offline", offline);
  const outcomes = box.querySelector("[data-outcomes]");
  for (const item of items) {
    if (item.state === "waiting" || dismissed.has(item.id) || (item.seen && !shown.has(item.id))) continue;
    // A ply stored as sent is the rule: only what went otherwise is listed.
    if (item.kind === "ply" && (item.state === "saved" || item.state === "duplicate")) continue;
    shown.add(item.id);
    if ((item.doneAt ?? "") < loadedAt) shownOld.add(item.id);
    let li = outcomes.querySelector(`[data-item="${item.id}"]`);
    const list = group(outcomes, item.state);
    if (li?.parentElement !== list) {
      li?.remove();
      li = document.createElement("li");
      li.dataset.item = item.id;
      list.append(li);
    }
    li.dataset.outcome = item.state;
    li.textContent = outcomeText(item);
  }
  outcomes.querySelectorAll("[data-group]").forEach((section) => section.querySelector("li") || section.remove());
  const listed = outcomes.querySelectorAll("li").length;
  outcomes.hidden = !listed;
  box.hidden = !offline && !overdue && !listed;
  for (const callback of changeListeners) callback({ count, offline, items });
}


// --- forms sent through the queue -------------------------------------------------------

function formLabel(form) {
  return form.querySelector("[id$=-title], strong")?.textContent.trim() ?? "";
}

export function queueForm(form, { kind, group, label }) {
  const body = new URLSearchParams(new FormData(form)).toString();
  return enqueue({
    url: form.getAttribute("action") || window.location.pathname,
    body,
    type: "application/x-www-form-urlencoded",
    headers: { "X-CSRFToken": form.querySelector("[name=csrfmiddlewaretoken]")?.value ?? "" },
    group,
    scope: scopes[0],
    kind,
    label,
  });
}

document.addEventListener("submit", async (event) => {
  const form = event.target.closest?.("form[data-offline-form]");
  if (!form) return;
  event.preventDefault();
  const game = form.querySelector("[name=game]")?.value;
  const kind = form.dataset.offlineForm;
  const label = form.dataset.label || formLabel(form);
  form.querySelectorAll("button").forEach((b) => (b.disabled = true));
  form.dataset.waiting = "1";
  const note = document.createElement("span");
  note.className = "offline-waiting";
  note.textContent = text.waitingRow;
  form.append(" ", note);
  await queueForm(form, { kind, group: `game-${game}`, label });
  render();
});

// Back with signal and nothing of this page left to send: a page showing what was typed
// as waiting (kept by the worker) is reloaded to show what is stored now, unless
// something is being typed in it.
async function reloadWhenSent() {
  if (!document.querySelector("form[data-offline-form][data-waiting]")) return;
  if ((await waiting()).length || !navigator.onLine) return;
  const typing = [...document.querySelectorAll("form[data-offline-form]:not([data-waiting]) input:not([type=hidden])")].some(
    (f) => (f.type === "checkbox" ? f.checked !== f.defaultChecked : f.value !== f.defaultValue),
  );
  if (!typing) window.location.reload();
}

onChange(({ item }) => {
  if (!mine(item)) return;
  render();
  if (item.state !== "waiting") reloadWhenSent();
});
window.addEventListener("online", render);
window.addEventListener("offline", render);
// An answer is listed on the page that saw it come, and on the next one (a reload after
// syncing), then no more.
window.addEventListener("pagehide", () => markSeen([...shownOld]).catch(() => {}));

// Forms of this page still waiting in the queue (typed before a reload) say so again.
async function markWaitingForms() {
  const byGame = new Map((await waiting()).filter((i) => i.kind === "report" || i.kind === "confirmation").map((i) => [i.group, i]));
  for (const form of document.querySelectorAll("form[data-offline-form]")) {
    const game = form.querySelector("[name=game]")?.value;
    const item = byGame.get(`game-${game}`);
    if (!item || item.kind !== form.dataset.offlineForm) continue;
    form.dataset.waiting = "1";
    form.querySelectorAll("button").forEach((b) => (b.disabled = true));
    const note = document.createElement("span");
    note.className = "offline-waiting";
    note.textContent = text.waitingRow;
    form.append(" ", note);
  }
}

register();
markWaitingForms().then(render);
flush();
