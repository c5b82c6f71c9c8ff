"""Positions and moves: placing tokens (phase I), then moving tokens and strings of
tokens (phase II); gem captures, extra moves, the instant win, teams and coin flips.
See docs/rules-pentacosmos.md for every reading of the rules text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .board import ADJ, GEMS, GEMS_AT, SPACES, WIN_POINTS
from .errors import IllegalMove
from .notation import PASS, Move

OPTIONS: Final = ("teams", "coin")
COLOURS: Final = ("red", "blue", "green", "yellow")


@dataclass(frozen=True, slots=True)
class State:
    """A position between two plies.

    board: per space 1..N the 1-based seat of its token, 0 when free (index 0 unused).
    placed: tokens each seat has put on the board (phase I ends when all are placed).
    gems: per gem of board.GEMS the 1-based seat that captured it, 0 while on the board.
    moves_left: moves the seat to move still has this turn (0 while a coin flip is due).
    """

    players: int
    variant: str
    tokens: int
    board: tuple[int, ...]
    placed: tuple[int, ...]
    gems: tuple[int, ...]
    to_move: int | None
    moves_left: int
    ply: int
    finished: bool


def parse_variant(players: int, variant: str, tokens: int) -> tuple[bool, bool]:
    """(teams, coin) of a setup; raises IllegalMove."""
    if players not in (2, 3, 4):
        raise IllegalMove("PentaCosmos is played by 2, 3 or 4 players")
    parts = [] if variant == "standard" else variant.split("+")
    for p in parts:
        if p not in OPTIONS:
            raise IllegalMove(
                f"unknown variant {variant!r}: write `standard` or options joined by `+` "
                "(teams, coin)"
            )
    teams = "teams" in parts
    if teams and players != 4:
        raise IllegalMove("teams need 4 players")
    allowed = (25, 30) if players == 4 else (30,)
    if tokens not in allowed:
        raise IllegalMove(
            f"with {players} players each has {' or '.join(map(str, allowed))} tokens"
        )
    if tokens * players > SPACES:
        raise IllegalMove("the board has too few spaces for these tokens")
    return teams, "coin" in parts


class Position:
    """A mutable position for fast replay and move generation."""

    def __init__(self, players: int, variant: str = "standard", tokens: int = 30) -> None:
        self.teams, self.coin = parse_variant(players, variant, tokens)
        self.players = players
        self.variant = variant
        self.tokens = tokens
        self.board = [0] * (SPACES + 1)
        self.placed = [0] * players
        self.gems = [0] * len(GEMS)
        self.seat = 1
        self.moves_left = 1
        self.ply = 0
        self.finished = False

    @classmethod
    def start(cls, players: int, variant: str = "standard", tokens: int = 30) -> Position:
        return cls(players, variant, tokens)

    @classmethod
    def from_state(cls, state: State) -> Position:
        game = cls(state.players, state.variant, state.tokens)
        game.board = list(state.board)
        game.placed = list(state.placed)
        game.gems = list(state.gems)
        game.seat = state.to_move or 1
        game.moves_left = state.moves_left
        game.ply = state.ply
        game.finished = state.finished
        return game

    def state(self) -> State:
        return State(
            players=self.players,
            variant=self.variant,
            tokens=self.tokens,
            board=tuple(self.board),
            placed=tuple(self.placed),
            gems=tuple(self.gems),
            to_move=None if self.finished else self.seat,
            moves_left=self.moves_left,
            ply=self.ply,
            finished=self.finished,
        )

    # -- sides and points ---------------------------------------------------------------

    def side(self, seat: int) -> int:
        """The side of a seat: the seat itself, or 1/2 for the teams of seats 1+3, 2+4."""
        return (seat - 1) % 2 + 1 if self.teams else seat

    def points(self) -> list[int]:
        """Gem points per seat (with teams: the team's points for both members)."""
        own = [0] * self.players
        for gem, seat in zip(GEMS, self.gems, strict=True):
            if seat:
                own[seat - 1] += gem.value
        if self.teams:
            return [own[s] + own[(s + 2) % 4] for s in range(4)]
        return own

    @property
    def phase(self) -> int:
        return 1 if sum(self.placed) < self.tokens * self.players else 2

    @property
    def awaiting_coin(self) -> bool:
        return self.phase == 2 and self.coin and self.moves_left == 0

    # -- captures -------------------------------------------------------------------

    def _capture(self, touched: set[int]) -> bool:
        """Capture every gem whose ring is now filled by one side; True when the mover's
        side captured at least one."""
        mine = False
        mover = self.side(self.seat)
        board = self.board
        for k in sorted({k for s in touched for k in GEMS_AT[s]}):
            if self.gems[k]:
                continue
            seats = [board[s] for s in GEMS[k].ring]
            if 0 in seats:
                continue
            sides = {self.side(s) for s in seats}
            if len(sides) != 1:
                continue
            side = sides.pop()
            if side == mover:
                self.gems[k] = self.seat
                mine = True
            else:  # credited to the member with most tokens around it (lower seat on a tie)
                self.gems[k] = max(sorted(set(seats)), key=seats.count)
        return mine

    def _check_end(self) -> None:
        pts = self.points()
        if max(pts) >= WIN_POINTS or all(self.gems):
            self.finished = True

    # -- moves ----------------------------------------------------------------------

    def check_path(self, path: tuple[int, ...]) -> str | None:
        """Why a phase-II path is illegal for the seat to move, or None."""
        board = self.board
        for s in path:
            if not 1 <= s <= SPACES:
                return f"there is no space {s} (spaces are 1 to {SPACES})"
        if len(set(path)) != len(path):
            return "a string cannot move back upon itself: the path visits a space twice"
        for a, b in zip(path, path[1:], strict=False):
            if b not in ADJ[a]:
                return f"spaces {a} and {b} do not share an edge"
        if board[path[0]] != self.seat:
            owner = board[path[0]]
            whose = "no token" if owner == 0 else f"a {COLOURS[owner - 1]} token"
            return f"space {path[0]} holds {whose}; move one of your own ({COLOURS[self.seat - 1]})"
        for s in path[1:-1]:
            if board[s] == 0:
                return f"a string must be contiguous: space {s} is free"
        if board[path[-1]] != 0:
            return f"space {path[-1]} is taken: a move ends on a free space"
        return None

    def apply(self, move: Move) -> None:
        if self.finished:
            raise IllegalMove("the game is over")
        if self.phase == 1:
            if move.kind != "place":
                raise IllegalMove("phase I: place a token on a free space (write its number)")
            s = move.path[0]
            if not 1 <= s <= SPACES:
                raise IllegalMove(f"there is no space {s} (spaces are 1 to {SPACES})")
            if self.board[s]:
                raise IllegalMove(f"space {s} is taken")
            self.board[s] = self.seat
            self.placed[self.seat - 1] += 1
            self._capture({s})  # no extra turn in phase I
            self._check_end()
            self._next_turn()
            if self.phase == 2:
                self.moves_left = 0 if self.coin else 1
        elif self.awaiting_coin:
            if move.kind != "coin":
                raise IllegalMove("the coin flip of this turn comes first: `coin:1` or `coin:2`")
            self.moves_left = move.coin
        elif move.kind == "pass":
            if self.has_move():
                raise IllegalMove("a player who can move may not pass")
            self._end_turn()
        elif move.kind == "path":
            reason = self.check_path(move.path)
            if reason is not None:
                raise IllegalMove(reason)
            path = move.path
            board = self.board
            for i in range(len(path) - 1, 0, -1):
                board[path[i]] = board[path[i - 1]]
            board[path[0]] = 0
            extra = self._capture(set(path))
            self._check_end()
            self.moves_left -= 1
            if extra:
                self.moves_left += 1
            if self.moves_left == 0:
                self._end_turn()
        elif move.kind == "coin":
            raise IllegalMove("no coin flip is due now" if self.coin else "no coin flips here")
        else:
            raise IllegalMove("phase II: move a token or a string (`17-18`, `17-18-25`)")
        self.ply += 1

    def _next_turn(self) -> None:
        self.seat = self.seat % self.players + 1

    def _end_turn(self) -> None:
        self._next_turn()
        self.moves_left = 0 if self.coin else 1

    # -- move generation --------------------------------------------------------------

    def has_move(self) -> bool:
        """Whether a token of the seat to move can reach a free space through tokens."""
        board = self.board
        seen: set[int] = set()
        for start in range(1, SPACES + 1):
            if board[start] != self.seat or start in seen:
                continue
            stack = [start]
            seen.add(start)
            while stack:
                s = stack.pop()
                for t in ADJ[s]:
                    if board[t] == 0:
                        return True
                    if t not in seen:
                        seen.add(t)
                        stack.append(t)
        return False

    def paths(self, max_tokens: int) -> list[tuple[int, ...]]:
        """Every legal path that moves at most `max_tokens` tokens."""
        board = self.board
        out: list[tuple[int, ...]] = []

        def walk(path: list[int]) -> None:
            for t in ADJ[path[-1]]:
                if t in path:
                    continue
                if board[t] == 0:
                    out.append((*path, t))
                elif len(path) < max_tokens:
                    path.append(t)
                    walk(path)
                    path.pop()

        for s in range(1, SPACES + 1):
            if board[s] == self.seat:
                walk([s])
        return out

    def legal_moves(self, max_tokens: int = 3) -> list[Move]:
        """The legal moves; in phase II only strings of at most `max_tokens` tokens are
        listed (longer ones are legal too, but their number grows exponentially)."""
        if self.finished:
            return []
        if self.phase == 1:
            return [Move("place", (s,)) for s in range(1, SPACES + 1) if self.board[s] == 0]
        if self.awaiting_coin:
            return [Move("coin", (), 1), Move("coin", (), 2)]
        moves = [Move("path", p) for p in self.paths(max_tokens)]
        if not moves:
            if not self.has_move():
                return [PASS]
            moves = [Move("path", p) for p in self.paths(SPACES)]
        return moves


def initial_state(players: int, variant: str = "standard", tokens: int = 30) -> State:
    return Position.start(players, variant, tokens).state()


def apply_move(state: State, move: Move) -> State:
    """The position after `move`; raises IllegalMove."""
    game = Position.from_state(state)
    game.apply(move)
    return game.state()


def legal_moves(state: State, max_tokens: int = 3) -> list[Move]:
    return Position.from_state(state).legal_moves(max_tokens)
