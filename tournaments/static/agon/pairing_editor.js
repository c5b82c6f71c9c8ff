// The pairing editor (templates/tournaments/_pairing_editor.html): on each change of a
// "move to" choice the form is checked on the server (nothing saved) and the warnings
// of the pairing and of the change are shown; a change that creates one makes the
// reason required before saving. Without this module the form works as a plain form.

function fill(list, texts, empty) {
  list.replaceChildren();
  for (const text of texts) {
    const item = document.createElement("li");
    item.textContent = text;
    list.append(item);
  }
  if (!texts.length && empty) {
    const item = document.createElement("li");
    item.className = "muted";
    item.textContent = empty;
    list.append(item);
  }
}

async function check(form) {
  const box = document.getElementById("editor-warnings");
  const created = box.querySelector("[data-created]");
  const current = box.querySelector("[data-current]");
  const error = box.querySelector("[data-error]");
  const reason = form.querySelector("#override-reason");
  let body;
  try {
    const response = await fetch(form.dataset.checkUrl, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    body = await response.json();
  } catch {
    return; // offline or a page of errors: saving still tells what is wrong
  }
  if (body.error) {
    error.textContent = body.error.message;
    error.hidden = false;
    created.hidden = true;
    box.classList.add("pending");
    return;
  }
  error.hidden = true;
  fill(created.querySelector("[data-list]"), body.created);
  created.hidden = body.created.length === 0;
  box.classList.toggle("pending", body.created.length > 0);
  const none = current.querySelector("[data-list]").dataset.none;
  fill(current.querySelector("[data-list]"), body.current, none);
  reason.required = body.created.length > 0;
  reason.toggleAttribute("aria-invalid", body.created.length > 0 && !reason.value.trim());
}

const form = document.getElementById("editor");
if (form) {
  form.addEventListener("change", (event) => {
    // A drop-down, or in a big round a typed place (its change comes on Enter or Tab).
    // A field cleared to type again is checked once something is typed.
    if (event.target.matches("input[list]") && !event.target.value.trim()) return;
    if (event.target.matches("select, input[list]")) check(form);
  });
}
