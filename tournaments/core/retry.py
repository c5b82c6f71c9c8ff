"""A write that loses a race inside PostgreSQL is run again, not reported as an outage.

PostgreSQL ends one of two transactions that wait for each other (a deadlock, SQLSTATE
40P01) and may refuse one that cannot be serialised (40001); the other one goes on, and
the loser would succeed if it simply ran again. Django has no built-in retry for this
(`transaction.atomic` only rolls back), so `retried` runs the service in its own
`atomic` block and, when the database says it lost such a race, rolls that block back
and runs it again a few times after a short random pause. The block is a savepoint when
the caller already holds a transaction (the offline queue's `idempotent` wrapper, a
view's own): rolling back to it releases every lock taken after it, which is what the
winner waits for, and the outer transaction carries on. Callbacks queued with
`on_commit` inside a rolled back attempt are dropped with it, so nothing is broadcast
or queued twice. A race lost every time propagates as the database's error, after the
caller's transaction was rolled back (an idempotency key claimed in it is free again):
config/unavailable.py answers it 409 "try again", and only a server that is really
gone 503. docs/operations.md, "Deadlocks and serialization failures"."""

from __future__ import annotations

import functools
import inspect
import logging
import random
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

from django.db import DatabaseError, OperationalError, transaction

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

ATTEMPTS = 3
# The pause before attempt n is up to n times this, at random, so two losers do not
# meet again at the same moment.
PAUSE_SECONDS = 0.05
# SQLSTATEs of a transaction that lost a race and may simply be run again.
LOST_RACE = {"40P01", "40001"}  # deadlock_detected, serialization_failure

# Inside a retried call: a retried service called by another runs as part of the
# outer one's attempt (the outer one runs the whole again), never retried on its own.
_inside: ContextVar[bool] = ContextVar("retried_inside", default=False)


def lost_race(exc: BaseException) -> bool:
    """Whether the database refused the transaction only because a concurrent one won
    (Django wraps psycopg's DeadlockDetected and SerializationFailure in its
    OperationalError; the driver's error, with its SQLSTATE, is the cause)."""
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    return getattr(cause, "sqlstate", None) in LOST_RACE


def retried(service: Callable[P, R]) -> Callable[P, R]:
    """Run ``service`` in a transaction of its own (a savepoint inside another), again
    up to ``ATTEMPTS`` times in all when it loses a deadlock or a serialization
    failure."""
    signature = inspect.signature(service)

    @functools.wraps(service)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        # A call missing its arguments (its actor, say) fails as the plain service
        # would, before any transaction is opened.
        signature.bind(*args, **kwargs)
        if _inside.get():
            return service(*args, **kwargs)
        token = _inside.set(True)
        try:
            for attempt in range(1, ATTEMPTS + 1):
                try:
                    with transaction.atomic():
                        try:
                            return service(*args, **kwargs)
                        except DatabaseError:
                            raise  # the block is rolled back
                        except Exception as exc:  # noqa: BLE001 - raised again below
                            # A refusal after the service committed what it meant to
                            # keep (a ply conflict's flag, a held entry): kept, as
                            # without this block.
                            refused = exc
                    raise refused
                except OperationalError as exc:
                    if not lost_race(exc) or attempt == ATTEMPTS:
                        raise
                    log.warning(
                        "%s lost a race in the database (attempt %s of %s): %s",
                        service.__qualname__,
                        attempt,
                        ATTEMPTS,
                        str(exc).splitlines()[0],
                    )
                time.sleep(random.uniform(0, PAUSE_SECONDS * attempt))  # noqa: S311
            raise AssertionError("unreachable")  # pragma: no cover
        finally:
            _inside.reset(token)

    return wrapper
