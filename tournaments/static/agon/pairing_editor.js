// The pairing editor (templates/tournaments/_pairing_editor.html): htmx posts the form to
// the live check on each change (nothing is saved) and swaps in its warnings; the check's
// event says whether the change creates a warning, and then the reason is required before
// saving. Without JavaScript the form works as a plain form.
document.addEventListener("agon:editor-check", ({ detail }) => {
  const reason = document.getElementById("override-reason");
  if (!reason) return;
  reason.required = detail.reasonRequired;
  if (reason.required && !reason.value.trim()) reason.setAttribute("aria-invalid", "true");
  else reason.removeAttribute("aria-invalid");
});
