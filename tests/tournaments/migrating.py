"""Helpers for the tests of data migrations: migrate the test database to a state, and
(the fixture ``latest_schema_afterwards``, in tests/tournaments/conftest.py) leave it
fully migrated afterwards whatever migrations come after the one tested."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets: list[tuple[str, str]]) -> Any:
    """Migrate to ``targets``; the apps registry of that state (historical models)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest() -> list[tuple[str, str]]:
    """The targets of a fully migrated database."""
    return list(MigrationExecutor(connection).loader.graph.leaf_nodes())


def latest_schema() -> Iterator[None]:
    """Leave the test database fully migrated, whatever migrations come after ours."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
