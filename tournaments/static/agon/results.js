// The results screen: one row per game, keyboard first. Type a game's pieces out
// ("3 1" or "31", "u" for unfinished); Tab or Enter moves to the next game and saves the
// one left behind, in the background (no page load). A refused result or a conflict is
// shown on that game's row only; unchanged games are never sent.

const progress = () => document.getElementById("round-progress");

function fields() {
  return [...document.querySelectorAll("input.pieces-out")];
}

function rowOf(node) {
  return node.closest("tr.result-row");
}

function move(from, by) {
  const all = fields();
  const next = all[all.indexOf(from) + by];
  if (next) {
    next.focus();
    next.select();
  } else {
    from.blur();
  }
}

function showError(row, error, fresh) {
  row.dataset.invalid = "1";
  const box = row.querySelector("[data-error]");
  box.textContent = error.message;
  box.setAttribute("role", "alert");
  const field = row.querySelector(`[name="${error.field}"]`) || row.querySelector("input.pieces-out");
  field.setAttribute("aria-invalid", "true");
  if (fresh) {
    // Someone else changed this game: offer their result instead of overwriting it.
    const button = document.createElement("button");
    button.type = "button";
    button.className = "show-current";
    button.textContent = document.querySelector(".results-screen").dataset.showCurrent;
    button.addEventListener("click", () => {
      replaceRow(row, fresh, true);
    });
    box.append(" ", button);
  }
}

function clearError(row) {
  delete row.dataset.invalid;
  const box = row.querySelector("[data-error]");
  box.textContent = "";
  box.removeAttribute("role");
  for (const field of row.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
}

function parseRow(html) {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  return template.content.querySelector("tr");
}

// Put the saved row in place. If the organiser is back in this row (or has changed it
// again since), keep what they typed and take over only the version and what counts now.
function replaceRow(row, html, force = false) {
  const fresh = parseRow(html);
  if (!fresh) return;
  if (!force && (row.contains(document.activeElement) || row.dataset.again)) {
    row.dataset.liveVersion = fresh.dataset.liveVersion;
    row.className = fresh.className;
    for (const input of row.querySelectorAll('input[name="version"]')) input.value = fresh.dataset.liveVersion;
    row.querySelector("td.state").replaceWith(fresh.querySelector("td.state"));
    const saved = fresh.querySelector("input.pieces-out").dataset.saved;
    const input = row.querySelector("input.pieces-out");
    input.dataset.saved = saved;
    input.defaultValue = saved;
    return;
  }
  row.replaceWith(fresh);
}

// The round's progress, counted from the rows themselves: each row is the server's
// latest answer for its game, whatever order the answers arrived in.
function showProgress() {
  const box = progress();
  if (!box) return;
  const rows = document.querySelectorAll("tr.result-row");
  const done = document.querySelectorAll("tr.result-row.is-in").length;
  const text = box.dataset.label.replace("%(done)s", String(done)).replace("%(total)s", String(rows.length));
  if (box.textContent !== text) box.textContent = text;
  box.dataset.done = String(done);
  box.dataset.total = String(rows.length);
}

document.addEventListener("agon:live", () => showProgress());

// One save at a time, in the order the organiser left the games: the server is not
// asked to write two games at once, and the answers come back in order.
let queue = Promise.resolve();

function send(row, form) {
  row.dataset.busy = "1";
  const body = new FormData(form);
  queue = queue.then(() => post(row, form.action, body));
  return queue;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(row, url, body) {
  let data = null;
  let status = 0;
  // A busy or unreachable server (503, no answer) is asked again twice before the row
  // says it was not saved.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (attempt) await pause(400 * attempt);
    data = null;
    try {
      const response = await fetch(url, {
        method: "POST",
        body,
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      status = response.status;
      if ((response.headers.get("Content-Type") || "").includes("application/json")) {
        data = await response.json();
      }
    } catch {
      status = 0;
    }
    if (status !== 0 && status !== 503) break;
  }
  delete row.dataset.busy;
  // The row may have been replaced meanwhile (a live update): act on the current one.
  const current = document.getElementById(row.id) || row;
  if (data && status === 200) {
    clearError(current);
    replaceRow(current, data.row);
    showProgress();
  } else if (data && data.error) {
    showError(current, data.error, status === 409 ? data.row : null);
    showProgress();
  } else {
    const screen = document.querySelector(".results-screen");
    showError(current, { field: "out", message: screen.dataset.failed.replace("%(status)s", String(status)) });
  }
  if (current.dataset.again) {
    delete current.dataset.again;
    save(document.getElementById(row.id) || current);
  }
}

function save(row) {
  if (!row) return;
  if (row.dataset.busy) {
    row.dataset.again = "1";
    return;
  }
  send(row, row.querySelector("form.result-row-form"));
}

function changed(input) {
  return input.value.trim() !== (input.dataset.saved || "").trim();
}

document.addEventListener("keydown", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || !input.classList.contains("pieces-out")) return;
  if (event.key === "Enter" && !event.altKey && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    move(input, event.shiftKey ? -1 : 1);
  } else if (event.key === "Tab" && !event.altKey && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();
    move(input, event.shiftKey ? -1 : 1);
  }
});

document.addEventListener("focusout", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || !input.classList.contains("pieces-out")) return;
  const row = rowOf(input);
  if (!row) return;
  if (changed(input)) {
    save(row);
  } else if (row.dataset.invalid && !input.value.trim()) {
    // The organiser cleared a refused entry: nothing to save, nothing to complain about.
    clearError(row);
  }
});

document.addEventListener("input", (event) => {
  const row = rowOf(event.target);
  if (row && row.dataset.invalid && event.target.classList.contains("pieces-out")) {
    row.querySelector("[data-error]").textContent = "";
  }
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  if (form.classList.contains("result-row-form")) {
    event.preventDefault();
    save(rowOf(form));
  } else if (form.classList.contains("accept-form")) {
    event.preventDefault();
    const row = rowOf(form);
    if (row && !row.dataset.busy) send(row, form);
  }
});

// Keyboard first: start in the first game without a result (unless the page was opened
// at a table's anchor from the open-tables page, where the browser has scrolled to).
let start = null;
try {
  start = window.location.hash ? document.querySelector(window.location.hash) : null;
} catch {
  start = null; // not a selector: no anchor of ours
}
const startRow = start && rowOf(start);
const first =
  (startRow && startRow.querySelector("input.pieces-out")) || fields().find((input) => !input.value.trim());
if (first && document.activeElement === document.body) first.focus();

document.body.classList.add("results-live");
