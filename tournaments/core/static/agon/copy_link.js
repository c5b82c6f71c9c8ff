// The run page's report links (tournaments/manage.html, organiser_rows.ReportLinks):
// each seat's "Copy link" button copies the link its "QR / link" disclosure holds. The
// buttons are hidden in the page and shown here, as they do nothing without JavaScript;
// without it the disclosure still shows the link to select and its QR code. Where the
// browser refuses the clipboard (a plain-http address on the club's network is no
// secure context), the disclosure opens with the link selected instead.
const status = document.getElementById("copy-status");

const say = (text) => {
  if (!status) return;
  status.textContent = "";
  // A fresh text each time, so a screen reader announces a second copy too.
  window.setTimeout(() => { status.textContent = text; }, 50);
};

const legacyCopy = (text) => {
  const box = document.createElement("textarea");
  box.value = text;
  box.setAttribute("readonly", "");
  box.className = "visually-hidden";
  document.body.append(box);
  box.select();
  let done = false;
  try {
    done = document.execCommand("copy");
  } catch {
    done = false;
  }
  box.remove();
  return done;
};

const copy = async (text) => {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, no focus): try the old way.
    }
  }
  return legacyCopy(text);
};

const showInstead = (control, link) => {
  const details = control.querySelector("details");
  if (details) details.open = true;
  const range = document.createRange();
  range.selectNodeContents(link);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
};

for (const button of document.querySelectorAll("button[data-copy-link]")) {
  const control = button.closest(".report-link");
  const link = control && control.querySelector("a.report-url");
  if (!link) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    if (await copy(link.href)) {
      button.classList.add("copied");
      window.setTimeout(() => button.classList.remove("copied"), 2000);
      say(status ? status.dataset.copied : "");
    } else {
      showInstead(control, link);
      say(status ? status.dataset.failed : "");
    }
  });
}
