"""Hand-made positions for every rule and variant."""

from __future__ import annotations

import pytest

from games.pentagame import (
    IllegalMove,
    State,
    apply_move,
    format_move,
    initial_state,
    legal_moves,
    parse_stop,
    replay,
    result,
)

from .builders import position, stop_of

NO_BLACK_ON_B = ["w", "r", "y", "g", "G2W"]


def play(state: State, *moves: str) -> State:
    for m in moves:
        state = apply_move(state, m)
    return state


def illegal(state: State, move: str) -> str:
    with pytest.raises(IllegalMove) as exc:
        apply_move(state, move)
    return exc.value.reason


def test_initial_position() -> None:
    st = initial_state(3)
    assert st.pieces == (0, 1, 2, 3, 4) * 3
    assert st.black == (5, 6, 7, 8, 9)
    assert st.grey == (-1,) * 5 and st.to_move == 1


def test_plain_move_and_turn_order() -> None:
    st = play(initial_state(2), "W-W3r")
    assert stop_of(st, 1, "w") == parse_stop("W3r") and st.to_move == 2


def test_never_jump() -> None:
    st = play(initial_state(2), "W-W3r")
    reason = illegal(st, "W-r3W")
    assert reason == "the path from W to r3W is blocked at W3r (seat 1's white piece)"


def test_turn_only_at_free_node() -> None:
    st = position(pieces={"1w": "W2B", "2w": "G2W"}, black=["w", "r", "y", "g", "b"])
    assert stop_of(play(st, "W2B-W1r"), 1, "w") == parse_stop("W1r")  # turns at free W
    blocked = position(pieces={"1w": "W2B"})  # seat 2's white still stands on W
    assert "blocked at W" in illegal(blocked, "W2B-W1r")


def test_wrong_sign_for_target() -> None:
    st = initial_state(2)
    assert illegal(st, "Wsr") == "r holds a black block: take it with Wxr:<stop>"
    assert illegal(st, "W-W1r".replace("-", "x")) == "W1r is empty: write W-W1r"
    assert "needs the stop it is re-placed on" in illegal(st, "Wxr")


def test_black_block_is_replaced_and_from_stop_counts_as_empty() -> None:
    st = play(initial_state(2), "Wxr:G2W")
    assert stop_of(st, 1, "w") == parse_stop("r") and parse_stop("G2W") in st.black
    lone = position(pieces={"1w": "W3r"}, to_move=1)
    after = apply_move(lone, "W3rxr:W3r")
    assert parse_stop("W3r") in after.black
    assert "not empty" in illegal(initial_state(2), "Wxr:B")


def test_book_example_sequence_is_illegal() -> None:
    # Each is legal as an opening move; in sequence the black block on G2W closes the rim.
    assert replay({"players": 2, "moves": ["GsW"]}).ok
    res = replay({"players": 2, "moves": ["Wxr:G2W", "GsW"]})
    assert not res.ok and res.error is not None
    assert res.error.reason == "the path from G to W is blocked at G2W (a black block)"


def test_grey_block_taken_leaves_the_board() -> None:
    st = position(grey=["W3r"])
    after = apply_move(st, "WxW3r")
    assert after.grey == (-1,) * 5
    assert "leaves the board" in illegal(st, "WxW3r:G2W")


def test_swap_needs_only_a_free_path_not_adjacency() -> None:
    st = position(pieces={"1w": "W3r", "1b": "r2W"})
    after = apply_move(st, "W3rsr2W")
    assert stop_of(after, 1, "w") == parse_stop("r2W")
    assert stop_of(after, 1, "b") == parse_stop("W3r")


def test_swap_signs() -> None:
    st = position(pieces={"1w": "W3r", "2b": "r2W"})
    assert "no piece of yours" in illegal(st, "W3rsr2W")
    after = apply_move(st, "W3rs!r2W")
    assert stop_of(after, 2, "b") == parse_stop("W3r")
    own = position(pieces={"1w": "W3r", "1b": "r2W"})
    assert "no other player's piece" in illegal(own, "W3rs!r2W")
    assert "swap with W3rs!r2W" in illegal(st, "W3r-r2W")


def test_ko_the_very_same_move_in_successive_turns() -> None:
    st = position(pieces={"1w": "W3r", "2b": "r2W"})
    st = play(st, "W3rs!r2W", "W3rs!r2W")  # seat 2 reverses the swap
    assert "Ko" in illegal(st, "W3rs!r2W")
    # Another move in between makes it legal again.
    moves = ["W-W1r", "B-B1R", "W1r-W2r", "B1R-B2R", "W2r-W1r", "B2R-B1R", "W1r-W2r"]
    st2 = play(initial_state(2), *moves)
    assert stop_of(st2, 1, "w") == parse_stop("W2r")


def test_going_out_places_a_grey_block() -> None:
    st = position(pieces={"1b": "b1Y"}, black=NO_BLACK_ON_B)
    assert "place a grey block" in illegal(st, "b1Y-b")
    after = apply_move(st, "b1Y-bzW2B")
    assert stop_of(after, 1, "b") == -1 and after.out[0] == (1,)
    assert parse_stop("W2B") in after.grey
    assert result(after).out_colours == (("blue",), ())
    assert "does not reach its goal" in illegal(st, "b1Y-b2YzW2B")


def test_abracadabra_black_then_grey() -> None:
    st = position(pieces={"1b": "b1Y"})
    after = apply_move(st, "b1Yxb:G2WzW2B")
    assert parse_stop("G2W") in after.black and parse_stop("W2B") in after.grey
    # The goal is empty once the piece is out, so the black block may go back on it.
    again = apply_move(st, "b1Yxb:bzW2B")
    assert parse_stop("b") in again.black
    assert "cannot go on" in illegal(st, "b1Yxb:G2WzG2W")


def test_no_grey_left_reposition_one() -> None:
    greys = ["W2B", "B2R", "R2Y", "Y2G", "G2W"]
    st = position(pieces={"1b": "b1Y"}, black=NO_BLACK_ON_B[:4] + ["W1r"], grey=greys)
    assert "z<from>><to>" in illegal(st, "b1Y-bzw2b")
    after = apply_move(st, "b1Y-bzW2B>w2b")
    assert parse_stop("w2b") in after.grey and parse_stop("W2B") not in after.grey
    assert "no grey block on" in illegal(st, "b1Y-bzW1B>w2b")
    reserve = position(pieces={"1b": "b1Y"}, black=NO_BLACK_ON_B)
    assert "still in the reserve" in illegal(reserve, "b1Y-bzW2B>w2b")


def test_taking_a_grey_on_the_goal_refills_the_reserve() -> None:
    greys = ["W2B", "B2R", "R2Y", "Y2G", "b"]
    st = position(pieces={"1b": "b1Y"}, black=NO_BLACK_ON_B[:4] + ["W1r"], grey=greys)
    after = apply_move(st, "b1YxbzG1W")
    assert parse_stop("G1W") in after.grey and after.grey.count(-1) == 0


def test_piece_put_on_its_goal_goes_out_on_its_owners_turn() -> None:
    st = position(pieces={"2w": "b", "1b": "b2Y"}, black=NO_BLACK_ON_B, to_move=2)
    st = apply_move(st, "bs!b2Y")
    assert stop_of(st, 1, "b") == parse_stop("b")  # it waits there
    assert "must go out this turn" in illegal(st, "W-W1r")
    assert [format_move(m) for m in legal_moves(st)] == ["bz"]
    after = apply_move(st, "bzW2B")
    assert after.out[0] == (1,) and stop_of(after, 1, "b") == -1 and after.to_move == 2
    assert "no piece of yours waits" in illegal(after, "WzW2B")


def test_own_swap_onto_goal_also_waits() -> None:
    st = position(pieces={"1w": "b", "1b": "b2Y"}, black=NO_BLACK_ON_B)
    st = play(st, "bsb2Y", "B-B1R")
    assert "must go out" in illegal(st, "b2Y-b3Y")
    assert apply_move(st, "bzW2B").out[0] == (1,)


def test_shared_corner_pieces_are_named() -> None:
    # Seat 1's blue swaps seat 2's white onto B, where seat 2's blue still stands.
    st = position(pieces={"2w": "W1B"})
    st = apply_move(st, "Bs!W1B")
    assert "name one: B[w], B[b]" in illegal(st, "B-B1R")
    after = apply_move(st, "B[w]-B1R")
    assert stop_of(after, 2, "w") == parse_stop("B1R")
    moves = {format_move(m) for m in legal_moves(st)}
    assert "B[w]-B1R" in moves and "B[b]-B1R" in moves


def test_foreign_swap_on_shared_corner_names_seat_and_colour() -> None:
    st = initial_state(3)
    assert "name whose, e.g. s!2" in illegal(st, "Gs!W")
    st = apply_move(st, "Gs!2W")
    assert stop_of(st, 2, "w") == parse_stop("G")
    st = apply_move(st, "B-B1R")  # seat 2
    assert "name one" in illegal(st, "Ws!G")  # seat 2's green and white stand on G
    after = apply_move(st, "Ws!G[w]")
    assert stop_of(after, 2, "w") == parse_stop("W")
    assert format_move(legal_moves(st)[0]).startswith("W")


def test_round_is_played_out_and_ties_are_possible() -> None:
    out = {1: "wg", 2: "wg"}
    pieces = {"1w": "out", "1g": "out", "2w": "out", "2g": "out", "1b": "b1Y", "2b": "b2G"}
    st = position(pieces=pieces, black=NO_BLACK_ON_B, out=out)
    st = apply_move(st, "b1Y-bzW2B")
    assert not st.finished and st.to_move == 2  # seat 2 may still tie
    tie = apply_move(st, "b2G-bzW1B")
    assert tie.finished and tie.to_move is None and result(tie).winners == (1, 2)
    win = apply_move(st, "pass")
    assert win.finished and result(win).winners == (1,) and result(win).out == (3, 2)
    assert illegal(win, "W-W1r") == "the game is over"
    assert legal_moves(win) == []


def test_pass_is_a_lost_turn() -> None:
    st = apply_move(initial_state(2), "pass")
    assert st.to_move == 2 and st.pieces == initial_state(2).pieces
    assert "pass" not in {format_move(m) for m in legal_moves(initial_state(2))}


def test_teams_need_five_out_between_partners() -> None:
    pieces = {"1w": "out", "1g": "out", "1r": "out", "3w": "out", "1b": "b1Y"}
    st = position(4, "teams", pieces=pieces, black=NO_BLACK_ON_B, out={1: "wgr", 3: "w"})
    st = play(st, "b1Y-bzW2B", "pass", "pass")
    assert not st.finished
    st = apply_move(st, "pass")
    assert st.finished and result(st).winners == (1, 3) and result(st).team_out == (5, 0)


def test_teams_partner_swap_is_a_foreign_swap() -> None:
    st = position(4, "teams", pieces={"1w": "W3r", "3b": "r2W"})
    after = apply_move(st, "W3rs!r2W")
    assert stop_of(after, 3, "b") == parse_stop("W3r")


def test_player_with_no_piece_left_passes() -> None:
    pieces = {f"1{c}": "out" for c in "wbryg"}
    st = position(4, "teams", pieces=pieces, out={1: "wbryg"})
    assert [format_move(m) for m in legal_moves(st)] == ["pass"]


def test_five_players_one_colour_each() -> None:
    st = initial_state(5)
    assert st.pieces == tuple(s for s in range(5) for _ in range(4))
    moves = {format_move(m) for m in legal_moves(st)}
    assert "W-W1r" in moves and not any("[" in m for m in moves)
    st = position(5, pieces={"1a": "w1R"}, black=["W1B", "b", "r", "y", "g"])
    after = apply_move(st, "w1R-wzG2W")
    assert after.out[0] == (0,)
    three = position(5, pieces={"1a": "out", "1b": "out", "1c": "w1R"}, out={1: "ww"})
    three = position(
        5,
        pieces={"1a": "out", "1b": "out", "1c": "w1R"},
        black=["W1B", "b", "r", "y", "g"],
        out={1: "ww"},
    )
    done = play(three, "w1R-wzG2W", "pass", "pass", "pass", "pass")
    assert done.finished and result(done).winners == (1,)


def test_inside_out_starts_on_crossings() -> None:
    st = initial_state(2, "inside-out")
    assert st.pieces == (5, 6, 7, 8, 9) * 2 and st.black == (0, 1, 2, 3, 4)
    assert stop_of(apply_move(st, "w-w1b"), 1, "w") == parse_stop("w1b")
    near = position(2, "inside-out", pieces={"1w": "W1B"}, black=["B", "R", "Y", "G", "b1r"])
    assert apply_move(near, "W1B-WzG2W").out[0] == (0,)


@pytest.mark.parametrize(
    ("players", "variant", "reason"),
    [
        (1, "standard", "2 to 5 players"),
        (3, "teams", "needs players=4"),
        (2, "five", "needs players=5"),
        (2, "chess", "unknown variant"),
    ],
)
def test_bad_variants(players: int, variant: str, reason: str) -> None:
    with pytest.raises(IllegalMove) as exc:
        initial_state(players, variant)
    assert reason in exc.value.reason
