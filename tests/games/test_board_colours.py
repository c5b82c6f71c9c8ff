"""The board's colours (games/static/games/board.css) for colour-blind players (issue 27,
item 17): red and green differ in brightness and stay apart with deuteranopia and
protanopia, and each piece's letter stands out on its fill. Measured as the issue
measured (tests/colour_vision.py); the browser test checks what Chromium draws."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from tests.colour_vision import DEUTERANOPIA, PROTANOPIA, contrast, difference, seen_with

CSS = (Path(__file__).resolve().parents[2] / "games/static/games/board.css").read_text()
COLOURS = "wbryg"


def palette() -> dict[str, str]:
    """The board's custom properties (--w, --letter-dark, ...) as the stylesheet sets them."""
    block = re.search(r"\.pg \{([^}]*)\}", CSS)
    assert block, "board.css sets its colours on .pg"
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})", block.group(1)))


def test_the_measure_gives_the_issues_numbers_for_the_old_red_and_green():
    # The issue's figures for #d0312d and #2e9b4c: the thresholds below mean what it meant.
    old_red, old_green = "#d0312d", "#2e9b4c"
    seen = difference(seen_with(old_red, DEUTERANOPIA), seen_with(old_green, DEUTERANOPIA))
    assert seen == pytest.approx(8.3, abs=0.05)
    assert contrast(old_red, old_green) == pytest.approx(1.42, abs=0.005)


def test_red_and_green_differ_in_brightness_and_for_colour_blind_eyes():
    colours = palette()
    red, green = colours["r"], colours["g"]
    assert contrast(red, green) >= 2.0
    for deficiency in (DEUTERANOPIA, PROTANOPIA):
        seen_red, seen_green = seen_with(red, deficiency), seen_with(green, deficiency)
        assert difference(seen_red, seen_green) >= 20
        assert contrast(seen_red, seen_green) >= 1.5


@pytest.mark.parametrize(
    ("name", "deficiency"), [("deuteranopia", DEUTERANOPIA), ("protanopia", PROTANOPIA)]
)
def test_every_two_piece_colours_stay_apart_for_colour_blind_eyes(name, deficiency):
    colours = palette()
    for a, b in itertools.combinations(COLOURS, 2):
        apart = difference(seen_with(colours[a], deficiency), seen_with(colours[b], deficiency))
        assert apart >= 20, f"{a} and {b} with {name}: {apart:.1f}"


def test_each_colours_letter_stands_out_on_its_fill():
    colours = palette()
    light_rule = re.search(r"([^{}]*)\{\s*fill:\s*var\(--letter-light\)", CSS)
    assert light_rule, "board.css gives some letters the light ink"
    light_on = set(re.findall(r"\.pg-letter\.pg-on-(\w)", light_rule.group(1)))
    assert light_on == {"b", "r"}
    for colour in COLOURS:
        ink = colours["letter-light" if colour in light_on else "letter-dark"]
        assert contrast(ink, colours[colour]) >= 4.5, colour
