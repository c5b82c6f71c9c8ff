"""Variants, the game state and applying a move.

`State` is the public, immutable snapshot. `Position` is the mutable working copy used by
replay, move generation and the benchmark, so that a ply costs a few list writes instead
of a new object graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .board import (
    BLACK_BASE,
    COLOUR_NAMES,
    COLOURS,
    EMPTY,
    GREY_BASE,
    N_STOPS,
    OUT,
    corner,
    crossing,
)
from .errors import IllegalMove
from .notation import Move, format_move, format_stop, parse_move
from .paths import blocking_stop, reaches
from .playloop import play as _play_loop

VARIANT_FLAGS: Final = ("standard", "teams", "inside-out", "five")
# Every table a record can name, each variant of docs/rules.md: the game for 2 to 5
# players, the 2 vs 2 team game, and each of them inside out (book §3).
PLAYABLE_VARIANTS: Final = (
    (2, "standard"),
    (3, "standard"),
    (4, "standard"),
    (4, "teams"),
    (5, "standard"),
    (2, "inside-out"),
    (3, "inside-out"),
    (4, "inside-out"),
    (4, "teams+inside-out"),
    (5, "inside-out"),
)

KoKey = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything fixed by the number of players and the variant."""

    players: int
    variant: str
    teams: bool
    five: bool
    inside_out: bool
    owner: tuple[int, ...]  # seat (0-based) of each piece
    colour: tuple[int, ...]
    start: tuple[int, ...]
    goal: tuple[int, ...]
    seat_pieces: tuple[tuple[int, ...], ...]
    black_start: tuple[int, ...]

    def team_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    @property
    def win_out(self) -> int:
        return 5 if self.teams else 3


def rules_for(players: int, variant: str = "standard") -> Rules:
    """Rules for a record's `players` and `variant`; raises IllegalMove when unknown.

    variant is `standard`, `teams` (4 players, seats 1+3 against 2+4), `inside-out`
    (start on the crossings, goals are the corners) or `five` (5 players, one colour
    each; also implied by players=5), combined with `+`, e.g. `teams+inside-out`.
    """
    if not isinstance(players, int) or isinstance(players, bool):
        raise IllegalMove("`players` must be a whole number from 2 to 5")
    if not isinstance(variant, str):
        raise IllegalMove("`variant` must be a string")
    return _rules_for(players, variant)


@lru_cache(maxsize=64)
def _rules_for(players: int, variant: str) -> Rules:
    flags = {f.strip().lower() for f in variant.replace(",", "+").split("+") if f.strip()}
    unknown = flags - set(VARIANT_FLAGS)
    if unknown:
        raise IllegalMove(
            f"unknown variant `{sorted(unknown)[0]}` (known: standard, teams, inside-out, five)"
        )
    if not 2 <= players <= 5:
        raise IllegalMove(f"Pentagame is played by 2 to 5 players, not {players}")
    teams = "teams" in flags
    inside_out = "inside-out" in flags
    five = players == 5
    if "five" in flags and not five:
        raise IllegalMove("the five-player variant needs players=5")
    if teams and players != 4:
        raise IllegalMove("the team variant needs players=4")
    home, away = (crossing, corner) if inside_out else (corner, crossing)
    owner: list[int] = []
    colour: list[int] = []
    for seat in range(players):
        for k in range(4 if five else 5):
            owner.append(seat)
            colour.append(seat if five else k)
    seat_pieces = tuple(
        tuple(p for p in range(len(owner)) if owner[p] == s) for s in range(players)
    )
    names = ["teams"] if teams else []
    if five:
        # `standard` with 5 players is read as the five-player game and named so.
        names.append("five")
    if inside_out:
        names.append("inside-out")
    return Rules(
        players=players,
        variant="+".join(names) or "standard",
        teams=teams,
        five=five,
        inside_out=inside_out,
        owner=tuple(owner),
        colour=tuple(colour),
        start=tuple(home(c) for c in colour),
        goal=tuple(away(c) for c in colour),
        seat_pieces=seat_pieces,
        black_start=tuple(away(c) for c in range(5)),
    )


@dataclass(frozen=True, slots=True)
class State:
    """A position between two plies.

    pieces: stop of every piece (-1 when out); pieces are numbered seat by seat, colour by
    colour (w b r y g; in the five-player variant four alike pieces per seat).
    black, grey: stops of the 5 black and 5 grey blocks (grey -1 = in the reserve).
    last: per seat, (piece, from, to) of that seat's previous turn (Ko), or None.
    out: per seat, the colours of the pieces that went out, in order.
    to_move: 1-based seat, None once the game is over.
    """

    players: int
    variant: str
    pieces: tuple[int, ...]
    black: tuple[int, ...]
    grey: tuple[int, ...]
    to_move: int | None
    ply: int
    last: tuple[KoKey | None, ...]
    out: tuple[tuple[int, ...], ...]
    finished: bool

    @property
    def rules(self) -> Rules:
        return rules_for(self.players, self.variant)


def initial_state(players: int, variant: str = "standard") -> State:
    rules = rules_for(players, variant)
    return State(
        players=players,
        variant=rules.variant,
        pieces=rules.start,
        black=rules.black_start,
        grey=(OUT,) * 5,
        to_move=1,
        ply=0,
        last=(None,) * players,
        out=((),) * players,
        finished=False,
    )


class Position:
    """Mutable working copy of a State."""

    __slots__ = (
        "rules",
        "pos",
        "black",
        "grey",
        "cnt",
        "cell",
        "occ",
        "seat",
        "ply",
        "last",
        "out",
        "finished",
        "on_goal",
    )

    def __init__(self, state: State) -> None:
        self.rules = state.rules
        self.pos = list(state.pieces)
        self.black = list(state.black)
        self.grey = list(state.grey)
        self.seat = (state.to_move or 1) - 1
        self.ply = state.ply
        self.last: list[KoKey | None] = list(state.last)
        self.out = [list(o) for o in state.out]
        self.finished = state.finished
        self.cnt = [0] * N_STOPS
        self.cell = [EMPTY] * N_STOPS
        self.occ = 0
        things = [(p, s) for p, s in enumerate(self.pos)]
        things += [(BLACK_BASE + i, s) for i, s in enumerate(self.black)]
        things += [(GREY_BASE + i, s) for i, s in enumerate(self.grey)]
        r = self.rules
        self.on_goal = sum(1 for p, s in enumerate(self.pos) if s == r.goal[p])
        for thing, s in things:
            if s >= 0:
                # As every later change: a cell names a thing only when it is alone there.
                self._put(s, thing)

    @classmethod
    def start(cls, players: int, variant: str = "standard") -> Position:
        return cls(initial_state(players, variant))

    def state(self) -> State:
        return State(
            players=self.rules.players,
            variant=self.rules.variant,
            pieces=tuple(self.pos),
            black=tuple(self.black),
            grey=tuple(self.grey),
            to_move=None if self.finished else self.seat + 1,
            ply=self.ply,
            last=tuple(self.last),
            out=tuple(tuple(o) for o in self.out),
            finished=self.finished,
        )

    # --- bookkeeping -----------------------------------------------------------------

    def _take(self, stop: int, thing: int) -> None:
        c = self.cnt[stop] - 1
        self.cnt[stop] = c
        if c == 0:
            self.cell[stop] = EMPTY
            self.occ &= ~(1 << stop)
        elif c == 1:
            self.cell[stop] = self._only_piece(stop, thing)

    def _put(self, stop: int, thing: int) -> None:
        c = self.cnt[stop] + 1
        self.cnt[stop] = c
        self.cell[stop] = thing if c == 1 else -2
        self.occ |= 1 << stop

    def _only_piece(self, stop: int, leaving: int) -> int:
        for p, s in enumerate(self.pos):
            if s == stop and p != leaving:
                return p
        return EMPTY  # pragma: no cover - counts and positions always agree

    def pieces_on(self, stop: int) -> list[int]:
        c = self.cnt[stop]
        if c == 0:
            return []
        if c == 1:
            t = self.cell[stop]
            return [t] if t < BLACK_BASE else []
        return [p for p, s in enumerate(self.pos) if s == stop]

    def waiting(self) -> list[int]:
        """Pieces of the seat to move that stand on their goal and must go out."""
        r = self.rules
        return [p for p in r.seat_pieces[self.seat] if self.pos[p] == r.goal[p]]

    def describe(self, stop: int) -> str:
        """What stands on a stop, for error messages."""
        t = self.cell[stop]
        if self.cnt[stop] > 1:
            return f"{self.cnt[stop]} pieces"
        if t >= GREY_BASE:
            return "a grey block"
        if t >= BLACK_BASE:
            return "a black block"
        return f"seat {self.rules.owner[t] + 1}'s {COLOUR_NAMES[self.rules.colour[t]]} piece"

    def piece_label(self, p: int) -> str:
        if self.rules.five:
            return f"seat {self.rules.owner[p] + 1}'s piece"
        return f"{COLOUR_NAMES[self.rules.colour[p]]} piece"

    # --- applying a move --------------------------------------------------------------

    def apply(self, move: Move) -> None:
        """Apply a move in place, or raise IllegalMove and change nothing."""
        # Fast path: a lone piece that does not reach its goal moves to an empty stop,
        # swaps with a lone piece, or takes a block, with no piece named (nearly every
        # ply). Anything else, legal or not, takes the full path (`_apply`), which also
        # gives every illegal move its reason.
        kind, frm, to, piece, target, seat_no, black, grey, _ = move
        if (
            piece is None
            and target is None
            and grey is None
            and not self.on_goal
            and not self.finished
            and frm != to
        ):
            cnt = self.cnt
            cell = self.cell
            mover = cell[frm]
            r = self.rules
            seat = self.seat
            if (
                cnt[frm] == 1
                and mover < BLACK_BASE
                and r.owner[mover] == seat
                and to != r.goal[mover]
            ):
                key = (r.colour[mover] if r.five else mover, frm, to)
                last = self.last
                c = cnt[to]
                thing = cell[to]
                occ = self.occ
                pos = self.pos
                done = False
                if last[seat] == key or c > 1:
                    pass
                elif c == 0:
                    if kind == "-" and black is None and reaches(frm, to, occ):
                        pos[mover] = to
                        cnt[frm] = 0
                        cell[frm] = EMPTY
                        cnt[to] = 1
                        cell[to] = mover
                        self.occ = occ ^ (1 << frm) ^ (1 << to)
                        done = True
                elif thing < BLACK_BASE:
                    owner = r.owner[thing]
                    if (
                        black is None
                        and (
                            (kind == "s" and owner == seat)
                            or (
                                kind == "s!"
                                and owner != seat
                                and (seat_no is None or seat_no == owner + 1)
                            )
                        )
                        and reaches(frm, to, occ)
                    ):
                        pos[mover] = to
                        pos[thing] = frm
                        cell[frm] = thing
                        cell[to] = mover
                        goal = r.goal[thing]
                        if goal == frm:
                            self.on_goal += 1
                        elif goal == to:
                            self.on_goal -= 1
                        done = True
                elif kind == "x":
                    if thing >= GREY_BASE:
                        ok = black is None
                    else:
                        ok = black is not None and (black == frm or not cnt[black])
                    if ok and reaches(frm, to, occ):
                        pos[mover] = to
                        cnt[frm] = 0
                        cell[frm] = EMPTY
                        cell[to] = mover
                        occ ^= 1 << frm
                        if black is None:
                            self.grey[thing - GREY_BASE] = OUT
                        else:
                            self.black[thing - BLACK_BASE] = black
                            cnt[black] = 1
                            cell[black] = thing
                            occ |= 1 << black
                        self.occ = occ
                        done = True
                if done:
                    last[seat] = key
                    self.ply += 1
                    if seat + 1 == r.players:
                        self.seat = 0
                        self._round_complete()
                    else:
                        self.seat = seat + 1
                    return
        self._apply(move)

    def play(self, moves: Sequence[str]) -> tuple[int, str] | None:
        """Apply recorded moves (their texts) in turn, exactly as `apply` would one by
        one; stop at the first that cannot be read or is illegal and return its index and
        reason (None: every move applied). The loop lives in playloop.py (compiled, like
        the move generator, when its build is current)."""
        return _play_loop(self, moves)

    def _decided(self) -> bool:
        """Whether the game ends when the current round is complete (`_round_complete`'s
        test: pieces go out only on the full path, so it is asked again only there)."""
        out = self.out
        if self.rules.teams:
            return len(out[0]) + len(out[2]) >= 5 or len(out[1]) + len(out[3]) >= 5
        return any(len(o) >= 3 for o in out)

    def _apply(self, move: Move) -> None:
        """apply(), every kind of move, with every check and its reason."""
        if self.finished:
            raise IllegalMove("the game is over")
        kind = move.kind
        if kind == "pass":
            self._end_turn(None)
            return
        if kind == "z":
            self._move_out(move, self.waiting() if self.on_goal else [])
            return
        waiting = self.waiting() if self.on_goal else None
        if waiting:
            p = waiting[0]
            g = format_stop(self.pos[p])
            raise IllegalMove(
                f"your {self.piece_label(p)} stands on its goal {g} and must go out this "
                f"turn (write {g}z<stop>)"
            )
        r = self.rules
        seat = self.seat
        cnt = self.cnt
        cell = self.cell
        frm, to = move.frm, move.to
        mover = cell[frm]
        if cnt[frm] != 1 or mover >= BLACK_BASE or r.owner[mover] != seat or move.piece is not None:
            mover = self._mover(move)
        if frm == to:
            raise IllegalMove("a move must end on another stop")
        occ = self.occ
        if not reaches(frm, to, occ):
            block = blocking_stop(frm, to, occ)
            raise IllegalMove(
                f"the path from {format_stop(frm)} to {format_stop(to)} is blocked at "
                f"{format_stop(block)} ({self.describe(block)})"
            )
        # What stands on the target, and does the sign fit it?
        cnt_to = cnt[to]
        thing = cell[to]
        other = EMPTY
        if cnt_to == 0:
            if move.target is not None:
                raise IllegalMove(self._no_such_target(move, "it is empty", "-"))
            if kind != "-":
                raise IllegalMove(f"{format_stop(to)} is empty: write {_plain(move, '-')}")
        elif cnt_to == 1 and thing >= BLACK_BASE:
            if move.target is not None:
                held = f"it holds {self.describe(to)}"
                raise IllegalMove(self._no_such_target(move, held, "x"))
            self._check_take(move, thing)
        else:
            other = self._swap_partner(move, seat)
        if move.black is not None and kind != "x":
            raise IllegalMove("`:` re-places a taken black block, and this move takes none")
        key = (r.colour[mover] if r.five else mover, frm, to)
        if self.last[seat] == key:
            raise IllegalMove(
                "you made this very same move on your previous turn; it may not be "
                "repeated in immediate succession (Ko)"
            )
        goes_out = to == r.goal[mover]
        swap = other != EMPTY
        black_taken = grey_taken = -1
        if cnt_to and not swap:
            if thing >= GREY_BASE:
                grey_taken = thing - GREY_BASE
            else:
                black_taken = thing - BLACK_BASE
        if black_taken >= 0 or goes_out:

            def empty_after(s: int) -> bool:
                """Whether stop s is empty once the piece has moved."""
                c = cnt[s]
                if s == frm:
                    c += (1 if swap else 0) - 1
                if s == to:
                    c += (0 if goes_out else 1) - (1 if cnt_to else 0)
                return c == 0

            if black_taken >= 0:
                if move.black is None:
                    raise IllegalMove("taking a black block needs a stop to put it on")
                if not empty_after(move.black):
                    raise IllegalMove(
                        f"the black block cannot go on {format_stop(move.black)}: "
                        f"it is not empty ({self.describe(move.black)})"
                    )
            if goes_out:
                reserve = self.grey.count(OUT) + (1 if grey_taken >= 0 else 0)
                self._check_grey(move, reserve, empty_after, grey_taken)
        if not goes_out and move.grey is not None:
            raise IllegalMove(
                f"the {self.piece_label(mover)} does not reach its goal on "
                f"{format_stop(to)}, so no grey block is placed (no `z`)"
            )
        # All checks passed: change the position.
        if goes_out:
            self.pos[mover] = OUT
        else:
            self.pos[mover] = to
        if cnt[frm] == 1 and not swap:
            cnt[frm] = 0
            cell[frm] = EMPTY
            occ &= ~(1 << frm)
        else:
            self._take(frm, mover)
            occ = self.occ
        if swap:
            self._take(to, other)
            self.pos[other] = frm
            self._put(frm, other)
            if r.goal[other] == to:
                self.on_goal -= 1
            if r.goal[other] == frm:
                self.on_goal += 1
            occ = self.occ
        elif cnt_to:
            if black_taken >= 0:
                self.black[black_taken] = EMPTY
            else:
                self.grey[grey_taken] = OUT
            cnt[to] = 0
            cell[to] = EMPTY
            occ &= ~(1 << to)
        if not goes_out:
            c = cnt[to] + 1
            cnt[to] = c
            cell[to] = mover if c == 1 else -2
            occ |= 1 << to
        self.occ = occ
        if black_taken >= 0:
            if move.black is None:
                raise IllegalMove("taking a black block needs a stop to put it on")
            self.black[black_taken] = move.black
            self._put(move.black, BLACK_BASE + black_taken)
        if goes_out:
            self.out[seat].append(r.colour[mover])
            self._place_grey(move)
        # The turn passes on.
        self.last[seat] = key
        self.ply += 1
        if seat + 1 == r.players:
            self.seat = 0
            self._round_complete()
        else:
            self.seat = seat + 1

    @staticmethod
    def _no_such_target(move: Move, why: str, sign: str) -> str:
        """A bracket after the target names a piece to swap with; there is none there."""
        colour = COLOURS[move.target] if move.target is not None else "?"
        plain = move._replace(target=None, kind=sign, seat=None)
        if sign == "-":
            plain = plain._replace(black=None)
        return (
            f"`[{colour}]` after {format_stop(move.to)} names no piece there: {why} "
            f"(write {format_move(plain)})"
        )

    def _check_take(self, move: Move, thing: int) -> None:
        what = "grey" if thing >= GREY_BASE else "black"
        to = move.to
        if move.kind != "x":
            raise IllegalMove(
                f"{format_stop(to)} holds a {what} block: take it with {_plain(move, 'x')}"
                + (":<stop>" if what == "black" else "")
            )
        if what == "black" and move.black is None:
            raise IllegalMove(
                f"taking the black block on {format_stop(to)} needs the stop it is "
                f"re-placed on: {_plain(move, 'x')}:<stop>"
            )
        if what == "grey" and move.black is not None:
            raise IllegalMove("a grey block that is taken leaves the board: write no `:` after it")

    def _mover(self, move: Move) -> int:
        r = self.rules
        seat = self.seat
        frm = move.frm
        own = [p for p in self.pieces_on(frm) if r.owner[p] == seat]
        if not own:
            raise IllegalMove(f"you have no piece on {format_stop(frm)}")
        if move.piece is not None:
            named = [p for p in own if r.colour[p] == move.piece]
            if not named:
                raise IllegalMove(
                    f"you have no {COLOUR_NAMES[move.piece]} piece on {format_stop(frm)}"
                )
            return named[0]
        if len({r.colour[p] for p in own}) > 1:
            names = ", ".join(f"{format_stop(frm)}[{COLOURS[r.colour[p]]}]" for p in own)
            raise IllegalMove(f"you have several pieces on {format_stop(frm)}; name one: {names}")
        return own[0]

    def _swap_partner(self, move: Move, seat: int) -> int:
        r = self.rules
        to = move.to
        here = self.pieces_on(to)
        if move.kind == "s":
            cands = [p for p in here if r.owner[p] == seat]
            if not cands:
                foreign = "; to swap with another player's piece write s!" if here else ""
                raise IllegalMove(f"there is no piece of yours on {format_stop(to)}{foreign}")
        elif move.kind == "s!":
            cands = [p for p in here if r.owner[p] != seat]
            if not cands:
                raise IllegalMove(
                    f"there is no other player's piece on {format_stop(to)}"
                    + ("; to swap with your own piece write s" if here else "")
                )
            if move.seat is not None:
                cands = [p for p in cands if r.owner[p] == move.seat - 1]
                if not cands:
                    raise IllegalMove(f"seat {move.seat} has no piece on {format_stop(to)}")
            elif len({r.owner[p] for p in cands}) > 1:
                seats = sorted({r.owner[p] + 1 for p in cands})
                raise IllegalMove(
                    f"pieces of seats {', '.join(map(str, seats))} stand on "
                    f"{format_stop(to)}; name whose, e.g. s!{seats[0]}"
                )
        else:
            sign = "s" if any(r.owner[p] == seat for p in here) else "s!"
            raise IllegalMove(
                f"{format_stop(to)} holds {self.describe(to)}: swap with {_plain(move, sign)}"
            )
        if move.target is not None:
            named = [p for p in cands if r.colour[p] == move.target]
            if not named:
                raise IllegalMove(
                    f"there is no {COLOUR_NAMES[move.target]} piece to swap with on "
                    f"{format_stop(to)}"
                )
            return named[0]
        if len({r.colour[p] for p in cands}) > 1:
            names = ", ".join(f"{format_stop(to)}[{COLOURS[r.colour[p]]}]" for p in sorted(cands))
            raise IllegalMove(f"several pieces stand on {format_stop(to)}; name one: {names}")
        return cands[0]

    def _check_grey(
        self, move: Move, reserve: int, empty_after: Callable[[int], bool], taken: int
    ) -> None:
        if move.grey is None:
            raise IllegalMove(
                "the piece reaches its goal and goes out: place a grey block with z<stop>"
                + ("" if reserve else " (none is left in the reserve: z<from>><to>)")
            )
        g = move.grey
        placed_black = move.black if move.kind == "x" else None
        if reserve:
            if move.grey_from is not None:
                raise IllegalMove(
                    "grey blocks are still in the reserve: place one with z<stop>, without `>`"
                )
        else:
            src = move.grey_from
            if src is None:
                raise IllegalMove(
                    "no grey block is left in the reserve: move one on the board with z<from>><to>"
                )
            if src not in self.grey or self.grey.index(src) == taken:
                raise IllegalMove(f"there is no grey block on {format_stop(src)}")
            if src == g:
                raise IllegalMove("the grey block must move to another stop")
        if g == placed_black or not empty_after(g):
            what = "the black block" if g == placed_black else self.describe(g)
            raise IllegalMove(f"the grey block cannot go on {format_stop(g)}: it holds {what}")

    def _place_grey(self, move: Move) -> None:
        if move.grey is None:
            raise IllegalMove("taking a grey block needs a stop to put it on")
        if move.grey_from is None:
            i = self.grey.index(OUT)
        else:
            i = self.grey.index(move.grey_from)
            self._take(move.grey_from, GREY_BASE + i)
        self.grey[i] = move.grey
        self._put(move.grey, GREY_BASE + i)

    def _move_out(self, move: Move, waiting: list[int]) -> None:
        r = self.rules
        cands = [p for p in waiting if self.pos[p] == move.frm]
        if move.piece is not None:
            cands = [p for p in cands if r.colour[p] == move.piece]
        if not cands:
            raise IllegalMove(
                f"no piece of yours waits on its goal at {format_stop(move.frm)} "
                "(`z` right after a stop takes out a piece that was put on its goal)"
            )
        p = cands[0]
        reserve = self.grey.count(OUT)
        frm = move.frm

        def empty_after(s: int) -> bool:
            return self.cnt[s] - (1 if s == frm else 0) == 0

        self._check_grey(move, reserve, empty_after, -1)
        self.pos[p] = OUT
        self.on_goal -= 1
        self._take(frm, p)
        self.out[self.seat].append(r.colour[p])
        self._place_grey(move)
        self._end_turn(None)

    def _end_turn(self, key: KoKey | None) -> None:
        self.last[self.seat] = key
        self.ply += 1
        self.seat += 1
        if self.seat == self.rules.players:
            self.seat = 0
            self._round_complete()

    def _round_complete(self) -> None:
        """A round is complete: does anyone (or any team) have enough pieces out?"""
        if self.rules.teams:
            out = self.out
            self.finished = len(out[0]) + len(out[2]) >= 5 or len(out[1]) + len(out[3]) >= 5
        else:
            for o in self.out:
                if len(o) >= 3:
                    self.finished = True


def _plain(move: Move, sign: str) -> str:
    """The move's from and to with another sign, to suggest the right spelling."""
    bare = Move(sign, move.frm, move.to, move.piece, move.target)
    return format_move(bare)


def apply_move(state: State, move: Move | str) -> State:
    """The state after a move (a Move or its text); raises IllegalMove or NotationError."""
    m = parse_move(move) if isinstance(move, str) else move
    game = Position(state)
    game.apply(m)
    return game.state()
