"""The rating job's history rows made in C (``copy_kernel.pyx``), when its build is there.

``config/bin/engine-build`` compiles ``copy_kernel.pyx`` into ``_compiled/`` with a stamp
of its source (games/engine_common/builds.py): the job uses the build only while it
matches, on PostgreSQL, and unless ``AGON_PURE_ENGINE`` is set; otherwise the rows are
made in Python (``ratings/rate.py``), the code of record.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Final

from games.engine_common.builds import Build

BUILD: Final = Build(Path(__file__).resolve().parent, "copy_kernel", ("copy_kernel.pyx",))


@cache
def kernel() -> ModuleType | None:
    """The build, loaded once per process, or None."""
    return BUILD.load("ratings.copy_kernel")
