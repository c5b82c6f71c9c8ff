"""Positions and placements: the table as a height map over an unbounded grid.

A tile may lie on the table (level 1) next to a tile already there, or atop at least
two tiles (level n + 1 over five squares all of height n); it must lie on the highest
level the chosen tile can reach in any orientation and position (docs/rules-pent-up.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .errors import IllegalMove
from .notation import Move
from .pieces import COLOURS, ORIENTATIONS, PIECES, SHAPES, Cell

VARIANTS: Final = ("standard", "misere")
TILES_PER_SEAT: Final = len(PIECES)
_STEPS: Final = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile on the table. seat is 1-based; level 1 is the table."""

    seat: int
    piece: str
    level: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class State:
    """A position between two plies. With 4 players seats 1+3 and 2+4 are pairs.
    hands: per seat, the letters of the tiles not yet placed. to_move: 1-based seat,
    None once every tile is placed."""

    players: int
    variant: str
    tiles: tuple[Tile, ...]
    hands: tuple[tuple[str, ...], ...]
    to_move: int | None
    ply: int
    finished: bool


def check_setup(players: int, variant: str) -> None:
    if players not in (2, 3, 4):
        raise IllegalMove("Pent-Up is played by 2, 3 or 4 (2 vs 2) players")
    if variant not in VARIANTS:
        raise IllegalMove(f"unknown variant {variant!r}; known: {', '.join(VARIANTS)}")


class Position:
    """A mutable position for fast replay and move generation."""

    def __init__(self, players: int, variant: str = "standard") -> None:
        check_setup(players, variant)
        self.players = players
        self.variant = variant
        self.tiles: list[Tile] = []
        self.height: dict[Cell, int] = {}
        self.top: dict[Cell, int] = {}  # index in tiles of the tile seen from above
        self.hands: list[set[str]] = [set(PIECES) for _ in range(players)]
        self.ply = 0

    @classmethod
    def start(cls, players: int, variant: str = "standard") -> Position:
        return cls(players, variant)

    @classmethod
    def from_state(cls, state: State) -> Position:
        game = cls(state.players, state.variant)
        for tile in state.tiles:
            game._place(tile)
        return game

    @property
    def finished(self) -> bool:
        return self.ply >= TILES_PER_SEAT * self.players

    @property
    def seat(self) -> int:
        """The 1-based seat to move."""
        return self.ply % self.players + 1

    def state(self) -> State:
        return State(
            players=self.players,
            variant=self.variant,
            tiles=tuple(self.tiles),
            hands=tuple(tuple(p for p in PIECES if p in h) for h in self.hands),
            to_move=None if self.finished else self.seat,
            ply=self.ply,
            finished=self.finished,
        )

    # -- where a tile can lie -------------------------------------------------------

    def level_of(self, cells: tuple[Cell, ...]) -> int | str:
        """The level a tile on these squares would lie on, or why it cannot lie there."""
        height = self.height
        levels = {height.get(c, 0) for c in cells}
        if len(levels) > 1:
            shown = ", ".join(str(h) for h in sorted(levels))
            return (
                f"the tile would not lie flat: its squares are over stacks {shown} high "
                "(every square must be supported)"
            )
        h = levels.pop()
        if h == 0:
            if not self.tiles:
                return 1
            for x, y in cells:
                for dx, dy in _STEPS:
                    if height.get((x + dx, y + dy), 0):
                        return 1
            return "a tile on the table must be next to a tile already on the table"
        under = {self.top[c] for c in cells}
        if len(under) < 2:
            return "a tile on top of others must rest on at least 2 tiles, not 1"
        return h + 1

    def _frontier(self) -> set[Cell]:
        height = self.height
        out: set[Cell] = set()
        for x, y in height:
            for dx, dy in _STEPS:
                c = (x + dx, y + dy)
                if c not in height:
                    out.add(c)
        return out

    def placements(
        self, piece: str, first_only: bool = False
    ) -> tuple[int, list[tuple[bool, int, int, int]]]:
        """The highest level `piece` can reach and its placements (flip, turns, x, y) on
        that level, one orientation per distinct shape. The first tile of the game may
        go anywhere; only its placements at the origin are listed."""
        orients = [(f, r, SHAPES[(piece, f, r)]) for f, r in ORIENTATIONS[piece]]
        if not self.tiles:
            return 1, [(f, r, 0, 0) for f, r, _ in orients]
        height = self.height
        top = self.top
        by_height: dict[int, list[Cell]] = {}
        for c, h in height.items():
            by_height.setdefault(h, []).append(c)
        for h in sorted(by_height, reverse=True):
            found: list[tuple[bool, int, int, int]] = []
            squares = by_height[h]
            for f, r, shape in orients:
                anchors = {(cx - ox, cy - oy) for cx, cy in squares for ox, oy in shape}
                for ax, ay in anchors:
                    cells = [(ax + ox, ay + oy) for ox, oy in shape]
                    if all(height.get(c, 0) == h for c in cells):
                        first = top[cells[0]]
                        if any(top[c] != first for c in cells):
                            found.append((f, r, ax, ay))
                            if first_only:
                                return h + 1, found
            if found:
                found.sort()
                return h + 1, found
        frontier = self._frontier()
        ground: list[tuple[bool, int, int, int]] = []
        for f, r, shape in orients:
            anchors = {(cx - ox, cy - oy) for cx, cy in frontier for ox, oy in shape}
            for ax, ay in anchors:
                if all((ax + ox, ay + oy) not in height for ox, oy in shape):
                    ground.append((f, r, ax, ay))
                    if first_only:
                        return 1, ground
        ground.sort()
        return 1, ground

    def highest_level(self, piece: str) -> int:
        return self.placements(piece, first_only=True)[0]

    # -- making a move -------------------------------------------------------------

    def check(self, move: Move) -> Tile:
        """The tile a move would place; raises IllegalMove with the reason."""
        if self.finished:
            raise IllegalMove("the game is over: every tile has been placed")
        seat = self.seat
        if move.piece not in self.hands[seat - 1]:
            raise IllegalMove(f"{COLOURS[seat - 1]} has already placed the {move.piece}")
        shape = SHAPES[(move.piece, move.flip, move.turns)]
        cells = tuple((move.x + ox, move.y + oy) for ox, oy in shape)
        level = self.level_of(cells)
        if isinstance(level, str):
            raise IllegalMove(level)
        best = self.highest_level(move.piece)
        if level < best:
            raise IllegalMove(
                f"the {move.piece} can reach level {best}, so it must be placed there, "
                f"not on level {level}"
            )
        if move.level is not None and move.level != level:
            raise IllegalMove(f"that placement lies on level {level}, not {move.level}")
        return Tile(seat, move.piece, level, cells)

    def apply(self, move: Move) -> Tile:
        tile = self.check(move)
        self._place(tile)
        return tile

    def _place(self, tile: Tile) -> None:
        index = len(self.tiles)
        self.tiles.append(tile)
        for c in tile.cells:
            self.height[c] = tile.level
            self.top[c] = index
        self.hands[tile.seat - 1].discard(tile.piece)
        self.ply += 1

    def legal_moves(self) -> list[Move]:
        if self.finished:
            return []
        out: list[Move] = []
        for piece in PIECES:
            if piece in self.hands[self.seat - 1]:
                level, spots = self.placements(piece)
                out.extend(Move(piece, f, r, x, y, level) for f, r, x, y in spots)
        return out


def initial_state(players: int, variant: str = "standard") -> State:
    return Position.start(players, variant).state()


def apply_move(state: State, move: Move) -> State:
    """The position after `move`; raises IllegalMove."""
    game = Position.from_state(state)
    game.apply(move)
    return game.state()


def legal_moves(state: State) -> list[Move]:
    return Position.from_state(state).legal_moves()
