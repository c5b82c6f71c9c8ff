"""Rating systems for Pentagame, free of Django: Glicko-2 (the default), OpenSkill's
Plackett-Luce and FIDE-style Elo, behind one small interface (base.RatingSystem).

``make_system(name, params)`` builds a system from its JSON parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import GameChange, PeriodResult, RatedGame, RatingSystem, State
from .elo import Elo, EloParams, EloState
from .glicko2 import Glicko2, Glicko2Params, Glicko2State
from .jsonio import replace_from_json
from .openskill_pl import OpenSkillParams, OpenSkillPL, OpenSkillState

SYSTEM_NAMES = ("glicko2", "openskill", "elo")


def make_system(name: str, params: Mapping[str, Any] | None = None) -> RatingSystem[Any]:
    """The system called ``name`` with ``params`` over its defaults; raises ValueError
    for an unknown system, an unknown parameter or a value out of range."""
    given = params or {}
    if name == "glicko2":
        return Glicko2(replace_from_json(Glicko2Params(), given, "glicko2 params"))
    if name == "openskill":
        return OpenSkillPL(replace_from_json(OpenSkillParams(), given, "openskill params"))
    if name == "elo":
        return Elo(replace_from_json(EloParams(), given, "elo params"))
    raise ValueError(f"unknown rating system {name!r}; expected one of {', '.join(SYSTEM_NAMES)}")


__all__ = [
    "SYSTEM_NAMES",
    "Elo",
    "EloParams",
    "EloState",
    "RatedGame",
    "GameChange",
    "Glicko2",
    "Glicko2Params",
    "Glicko2State",
    "OpenSkillPL",
    "OpenSkillParams",
    "OpenSkillState",
    "PeriodResult",
    "RatingSystem",
    "State",
    "make_system",
]
