"""The move generator compiled by Cython, beside the pure-Python file it is built from.

`movegen.py` is the engine of record. `config/bin/engine-build` compiles that same file,
typed by `movegen.pxd`, into `_compiled/` with a stamp of the sources; the package
imports the build instead of the .py file only while the stamp matches (a stale build is
never used) and `AGON_PURE_ENGINE` is not set (games/engine_common/builds.py). Without a
build everything runs on the pure-Python engine, which the test command also runs in a
pass of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from games.engine_common.builds import Build, wanted

BUILD: Final = Build(Path(__file__).resolve().parent, "movegen", ("movegen.py", "movegen.pxd"))
HERE: Final = BUILD.here
BUILD_DIR: Final = BUILD.directory

__all__ = ["BUILD", "BUILD_DIR", "HERE", "wanted"]
