"""The egg timer of section 3, read as the book describes a sand timer (docs/rules.md,
"The egg timer"): "If you move before your minute runs out, your opponent can use that
extra time before you can turn the egg timer on her. A player who does not move in time
loses turn."

The timer runs in whole periods from the first move of the game (the moment a live
record starts; the table is still sitting down before it). Whenever it runs out it is
turned on the player to move, who must move before it runs out again; a player who moved
early leaves the rest of her period to the next. A pure function: times in, time out."""

from __future__ import annotations

import math
from datetime import datetime, timedelta


def deadline(first: datetime, last: datetime, seconds: int) -> datetime:
    """When the player to move loses her turn. ``first``: the game's first ply; ``last``:
    the ply before her move (a lost turn counts at the moment it was lost). The timer is
    turned on her at the first end of a period at or after ``last``; she has one period
    from then."""
    periods = math.ceil((last - first).total_seconds() / seconds - 1e-9)
    return first + timedelta(seconds=seconds * (max(periods, 0) + 1))
