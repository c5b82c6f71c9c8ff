// The sheets' Print button (a script file, not an onclick attribute: the site's
// Content-Security-Policy allows no inline script).
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}
