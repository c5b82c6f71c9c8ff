"""Entering players: one by one, a pasted list, late entries, withdrawals, check-in."""

from __future__ import annotations

import re

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments import signals
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
        raise ServiceError(_("a player needs a name"), field="name")
    if len(name) > NAME_MAX:
        raise ServiceError(
            _("a name has at most %(name_max)s characters") % {"name_max": NAME_MAX}, field="name"
        )
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        player, _created = Player.objects.get_or_create(club=tournament.club, name=name)
        if tournament.entries.filter(player=player).exists():
            raise ServiceError(_("%(name)s is already entered") % {"name": name}, field="name")
        if rating is None:
            # A club member with a rating keeps it; nobody is shown as rated 0.
            rating = _known_ratings(tournament, [player.pk]).get(player.pk)
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
            raise ServiceError(
                _("line %(number)s: cannot read %(line)s") % {"number": number, "line": repr(line)},
                field="players",
            )
        name = " ".join(match["name"].split())
        if len(name) > NAME_MAX:
            raise ServiceError(
                _("line %(number)s: a name has at most %(name_max)s characters")
                % {"number": number, "name_max": NAME_MAX},
                field="players",
            )
        if name.casefold() in seen:
            raise ServiceError(
                _("line %(number)s: %(name)s appears twice") % {"number": number, "name": name},
                field="players",
            )
        seen.add(name.casefold())
        rows.append((name, int(match["rating"]) if match["rating"] else None))
    if not rows:
        raise ServiceError(_("the list is empty"), field="players")
    with transaction.atomic():
        try:
            return [entry_add(tournament=tournament, name=n, rating=r, by=by) for n, r in rows]
        except ServiceError as exc:
            raise ServiceError(exc.message, field="players") from None


def _known_ratings(tournament: Tournament, player_ids: list[int]) -> dict[int, int]:
    return signals.current_ratings(
        player_ids=player_ids, game=tournament.game, system=tournament.club.rating_system
    )


def entries_reseed_by_rating(*, tournament: Tournament, by: Actor) -> int:
    """Seed order = rating, highest first (unrated last, in entry order). An entry
    without a rating takes the player's current one first, if they have one. Returns
    how many entries are still unrated."""
    require_actor(by)
    with transaction.atomic():
        entries = list(
            tournament.entries.select_for_update().select_related("player").order_by("seed")
        )
        blank = [e for e in entries if e.rating is None]
        known = _known_ratings(tournament, [e.player_id for e in blank])
        filled = [e for e in blank if e.player_id in known]
        for entry in filled:
            entry.rating = known[entry.player_id]
        if filled:
            Entry.objects.bulk_update(filled, ["rating"])
            audit_record(
                tournament=tournament,
                by=by,
                action="ratings filled",
                target=", ".join(e.player.name for e in filled)[:120],
            )
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
    return sum(1 for e in entries if e.rating is None)


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
