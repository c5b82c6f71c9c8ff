// Live pages: poll this page every few seconds with If-None-Match; when it changed,
// swap in the new contents of each region marked data-live-region (matched by id),
// except a region the user is typing in or that is being saved: what they type stays.
//
// The page names its ETag and poll interval: <meta name="agon-live" content="…" data-poll="4000">.

const meta = document.querySelector('meta[name="agon-live"]');

function busy(region) {
  if (region.contains(document.activeElement) && document.activeElement !== document.body) return true;
  if (region.dataset.busy || region.dataset.invalid) return true;
  // A field whose value differs from what the page was served with: unsaved typing.
  for (const field of region.querySelectorAll("input, textarea")) {
    if (field.type === "hidden") continue;
    if (field.value !== field.defaultValue) return true;
  }
  return false;
}

function same(current, fresh) {
  // Rows carry their game's version; comparing it skips the forms' CSRF tokens, which
  // differ on every render.
  if (current.dataset.liveVersion !== undefined) {
    return current.dataset.liveVersion === fresh.dataset.liveVersion;
  }
  return current.innerHTML === fresh.innerHTML;
}

// Swap in the changed regions; answer how many changed regions had to be left alone.
export function swapRegions(doc) {
  let changed = 0;
  let kept = 0;
  for (const fresh of doc.querySelectorAll("[data-live-region][id]")) {
    const current = document.getElementById(fresh.id);
    if (!current || same(current, fresh)) continue;
    if (busy(current)) {
      kept += 1;
      continue;
    }
    current.replaceWith(document.importNode(fresh, true));
    changed += 1;
  }
  if (changed) document.dispatchEvent(new CustomEvent("agon:live", { detail: { changed } }));
  return kept;
}

if (meta) {
  let etag = meta.content;
  const every = Number(meta.dataset.poll) || 4000;

  async function poll() {
    try {
      const response = await fetch(window.location.href, {
        headers: { "If-None-Match": etag, "X-Agon-Live": "1" },
        cache: "no-store",
        credentials: "same-origin",
      });
      if (response.status === 200) {
        const doc = new DOMParser().parseFromString(await response.text(), "text/html");
        // A region left alone (being typed in) is fetched again at the next poll.
        if (swapRegions(doc) === 0) etag = response.headers.get("ETag") || etag;
      }
    } catch {
      // Offline for a moment: the next poll tries again.
    } finally {
      setTimeout(poll, every);
    }
  }

  setTimeout(poll, every);
}
