"""The move generator and the replay loop compiled by Cython, beside the pure-Python
files they are built from.

`movegen.py` and `playloop.py` are the engine of record. `config/bin/engine-build`
compiles those same files, typed by their .pxd files, into `_compiled/`, each with a
stamp of its sources; the package imports the builds instead of the .py files only while
every stamp matches (a stale build is never used: both builds share the folder that goes
on the package's path) and `AGON_PURE_ENGINE` is not set
(games/engine_common/builds.py). Without the builds everything runs on the pure-Python
engine, which the test command also runs in a pass of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from games.engine_common.builds import Build, wanted

HERE: Final = Path(__file__).resolve().parent
BUILD: Final = Build(HERE, "movegen", ("movegen.py", "movegen.pxd"))
PLAY_BUILD: Final = Build(HERE, "playloop", ("playloop.py", "playloop.pxd"))
BUILDS: Final = (BUILD, PLAY_BUILD)
BUILD_DIR: Final = BUILD.directory


def current() -> bool:
    """Whether every build of today's sources is there (the folder of builds goes on the
    package's path only then, so a stale one is never found first)."""
    return all(build.current() for build in BUILDS)


__all__ = ["BUILD", "BUILDS", "BUILD_DIR", "HERE", "PLAY_BUILD", "current", "wanted"]
