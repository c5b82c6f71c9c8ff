"""The board for colour-blind players and the keyboard (issue 27, item 17), in Chromium:
every piece, coloured stop and colour out shows the book's letter (W B R Y G) in ink that
stands out on its fill, also on the small live boards; the keyboard's focus has a ring of
its own, painted above the pieces and marks, 3 : 1 or more against every stop's fill, and
the SVG itself is no tab stop."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from tests.browser.test_board import SHORT_GAME
from tests.colour_vision import contrast
from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game
from tournaments.results.services.results import Actor, game_record_moves

pytestmark = pytest.mark.browser

DIRECTOR = Actor.command()

# What the board shows of each piece, coloured stop and colour out, measured in the page:
# boxes in the board's units, each letter's box as its advance by its capital's height.
DRAWN = """
const svg = document.querySelector(arguments[0]);
const style = (el, pseudo) => getComputedStyle(el, pseudo ?? null);
// A box in an element's own units, as [x, y, width, height] in the board's.
const onBoard = (el, [x, y, w, h]) => {
  const m = svg.getCTM().inverse().multiply(el.getCTM());
  const pts = [[x, y], [x + w, y], [x, y + h], [x + w, y + h]].map(([px, py]) => new DOMPoint(px, py).matrixTransform(m));
  const xs = pts.map((p) => p.x), ys = pts.map((p) => p.y);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)];
};
const box = (el) => { const b = el.getBBox(); return onBoard(el, [b.x, b.y, b.width, b.height]); };
const letterBox = (text) => {
  const b = text.getBBox(); const size = Number(text.getAttribute("font-size")); const base = Number(text.getAttribute("y"));
  return onBoard(text, [b.x, base - 0.72 * size, b.width, 0.72 * size]);
};
const pieces = [...svg.querySelectorAll(".pg-piece")].map((g) => {
  const shape = g.querySelector(".pg-piece-shape"); const text = g.querySelector("text");
  return { colour: g.dataset.colour, stop: Number(g.dataset.stop), letter: text?.textContent,
           ink: text && style(text).fill, fill: style(shape).fill, select: text && style(text).userSelect,
           shape: box(shape), text: text && letterBox(text) };
});
// Whether a thing's outline or fill covers any of 7 x 7 points of a box on the board.
const covers = (el, [x, y, w, h]) => {
  const m = el.getCTM().inverse().multiply(svg.getCTM());
  for (let i = 0; i <= 6; i++) for (let j = 0; j <= 6; j++) {
    const p = new DOMPoint(x + (w * i) / 6, y + (h * j) / 6).matrixTransform(m);
    if (el.isPointInFill(p) || el.isPointInStroke(p)) return true;
  }
  return false;
};
const shapes = [...svg.querySelectorAll(".pg-piece, .pg-block")].map((g) => [Number(g.dataset.stop), g.firstElementChild]);
const stops = [...svg.querySelectorAll(".pg-stop.pg-corner, .pg-stop.pg-crossing")].map((c) => {
  const g = svg.querySelector(`.pg-stop-letter[data-stop="${c.dataset.stop}"]`);
  const text = g?.querySelector("text");
  const covered = text ? shapes.filter(([stop, el]) => stop === Number(c.dataset.stop) && covers(el, letterBox(text))).length : null;
  return { id: Number(c.dataset.stop), covered, cx: c.cx.baseVal.value, cy: c.cy.baseVal.value,
           r: c.r.baseVal.value, fill: style(c).fill, colour: g?.dataset.colour, letter: text?.textContent,
           ink: text && style(text).fill, text: text && letterBox(text) };
});
const dots = [...document.querySelectorAll(".pg-out .pg-dot")].map((d) => ({
  colour: [...d.classList].find((c) => c.startsWith("pg-c-"))?.slice(5),
  content: style(d, "::before").content, ink: style(d).color, fill: style(d).backgroundColor,
}));
const things = shapes.map(([stop]) => ({ stop }));
return { pieces, things, stops, dots };
"""


@pytest.fixture
def game(transactional_db: None) -> Game:
    tournament = tournament_with_players(2, published=True)
    round_ = round_pair_next(tournament=tournament, by=DIRECTOR)
    round_publish(round=round_, by=DIRECTOR)
    return Game.objects.filter(table__round=round_).order_by("number").first()


def inside_circle(box: list[float], cx: float, cy: float, r: float) -> bool:
    x, y, w, h = box
    return all((px - cx) ** 2 + (py - cy) ** 2 <= r * r for px in (x, x + w) for py in (y, y + h))


def check_letters(drawn: dict[str, Any], *, coloured_stops: int = 10) -> None:
    assert drawn["pieces"], "the board shows pieces"
    for piece in drawn["pieces"]:
        assert piece["letter"] == piece["colour"].upper(), piece
        assert contrast(piece["ink"], piece["fill"]) >= 4.5, piece
        assert piece["select"] == "none"
        # The letter fits the piece: no wider or taller than its shape, in its middle.
        (sx, _, sw, sh), (tx, _, tw, th) = piece["shape"], piece["text"]
        assert tw <= sw and th <= sh, piece
        assert abs((tx + tw / 2) - (sx + sw / 2)) < 0.05 * sw, piece
    assert len(drawn["stops"]) == coloured_stops
    for stop in drawn["stops"]:
        assert stop["letter"] == stop["colour"].upper(), stop
        assert contrast(stop["ink"], stop["fill"]) >= 4.5, stop
        # Inside the stop and beside, never under, what stands on it: a full corner too.
        assert inside_circle(stop["text"], stop["cx"], stop["cy"], stop["r"]), stop
        assert stop["covered"] == 0, stop


@pytest.mark.parametrize(("language", "width"), [("en", 1366), ("de", 390)])
def test_every_piece_coloured_stop_and_colour_out_shows_its_letter(
    browser, wait, live_server, game, artefacts, language, width
):
    game_record_moves(by=DIRECTOR, game=game, moves=SHORT_GAME)
    browser.get(f"{live_server.url}/healthz")
    browser.add_cookie({"name": "django_language", "value": language})
    browser.set_window_size(width, 844)
    # Ply 5 took a piece out, and the corners still hold the start's pieces.
    browser.get(f"{live_server.url}/games/{game.pk}/?ply=5")
    wait(lambda b: b.find_element(By.ID, "pg-ply").text.startswith("5 /"))
    drawn = browser.execute_script(DRAWN, "#pg-svg")
    check_letters(drawn)
    assert any(
        len([t for t in drawn["things"] if t["stop"] == s["id"]]) == 2 for s in drawn["stops"]
    )
    # The book's letters in German too (Gelb and Grün would both be G).
    assert {s["letter"] for s in drawn["stops"]} == {"W", "B", "R", "Y", "G"}
    assert len(drawn["dots"]) == 1
    for dot in drawn["dots"]:
        # Shown, and silent for screen readers: the list's label names the colours.
        assert dot["content"] == f'"{dot["colour"].upper()}" / ""', dot
        assert contrast(dot["ink"], dot["fill"]) >= 4.5, dot
    # The labels stay: a stop's says what stands on it, in words.
    label = browser.find_element(By.CSS_SELECTOR, '.pg-stop[data-stop="0"]').get_attribute(
        "aria-label"
    )
    assert label and "W" in label
    browser.save_screenshot(str(artefacts / f"board-letters-{language}-{width}.png"))


# A start of four or five players, drawn by the board's own module into the page's board.
CROWDED_START = """
const [players, done] = arguments;
const module = document.querySelector('script[src*="board.js"]').src.replace("agon/board.js", "games/draw.js");
import(module).then(({ drawThings }) => {
  const data = JSON.parse(document.getElementById("pg-data").textContent);
  const svg = document.getElementById("pg-svg");
  const shapes = ["circle", "triangle", "square", "star", "diamond"];
  const pieces = [];
  for (let seat = 1; seat <= players; seat++) {
    ["w", "b", "r", "y", "g"].forEach((colour, corner) => pieces.push({ seat, colour, stop: corner }));
  }
  drawThings(svg.querySelector(".pg-things"), data.board.stops, { pieces, black: [5, 6, 7, 8, 9], grey: [] },
             (seat) => shapes[seat - 1]);
  done();
});
"""


@pytest.mark.parametrize("players", [4, 5])
def test_a_corner_full_of_four_or_five_players_pieces_shows_its_letter(
    browser, wait, live_server, game, artefacts, players
):
    browser.get(f"{live_server.url}/games/{game.pk}/")
    wait(lambda b: b.find_element(By.ID, "pg-ply").text.startswith("0 /"))
    browser.execute_async_script(CROWDED_START, players)
    drawn = browser.execute_script(DRAWN, "#pg-svg")
    assert len(drawn["pieces"]) == 5 * players
    check_letters(drawn)
    browser.find_element(By.ID, "pg-svg").screenshot(
        str(artefacts / f"board-letters-{players}-players.png")
    )


def test_the_small_live_board_letters_its_pieces_and_stops(
    browser, wait, live_server, game, artefacts
):
    game_record_moves(by=DIRECTOR, game=game, moves=SHORT_GAME[:6])
    round_ = game.table.round
    browser.get(
        live_server.url + reverse("round-detail", args=[round_.tournament.slug, round_.number])
    )
    wait(lambda b: b.find_elements(By.CSS_SELECTOR, ".pg-mini .pg-piece"))
    check_letters(browser.execute_script(DRAWN, ".pg-mini svg"))
    browser.find_element(By.CSS_SELECTOR, ".pg-mini").screenshot(
        str(artefacts / "board-mini-letters.png")
    )


RING = """
const svg = document.getElementById("pg-svg");
const ring = svg.querySelector(".pg-focus-ring");
const focused = document.activeElement;
const circles = [...ring.querySelectorAll("circle")].map((c) => ({
  cx: c.cx.baseVal.value, cy: c.cy.baseVal.value, r: c.r.baseVal.value,
  stroke: getComputedStyle(c).stroke, width: parseFloat(getComputedStyle(c).strokeWidth) }));
const marks = [...svg.querySelectorAll(".pg-mark")].map((m) => ({
  cls: m.getAttribute("class"), cx: m.cx.baseVal.value, cy: m.cy.baseVal.value,
  outer: m.r.baseVal.value + parseFloat(getComputedStyle(m).strokeWidth) / 2, stroke: getComputedStyle(m).stroke }));
return {
  shown: getComputedStyle(ring).display !== "none",
  last: svg.lastElementChild === ring,
  focused: focused.getAttribute("class"), stop: focused.getAttribute("data-stop"),
  at: focused.cx ? [focused.cx.baseVal.value, focused.cy.baseVal.value, focused.r.baseVal.value] : null,
  circles, marks,
  fills: [...new Set([...svg.querySelectorAll(".pg-stop")].map((s) => getComputedStyle(s).fill))],
  svgTabindex: svg.getAttribute("tabindex"),
};
"""


def test_the_keyboards_focus_has_a_ring_of_its_own_above_the_marks(
    browser, wait, login, live_server, game, artefacts
):
    director = UserFactory()
    game.table.round.tournament.directors.add(director)
    login(director)
    browser.get(f"{live_server.url}/games/{game.pk}/record/")
    wait(lambda b: "to move" in b.find_element(By.ID, "pg-status").text)
    # From the link before the board, one Tab reaches the board's stop: the SVG holding
    # the stops is no tab stop of its own.
    browser.execute_script("document.querySelector('.pg-head a:last-of-type').focus()")
    ActionChains(browser).send_keys(Keys.TAB).perform()
    ring = browser.execute_script(RING)
    assert "pg-stop" in ring["focused"] and ring["svgTabindex"] is None
    assert ring["shown"] and ring["last"]
    x, y, r = ring["at"]
    assert all((c["cx"], c["cy"]) == (x, y) and c["r"] > r for c in ring["circles"])
    # One of the ring's two colours stands out 3 : 1 on every stop's fill.
    assert len(ring["fills"]) >= 6  # the plain stops and the five colours
    for fill in ring["fills"]:
        assert max(contrast(c["stroke"], fill) for c in ring["circles"]) >= 3, fill

    # Enter picks the piece: the selection and the targets are marked, and the ring is
    # still painted last, its dark ring outside the marks, in other colours.
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(lambda b: b.find_elements(By.CSS_SELECTOR, ".pg-selected"))
    ring = browser.execute_script(RING)
    assert ring["shown"] and ring["last"]
    on_stop = [m for m in ring["marks"] if (m["cx"], m["cy"]) == tuple(ring["at"][:2])]
    assert any("pg-selected" in m["cls"] for m in on_stop)
    core = max(ring["circles"], key=lambda c: contrast(c["stroke"], "#ffffff"))
    assert all(core["r"] - core["width"] / 2 >= m["outer"] for m in on_stop)
    assert not {c["stroke"] for c in ring["circles"]} & {m["stroke"] for m in ring["marks"]}
    browser.find_element(By.ID, "pg-svg").screenshot(str(artefacts / "board-focus-ring.png"))

    # The arrows move the focus and the ring with it, over a target ring.
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    wait(lambda b: b.execute_script(RING)["stop"] == "10")
    ring = browser.execute_script(RING)
    assert ring["shown"] and ring["last"]
    assert all((c["cx"], c["cy"]) == tuple(ring["at"][:2]) for c in ring["circles"])
    assert any(
        "pg-target" in m["cls"] and (m["cx"], m["cy"]) == tuple(ring["at"][:2])
        for m in ring["marks"]
    )

    # Focus leaving the board takes the ring away.
    browser.execute_script("document.querySelector('.pg-head a').focus()")
    wait(lambda b: not b.execute_script(RING)["shown"])
