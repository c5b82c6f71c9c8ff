"""The board pictures of Pantarei, Pentamid Twist, Pent-Up and PentaCosmos, on positions
of random legal games: every scale, piece, tile, token and gem of the position is drawn
exactly once, and the drawing fits its viewBox. No database, no browser."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games import pantarei, pent_up, pentacosmos, pentamid_twist, rulesets
from games.pantarei.playout import random_record as pantarei_record
from games.pent_up.playout import random_game as pent_up_game
from games.pentacosmos.board import GEMS
from games.pentacosmos.playout import random_game as cosmos_game
from games.pentamid_twist.board import square_name
from games.pentamid_twist.playout import random_record as twist_record
from games.pentamid_twist.rules import NESTS
from games.pictures import pantarei as pantarei_picture
from games.pictures import pent_up as pent_up_picture
from games.pictures import pentacosmos as cosmos_picture
from games.pictures import pentamid_twist as twist_picture
from games.pictures.shapes import Picture


def things(picture: Picture) -> Counter[str]:
    return Counter(s["thing"] for s in picture["shapes"] if "thing" in s)


def plies_to_check(moves: list[str]) -> list[int]:
    n = len(moves)
    return sorted({0, 1, min(2, n), n // 3, n // 2, (2 * n) // 3, n})


def points_of(shape: dict[str, Any]) -> list[tuple[float, float]]:
    kind = shape["type"]
    if kind in ("polygon", "polyline"):
        return list(shape["points"])
    if kind in ("rect",):
        return [(shape["x"], shape["y"]), (shape["x"] + shape["w"], shape["y"] + shape["h"])]
    if kind == "circle":
        r = shape["r"]
        return [(shape["x"] - r, shape["y"] - r), (shape["x"] + r, shape["y"] + r)]
    if kind == "ellipse":
        return [
            (shape["x"] - shape["rx"], shape["y"] - shape["ry"]),
            (shape["x"] + shape["rx"], shape["y"] + shape["ry"]),
        ]
    if kind == "text":
        return [(shape["x"], shape["y"])]
    return []


def assert_well_formed(picture: Picture, players: int) -> None:
    x0, y0, w, h = (float(v) for v in picture["viewbox"].split())
    assert w > 0 and h > 0
    for shape in picture["shapes"]:
        for x, y in points_of(dict(shape)):
            assert x0 - 1e-6 <= x <= x0 + w + 1e-6, shape
            assert y0 - 1e-6 <= y <= y0 + h + 1e-6, shape
    assert len(picture["seats"]) == players
    assert picture["to_move"] is None or 0 <= picture["to_move"] < players
    assert all(0 <= s < players for s in picture["winners"])
    if picture["finished"]:
        assert picture["to_move"] is None
    else:
        assert picture["winners"] == []
    assert picture["title"]


def test_the_registry_gives_the_four_games_a_picture_and_pentagame_none():
    for name in ("pantarei", "pentamid_twist", "pent_up", "pentacosmos"):
        assert rulesets.get(name).picture is not None
        assert rulesets.get(name).start is not None
    assert rulesets.get("pentagame").picture is None


# --- Pantarei -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pantarei_draws_every_scale_once(seed):
    record = pantarei_record(seed=seed)
    for ply in plies_to_check(record["moves"]):
        state = pantarei.replay({**record, "moves": record["moves"][:ply]}).state
        last = record["moves"][ply - 1] if ply else None
        picture = pantarei_picture.picture(state, last)
        drawn = things(picture)
        expected = Counter(
            f"scale {slot + 1}.{level}"
            for slot, stack in enumerate(state.slots)
            for level in range(len(stack))
        )
        assert drawn == expected
        assert sum(drawn.values()) == 19
        assert_well_formed(picture, 2)
        # The scale's tooltip names it, top scale included.
        titles = [s["title"] for s in picture["shapes"] if "thing" in s]
        assert sum("neutral" in t for t in titles) == 1


def test_pantarei_marks_the_last_move_and_the_snake_order():
    record = pantarei_record(seed=4)
    state = pantarei.replay({**record, "moves": record["moves"][:5]}).state
    move = pantarei.parse_move(record["moves"][4])
    picture = pantarei_picture.picture(state, record["moves"][4])
    marks = [s for s in picture["shapes"] if s.get("cls") == "fb-last"]
    assert len(marks) == (0 if move.kind == "pass" else 2)
    # Consecutive slots are next to each other on the snake.
    for a in range(18):
        (xa, ya), (xb, yb) = pantarei_picture.slot_xy(a), pantarei_picture.slot_xy(a + 1)
        assert abs(xa - xb) + abs(ya - yb) == pytest.approx(
            pantarei_picture.DX if ya == yb else pantarei_picture.DY
        )


# --- Pentamid Twist -------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pentamid_twist_draws_every_piece_once_on_the_board_or_in_a_reserve(seed):
    record = twist_record(seed=seed)
    for ply in plies_to_check(record["moves"]):
        state = pentamid_twist.replay({**record, "moves": record["moves"][:ply]}).state
        last = record["moves"][ply - 1] if ply else None
        picture = twist_picture.picture(state, last)
        drawn = things(picture)
        assert all(n == 1 for n in drawn.values())
        board = {t for t in drawn if t.startswith("board ")}
        assert board == {
            f"board {square_name(sq)}.{level}"
            for sq, stack in enumerate(state.board)
            for level in range(len(stack))
        }
        for seat in (0, 1):
            large, medium, small = state.reserve[seat]
            reserve = [t for t in drawn if t.startswith(f"reserve {seat}.")]
            assert len(reserve) == 3 * large + 2 * medium + small
            # A nest holds its top piece and every smaller one (zero counts dropped).
            assert Counter(t[-1] for t in reserve) == +Counter(
                {"L": large, "M": large + medium, "S": large + medium + small}
            )
            assert large + medium + small <= NESTS
        assert sum(drawn.values()) == 30  # 15 pyramids a player, wherever they are
        assert_well_formed(picture, 2)


def test_pentamid_twist_hints_covered_pieces_and_marks_the_turned_coaster():
    record = twist_record(seed=5)
    for ply in range(len(record["moves"]) + 1):
        state = pentamid_twist.replay({**record, "moves": record["moves"][:ply]}).state
        if any(len(st) > 1 for st in state.board):
            break
    else:
        pytest.skip("no covered piece in this game")
    picture = twist_picture.picture(state, record["moves"][ply - 1])
    hints = [s for s in picture["shapes"] if s.get("title", "").startswith("covered:")]
    assert len(hints) == sum(len(st) - 1 for st in state.board if st)
    coaster = record["moves"][ply - 1].split()[1].rstrip("+-")
    turned = [
        s
        for s in picture["shapes"]
        if s.get("cls") == "fb-last" and "coaster" in s.get("title", "")
    ]
    assert [s["title"].split()[1] for s in turned] == [coaster]


# --- Pent-Up -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_pent_up_draws_every_placed_tile_once_inside_the_box_of_the_tiles(players, seed):
    moves = pent_up_game(players, seed=seed)
    for ply in plies_to_check(moves):
        result = pent_up.replay({"players": players, "moves": moves[:ply]})
        state = result.state
        picture = pent_up_picture.picture(state, moves[ply - 1] if ply else None)
        drawn = things(picture)
        assert drawn == Counter(f"tile {t.seat}.{t.piece}" for t in state.tiles)
        assert_well_formed(picture, players)
        # Each tile's outline has as many squares inside as the pentomino: 5.
        for shape in picture["shapes"]:
            if "thing" in shape:
                ring = shape["points"]
                area = sum(
                    x0 * y1 - x1 * y0
                    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True)
                )
                assert abs(area) / 2 == pytest.approx(5)
        # Lower tiles come first, so a tile is drawn over the ones it rests on.
        levels = [
            int(s["title"].split(" on level ")[1].split()[0])
            for s in picture["shapes"]
            if "thing" in s
        ]
        assert levels == sorted(levels)
        if ply == len(moves):
            assert picture["finished"] and picture["winners"]


def test_pent_up_outline_of_each_pentomino_is_one_loop():
    from games.pent_up.pieces import SHAPES

    for shape in SHAPES.values():
        loop = pent_up_picture.outline(shape)
        assert len(loop) >= 4 and len(set(loop)) == len(loop)


def test_pent_up_without_tiles_says_so():
    picture = pent_up_picture.picture(pent_up.initial_state(2))
    assert things(picture) == Counter()
    assert any(s.get("text") == "No tile yet" for s in picture["shapes"])
    assert picture["to_move"] == 0


# --- PentaCosmos -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "variant", "seed"), [(2, "standard", 1), (3, "standard", 2), (4, "teams+coin", 3)]
)
def test_pentacosmos_draws_every_token_and_every_gem_once(players, variant, seed):
    moves = cosmos_game(players, variant, seed=seed, greedy=True, max_plies=220)
    for ply in plies_to_check(moves):
        record = {"players": players, "variant": variant, "moves": moves[:ply]}
        state = pentacosmos.replay(record).state
        picture = cosmos_picture.picture(state, moves[ply - 1] if ply else None)
        drawn = things(picture)
        tokens = {t for t in drawn if t.startswith("token ")}
        assert tokens == {f"token {s}" for s, seat in enumerate(state.board) if s and seat}
        gems = {t for t in drawn if t.startswith("gem ")}
        assert gems == {f"gem {g.name}" for g in GEMS}
        assert all(n == 1 for n in drawn.values())
        assert_well_formed(picture, players)
        taken = [s for s in picture["shapes"] if "taken by" in s.get("title", "")]
        assert len(taken) == sum(1 for t in state.gems if t)


def test_pentacosmos_board_is_drawn_from_board_json():
    from games.pentacosmos.board import BOARD

    polys = cosmos_picture.space_polygons()
    assert len(polys) == BOARD.size + 1
    assert [len(p) for p in polys[1:]] == [len(c) for c in BOARD.corners[1:]]
    kinds = Counter(g.kind for g in GEMS)
    assert kinds == {"sun": 10, "moon": 10, "star": 6, "crystal": 5}
    # A gem's middle lies among the spaces of its ring.
    for (_, (x, y), _), gem in zip(cosmos_picture.gem_regions(), GEMS, strict=True):
        centres = [cosmos_picture.centroid(polys[s]) for s in gem.ring]
        assert min(cx for cx, _ in centres) < x < max(cx for cx, _ in centres)
        assert min(cy for _, cy in centres) < y < max(cy for _, cy in centres)
