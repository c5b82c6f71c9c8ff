"""Club evenings: tables of 2 or 3 for whoever is at the door (issue 4, section 7).

Section 21 calls the games on one table over an evening a *competition*; a club evening
mixes tables so that people who have not met recently play each other, at similar
strength. That is the Swiss criteria with the rating in place of the score and recent
encounters in place of the tournament's history, so the same engine does the work.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournaments.pairing.fallback import pair_round_or_fallback
from tournaments.pairing.types import Meeting, Method, Pairing, PairingPlayer, Policy


@dataclass(frozen=True)
class ClubPlayer:
    id: str
    rating: float
    starts: int = 0


def club_tables(
    present: Sequence[ClubPlayer],
    recent: Iterable[Meeting] = (),
    forbidden: Iterable[tuple[str, str]] = (),
    policy: Policy = "pairs+triple",
    method: Method = "book",
) -> Pairing:
    """Tables for one round of a club evening.

    ``recent`` holds encounters of the last few evenings (and earlier rounds tonight), the
    ``round`` field ordering them in time: the most recent ones are avoided first. Ratings
    are scaled so that strength differences weigh like score differences.
    """
    by_rating = sorted(present, key=lambda p: (-p.rating, p.id))
    players = [
        PairingPlayer(id=p.id, score=round(p.rating), seed=i + 1, starts=p.starts)
        for i, p in enumerate(by_rating)
    ]
    return pair_round_or_fallback(
        players, met=list(recent), forbidden=forbidden, policy=policy, method=method
    )
