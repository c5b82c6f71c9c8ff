// Check-in at the door (tournaments/check_in.html): the search narrows the list as you
// type, and Enter in it checks in the one player left. Each tap posts its form through
// htmx, which swaps in the player's row and the count; without JavaScript the same forms
// post and the page comes back.
const search = document.getElementById("check-in-search");
const list = document.getElementById("check-in-list");
const none = document.getElementById("check-in-none");

const normalise = (text) => text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").trim();
const shown = () => [...list.querySelectorAll("li:not([hidden])")];

if (search && list) {
  search.addEventListener("input", () => {
    const words = normalise(search.value).split(/\s+/).filter(Boolean);
    for (const row of list.querySelectorAll("li")) {
      const name = normalise(row.dataset.name || "");
      row.hidden = !words.every((word) => name.includes(word));
    }
    if (none) none.hidden = shown().length !== 0;
  });
  search.addEventListener("keydown", (event) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    const rows = shown();
    if (rows.length === 1) rows[0].querySelector("button").click();
  });
}
