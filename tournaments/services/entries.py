"""Entering players: one by one, a pasted list, late entries, withdrawals, check-in."""

from __future__ import annotations

import re

from django.db import transaction
from django.db.models import Max

from tournaments.models import Entry, Player, Round, Tournament

from .actor import Actor, require_actor
from .audit import audit_record
from .errors import ServiceError
from .freshness import standings_changed

NAME_MAX = Player._meta.get_field("name").max_length or 120
_LINE = re.compile(r"^\s*(?P<name>.+?)\s*(?:[,;\t]\s*(?P<rating>-?\d+))?\s*$")


def _next_seed(tournament: Tournament) -> int:
    top = tournament.entries.aggregate(top=Max("seed"))["top"]
    return (top or 0) + 1


def _current_round_number(tournament: Tournament) -> int:
    top = Round.objects.filter(tournament=tournament).aggregate(top=Max("number"))["top"]
    return top or 0


def entry_add(*, tournament: Tournament, name: str, rating: int | None = None, by: Actor) -> Entry:
    """Enter a player by name (found in the tournament's club, or created there). After
    round 1 has been paired the entry is a late one and joins from the next round."""
    require_actor(by)
    name = " ".join(name.split())
    if not name:
        raise ServiceError("a player needs a name", field="name")
    if len(name) > NAME_MAX:
        raise ServiceError(f"a name has at most {NAME_MAX} characters", field="name")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        player, _ = Player.objects.get_or_create(club=tournament.club, name=name)
        if tournament.entries.filter(player=player).exists():
            raise ServiceError(f"{name} is already entered", field="name")
        paired = _current_round_number(tournament)
        entry = Entry.objects.create(
            tournament=tournament,
            player=player,
            seed=_next_seed(tournament),
            rating=rating,
            status=Entry.Status.LATE if paired else Entry.Status.ACTIVE,
            joined_round=paired + 1,
        )
        if paired:
            audit_record(tournament=tournament, by=by, action="late entry", target=name)
        standings_changed(tournament=tournament)
    return entry


def entries_paste(*, tournament: Tournament, text: str, by: Actor) -> list[Entry]:
    """Enter a pasted list, one player per line, optionally `name, rating`. All or
    nothing: a bad line names its number and nothing is entered."""
    require_actor(by)
    rows: list[tuple[str, int | None]] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        match = _LINE.match(line)
        if match is None:
            raise ServiceError(f"line {number}: cannot read {line!r}", field="players")
        name = " ".join(match["name"].split())
        if len(name) > NAME_MAX:
            raise ServiceError(
                f"line {number}: a name has at most {NAME_MAX} characters", field="players"
            )
        if name.casefold() in seen:
            raise ServiceError(f"line {number}: {name} appears twice", field="players")
        seen.add(name.casefold())
        rows.append((name, int(match["rating"]) if match["rating"] else None))
    if not rows:
        raise ServiceError("the list is empty", field="players")
    with transaction.atomic():
        try:
            return [entry_add(tournament=tournament, name=n, rating=r, by=by) for n, r in rows]
        except ServiceError as exc:
            raise ServiceError(exc.message, field="players") from None


def entries_reseed_by_rating(*, tournament: Tournament, by: Actor) -> None:
    """Seed order = rating, highest first (unrated last, in entry order)."""
    require_actor(by)
    with transaction.atomic():
        entries = list(tournament.entries.select_for_update().order_by("seed"))
        ordered = sorted(entries, key=lambda e: (e.rating is None, -(e.rating or 0), e.seed))
        # Two passes keep the unique (tournament, seed) constraint satisfied throughout.
        offset = len(entries) + 1000
        for entry in entries:
            entry.seed += offset
        Entry.objects.bulk_update(entries, ["seed"])
        for i, entry in enumerate(ordered, start=1):
            entry.seed = i
        Entry.objects.bulk_update(ordered, ["seed"])
        standings_changed(tournament=tournament)


def entry_withdraw(*, entry: Entry, by: Actor) -> Entry:
    require_actor(by)
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.status == Entry.Status.WITHDRAWN:
            return entry
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_after_round = _current_round_number(entry.tournament)
        entry.save(update_fields=["status", "withdrawn_after_round"])
        audit_record(
            tournament=entry.tournament, by=by, action="withdraw", target=entry.player.name
        )
        standings_changed(tournament=entry.tournament_id)
    return entry


def entry_check_in(*, entry: Entry, present: bool = True, by: Actor) -> Entry:
    require_actor(by)
    Entry.objects.filter(pk=entry.pk).update(checked_in=present)
    entry.checked_in = present
    return entry
