"""The move generator compiled by Cython, beside the pure-Python file it is built from.

`movegen.py` is the engine of record. `config/bin/engine-build` compiles that same file,
typed by `movegen.pxd`, into `_compiled/` with a stamp of the sources; the package
imports the build instead of the .py file only while the stamp matches (a stale build is
never used) and `AGON_PURE_ENGINE` is not set. Without a build everything runs on the
pure-Python engine, which the test command also runs in a pass of its own.
"""

from __future__ import annotations

import hashlib
import os
import sys
import sysconfig
from pathlib import Path
from typing import Final

HERE: Final = Path(__file__).resolve().parent
BUILD_DIR: Final = HERE / "_compiled"
MODULE: Final = "movegen"
SOURCES: Final = ("movegen.py", "movegen.pxd")
STAMP: Final = BUILD_DIR / "stamp"


def extension() -> Path:
    """Where the build of `movegen.py` lives (named for this interpreter's ABI)."""
    return BUILD_DIR / (MODULE + str(sysconfig.get_config_var("EXT_SUFFIX") or ".so"))


def source_stamp() -> str:
    """A digest of the sources and of the interpreter the build is for."""
    digest = hashlib.sha256(sys.version.encode())
    for name in SOURCES:
        digest.update(name.encode() + b"\0" + (HERE / name).read_bytes())
    return digest.hexdigest()


def wanted() -> bool:
    """False when AGON_PURE_ENGINE asks for the pure-Python engine (its test pass)."""
    return os.environ.get("AGON_PURE_ENGINE", "") in ("", "0")


def current() -> bool:
    """Whether `_compiled/` holds a build of today's sources."""
    try:
        return extension().is_file() and STAMP.read_text() == source_stamp()
    except OSError:
        return False
