"""The pairing a round was proposed with, before any hand edit: the pairing editor marks
the tables that differ from it (docs/pairing.md, "Editing a pairing by hand")."""

from __future__ import annotations

from typing import Any

from tournaments.models import AuditEntry, Round
from tournaments.pairing.warnings import ProposedLayout

# Pairing a round and pairing it again record the engine's pairing (services/rounds.py).
PAIRED = ("pair", "re-pair")


def _ids(value: Any) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not all(isinstance(v, str | int) for v in value):
        return None
    return tuple(str(v) for v in value)


def round_proposal(*, round_: Round) -> ProposedLayout | None:
    """The tables and byes (entry ids as text) of the round's last pairing by the engine,
    as its audit entry keeps them; None when no entry says (a round re-paired before the
    audit kept the pairing, or an unreadable one). The caller checks that it holds the
    round's players: an imported tournament's audit names the other site's entries."""
    after = (
        AuditEntry.objects.filter(
            tournament_id=round_.tournament_id,
            action__in=PAIRED,
            target=f"round {round_.number}",
        )
        .order_by("-at", "-id")
        .values_list("after", flat=True)
        .first()
    )
    if not isinstance(after, dict) or not isinstance(after.get("tables"), list):
        return None
    tables = [_ids(t) for t in after["tables"]]
    # A league round whose opponents withdrew lists several byes; a Swiss one bye or none.
    byes = after.get("byes") if "byes" in after else [after.get("bye")]
    bye_ids = _ids([b for b in byes if b is not None]) if isinstance(byes, list) else None
    if bye_ids is None or any(t is None for t in tables):
        return None
    return ProposedLayout(tables=tuple(t for t in tables if t), byes=bye_ids)
