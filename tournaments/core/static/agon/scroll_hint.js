// A wide table (standings with every tie-break, a crosstable, the results screen on a
// phone) scrolls inside its own box (site.css), and a phone shows no scrollbar until
// the box is touched: say so above each box whose content is wider than it.
// The text comes translated from base.html (data-scroll-hint on this script's tag).
const text = document.querySelector("script[data-scroll-hint]")?.dataset.scrollHint ?? "";
const SELECTOR = "main .table-scroll, main .scroll-box, main table";

function hintOf(box) {
  const before = box.previousElementSibling;
  return before?.classList.contains("scroll-hint") ? before : null;
}

export function mark(box) {
  const overflow = box.scrollWidth - box.clientWidth;
  let hint = hintOf(box);
  if (overflow <= 2) {
    hint?.remove();
    return;
  }
  if (!hint) {
    hint = document.createElement("p");
    hint.className = "scroll-hint";
    // For the eyes only: a screen reader reads every column anyway.
    hint.setAttribute("aria-hidden", "true");
    hint.textContent = text;
    box.before(hint);
  }
}

export function markAll(root = document) {
  for (const box of root.querySelectorAll(SELECTOR)) mark(box);
}

markAll();
let pending = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(pending);
  pending = requestAnimationFrame(() => markAll());
});
// Live pages swap their tables in (htmx): mark the new ones.
document.body.addEventListener("htmx:afterSettle", () => markAll());
