"""Rating periods into the database: one transaction per job, the ledger row of each
system locked, so a job killed halfway leaves nothing behind and a rerun (acks late)
gives the same numbers; a period that is already rated is not rated twice."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from ratings.models import GameRating, PeriodRating, PlayerRating, RatingLedger, RatingPeriod
from ratings.periods import period_games
from ratings.replay import rate_one_period
from ratings.systems import SYSTEM_NAMES, make_system

logger = logging.getLogger("ratings")


def _ledgers() -> dict[str, RatingLedger]:
    for name in SYSTEM_NAMES:
        RatingLedger.objects.get_or_create(system=name)
    # Locked in a fixed order, so two jobs can never deadlock on them.
    return {row.system: row for row in RatingLedger.objects.select_for_update().order_by("system")}


def _deviation(state: Any) -> float | None:
    for name in ("rd", "sigma"):
        if hasattr(state, name):
            return float(getattr(state, name))
    return None


def _rate(periods: Sequence[RatingPeriod], ledgers: dict[str, RatingLedger]) -> None:
    loaded = [(period, period_games(period)) for period in periods]
    for name in SYSTEM_NAMES:
        system = make_system(name, ledgers[name].params)
        default = system.default_state()
        for period, source in loaded:
            players = sorted({p for g in source.games for p in g.seats}, key=int)
            current = {
                str(r.player_id): r
                for r in PlayerRating.objects.filter(system=name, player_id__in=players)
            }
            # Only the period's players are passed: a player's deviation grows over the
            # periods she plays in, not over every period of every club (docs/ratings.md).
            states = {pid: system.state_from_json(row.state) for pid, row in current.items()}
            rated = rate_one_period(system, states, source.games)
            games_played: dict[str, int] = {}
            for g in source.games:
                for p in g.seats:
                    games_played[p] = games_played.get(p, 0) + 1
            GameRating.objects.bulk_create(
                GameRating(
                    game_id=source.records[change.index],
                    period=period,
                    player_id=int(pid),
                    system=name,
                    before=change.before[pid],
                    after=change.after[pid],
                )
                for change in rated.games
                for pid in sorted(change.after, key=int)
            )
            history: list[PeriodRating] = []
            for pid in players:
                if pid not in rated.states or pid not in games_played:
                    continue
                after = rated.states[pid]
                before = states.get(pid, default)
                history.append(
                    PeriodRating(
                        period=period,
                        player_id=int(pid),
                        system=name,
                        rating_before=before.rating,
                        rating_after=after.rating,
                        deviation_after=_deviation(after),
                        state_after=system.state_to_json(after),
                        games=games_played[pid],
                    )
                )
                row = current.get(pid)
                fields = {
                    "rating": after.rating,
                    "deviation": _deviation(after),
                    "state": system.state_to_json(after),
                    "last_played": period.closed_at,
                }
                if row is None:
                    PlayerRating.objects.create(
                        player_id=int(pid), system=name, games=games_played[pid], **fields
                    )
                else:
                    for key, value in fields.items():
                        setattr(row, key, value)
                    row.games += games_played[pid]
                    row.save()
            PeriodRating.objects.bulk_create(history)
            if name == SYSTEM_NAMES[0]:
                period.games = len(source.games)
                period.skipped = [{"game": s.game, "reason": s.reason} for s in rated.skipped]
    now = timezone.now()
    for period in periods:
        period.rated_at = now
        period.save(update_fields=["rated_at", "games", "skipped"])


def _rewind(start: RatingPeriod) -> list[RatingPeriod]:
    """Forget the history from ``start`` on and restore every player's state to what it
    was before it; returns the periods to rate again, in order."""
    later = list(
        RatingPeriod.objects.filter(closed_at__gt=start.closed_at)
        | RatingPeriod.objects.filter(closed_at=start.closed_at, id__gte=start.id)
    )
    later.sort(key=lambda p: (p.closed_at, p.id))
    ids = [p.pk for p in later]
    touched = set(PeriodRating.objects.filter(period_id__in=ids).values_list("player_id", "system"))
    GameRating.objects.filter(period_id__in=ids).delete()
    PeriodRating.objects.filter(period_id__in=ids).delete()
    for player_id, system in sorted(touched):
        last = (
            PeriodRating.objects.filter(player_id=player_id, system=system)
            .order_by("-period__closed_at", "-period_id")
            .first()
        )
        if last is None:
            PlayerRating.objects.filter(player_id=player_id, system=system).delete()
            continue
        games = sum(
            PeriodRating.objects.filter(player_id=player_id, system=system).values_list(
                "games", flat=True
            )
        )
        PlayerRating.objects.filter(player_id=player_id, system=system).update(
            rating=last.rating_after,
            deviation=last.deviation_after,
            state=last.state_after,
            games=games,
            last_played=last.period.closed_at,
        )
    RatingPeriod.objects.filter(pk__in=ids).update(rated_at=None)
    return later


def period_rate(*, period: RatingPeriod) -> str:
    """Rate one period; if later periods were rated already (a round closed late),
    recompute from this one so the chain stays in order."""
    with transaction.atomic():
        ledgers = _ledgers()
        period = RatingPeriod.objects.get(pk=period.pk)
        if period.rated_at is not None:
            return "already rated"
        later_rated = RatingPeriod.objects.filter(
            rated_at__isnull=False, closed_at__gte=period.closed_at
        ).exclude(pk=period.pk)
        if later_rated.exists():
            _rate(_rewind(period), ledgers)
            return "recomputed from this period"
        _rate([period], ledgers)
    return "rated"


def ratings_recompute(*, start: RatingPeriod | None = None) -> int:
    """Recompute from ``start`` (or from the very beginning); returns periods rated."""
    with transaction.atomic():
        ledgers = _ledgers()
        if start is None:
            start = RatingPeriod.objects.order_by("closed_at", "id").first()
            if start is None:
                return 0
        periods = _rewind(start)
        _rate(periods, ledgers)
    return len(periods)
