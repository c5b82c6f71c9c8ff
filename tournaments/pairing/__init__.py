"""Django-free Swiss pairing for Pentagame: mixed 2- and 3-player tables (section 21).

The web pages, the API and ``python -m tournaments.pairing`` all call ``pair_round``.
"""

from tournaments.pairing.club import ClubPlayer, club_tables
from tournaments.pairing.engine import pair_round
from tournaments.pairing.fallback import pair_round_or_fallback
from tournaments.pairing.first_move import game_orders, seat_order
from tournaments.pairing.types import (
    METHODS,
    POLICIES,
    Meeting,
    Method,
    Pairing,
    PairingError,
    PairingPlayer,
    Policy,
    Table,
)

__all__ = [
    "METHODS",
    "POLICIES",
    "ClubPlayer",
    "Meeting",
    "Method",
    "Pairing",
    "PairingError",
    "PairingPlayer",
    "Policy",
    "Table",
    "club_tables",
    "game_orders",
    "pair_round",
    "pair_round_or_fallback",
    "seat_order",
]
