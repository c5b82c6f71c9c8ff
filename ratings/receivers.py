"""The ratings' side of the hook in tournaments/signals.py: a closed round or evening,
or a changed closed result, becomes a RatingJob queued once the transaction commits; a
reopened one has its rated period withdrawn and the replay without it queued."""

from __future__ import annotations

from typing import Any

from tournaments import signals
from tournaments.core.actor import Actor

from .services import (
    rating_evening_queue,
    rating_forget_queue,
    rating_period_queue,
    rating_recompute_queue,
    rating_withdraw,
)


def on_round_closed(*, round_id: int, by: Actor, **_: Any) -> None:
    rating_period_queue(round_id=round_id, by=by)


def on_evening_closed(*, tournament_id: int, by: Actor, **_: Any) -> None:
    rating_evening_queue(tournament_id=tournament_id, by=by)


def on_closed_result_changed(*, round_id: int, by: Actor, **_: Any) -> None:
    rating_recompute_queue(round_id=round_id, by=by)


def on_history_deleted(
    *, tournament_id: int | None = None, round_id: int | None = None, by: Actor, **_: Any
) -> None:
    if round_id is not None:
        rating_forget_queue(round_id=round_id, by=by)
    elif tournament_id is not None:
        rating_forget_queue(tournament_id=tournament_id, by=by)


def on_history_reopened(
    *, tournament_id: int | None = None, round_id: int | None = None, by: Actor, **_: Any
) -> None:
    rating_withdraw(round_id=round_id, tournament_id=tournament_id, by=by)


def connect() -> None:
    # dispatch_uid: a second ready() (tests reloading apps) must not queue twice.
    signals.round_closed.connect(on_round_closed, dispatch_uid="ratings.round_closed")
    signals.evening_closed.connect(on_evening_closed, dispatch_uid="ratings.evening_closed")
    signals.closed_result_changed.connect(
        on_closed_result_changed, dispatch_uid="ratings.closed_result_changed"
    )
    signals.history_deleted.connect(on_history_deleted, dispatch_uid="ratings.history_deleted")
    signals.history_reopened.connect(on_history_reopened, dispatch_uid="ratings.history_reopened")
