from __future__ import annotations


class ServiceError(Exception):
    """A request that cannot be carried out; the message is for the user.

    ``field`` names the offending input when there is one, so forms and the API can put
    the message next to it.
    """

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class ConflictError(ServiceError):
    """Someone else changed the same thing first (two devices, two organisers)."""


class PlyConflictError(ConflictError):
    """Another device had recorded a different ply at this number: refused, and recorded
    as the table's ply conflict for the organiser (services/plies.py)."""


class KeptForOrganiser(Exception):  # noqa: N818 - an outcome, not a failure
    """A queued (offline) entry that no longer fitted when it arrived was kept for the
    organiser as a held submission (services/results.py) instead of being written: the
    game changed meanwhile or its round was closed. Raised after the hold is saved."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
