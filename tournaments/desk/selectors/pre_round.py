"""The pre-round's orders (docs/pairing.md, "Pre-round"): the seeds each round of a
Swiss tournament with a pre-round is paired by, and what its round 1 page and the API
show of it. The orders themselves come from the pure tournaments/pairing/pre_round.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tournaments.desk.selectors.proposal import PAIRED
from tournaments.models import AuditEntry, Entry, Round, Tournament
from tournaments.pairing.pre_round import (
    DRAW_LIMIT,
    Entrant,
    drawn_order,
    ranks,
    rating_order,
    result_order,
)
from tournaments.standings.selectors.standings import pre_round_scores


def has_pre_round(tournament: Tournament) -> bool:
    """Round 1 is a pre-round: only a Swiss tournament has one (the services refuse it
    for any other kind)."""
    return tournament.kind == Tournament.Kind.SWISS and bool(tournament.pre_round)


def entrants(tournament: Tournament) -> list[Entrant]:
    """Every entry as the pre-round's orders read it, in seed order (one query)."""
    return [
        Entrant(id=str(pk), seed=seed, rating=rating)
        for pk, seed, rating in tournament.entries.order_by("seed").values_list(
            "pk", "seed", "rating"
        )
    ]


@dataclass(frozen=True)
class PreRoundRecord:
    """What the audit entry of round 1's pairing keeps of the pre-round: how it was
    paired, the draw's number (at random), and the order it paired by (entry ids)."""

    by: str
    draw: int | None
    order: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        return {"by": self.by, "draw": self.draw, "order": list(self.order)}


def pre_round_record(tournament: Tournament) -> PreRoundRecord | None:
    """Round 1's pre-round as its last pairing recorded it; None when no audit entry
    says (an imported tournament whose log names another site's entries still says)."""
    after = (
        AuditEntry.objects.filter(tournament=tournament, action__in=PAIRED, target="round 1")
        .order_by("-at", "-id")
        .values_list("after", flat=True)
        .first()
    )
    record = after.get("pre_round") if isinstance(after, dict) else None
    if not isinstance(record, dict):
        return None
    order, draw = record.get("order"), record.get("draw")
    if not isinstance(order, list) or not isinstance(draw, int | None):
        return None
    if draw is not None and not 0 <= draw < DRAW_LIMIT:
        draw = None  # an imported log's number, not one of ours
    return PreRoundRecord(by=str(record.get("by", "")), draw=draw, order=tuple(map(str, order)))


def pairing_seeds(tournament: Tournament, number: int, seeds: dict[int, int]) -> dict[int, int]:
    """Entry id -> the seed round ``number`` is paired by after the score. Without a
    pre-round the entries' ``seeds`` (no query). With one: in round 1 the order it was
    paired by (its audit entry; by rating if none says); from round 2 on the order its
    result gives (score in round 1, then rating, then seed), whether or not its scores
    count toward the standings. Players outside that order follow by seed."""
    if not has_pre_round(tournament):
        return seeds
    rows = entrants(tournament)
    if number == 1:
        order = _round_one_order(tournament, rows)
    else:
        scores = {str(k): v for k, v in pre_round_scores(tournament=tournament).items()}
        order = result_order(rows, scores)
    return {int(k): v for k, v in ranks(order, [e.id for e in rows]).items()}


def _round_one_order(tournament: Tournament, rows: list[Entrant]) -> list[str]:
    """The order round 1 was paired by: as its audit entry keeps it; an imported log
    names the other site's entries, so there its draw is replayed (a lot depends on the
    draw and the seed alone); without either, by rating."""
    record = pre_round_record(tournament)
    if record is not None and set(record.order) <= {e.id for e in rows}:
        return list(record.order)
    if record is not None and record.draw is not None:
        return drawn_order(rows, record.draw)
    return rating_order(rows)


@dataclass(frozen=True)
class OrderRow:
    place: int
    entry_id: int
    name: str
    score: float
    rating: int | None


@dataclass(frozen=True)
class PreRoundView:
    """The pre-round as its page and the API show it. ``order``: once it is closed,
    the order its result gives the Swiss proper (withdrawn players left out)."""

    by: str
    draw: int | None
    counts: bool
    order: tuple[OrderRow, ...] | None

    def as_json(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "draw": self.draw,
            "counts": self.counts,
            "order": None
            if self.order is None
            else [
                {"place": r.place, "entry": r.entry_id, "player": r.name, "score": r.score}
                for r in self.order
            ],
        }


def pre_round_view(round_: Round) -> PreRoundView | None:
    """Round ``round_`` as a pre-round; None when it is none."""
    if round_.number != 1 or not has_pre_round(round_.tournament):
        return None
    tournament = round_.tournament
    record = pre_round_record(tournament)
    order = None
    if round_.status == Round.Status.CLOSED:
        entries = {
            e.pk: e
            for e in tournament.entries.select_related("player").exclude(
                status=Entry.Status.WITHDRAWN
            )
        }
        scores = pre_round_scores(tournament=tournament)
        ids = result_order(
            [Entrant(str(e.pk), e.seed, e.rating) for e in entries.values()],
            {str(k): v for k, v in scores.items()},
        )
        order = tuple(
            OrderRow(
                place=i,
                entry_id=int(pk),
                name=entries[int(pk)].player.name,
                score=scores.get(int(pk), 0.0),
                rating=entries[int(pk)].rating,
            )
            for i, pk in enumerate(ids, start=1)
        )
    return PreRoundView(
        by=record.by if record is not None else tournament.pre_round,
        draw=record.draw if record is not None else None,
        counts=tournament.pre_round_counts,
        order=order,
    )
