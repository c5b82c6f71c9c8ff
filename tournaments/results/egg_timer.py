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
from dataclasses import dataclass
from datetime import datetime, timedelta


def deadline(first: datetime, last: datetime, seconds: int) -> datetime:
    """When the player to move loses her turn. ``first``: the game's first ply; ``last``:
    the ply before her move (a lost turn counts at the moment it was lost). The timer is
    turned on her at the first end of a period at or after ``last``; she has one period
    from then."""
    periods = math.ceil((last - first).total_seconds() / seconds - 1e-9)
    return first + timedelta(seconds=seconds * (max(periods, 0) + 1))


# --- a table that pauses ----------------------------------------------------------------
# Time passes only while the table is live: a paused timer is a sand timer laid on its
# side. Every moment the timer reads is on the table's live clock, the server's clock
# less the time the timer stood still before it (docs/rules.md, "The egg timer").


def live_now(now: datetime, paused: timedelta, paused_at: datetime | None) -> datetime:
    """The table's live clock at ``now``: ``paused`` is the time it stood still in pauses
    that ended; a pause running since ``paused_at`` stopped it then."""
    return (paused_at or now) - paused


@dataclass(frozen=True)
class Clock:
    """The seat to move's egg timer: her ``deadline`` on the server's clock (None while
    paused) and the time ``left`` to her, which stands still while paused."""

    deadline: datetime | None
    left: timedelta
    paused: bool


def clock(
    *,
    turned: datetime,
    last: datetime,
    seconds: int,
    now: datetime,
    paused: timedelta,
    paused_at: datetime | None,
) -> Clock:
    """The timer of the seat to move. ``turned``: when the timer was last turned by hand,
    on the live clock (the first move, a lost turn when the server learnt of it, an
    undone lost turn); ``last``: the live moment of the ply before her move."""
    due = deadline(turned, max(last, turned), seconds)
    left = due - live_now(now, paused, paused_at)
    if paused_at is not None:
        return Clock(deadline=None, left=left, paused=True)
    return Clock(deadline=now + left, left=left, paused=False)
