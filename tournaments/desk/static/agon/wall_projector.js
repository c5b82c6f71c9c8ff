// The wall list on the projector turns to its next screenful, or asks for itself again
// so that a newly published round appears, after the seconds the page names. Done here
// rather than by a timed <meta> refresh (kept in <noscript>) so that it can be held:
// the space bar pauses and continues, as on the live projector (WCAG 2.2.1, 2.2.2).
const body = document.body;
const [seconds, url] = (body.dataset.refresh ?? "").split(/;\s*url=/);
const status = document.getElementById("wall-status");
let timer = null;

function start() {
  timer = setTimeout(() => window.location.assign(url ?? window.location.href), Number(seconds) * 1000);
}

if (Number(seconds) > 0) {
  start();
  document.addEventListener("keydown", (event) => {
    if (event.key !== " " || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    if (timer) {
      clearTimeout(timer);
      timer = null;
    } else {
      start();
    }
    status.textContent = timer ? "" : status.dataset.paused;
  });
}
