"""Writes for the ratings app: queue jobs after commit, run them in the worker."""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
from typing import Any

from celery import signature
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments import signals
from tournaments.core.actor import Actor, require_actor
from tournaments.models import Entry, Round, Seat, Tournament

from .models import RatingJob, RatingLedger, RatingPeriod
from .periods import period_for_evening, period_for_round
from .rate import period_rate, ratings_forget, ratings_recompute

logger = logging.getLogger("ratings")
# The worker's task, sent by its name: tasks.py imports this module, never the reverse.
RATING_JOB_RUN_TASK = "ratings.tasks.rating_job_run_task"


def rating_job_queue(
    *,
    kind: str,
    scope: dict[str, Any] | None = None,
    by: Actor,
) -> RatingJob:
    """Create the job row and queue its task once the row (and the data it reads) is
    committed; queuing earlier would let a fast worker look for rows that do not exist.
    The job records the actor's user (none for a command)."""
    user = require_actor(by).audit_user
    with transaction.atomic():
        job = RatingJob.objects.create(kind=kind, scope=scope or {}, requested_by=user)
        transaction.on_commit(lambda: _publish(job.pk))
    return job


def _publish(job_id: int) -> bool:
    """Send the job's task to the broker. The committed job row is the outbox: if the
    broker is unreachable (or this process dies before this line), the row stays
    queued and `rating_jobs_requeue` sends it again, so the caller is never failed for
    work that is already safely committed. The task is registered in every process
    (RatingsConfig.ready), so it runs in-process where the settings make tasks eager."""
    try:
        signature(RATING_JOB_RUN_TASK, args=(job_id,)).delay()
    except Exception as exc:  # noqa: BLE001 - any broker failure; the sweep catches up
        logger.warning("rating job %s stays queued for the sweep: broker: %s", job_id, exc)
        return False
    return True


def rating_jobs_requeue(*, older_than: float) -> list[int]:
    """The sweep (run by Celery beat): send again every job still queued `older_than`
    seconds after it was created (its publish failed, or its worker died and the
    broker would deliver it again only after the visibility timeout). A job being run
    holds its row locked and is skipped; running one twice is harmless anyway (a done
    job does nothing). Oldest first, so periods are rated in their order."""
    cutoff = timezone.now() - dt.timedelta(seconds=older_than)
    with transaction.atomic():
        ids = list(
            RatingJob.objects.select_for_update(skip_locked=True)
            .filter(status=RatingJob.Status.QUEUED, created_at__lt=cutoff)
            .order_by("created_at", "id")
            .values_list("pk", flat=True)
        )
    sent = [job_id for job_id in ids if _publish(job_id)]
    if sent:
        logger.info("sweep: re-queued rating jobs %s", sent)
    return sent


def _job_work(job: RatingJob) -> dict[str, Any]:
    scope = job.scope
    if job.kind == RatingJob.Kind.PERIOD:
        # Reopened before this job ran: rated when it closes again (another job).
        if "round" in scope:
            round_ = Round.objects.get(pk=scope["round"])
            if round_.status != Round.Status.CLOSED:
                return {"skipped": "the round was reopened"}
            period = period_for_round(round_)
        else:
            evening = Tournament.objects.get(pk=scope["evening"])
            if evening.status != Tournament.Status.FINISHED:
                return {"skipped": "the evening was reopened"}
            period = period_for_evening(evening)
        return {"period": period.pk, "outcome": period_rate(period=period)}
    if job.kind == RatingJob.Kind.RECOMPUTE and "forget" in scope:
        return {"periods": ratings_forget(**scope["forget"])}
    if job.kind == RatingJob.Kind.RECOMPUTE:
        start = None
        if "from_round" in scope:
            round_ = Round.objects.select_related("tournament").get(pk=scope["from_round"])
            reopened = (
                round_.tournament.status != Tournament.Status.FINISHED
                if round_.tournament.kind == Tournament.Kind.EVENING
                else round_.status != Round.Status.CLOSED
            )
            if reopened:
                # Its rating was withdrawn with the reopening; the replay is queued.
                return {"skipped": "reopened", "periods": 0}
            if round_.tournament.kind == Tournament.Kind.EVENING:
                start = period_for_evening(round_.tournament)
            else:
                start = period_for_round(round_)
        return {"periods": ratings_recompute(start=start)}
    return {}


def rating_job_run(*, job_id: int) -> RatingJob | None:
    """Run one job; a job that is already done does nothing the second time. The job's
    work and its status change commit together, so a worker killed halfway leaves the
    job queued and the redelivered task starts again from scratch."""
    with transaction.atomic():
        job = RatingJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status == RatingJob.Status.DONE:
            return job
        job.started_at = timezone.now()
        result: dict[str, Any] = {"host": socket.gethostname(), "pid": os.getpid()}
        try:
            with transaction.atomic():
                result.update(_job_work(job))
        except Exception as exc:  # noqa: BLE001 - a bad job must not block the queue
            logger.exception("rating job %s failed", job.pk)
            job.status = RatingJob.Status.FAILED
            job.error = f"{type(exc).__name__}: {exc}"
        else:
            job.status = RatingJob.Status.DONE
        job.result = result
        job.finished_at = timezone.now()
        job.save(update_fields=["result", "status", "error", "started_at", "finished_at"])
        rated = job.kind in (RatingJob.Kind.PERIOD, RatingJob.Kind.RECOMPUTE)
        if rated and job.status == RatingJob.Status.DONE and "skipped" not in result:
            # The clubs' webhooks hear of it in this transaction (tournaments/signals.py):
            # the tournaments may not import the ratings, so the news goes down to them.
            signals.ratings_updated.send(sender=RatingJob, club_ids=_job_clubs(job), job_id=job.pk)
    return job


def _job_clubs(job: RatingJob) -> list[int] | None:
    """The clubs whose events a job rated; None for a recomputation, which may change
    every club's list."""
    scope = job.scope
    if job.kind == RatingJob.Kind.PERIOD and "round" in scope:
        return list(
            Round.objects.filter(pk=scope["round"]).values_list("tournament__club_id", flat=True)
        )
    if job.kind == RatingJob.Kind.PERIOD and "evening" in scope:
        return list(
            Tournament.objects.filter(pk=scope["evening"]).values_list("club_id", flat=True)
        )
    return None


def rating_period_queue(*, round_id: int, by: Actor) -> RatingJob:
    """A round (or club evening) closed: rate that period."""
    return rating_job_queue(kind=RatingJob.Kind.PERIOD, scope={"round": round_id}, by=by)


def rating_recompute_queue(*, round_id: int, by: Actor) -> RatingJob:
    """An old result changed: recompute from that round on."""
    return rating_job_queue(kind=RatingJob.Kind.RECOMPUTE, scope={"from_round": round_id}, by=by)


def rating_evening_queue(*, tournament_id: int, by: Actor) -> RatingJob:
    """A club evening closed: rate it as one period."""
    return rating_job_queue(kind=RatingJob.Kind.PERIOD, scope={"evening": tournament_id}, by=by)


def rating_forget_queue(
    *,
    tournament_id: int | None = None,
    round_id: int | None = None,
    by: Actor,
) -> RatingJob | None:
    """A tournament, or one round of it, is being deleted (call inside that transaction,
    before the delete): queue the replay without it. Its periods and their history go
    with it, so what the job needs (its players, its games, when its first period
    closed) is read now."""
    if round_id is not None:
        periods = RatingPeriod.objects.filter(round_id=round_id)
        player_ids = Seat.objects.filter(round_id=round_id).values_list(
            "entry__player_id", flat=True
        )
    else:
        periods = RatingPeriod.objects.filter(
            Q(round__tournament_id=tournament_id) | Q(evening_id=tournament_id)
        )
        player_ids = Entry.objects.filter(tournament_id=tournament_id).values_list(
            "player_id", flat=True
        )
    first = periods.order_by("closed_at", "id").first()
    if first is None:
        return None
    players = sorted(set(player_ids))
    games = sorted(set(periods.values_list("game", flat=True)))
    scope = {"forget": {"players": players, "games": games, "since": first.closed_at.isoformat()}}
    return rating_job_queue(kind=RatingJob.Kind.RECOMPUTE, scope=scope, by=by)


def rating_withdraw(
    *, round_id: int | None = None, tournament_id: int | None = None, by: Actor
) -> RatingJob | None:
    """A closed round (or a closed club evening) was reopened, in this transaction: its
    rated period and the period's history go now, and the replay without it is queued
    (as for a deleted round). Closing it again rates it afresh, as a new period."""
    # A job rating right now holds the ledgers: wait for it, so its history rows never
    # name a period deleted under it.
    list(RatingLedger.objects.select_for_update().order_by("system"))
    if round_id is not None:
        job = rating_forget_queue(round_id=round_id, by=by)
        periods = RatingPeriod.objects.filter(round_id=round_id)
    else:
        job = rating_forget_queue(tournament_id=tournament_id, by=by)
        periods = RatingPeriod.objects.filter(evening_id=tournament_id)
    periods.delete()
    return job
