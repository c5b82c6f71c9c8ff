"""The policy's alternative when forbidden pairs leave no arrangement.

An odd field under "pairs+triple" or "prefer-triples" needs a 3-player table (3 players:
only one table). When forbidden pairs rule every such arrangement out, the round is
paired with 2-player tables and a bye instead (the "pairs+bye" policy, docs/scoring.md
section 3 for what a bye scores) rather than not at all. The pairing says so in its
``notes``. A Swiss round of the site (services/rounds.py, for the pages and the API), a
club evening (club.py) and ``python -m tournaments.pairing`` (cli.py) all pair through
``pair_round_or_fallback``; docs/pairing.md, "When forbidden pairs leave no table".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tournaments.pairing.engine import pair_round
from tournaments.pairing.types import TYPE_CHECKING, Meeting, Pairing, PairingError, PairingPlayer

if TYPE_CHECKING:
    from tournaments.pairing.types import Method, Policy


def fallback_policy(policy: Policy, players: int) -> Policy | None:
    """The layout policy to try when ``policy`` finds no arrangement for ``players``
    because of forbidden pairs; None when there is none."""
    if policy != "pairs+bye" and players % 2 == 1 and players >= 3:
        return "pairs+bye"
    return None


def pair_round_or_fallback(
    players: Sequence[PairingPlayer],
    met: Iterable[Meeting | Sequence[str]] = (),
    forbidden: Iterable[tuple[str, str]] = (),
    had_triple: Iterable[str] = (),
    had_bye: Iterable[str] = (),
    policy: Policy = "pairs+triple",
    method: Method = "book",
) -> Pairing:
    """``pair_round``; when forbidden pairs make it fail, the policy's alternative, with a
    note saying so."""
    met, forbidden = list(met), list(forbidden)
    had_triple, had_bye = list(had_triple), list(had_bye)
    try:
        return pair_round(players, met, forbidden, had_triple, had_bye, policy, method=method)
    except PairingError:
        alternative = fallback_policy(policy, sum(1 for p in players if p.active))
        if not forbidden or alternative is None:
            raise
        pairing = pair_round(
            players, met, forbidden, had_triple, had_bye, alternative, method=method
        )
        note = (
            f"forbidden pairs leave no arrangement under {policy}: "
            f"paired under {alternative} (2-player tables and a bye) instead"
        )
        return Pairing(pairing.tables, pairing.bye, pairing.rematches, (*pairing.notes, note))
