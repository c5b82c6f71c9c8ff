from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.tournaments.migrating import latest_schema


@pytest.fixture
def latest_schema_afterwards() -> Iterator[None]:
    """For the tests of data migrations: the database fully migrated afterwards."""
    yield from latest_schema()
