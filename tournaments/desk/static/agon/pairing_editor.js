// The pairing editor (tournaments/desk/templates/tournaments/_pairing_editor.html): htmx posts the form to
// the live check on each change (nothing is saved) and swaps in its warnings; the check's
// event says whether the change creates a warning, and then the reason is required before
// saving, and which players' places the draft changes from the pairing as proposed: their
// rows are marked (a class and the row's "changed" mark, which the page renders hidden).
// Without JavaScript the form works as a plain form and the marks show the saved pairing.
document.addEventListener("agon:editor-check", ({ detail }) => {
  const reason = document.getElementById("override-reason");
  if (!reason) return;
  reason.required = detail.reasonRequired;
  if (reason.required && !reason.value.trim()) reason.setAttribute("aria-invalid", "true");
  else reason.removeAttribute("aria-invalid");
  const changed = new Set((detail.changed || []).map(String));
  for (const row of document.querySelectorAll("#editor tr[data-entry]")) {
    const on = changed.has(row.dataset.entry);
    row.classList.toggle("changed", on);
    const mark = row.querySelector("[data-changed-mark]");
    if (mark) mark.hidden = !on;
  }
});
