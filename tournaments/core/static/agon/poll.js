// Live pages (tournaments/core/poll.py): htmx asks for this page every few seconds with
// If-None-Match (304 while nothing changed) and swaps in each changed region marked
// data-live-region (matched by id), except a region being typed in, saved or showing a
// refused entry: that one is left, and the page asked for again at the next poll.
// The page names its ETag and poll interval: <meta name="agon-live" content="…" data-poll="4000">.
const meta = document.querySelector('meta[name="agon-live"]');

function busy(region) {
  if (region.contains(document.activeElement) && document.activeElement !== document.body) return true;
  if (region.matches("[data-invalid], [data-busy], [data-waiting]") || region.querySelector(".htmx-request")) return true;
  // A field whose value differs from what the page was served with: unsaved typing.
  return [...region.querySelectorAll("input:not([type=hidden]), textarea")].some((f) => f.value !== f.defaultValue);
}

// Rows carry their game's version (only a newer one is taken: an answer to a save may have
// come first); other regions are compared as they are.
function unchanged(current, fresh) {
  const [now, then] = [current.dataset.liveVersion, fresh.dataset.liveVersion];
  return now === undefined ? current.innerHTML === fresh.innerHTML : Number(then) <= Number(now);
}

if (meta) {
  let [etag, kept, polling] = [meta.content, 0, false];
  const poller = Object.assign(document.createElement("div"), { id: "live-poll", hidden: true });
  const regions = [...document.querySelectorAll("[data-live-region][id]")].map((region) => region.id);
  poller.setAttribute("hx-get", window.location.href.split("#")[0]); // no anchor: no scrolling to it
  // "live-now": a page told by its socket that something changed asks at once (live_tables.js).
  poller.setAttribute("hx-trigger", `every ${Number(meta.dataset.poll) || 4000}ms, live-now from:body`);
  poller.setAttribute("hx-swap", "none ignoreTitle:true");
  poller.setAttribute("hx-select-oob", regions.join(","));
  poller.addEventListener("htmx:configRequest", ({ detail }) => (detail.headers["If-None-Match"] = etag));
  poller.addEventListener("htmx:beforeSwap", () => ([kept, polling] = [0, true]));
  poller.addEventListener("htmx:afterRequest", ({ detail }) => {
    polling = false;
    if (detail.xhr.status === 200 && !kept) etag = detail.xhr.getResponseHeader("ETag") || etag;
  });
  document.addEventListener("htmx:oobBeforeSwap", ({ detail }) => {
    if (!polling) return;
    if (unchanged(detail.target, detail.fragment.firstElementChild)) detail.shouldSwap = false;
    else if (busy(detail.target)) [kept, detail.shouldSwap] = [kept + 1, false];
  });
  document.body.append(poller);
  htmx.process(poller);
}
