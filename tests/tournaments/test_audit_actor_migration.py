"""The migration that names every audit entry's actor as text fills it in for the
entries already written: the user's name, or "command" where no user acted."""

from __future__ import annotations

import pytest

from tests.tournaments.migrating import migrate_to

# They guard the embedded default too: its migrations run on SQLite.
pytestmark = pytest.mark.embedded

BEFORE = [("tournaments", "0007_tournament_standings_version")]
AFTER = [("tournaments", "0008_auditentry_actor")]


@pytest.mark.usefixtures("latest_schema_afterwards")
@pytest.mark.django_db(transaction=True)
def test_existing_audit_entries_get_their_users_name_or_command():
    old = migrate_to(BEFORE)
    try:
        user = old.get_model("auth", "User").objects.create(username="ida")
        club = old.get_model("tournaments", "Club").objects.create(name="K", slug="k")
        tournament = old.get_model("tournaments", "Tournament").objects.create(
            club=club, name="T", slug="t"
        )
        AuditEntry = old.get_model("tournaments", "AuditEntry")
        AuditEntry.objects.create(tournament=tournament, user=user, action="close")
        AuditEntry.objects.create(tournament=tournament, user=None, action="pair")
    finally:
        new = migrate_to(AFTER)
    rows = new.get_model("tournaments", "AuditEntry").objects.order_by("pk")
    assert list(rows.values_list("action", "actor")) == [("close", "ida"), ("pair", "command")]
