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
