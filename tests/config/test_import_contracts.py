"""The layers of docs/architecture.md are import-linter contracts in pyproject.toml: they
hold for the project, and a forbidden import added to a copy of it breaks them (also one
deferred into a function body, where it used to hide)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = str(Path(sys.executable).with_name("lint-imports"))
PACKAGES = ("config", "games", "ratings", "tournaments")


def lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    # lint-imports puts its working directory on the import path, so a copy is checked
    # as it stands.
    # A wide terminal keeps each contract's name and verdict on one line.
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [LINT_IMPORTS, "--no-cache"], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_project_keeps_every_contract():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


@pytest.fixture(scope="module")
def clean_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the project's packages per test process, checked clean once; each
    test below adds its line to one module and puts the module back afterwards."""
    copy = tmp_path_factory.mktemp("layers")
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package,
            copy / package,
            ignore=shutil.ignore_patterns("__pycache__", "static", "migrations"),
        )
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    assert lint_imports(copy).returncode == 0  # the copy itself is clean
    return copy


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("games/rulesets.py", "import tournaments.models", "import no app"),
        ("games/pictures/shapes.py", "from ratings import selectors", "import no app"),
        (
            "tournaments/desk/services/rounds.py",
            "from ratings.services import rating_job_queue",
            "never import the ratings",
        ),
        ("tournaments/scoring.py", "from django.db import models", "import no Django"),
        ("ratings/systems/elo.py", "import django.conf", "import no Django"),
        ("tournaments/results/selectors/rounds.py", "import config.urls", "never upwards"),
        (
            "tournaments/desk/services/evenings.py",
            "def _hidden():\n    from ratings.services import rating_evening_queue",
            "never import the ratings",
        ),
    ],
)
def test_a_forbidden_import_in_a_copy_breaks_its_contract(clean_copy, module, line, contract):
    source = clean_copy / module
    original = source.read_text()
    source.write_text(original + "\n\n" + line + "\n")
    try:
        done = lint_imports(clean_copy)
    finally:
        source.write_text(original)
    assert done.returncode != 0
    broken = [row for row in done.stdout.splitlines() if row.endswith("BROKEN")]
    assert any(contract in row for row in broken), done.stdout
