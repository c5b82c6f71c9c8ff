"""Import the JSON event lists written by the Pentagame online client.

The client records one event per action: `InitGame` (player names), `MovePlayer`,
`SwapOwnPiece`, `SwapHostilePieces`, `CooperativeSwap`, `ForcedMovePlayer`, then
`SetBlack` / `SetGrey` (and `SelectGrey`) for the blocks that move, and `Win`. Event
types may be qualified (`penta.network.SerialNotation.MovePlayer`). Its stops are
`A`..`E` for the corners W B R Y G, `a`..`e` for the crossings and `X-k-Y` for the k-th
stop from X towards Y; pieces are `p<seat><colour>` or `p<seat>_<colour>`, 0-based.

Each event group becomes one move in the book's notation, applied to a game so that
every converted move is checked on the way.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .board import NODE_NAMES
from .errors import IllegalMove, PentagameError
from .movegen import code_to_move
from .notation import Move, format_move, parse_stop
from .rules import Position

_MAIN = {
    "MovePlayer",
    "SwapOwnPiece",
    "SwapHostilePieces",
    "CooperativeSwap",
    "ForcedMovePlayer",
}
_GAME_TYPES = {"TWO": (2, "standard"), "THREE": (3, "standard"), "FOUR": (4, "standard")}
_GAME_TYPES["TWO_VS_TO"] = _GAME_TYPES["TWO_VS_TWO"] = (4, "teams")
_PIECE_RE = re.compile(r"p(\d)_?(\d)")


class ImportFormatError(PentagameError):
    """The event list cannot be converted."""


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """record: {"players", "variant", "moves"}. pending: the last move when the list
    stops before it is complete (a piece went out and its grey block is not yet placed),
    in notation without the `z` part. winners: 1-based seats of the `Win` event, if any."""

    record: dict[str, Any]
    names: tuple[str, ...]
    pending: str | None
    winners: tuple[int, ...] | None


def _kind(event: dict[str, Any]) -> str:
    t = event.get("type")
    if not isinstance(t, str):
        raise ImportFormatError("every event needs a `type`")
    return t.rsplit(".", 1)[-1]


def client_stop(name: object) -> int:
    """Stop id of a client field id (`A`, `c`, `E-2-c`)."""
    if not isinstance(name, str):
        raise ImportFormatError(f"`{name}` is not a field id")
    parts = name.split("-")
    try:
        if len(parts) == 1 and len(name) == 1:
            return parse_stop(_node(name))
        if len(parts) == 3:
            return parse_stop(f"{_node(parts[0])}{int(parts[1])}{_node(parts[2])}")
    except (PentagameError, ValueError):
        pass
    raise ImportFormatError(f"`{name}` is not a field id")


def _node(letter: str) -> str:
    i = "ABCDEabcde".find(letter)
    if len(letter) != 1 or i < 0:
        raise ImportFormatError(f"`{letter}` is not a node")
    return NODE_NAMES[i]


def _piece(game: Position, pid: object) -> int:
    m = _PIECE_RE.fullmatch(pid) if isinstance(pid, str) else None
    if m is None:
        raise ImportFormatError(f"`{pid}` is not a player piece id")
    seat, colour = int(m.group(1)), int(m.group(2))
    r = game.rules
    for p in range(len(r.owner)):
        if r.owner[p] == seat and (r.five or r.colour[p] == colour):
            return p
    raise ImportFormatError(f"piece `{pid}` does not exist in this game")


def import_events(events: list[dict[str, Any]] | str) -> ImportedGame:
    """Convert a client event list (or its JSON text) to a record in the book's notation."""
    if isinstance(events, str):
        try:
            events = json.loads(events)
        except RecursionError:
            raise ImportFormatError("not JSON: nested too deep") from None
        except ValueError as exc:
            raise ImportFormatError(f"not JSON: {exc}") from None
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise ImportFormatError("an event list is a JSON array of objects")
    names: tuple[str, ...] = ()
    players, variant = 0, "standard"
    groups: list[list[dict[str, Any]]] = []
    winners: tuple[int, ...] | None = None
    for event in events:
        kind = _kind(event)
        if kind == "InitGame":
            names = tuple(str(n) for n in event.get("players", []))
            players = players or len(names)
        elif kind == "SetGameType":
            players, variant = _GAME_TYPES.get(str(event.get("gameType")), (0, ""))
            if not players:
                raise ImportFormatError(f"unknown game type `{event.get('gameType')}`")
        elif kind in _MAIN:
            groups.append([event])
        elif kind in ("SetBlack", "SetGrey"):
            if not groups:
                raise ImportFormatError(f"`{kind}` before any move")
            groups[-1].append(event)
        elif kind == "Win":
            winners = tuple(names.index(str(n)) + 1 for n in event.get("players", []))
        elif kind in ("SelectGrey", "SelectPlayerPiece"):
            continue
        else:
            raise ImportFormatError(f"cannot import `{kind}` events")
    if not players:
        raise ImportFormatError("the list has no InitGame event naming the players")
    try:
        game = Position.start(players, variant)
    except IllegalMove as exc:
        raise ImportFormatError(exc.reason) from None
    moves: list[str] = []
    pending: str | None = None
    for i, group in enumerate(groups):
        move = _convert(game, group)
        try:
            game.apply(move)
        except IllegalMove as exc:
            if i == len(groups) - 1 and move.grey is None and "grey block" in exc.reason:
                pending = format_move(move)
                break
            raise ImportFormatError(
                f"event group {i + 1} ({format_move(move)}): {exc.reason}"
            ) from None
        moves.append(format_move(move))
    record = {"players": players, "variant": variant, "moves": moves}
    return ImportedGame(record, names, pending, winners)


def _convert(game: Position, group: list[dict[str, Any]]) -> Move:
    main = group[0]
    kind = _kind(main)
    p = _piece(game, main.get("piece"))
    frm, to = client_stop(main.get("from")), client_stop(main.get("to"))
    if game.rules.owner[p] != game.seat:
        raise ImportFormatError(f"{kind} of `{main.get('piece')}` out of turn")
    black = grey = grey_from = None
    for extra in group[1:]:
        if _kind(extra) == "SetBlack":
            black = client_stop(extra.get("to"))
        else:
            grey = client_stop(extra.get("to"))
            src = extra.get("from")
            grey_from = None if src is None else client_stop(src)
    if kind == "ForcedMovePlayer":
        bare = code_to_move(game, 127 | frm << 7 | p << 14)
    else:
        partner = -1
        if kind != "MovePlayer":
            partner = _piece(game, main.get("otherPiece"))
        bare = code_to_move(game, to | frm << 7 | p << 14 | (partner + 1) << 20)
    return Move(
        bare.kind, bare.frm, bare.to, bare.piece, bare.target, bare.seat, black, grey, grey_from
    )
