"""The rating a new entry starts with: an interface the layer above provides.

Entering a player without a typed rating, and seeding by rating, ask for the players'
current ratings in the tournament's game and the club's rating system. The tournaments
do not keep ratings and never import the ratings app; they name here what they need
(StartingRatings), and the ratings app registers its answer in its AppConfig.ready()
(ratings/apps.py). A question that wants an answer is a call, not a signal: one provider,
one typed return value, and an import that shows the dependency (docs/architecture.md).

Without a provider (no ratings app installed) nobody has a rating: an entry without a
typed rating starts unrated (None, never 0), and seeding by rating fills in none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol


class StartingRatings(Protocol):
    """The current ratings of these players, rounded, by player id; a player without one
    is left out. Plain data in and out; called inside the tournaments' transaction."""

    def __call__(
        self, *, player_ids: Sequence[int], game: str, system: str
    ) -> Mapping[int, int]: ...


_provider: StartingRatings | None = None


def register(provider: StartingRatings | None) -> StartingRatings | None:
    """Make `provider` the one answer (the ratings app does, in ready()); registering the
    same one again changes nothing. Returns the provider it replaces, so a test can put
    it back; None removes it, and entries start unrated."""
    global _provider
    previous, _provider = _provider, provider
    return previous


def provide(*, player_ids: Sequence[int], game: str, system: str) -> dict[int, int]:
    """The known ratings of these players in this game and system: {player_id: rating},
    empty when no provider is registered or none of them is rated."""
    if _provider is None or not player_ids:
        return {}
    return dict(_provider(player_ids=list(player_ids), game=game, system=system))
