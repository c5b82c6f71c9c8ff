// Check-in at the door: the search narrows the list as you type, and each tap checks a
// player in (or out) with one request, updating the row without reloading the page.
// Without this script the same forms post and the page comes back.
(function () {
  "use strict";

  function ready(fn) {
    if (document.readyState !== "loading") fn();
    else document.addEventListener("DOMContentLoaded", fn);
  }

  function normalise(text) {
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "").trim();
  }

  ready(function () {
    var search = document.getElementById("check-in-search");
    var list = document.getElementById("check-in-list");
    var none = document.getElementById("check-in-none");
    var count = document.getElementById("check-in-count");
    if (!search || !list) return;
    var rows = Array.prototype.slice.call(list.querySelectorAll("li"));

    function filter() {
      var words = normalise(search.value).split(/\s+/).filter(Boolean);
      var shown = 0;
      rows.forEach(function (row) {
        var name = normalise(row.getAttribute("data-name") || "");
        var match = words.every(function (w) { return name.indexOf(w) !== -1; });
        row.hidden = !match;
        if (match) shown += 1;
      });
      if (none) none.hidden = shown !== 0;
    }
    search.addEventListener("input", filter);
    // Enter in the search box checks in the one player left, if only one is shown.
    search.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      var shown = rows.filter(function (row) { return !row.hidden; });
      if (shown.length === 1) shown[0].querySelector("button").click();
    });

    function showCount(checked) {
      if (!count) return;
      var template = search.getAttribute("data-count-template") || "%(checked)s / %(total)s";
      count.textContent = template
        .replace("%(checked)s", String(checked))
        .replace("%(total)s", search.getAttribute("data-total") || "");
    }

    list.addEventListener("submit", function (event) {
      var form = event.target;
      if (!form.classList || !form.classList.contains("check-in-toggle")) return;
      event.preventDefault();
      var button = form.querySelector("button");
      var present = form.querySelector("input[name=present]");
      button.disabled = true;
      fetch(form.action, {
        method: "POST",
        body: new FormData(form),
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      })
        .then(function (response) {
          return response.json().then(function (data) {
            if (!response.ok) throw new Error((data.error && data.error.message) || response.statusText);
            return data;
          });
        })
        .then(function (data) {
          var here = Boolean(data.checked_in);
          present.value = here ? "0" : "1";
          button.setAttribute("aria-pressed", here ? "true" : "false");
          button.querySelector(".state").textContent = button.getAttribute(
            here ? "data-here" : "data-away"
          );
          showCount(data.checked_in_count);
        })
        .catch(function (error) {
          window.alert(error.message);
        })
        .then(function () {
          button.disabled = false;
        });
    });
  });
})();
