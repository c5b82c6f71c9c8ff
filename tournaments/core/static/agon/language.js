// The language switcher (templates/base.html) switches on choosing: the Switch button is
// for a browser without JavaScript, so it is hidden here. A choice from the list (mouse,
// touch, or keys in the open list) switches at once. Arrow keys on the closed list step
// through the languages one by one: that only picks one (a page load on every step would
// be a change nobody asked for, WCAG 3.2.2), and the button comes back; Enter switches.
const form = document.querySelector("form.language-switcher");
const select = form?.querySelector("select");
const button = form?.querySelector("button[type=submit]");

if (form && select && button) {
  button.hidden = true;
  let keyed = false;
  select.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      if (!select.options[select.selectedIndex]?.defaultSelected) {
        event.preventDefault();
        form.requestSubmit();
      }
      return;
    }
    // A change that comes from this key arrives before the next task.
    keyed = true;
    setTimeout(() => {
      keyed = false;
    });
  });
  select.addEventListener("change", () => {
    if (keyed) button.hidden = false;
    else form.requestSubmit();
  });
}
