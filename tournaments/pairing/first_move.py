"""Who moves first, and in which seat order each game of a match is played.

Section 21: "it does not matter much who begins; there is no large first mover
advantage", yet "Let the three player tables play two games per turn, one clockwise and
one anti-clockwise" and section 18: "Make sure that you play equally often clockwise and
widdershins". So for 2-player tables the first player alternates game by game and, across
rounds (turns), the one who has started less begins game 1; 3-player tables reverse the
direction for game 2.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.types import PairingPlayer


def seat_order(seats: Sequence[PairingPlayer]) -> tuple[str, ...]:
    """Seat 0 begins game 1: whoever has started fewer games so far; on a tie the
    higher-ranked (``seats`` arrive in rank order), as the sort is stable."""
    return tuple(p.id for p in sorted(seats, key=lambda p: p.starts))


def game_orders(seats: Sequence[str], games: int) -> list[tuple[str, ...]]:
    """The moving order of each game in a round's match.

    2 players: the first player alternates (A-B, B-A, A-B for the book's 3 games).
    3 players: clockwise, then widdershins (A-B-C, A-C-B), repeated.
    """
    orders: list[tuple[str, ...]] = []
    for g in range(games):
        if len(seats) == 2:
            orders.append(tuple(seats) if g % 2 == 0 else (seats[1], seats[0]))
        elif g % 2 == 0:
            orders.append(tuple(seats))
        else:
            orders.append((seats[0], *reversed(seats[1:])))
    return orders
