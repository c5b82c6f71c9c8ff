// The queue of what was typed without signal (issue 25): reports, confirmations, plies
// and the organiser's results. Every item is kept in IndexedDB (idb, vendored) with the
// idempotency key it got when it was typed, and sent when the connection returns (the
// `online` event, a page load, a periodic retry with backoff), in the order typed per
// game. The server stores a key once, so a retry after a lost answer is never a second
// entry; an item leaves the queue only with an answer: saved, a duplicate, a dispute or
// conflict (the server's detail), or refused (a 4xx: the server's message).
//
// One module for the results screen, the player's report page and the recording board.
//   enqueue({url, body, type, group, scope, kind, label, key?, headers?, batch?}) -> item
//       (batch: the batch door that takes this item with others, docs/offline.md)
//   flush() -> sends what waits (one sender at a time, across tabs too)
//   list(scope?) -> every item kept (waiting and answered), oldest first
//   onChange(callback) -> callback({item, answer}) after each change (answer: the
//       server's {status, type, text, json} for a sent item)
//   markSeen(ids) -> answered items a page has shown
//   newKey() -> a fresh idempotency key
import { openDB } from "../vendor/idb-8.0.4.js";

const STORE = "items";
// Answered items are kept a while for the pages to show what happened to each.
const KEEP_ANSWERED_MS = 24 * 3600 * 1000;
const RETRY_EVERY_MS = 30000;
const WAITING = "waiting";
// The most items the batch door takes in one request (views/batch.py, MAX_ITEMS).
const BATCH_MAX = 100;

let dbPromise = null;
function db() {
  dbPromise ??= openDB("agon-offline", 1, {
    upgrade(database) {
      const store = database.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      store.createIndex("state", "state");
    },
  });
  return dbPromise;
}

export function newKey() {
  const uuid = crypto.randomUUID?.() ?? `${Date.now()}${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  return uuid.replaceAll("-", "");
}

const listeners = new Set();
export function onChange(callback) {
  listeners.add(callback);
  return () => listeners.delete(callback);
}
function changed(item, answer = null) {
  for (const callback of listeners) {
    try {
      callback({ item, answer });
    } catch (error) {
      console.error(error);
    }
  }
}
// Another tab's sends change what this page shows too.
const channel = "BroadcastChannel" in self ? new BroadcastChannel("agon-offline") : null;
channel?.addEventListener("message", ({ data }) => changed(data.item, data.answer));
function announce(item, answer = null) {
  changed(item, answer);
  channel?.postMessage({ item, answer });
}

// Who is signed in on this page (the page's <meta name="agon-user">; empty on a
// player's link, whose address is her key).
function signedIn() {
  return globalThis.document?.querySelector('meta[name="agon-user"]')?.content ?? "";
}

// The session's CSRF token as it is now: signing in or out on this device renews it,
// and the token a form held when its entry was typed would be refused.
function csrfToken() {
  const match = globalThis.document?.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : null;
}

export async function enqueue({ url, body, type, group, scope, kind, label = "", key = newKey(), headers = {}, batch = null }) {
  const item = {
    key,
    user: signedIn(),
    url,
    batch,
    body,
    type,
    headers,
    group,
    scope,
    kind,
    label,
    state: WAITING,
    queuedAt: new Date().toISOString(),
    tries: 0,
    detail: "",
  };
  item.id = await (await db()).add(STORE, item);
  announce(item);
  flush();
  return item;
}

export async function list(scope = null) {
  const all = await (await db()).getAll(STORE);
  return scope === null ? all : all.filter((item) => item.scope === scope);
}

export async function markSeen(ids) {
  const database = await db();
  for (const id of ids) {
    const item = await database.get(STORE, id);
    if (item && item.state !== WAITING && !item.seen) await database.put(STORE, { ...item, seen: true });
  }
}

async function forgetOld() {
  const database = await db();
  const now = Date.now();
  for (const item of await database.getAll(STORE)) {
    if (item.state !== WAITING && now - Date.parse(item.doneAt ?? item.queuedAt) > KEEP_ANSWERED_MS) {
      await database.delete(STORE, item.id);
    }
  }
}

// What an answer means for the item (the contract with the server, issue 25): a 2xx
// JSON {outcome, detail}; a 4xx with the site's one error shape; a 2xx page (the
// endpoints before they answered JSON, or a redirect not followed) counts as saved.
async function read(response) {
  const type = response.headers.get("Content-Type") ?? "";
  const answer = { status: response.status, type, text: "", json: null, replayed: response.headers.get("Idempotency-Replayed") === "true" };
  if (response.type === "opaqueredirect") return { ...answer, status: 303, outcome: "saved" };
  answer.text = await response.text();
  if (type.includes("json")) {
    try {
      answer.json = JSON.parse(answer.text);
    } catch {
      answer.json = null;
    }
  }
  const json = answer.json ?? {};
  if (response.ok) {
    const outcome = ["saved", "duplicate", "dispute", "conflict"].includes(json.outcome) ? json.outcome : "saved";
    return { ...answer, outcome: answer.replayed && outcome === "saved" ? "duplicate" : outcome, detail: json.detail ?? "" };
  }
  const message = json.error?.message ?? json.detail ?? "";
  return { ...answer, outcome: "refused", detail: message || `${response.status} ${response.statusText}`.trim() };
}

async function sendOne(item) {
  const token = csrfToken();
  const headers = {
    ...item.headers,
    ...(token ? { "X-CSRFToken": token } : {}),
    "Idempotency-Key": item.key,
    "X-Agon-Queued-At": item.queuedAt,
    Accept: item.headers.Accept ?? "application/json",
  };
  if (item.type) headers["Content-Type"] = item.type;
  let body = item.body;
  if (token && item.type === "application/x-www-form-urlencoded") {
    // A form's own token in its body would win over the header's, and it went stale
    // with any sign-in or sign-out on the device since it was typed.
    const fields = new URLSearchParams(body);
    fields.delete("csrfmiddlewaretoken");
    body = fields.toString();
  }
  // A form post is answered with a redirect (and a message for the next page): not
  // followed, so the message waits for the page the player opens next.
  const response = await fetch(item.url, { method: "POST", headers, body, redirect: "manual", credentials: "same-origin" });
  // A 5xx, or a 429 (too many writes at once: sent again later), is not a refusal.
  if (response.status >= 500 || response.status === 429) throw new Error(`${response.status}`);
  const answer = await read(response);
  // The same key still being stored by an earlier copy of this request (docs/offline.md):
  // not a refusal, the answer comes with a later try.
  if (answer.status === 409 && answer.json?.error?.field === "Idempotency-Key") throw new Error("409");
  // A race lost in the database on every try (config/unavailable.py: 409 with
  // Retry-After): nothing was written, the same item goes again later.
  if (answer.status === 409 && response.headers.has("Retry-After")) throw new Error("409");
  // The session's token changed since (signed in or out, the cookie gone): not the
  // entry's fault; it waits for a page with a fresh token (csrfToken above).
  if (answer.status === 403 && answer.json?.error?.code === "csrf") throw new Error("csrf");
  return answer;
}

let running = null;
let again = false; // asked to send while a pass ran: what it did not see goes next
let failures = 0;
let timer = null;

function later() {
  clearTimeout(timer);
  const delay = failures ? Math.min(RETRY_EVERY_MS, 1000 * 2 ** (failures - 1)) : RETRY_EVERY_MS;
  timer = setTimeout(flush, delay);
}

// A batch's answer for one item, read as `read` reads a single answer: the item's own
// status, outcome and detail; `retry` when the server did not decide it (throttled, its
// key still being stored, a race lost): it waits, in order. `json` is what a page
// reads of a single answer: the game's state after the batch, else the outcome.
function readItem(answer, state) {
  const json = state ?? (answer.error ? { error: answer.error } : { outcome: answer.outcome, detail: answer.detail ?? "" });
  const base = { status: answer.status, type: "application/json", text: "", json, replayed: Boolean(answer.replayed), retry: Boolean(answer.retry) };
  if (answer.status < 400) {
    const outcome = ["saved", "duplicate", "dispute", "conflict"].includes(answer.outcome) ? answer.outcome : "saved";
    return { ...base, outcome: base.replayed && outcome === "saved" ? "duplicate" : outcome, detail: answer.detail ?? "" };
  }
  return { ...base, outcome: "refused", detail: answer.error?.message || `${answer.status}` };
}

// Several waiting items in one request to their batch door: the answers in the order
// sent, or null when the door does not take the batch (an older server, a 4xx for the
// whole): then each goes alone. Throws as `sendOne` does for what waits (no signal, a
// 5xx, a 429, a stale CSRF token).
async function sendBatch(door, items) {
  const token = csrfToken() ?? items[0].headers["X-CSRFToken"] ?? null;
  const body = JSON.stringify({
    items: items.map((item) => ({ key: item.key, url: item.url, queued_at: item.queuedAt, body: JSON.parse(item.body) })),
  });
  const headers = { "Content-Type": "application/json", Accept: "application/json", ...(token ? { "X-CSRFToken": token } : {}) };
  const response = await fetch(door, { method: "POST", headers, body, redirect: "manual", credentials: "same-origin" });
  if (response.status >= 500 || response.status === 429) throw new Error(`${response.status}`);
  let json = null;
  try {
    json = await response.json();
  } catch {
    json = null;
  }
  if (response.status === 403 && json?.error?.code === "csrf") throw new Error("csrf");
  if (!response.ok || !Array.isArray(json?.items) || json.items.length !== items.length) return null;
  return items.map((item, k) => {
    const answer = json.items[k];
    return readItem(answer, answer.status < 400 ? json.games?.[String(gameOf(item))] : null);
  });
}

function gameOf(item) {
  return item.url.match(/\/games\/(\d+)\//)?.[1] ?? null;
}

function batchable(item) {
  if (!item.batch || !item.type?.includes("json")) return false;
  try {
    const body = JSON.parse(item.body);
    return body !== null && typeof body === "object" && ("ply" in body || "undo" in body);
  } catch {
    return false;
  }
}

async function pass() {
  const database = await db();
  const blocked = new Set(); // groups whose next item could not be sent: the rest wait, in order
  const others = new Set(); // groups whose next item is another organiser's: they wait for her
  const refusedDoors = new Set(); // batch doors that did not take a batch: their items go alone
  const waiting = (await database.getAllFromIndex(STORE, "state", WAITING)).sort((a, b) => a.id - b.id);
  let sentAny = false;

  // The item as it is now (`stored`: read already), or null when it is not to be sent
  // in this pass.
  async function fresh(queued, stored = undefined) {
    if (blocked.has(queued.group) || others.has(queued.group)) return null;
    const item = stored === undefined ? await database.get(STORE, queued.id) : stored;
    if (!item || item.state !== WAITING) return null; // another tab sent it
    // An organiser's entry is hers: typed in her session, it is sent in her session
    // only, never in the name of whoever signed in on this device since. It waits.
    if (item.user && item.user !== signedIn()) {
      others.add(item.group);
      return null;
    }
    return item;
  }
  // Not sent or not decided: it waits, and the rest of its group after it.
  async function kept(item) {
    item.tries += 1;
    await database.put(STORE, item);
    blocked.add(item.group);
  }
  async function done(item, answer) {
    sentAny = true;
    Object.assign(item, { state: answer.outcome, detail: answer.detail, status: answer.status, doneAt: new Date().toISOString() });
    await database.put(STORE, item);
    announce(item, { status: answer.status, type: answer.type, text: answer.text, json: answer.json });
  }
  async function alone(item) {
    let answer;
    try {
      answer = await sendOne(item);
    } catch {
      failures += 1;
      return kept(item);
    }
    return done(item, answer);
  }

  for (let i = 0; i < waiting.length; i++) {
    const item = await fresh(waiting[i]);
    if (!item) continue;
    if (!batchable(item) || refusedDoors.has(item.batch)) {
      await alone(item);
      continue;
    }
    // The waiting items after it that go through the same door, up to the door's limit
    // (items of a group that waits are left for the next pass, in order).
    const candidates = [];
    while (candidates.length + 1 < BATCH_MAX && i + 1 < waiting.length) {
      const next = waiting[i + 1];
      if (!batchable(next) || next.batch !== item.batch || next.user !== item.user) break;
      i += 1;
      candidates.push(next);
    }
    // Read as they are now in one transaction (one each made a thousand plies slow).
    const reading = database.transaction(STORE);
    const stored = await Promise.all(candidates.map((queued) => reading.store.get(queued.id)));
    const run = [item];
    for (const [k, queued] of candidates.entries()) {
      const current = await fresh(queued, stored[k] ?? null);
      if (current) run.push(current);
    }
    let answers;
    try {
      answers = run.length > 1 ? await sendBatch(item.batch, run) : null;
    } catch {
      failures += 1;
      for (const queued of run) await kept(queued);
      continue;
    }
    if (answers === null) {
      if (run.length > 1) refusedDoors.add(item.batch);
      for (const queued of run) {
        if (!blocked.has(queued.group)) await alone(queued);
      }
      continue;
    }
    // Every item's new state in one transaction, then each told.
    let retried = false;
    const told = [];
    for (const [k, queued] of run.entries()) {
      const answer = answers[k];
      if (answer.retry) {
        retried = true;
        queued.tries += 1;
        blocked.add(queued.group);
      } else {
        sentAny = true;
        Object.assign(queued, { state: answer.outcome, detail: answer.detail, status: answer.status, doneAt: new Date().toISOString() });
        told.push([queued, answer]);
      }
    }
    const writing = database.transaction(STORE, "readwrite");
    await Promise.all([...run.map((queued) => writing.store.put(queued)), writing.done]);
    for (const [queued, answer] of told) {
      announce(queued, { status: answer.status, type: answer.type, text: answer.text, json: answer.json });
    }
    if (retried) failures += 1;
  }
  if (sentAny && !blocked.size) failures = 0;
  return blocked.size === 0;
}

export function flush() {
  if (running) {
    again = true;
    return running;
  }
  const work = () => pass();
  running = (navigator.locks ? navigator.locks.request("agon-offline-queue", work) : work())
    .catch((error) => {
      console.error(error);
      failures += 1;
    })
    .finally(() => {
      running = null;
      if (again) {
        again = false;
        flush();
      } else later();
    });
  return running;
}

self.addEventListener("online", () => {
  failures = 0;
  flush();
});
forgetOld().catch(() => {});
flush();
