"""The result of a position: pieces out per seat, in order, and who has won."""

from __future__ import annotations

from dataclasses import dataclass

from .board import COLOUR_NAMES
from .rules import State, rules_for


@dataclass(frozen=True, slots=True)
class Result:
    """finished: the deciding round is complete. out: pieces out per seat. out_colours:
    per seat, the colours that went out, first to last. winners: 1-based seats (both
    partners in the team variant), empty while the game goes on. team_out: pieces out of
    the teams (seats 1+3, seats 2+4) in the team variant, else None."""

    finished: bool
    out: tuple[int, ...]
    out_colours: tuple[tuple[str, ...], ...]
    winners: tuple[int, ...]
    team_out: tuple[int, int] | None


def result(state: State) -> Result:
    rules = rules_for(state.players, state.variant)
    out = tuple(len(o) for o in state.out)
    colours = tuple(tuple(COLOUR_NAMES[c] for c in o) for o in state.out)
    team_out = (out[0] + out[2], out[1] + out[3]) if rules.teams else None
    winners: tuple[int, ...] = ()
    if state.finished:
        if team_out is not None:
            best = max(team_out)
            winners = tuple(
                s + 1 for s in range(4) if team_out[s % 2] == best and best >= rules.win_out
            )
        else:
            best = max(out)
            winners = tuple(s + 1 for s, n in enumerate(out) if n == best and n >= rules.win_out)
    return Result(state.finished, out, colours, winners, team_out)
