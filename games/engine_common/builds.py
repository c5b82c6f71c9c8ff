"""Compiled builds of pure cores, beside the sources they are built from.

A build (Cython, by `config/bin/engine-build`) lives in a `_compiled/` folder of its
package with a stamp of its sources; it is used only while the stamp matches them (a
stale build never runs) and `AGON_PURE_ENGINE` is not set. Without a build the Python
code of record runs, which the test command also runs on its own (pass 1b).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType


def wanted() -> bool:
    """False when AGON_PURE_ENGINE asks for the pure-Python code (its test pass)."""
    return os.environ.get("AGON_PURE_ENGINE", "") in ("", "0")


@dataclass(frozen=True)
class Build:
    """The build of ``module`` from ``sources`` (file names in ``here``)."""

    here: Path
    module: str
    sources: tuple[str, ...]

    @property
    def directory(self) -> Path:
        return self.here / "_compiled"

    @property
    def stamp(self) -> Path:
        return self.directory / f"{self.module}.stamp"

    def extension(self) -> Path:
        """Where the build lives (named for this interpreter's ABI)."""
        return self.directory / (self.module + str(sysconfig.get_config_var("EXT_SUFFIX") or ".so"))

    def source_stamp(self) -> str:
        """A digest of the sources and of the interpreter the build is for."""
        digest = hashlib.sha256(sys.version.encode())
        for name in self.sources:
            digest.update(name.encode() + b"\0" + (self.here / name).read_bytes())
        return digest.hexdigest()

    def current(self) -> bool:
        """Whether the build of today's sources is there."""
        try:
            return self.extension().is_file() and self.stamp.read_text() == self.source_stamp()
        except OSError:
            return False

    def load(self, name: str) -> ModuleType | None:
        """The build imported as module ``name`` when it is current and wanted, else
        None."""
        if not (wanted() and self.current()):
            return None
        spec = importlib.util.spec_from_file_location(name, self.extension())
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
