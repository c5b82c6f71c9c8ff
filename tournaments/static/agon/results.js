// The results screen: one row per game, keyboard first. htmx posts a game's field when it
// changes (as the organiser leaves it) and swaps in the row the server answers, a refused
// one with its message. This module moves between the fields (Tab or Enter to the next
// game, Shift back) and sends one save at a time, in the order the fields were left.
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
document.addEventListener("htmx:sendError", failed);
document.addEventListener("focusout", ({ target }) => {
  if (target.matches?.("input.pieces-out") && target.closest("[data-unsaved]")) htmx.trigger(target, "change");
});

// Start at the table the page was opened at (#table-3), else in the first game without a result.
const anchor = /^#[\w-]+$/.test(window.location.hash) ? document.querySelector(window.location.hash) : null;
const first = anchor?.closest("tr")?.querySelector("input.pieces-out") || fields().find((f) => !f.value.trim());
if (first && document.activeElement === document.body) first.focus();
document.body.classList.add("results-live");
