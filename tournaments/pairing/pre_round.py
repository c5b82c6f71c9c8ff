"""The pre-round: the prior ranking a Swiss tournament begins with (section 21: "Usually
you begin a Swiss system tournament with some prior ranking, typically the result of the
previous tournament, or a pre-round."). Django-free; docs/pairing.md, "Pre-round".

Round 1 is paired as any round 1 (the book's top-down rule, everyone on 0 points), but
over an order of its own instead of the seeds: by rating (``rating_order``) or by a
draw (``drawn_order``). Its result then gives the order the Swiss proper starts from
(``result_order``): every later round ranks by score, then by that order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

# A draw is a number anyone can replay the order from (``lot``); the site draws one of
# six digits, easy to read out, and a client may bring its own.
DRAW_LIMIT = 1_000_000_000


@dataclass(frozen=True)
class Entrant:
    """One entry as the pre-round sees her: ``seed`` the organiser's order (1 first),
    ``rating`` at entry (None: unrated)."""

    id: str
    seed: int
    rating: int | None = None


def _by_rating(entrant: Entrant) -> tuple[bool, int, int]:
    # Highest rating first; the unrated after every rated one; then the seeds.
    return (entrant.rating is None, -(entrant.rating or 0), entrant.seed)


def rating_order(entrants: Iterable[Entrant]) -> list[str]:
    """Highest rating first, equal ratings by seed, the unrated last by seed."""
    return [e.id for e in sorted(entrants, key=_by_rating)]


def lot(draw: int, seed: int) -> int:
    """The lot of the entry seeded ``seed`` in the draw ``draw``: the first eight bytes
    of SHA-256 of the text "<draw>:<seed>" (e.g. "2026:1"), as an unsigned number. The
    lowest lot comes first. Anyone can replay a draw with any SHA-256 tool; no random
    generator of a program or a language is involved."""
    digest = hashlib.sha256(f"{draw}:{seed}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


def drawn_order(entrants: Iterable[Entrant], draw: int) -> list[str]:
    """The entrants by their lots in ``draw``, lowest first (a tie, which 64 bits make
    vanishingly rare, by seed). Each entrant's lot depends on the draw and her seed
    alone: one more or one fewer player leaves the others in the same order."""
    if not 0 <= draw < DRAW_LIMIT:
        raise ValueError(f"a draw is a number from 0 to {DRAW_LIMIT - 1}")
    return [e.id for e in sorted(entrants, key=lambda e: (lot(draw, e.seed), e.seed))]


def result_order(entrants: Iterable[Entrant], scores: Mapping[str, float]) -> list[str]:
    """The order the pre-round's result gives: its score, highest first (scores closer
    than rounding noise are equal); equal scores by rating, then seed, as
    ``rating_order``. A player without a score (none in ``scores``) has 0."""
    rows = sorted(entrants, key=_by_rating)
    # A stable sort by score keeps rating and seed order among equal scores; scores are
    # rounded first so sums of halves times factors that differ by noise are equal.
    return [e.id for e in sorted(rows, key=lambda e: -round(scores.get(e.id, 0.0), 9))]


def ranks(order: Sequence[str], others: Iterable[str] = ()) -> dict[str, int]:
    """Seed numbers for the pairing (1 first) from ``order``; ``others`` (entered later,
    in their own order) follow."""
    ranked = {pid: i for i, pid in enumerate(order, start=1)}
    for pid in others:
        if pid not in ranked:
            ranked[pid] = len(ranked) + 1
    return ranked
