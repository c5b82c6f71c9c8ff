"""A season's events and standings, read from the events' own standings.

One query names the season's state (its settings and every event's standings version);
the standings are cached under it, so a warm page costs that query and a cache read,
whatever the number of games, players or events. A result changed in an old event bumps
that event's version (services/freshness.py) and so the season's key.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from datetime import date

from django.core.cache import cache
from django.db.models import Count, Q, QuerySet

from tournaments.models import Club, Entry, Round, Season, Tournament
from tournaments.standings.season import (
    EventResult,
    SeasonRow,
    SeasonRules,
    season_standings,
)
from tournaments.standings.selectors.standings import (
    StandingRow,
    standings_key,
    standings_token,
    tournament_standings,
    uncounted_rounds,
    version_token,
)


@dataclass(frozen=True)
class SeasonEvent:
    pk: int
    name: str
    slug: str
    date: date | None
    kind: str
    status: str
    # Closed rounds so far: an event with none gives no result yet.
    rounds_closed: int
    number: int  # 1, 2, … in the season's order: the columns' short headings


@dataclass(frozen=True)
class SeasonPlace:
    """One event of a player's path, as the pages show it."""

    event: SeasonEvent
    score: float
    rank: int | None
    counted: bool


@dataclass(frozen=True)
class SeasonStanding:
    rank: int | None
    player_id: int
    name: str
    total: float
    counted: float
    participation: float
    all_events: float
    played: int
    # The events she played, in the season's order (sparse: a season of hundreds of
    # events keeps only each player's own, so the cached standings stay small).
    places: tuple[SeasonPlace, ...]

    def columns(self, events: tuple[SeasonEvent, ...]) -> list[SeasonPlace | None]:
        """One place per event of the season, None where she did not play it."""
        mine = {p.event.pk: p for p in self.places}
        return [mine.get(e.pk) for e in events]


@dataclass(frozen=True)
class SeasonStandings:
    events: tuple[SeasonEvent, ...]
    rows: tuple[SeasonStanding, ...]
    # Players with fewer events than the season's minimum: listed apart, unranked.
    apart: tuple[SeasonStanding, ...]
    token: str

    @property
    def scored_events(self) -> int:
        return sum(1 for e in self.events if e.rounds_closed)

    def row_of(self, player_id: int) -> SeasonStanding | None:
        return next((r for r in (*self.rows, *self.apart) if r.player_id == player_id), None)

    def as_json(self) -> dict[str, object]:
        def row(r: SeasonStanding) -> dict[str, object]:
            return {
                "rank": r.rank,
                "player": r.player_id,
                "name": r.name,
                "total": r.total,
                "counted": r.counted,
                "participation": r.participation,
                "all_events": r.all_events,
                "events_played": r.played,
                "events": [
                    {
                        "event": p.event.slug,
                        "score": p.score,
                        "rank": p.rank,
                        "counted": p.counted,
                    }
                    for p in r.places
                ],
            }

        return {
            "events": [
                {
                    "slug": e.slug,
                    "name": e.name,
                    "date": e.date.isoformat() if e.date else None,
                    "kind": e.kind,
                    "rounds_closed": e.rounds_closed,
                }
                for e in self.events
            ],
            "rows": [row(r) for r in self.rows],
            "not_ranked": [row(r) for r in self.apart],
        }


def club_seasons(club: Club) -> list[Season]:
    return list(club.seasons.order_by("-starts_on", "-pk"))


def season_event_rows(season: Season) -> QuerySet[Tournament]:
    """The season's published events in the season's order: by date, then as created.
    A draft counts once it is published, so every reader sees the same season."""
    return season.events.filter(published=True).order_by("date", "created_at", "pk")


def season_token(season: Season) -> str:
    """Names the season's standings: its settings and each event's standings version
    (one query). Settings are read afresh with it, as the season passed in may be old."""
    fresh = Season.objects.filter(pk=season.pk).values_list("updated_at", flat=True).first()
    versions = list(season_event_rows(season).values_list("pk", "created_at", "standings_version"))
    parts = [str(season.pk), str(fresh), *(version_token(*v) for v in versions)]
    return hashlib.sha1("|".join(parts).encode()).hexdigest()[:24]


def season_standings_of(
    *, season: Season, places: bool = True, token: str | None = None
) -> SeasonStandings:
    """The season's standings; with ``places=False`` without each player's events (her
    path), which is all the standings page of a long season shows: a season of hundreds
    of events would otherwise read back hundreds of thousands of places from the cache
    for every look at it. ``token``: the season's `season_token`, when already read."""
    token = token or season_token(season)
    key = f"season-standings:{season.pk}:{token}"
    light = f"{key}:light"
    if not places:
        found = cache.get(light)
        if found is not None:
            return found
    standings = cache.get(key)
    if standings is None:
        standings = _compute(Season.objects.get(pk=season.pk), token)
        cache.set(key, standings, timeout=3600)
    if places:
        return standings
    found = replace(
        standings,
        rows=tuple(replace(r, places=()) for r in standings.rows),
        apart=tuple(replace(r, places=()) for r in standings.apart),
    )
    cache.set(light, found, timeout=3600)
    return found


def took_part(row: StandingRow, uncounted: frozenset[int]) -> bool:
    """Whether a player took part in an event, for its season: a table or a bye in a
    closed round that counts. An entrant of an event without a closed round, an absent
    one, or one who sat only in a pre-round that does not count (it orders the field,
    docs/pairing.md) gets neither the event's column nor its points for taking part."""
    return row.rounds > 0 or any(
        mark == "bye" and number not in uncounted for mark, number in row.marks
    )


def _compute(season: Season, token: str) -> SeasonStandings:
    """The events' standings are read from their cache in one round trip (each under its
    own standings version); only events changed since are computed again. One more query
    maps the season's entries to players."""
    tournaments = list(
        season_event_rows(season).annotate(
            closed=Count("rounds", filter=Q(rounds__status=Round.Status.CLOSED))
        )
    )
    events = tuple(
        SeasonEvent(
            pk=t.pk,
            name=t.name,
            slug=t.slug,
            date=t.date,
            kind=t.kind,
            status=t.status,
            rounds_closed=t.closed,
            number=i,
        )
        for i, t in enumerate(tournaments, start=1)
    )
    keys = {t.pk: standings_key(standings_token(t)) for t in tournaments}
    cached = cache.get_many(list(keys.values()))
    entries = {
        pk: (player, name)
        for pk, player, name in Entry.objects.filter(
            tournament__in=[t.pk for t in tournaments]
        ).values_list("pk", "player_id", "player__name")
    }
    results = []
    for tournament in tournaments:
        standings = cached.get(keys[tournament.pk]) or tournament_standings(tournament=tournament)
        uncounted = uncounted_rounds(tournament)
        for row in standings.rows:
            if not took_part(row, uncounted):
                continue
            player, _name = entries[row.entry_id]
            results.append(
                EventResult(event=tournament.pk, player=player, score=row.score, rank=row.rank)
            )
    rules = SeasonRules(
        best_of=season.best_of,
        min_events=season.min_events,
        participation_points=float(season.participation_points),
    )
    ranked, apart = season_standings(results, [e.pk for e in events], rules)
    names = {player: name for player, name in entries.values()}
    by_pk = {e.pk: e for e in events}

    def standing(row: SeasonRow) -> SeasonStanding:
        return SeasonStanding(
            rank=row.rank,
            player_id=row.player,
            name=names[row.player],
            total=row.total,
            counted=row.counted,
            participation=row.participation,
            all_events=row.all_events,
            played=row.played,
            places=tuple(
                SeasonPlace(event=by_pk[c.event], score=c.score, rank=c.rank, counted=c.counted)
                for c in row.cells
            ),
        )

    return SeasonStandings(
        events=events,
        rows=tuple(standing(r) for r in ranked),
        apart=tuple(standing(r) for r in apart),
        token=token,
    )


def season_ranks(season: Season) -> dict[int, int]:
    """Player -> place in the season's standings (the standings' order, ties settled as
    listed), ranked players only: a prior ranking for seeding a new event."""
    standings = season_standings_of(season=season)
    return {row.player_id: place for place, row in enumerate(standings.rows, start=1)}
