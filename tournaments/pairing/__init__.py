"""Django-free Swiss pairing for Pentagame: mixed 2- and 3-player tables (section 21).

The web pages, the API and ``python -m tournaments.pairing`` all call ``pair_round``.

The names below are loaded on first use (PEP 562): ``python -m tournaments.pairing``
imports this package before its command, which needs neither club evenings nor
``dataclasses`` (issue 44: the command's start-up).
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False  # not typing's: see types.py

if TYPE_CHECKING:
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

# Each public name and the module that defines it.
_HOMES = {
    "METHODS": "types",
    "POLICIES": "types",
    "ClubPlayer": "club",
    "Meeting": "types",
    "Method": "types",
    "Pairing": "types",
    "PairingError": "types",
    "PairingPlayer": "types",
    "Policy": "types",
    "Table": "types",
    "club_tables": "club",
    "game_orders": "first_move",
    "pair_round": "engine",
    "pair_round_or_fallback": "fallback",
    "seat_order": "first_move",
}

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


def _load(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


if not TYPE_CHECKING:
    # Hidden from the type checkers, which would otherwise accept any name imported
    # from this package (the names above are theirs through the imports at the top).
    __getattr__ = _load
