"""Stop and move notation: parsing, canonical names, errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.pentagame import (
    Move,
    NotationError,
    PentagameError,
    format_move,
    format_stop,
    parse_move,
    parse_stop,
)
from games.pentagame.board import ADJ, LINES, N_STOPS, STOP_NAMES


def test_board_has_100_stops_of_degree_2_or_4() -> None:
    assert len(STOP_NAMES) == N_STOPS == 100
    assert len(set(STOP_NAMES)) == 100
    degrees = [len(a) for a in ADJ]
    assert degrees[:10] == [4] * 10 and set(degrees[10:]) == {2}
    assert sum(n for _, _, n in LINES) == 90 and len(LINES) == 20


@pytest.mark.parametrize("stop", range(100))
def test_every_canonical_name_round_trips(stop: int) -> None:
    assert parse_stop(format_stop(stop)) == stop


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("W", "W"),
        ("r", "r"),
        ("W3r", "W3r"),
        ("r4W", "W3r"),
        ("Wr3", "W3r"),
        ("Wb3", "W3r"),  # along the chord W r b Y
        ("Wr7", "r"),
        ("Wr", "r"),  # the book drops the count when a node is reached
        ("Wb11", "b"),
        ("Wb8", "r1b"),
        ("W2G", "G2W"),
        ("G2W", "G2W"),
        ("b2w", "w2b"),
        ("W3B", "B1W"),
        ("r6W", "W1r"),
        ("W4B", "B"),
        ("WB", "B"),
        ("Wg", "g"),
        ("E", None),
    ],
)
def test_stop_spellings(text: str, canonical: str | None) -> None:
    if canonical is None:
        with pytest.raises(NotationError):
            parse_stop(text)
    else:
        assert format_stop(parse_stop(text)) == canonical


@pytest.mark.parametrize("bad", ["W0r", "W7r0", "W5B", "Ww", "WB5", "Wb12", "x", "", "W3", "3r"])
def test_bad_stops(bad: str) -> None:
    # W and w (or W and R) share no line and no straight chord.
    with pytest.raises(NotationError) as exc:
        parse_stop(bad)
    assert "is not a stop" in exc.value.reason


def test_book_examples() -> None:
    m = parse_move("(W x r : G2W)")
    assert m == Move("x", parse_stop("W"), parse_stop("r"), black=parse_stop("G2W"))
    assert format_move(m) == "Wxr:G2W"
    assert format_move(parse_move("(GsW)")) == "GsW"


@pytest.mark.parametrize(
    "text",
    [
        "W-W3r",
        "Wxr:G2W",
        "GsW",
        "Gs!W",
        "Gs!2W[w]",
        "W[b]-W3r",
        "rzG2W",
        "bzW2B>w2b",
        "b1Yxb:G2WzW2B",
        "B-gzb2r>b1r",
        "W3rxW2r",
        "pass",
    ],
)
def test_canonical_moves_round_trip(text: str) -> None:
    assert format_move(parse_move(text)) == text


def test_aliases_and_spaces() -> None:
    assert format_move(parse_move(" ( Wr3 - r4W ) ")) == "W3r-W3r"
    assert format_move(parse_move("W × r:G2W")) == "Wxr:G2W"
    assert format_move(parse_move("PASS")) == "pass"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("W-", "not a move"),
        ("Q-W", "does not start with a stop"),
        ("W", "no move"),
        ("W?r", "not a move sign"),
        ("W9r-W", "`W9r` is not a stop"),
        ("Ws3W", "seat number only follows `s!`"),
        ("Ws!9W", "seat 9 does not exist"),
        ("W[q]-W1r", "not a colour"),
        ("Wxr:", "not a move"),
    ],
)
def test_move_errors_have_reasons(text: str, fragment: str) -> None:
    with pytest.raises(NotationError) as exc:
        parse_move(text)
    assert fragment in exc.value.reason


def test_non_string_move() -> None:
    with pytest.raises(NotationError):
        parse_move(7)  # type: ignore[arg-type]


_alphabet = st.sampled_from(list("WBRYGwbryg0123456789-xsz!:>[]() pPaASX×é\n"))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_alphabet, max_size=24) | st.text(max_size=16))
def test_fuzz_parser_raises_only_its_own_error(text: str) -> None:
    try:
        move = parse_move(text)
    except PentagameError as exc:
        assert exc.reason
        return
    assert parse_move(format_move(move)) == move
