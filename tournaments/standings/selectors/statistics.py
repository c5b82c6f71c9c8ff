"""Reads for the club's statistics (issue 26, item 4; docs/statistics.md): the games of a
club, a season or one event, turned into plain facts for the pure core
(tournaments/standings/statistics.py).

The games counted are those of closed rounds, as the standings count them: a result in
the round being played counts once its round is closed. So an event's standings
version, which the services bump in the same transaction as every change of a closed
round, names one state of its games. A page asks one cheap query for the scope's events
and their versions (only those the reader may see), and finds the statistics in the
cache under them. Otherwise it adds up the events' summaries, each cached under its own
event's version, so a changed result costs one event's games, not the club's; the
events without a summary are read in four more queries, however many games and players
there are.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.cache import cache
from django.db.models import Count, F, Func, IntegerField, Max, Min, QuerySet, TextField
from django.db.models.functions import Cast

from games import rulesets
from tournaments.core.visibility import tournaments_visible_to
from tournaments.models import Club, Game, Ply, Round, Season, Seat, Tournament, moving_order
from tournaments.models_game import decider_order
from tournaments.models_team import TABLE_TEAMS
from tournaments.scoring import ScoringSettings
from tournaments.standings.selectors.standings import scoring_settings, version_token
from tournaments.standings.statistics import (
    GameFact,
    SeatOrder,
    Statistics,
    Summary,
    merge,
    statistics_of,
    summarise,
)

# Part of the cache key: a change of what is cached (the core's classes) names new keys.
SHAPE = 3
CACHE_SECONDS = 7 * 24 * 3600
CLOSED = Round.Status.CLOSED


class JSONArrayLength(Func):
    """The length of a JSON array column, counted by the database (a move record's
    plies), so the records themselves are never read."""

    function = "JSON_ARRAY_LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="JSONB_ARRAY_LENGTH", **extra)


@dataclass(frozen=True)
class Word:
    name: str
    text: str


@dataclass(frozen=True)
class ScopeStatistics:
    """The statistics of a club, season or event, with what the pages show beside the
    core's numbers: how many events, the players' names and the games' titles."""

    stats: Statistics
    events: int
    names: Mapping[str, str] = field(default_factory=dict)
    titles: Mapping[str, str] = field(default_factory=dict)

    @property
    def words(self) -> list[Word]:
        """Every player's word, the longest first (then by name)."""
        words = [Word(self.names.get(w.player, w.player), w.text) for w in self.stats.words]
        return sorted(words, key=lambda w: (-len(w.text), w.name))

    @property
    def seat_order(self) -> list[SeatOrder]:
        """The games with a seat of a 3-player table whose opponents' ratings differ."""
        return [r for r in self.stats.seat_order if r.after_stronger.n or r.after_weaker.n]

    def title(self, game: str) -> str:
        return self.titles.get(game, game)

    def as_json(self) -> dict[str, object]:
        return {
            "events": self.events,
            **self.stats.as_json(),
            "words": [{"player": w.name, "word": w.text} for w in self.words],
        }


def club_by_slug(slug: str) -> Club | None:
    return Club.objects.filter(slug=slug).first()


def club_statistics(*, club: Club, user: AbstractBaseUser | AnonymousUser) -> ScopeStatistics:
    """The statistics of every event of the club the user may see."""
    return scope_statistics(tournaments_visible_to(user).filter(club=club))


def season_statistics(*, season: Season, user: AbstractBaseUser | AnonymousUser) -> ScopeStatistics:
    """The statistics of the season's events the user may see."""
    return scope_statistics(tournaments_visible_to(user).filter(season=season))


def event_statistics(*, tournament: Tournament) -> ScopeStatistics:
    """The statistics of one event (the page has checked that the reader may see it)."""
    return scope_statistics(Tournament.objects.filter(pk=tournament.pk))


def scope_statistics(tournaments: QuerySet[Tournament]) -> ScopeStatistics:
    """One query for the events and their standings versions; the statistics from the
    cache under them, or added up from each event's summary (cached under that event's
    version), the events without one summed up afresh in four more queries."""
    rows = list(
        tournaments.order_by(F("date").asc(nulls_last=True), "created_at", "pk").values_list(
            "pk", "created_at", "standings_version"
        )
    )
    key = statistics_key(rows)
    found = cache.get(key)
    if isinstance(found, ScopeStatistics):
        return found
    keys = {pk: summary_key(pk, created, version) for pk, created, version in rows}
    cached = cache.get_many(list(keys.values())) if keys else {}
    missing = [pk for pk, k in keys.items() if not isinstance(cached.get(k), EventSummary)]
    fresh = event_summaries(missing)
    if fresh:
        cache.set_many({keys[pk]: part for pk, part in fresh.items()}, timeout=CACHE_SECONDS)
    # In the order the events were played: a player's word reads them so.
    parts = [fresh[pk] if pk in fresh else cached[keys[pk]] for pk in keys]
    computed = scope_of(parts)
    cache.set(key, computed, timeout=CACHE_SECONDS)
    return computed


def statistics_key(rows: Iterable[tuple[int, datetime, int]]) -> str:
    """The events, each named by its id, creation time and standings version
    (`version_token`): the same events in the same state give the same key, whichever
    page (club, season, event) asks."""
    tokens = ";".join(version_token(pk, created, version) for pk, created, version in rows)
    return f"statistics:{SHAPE}:{hashlib.sha256(tokens.encode()).hexdigest()}"


def summary_key(pk: int, created: datetime, version: int) -> str:
    return f"statistics:event:{SHAPE}:{version_token(pk, created, version)}"


@dataclass(frozen=True)
class EventSummary:
    """One event's games summed up (tournaments/standings/statistics.py, `Summary`), with the
    names of its players."""

    summary: Summary
    names: dict[str, str]


def scope_of(parts: list[EventSummary]) -> ScopeStatistics:
    """The statistics of events from their summaries, in the order they were played."""
    names: dict[str, str] = {}
    for part in parts:
        names.update(part.names)
    kinds = rulesets.all_rulesets()
    return ScopeStatistics(
        stats=statistics_of(
            merge(part.summary for part in parts),
            book_minutes={r.name: dict(r.book_minutes) for r in kinds if r.book_minutes},
            game_order=[name for name, _ in rulesets.choices()],
        ),
        events=len(parts),
        names=names,
        titles={r.name: r.title for r in kinds},
    )


@dataclass
class _Table:
    positions: list[int] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    ratings: list[float | None] = field(default_factory=list)
    # Per (first position, direction): what picks the seats in moving order out of a
    # list in seat order, worked out once for the table's games.
    orders: dict[tuple[int, str], Callable[[Sequence[Any]], tuple[Any, ...]]] = field(
        default_factory=dict
    )

    def moving(self, first: int, direction: str) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
        key = (first, direction)
        found = self.orders.get(key)
        if found is None:
            n = len(self.positions)
            if self.positions == list(range(1, n + 1)) and first in self.positions:
                found = _picker([p - 1 for p in moving_order(first, direction, n)])
            else:
                # Seat order where the positions are not the plain 1..n a moving order
                # needs, as the standings read it.
                found = _picker(list(range(n)))
            self.orders[key] = found
        return found


def _picker(indexes: list[int]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """The items at these indexes, as a tuple (itemgetter gives a bare item for one)."""
    get = itemgetter(*indexes)
    return get if len(indexes) > 1 else lambda items: (get(items),)


@dataclass(frozen=True)
class _Event:
    """What every game of an event is read with; ``scores`` remembers each result's
    scores (a few dozen results recur in thousands of games)."""

    game: str
    settings: ScoringSettings
    letters: bool
    teams: bool
    scores: dict[tuple[int, ...], tuple[float, ...]] = field(default_factory=dict)

    def scores_of(self, out: tuple[int, ...]) -> tuple[float, ...]:
        found = self.scores.get(out)
        if found is None:
            teams = TABLE_TEAMS if self.teams and len(out) == 4 else None
            found = self.scores[out] = tuple(self.settings.game_scores(out, teams))
        return found


def _event(tournament: Tournament) -> _Event:
    ruleset = tournament.ruleset
    return _Event(
        game=ruleset.name,
        settings=scoring_settings(tournament),
        letters=ruleset.has_colour_letters,
        teams=tournament.is_team_event,
    )


def event_summaries(ids: list[int]) -> dict[int, EventSummary]:
    """Each event's summary: the facts of every game of its closed rounds, in the order
    played, summed up. Four queries (events, seats, games, the live plies' times),
    whatever the numbers; none without events."""
    if not ids:
        return {}
    events = {t.pk: _event(t) for t in Tournament.objects.filter(pk__in=ids)}
    tables: dict[int, _Table] = defaultdict(_Table)
    names: dict[int, dict[str, str]] = {pk: {} for pk in events}
    seats = (
        Seat.objects.filter(round__tournament_id__in=ids, round__status=CLOSED)
        .filter(table__is_bye=False)
        .order_by("table_id", "position")
        .values_list(
            "table_id",
            "round__tournament_id",
            "position",
            "entry__rating",
            "entry__player_id",
            "entry__player__name",
        )
    )
    for table_id, event_id, position, rating, player_id, name in seats:
        table = tables[table_id]
        table.positions.append(position)
        table.players.append(str(player_id))
        table.ratings.append(None if rating is None else float(rating))
        names[event_id][str(player_id)] = name
    games = (
        Game.objects.filter(table__round__tournament_id__in=ids, table__round__status=CLOSED)
        .filter(table__is_bye=False, confirmed=True, voided=False)
        .order_by(
            F("table__round__tournament__date").asc(nulls_last=True),
            "table__round__tournament__created_at",
            "table__round__tournament_id",
            "table__round__number",
            "table__number",
            "number",
        )
        .values_list(
            "pk",
            "table_id",
            "table__round__tournament_id",
            "status",
            "first_position",
            "direction",
            "decider",
            "leader_a",
            "leader_b",
            "out_1",
            "out_2",
            "out_3",
            "out_4",
            # As text, decoded here only where a game has colours out: most have none,
            # and the JSON field's own decoding costs more than the page's other work.
            Cast("colours_out", TextField()),
            JSONArrayLength("moves"),
        )
    )
    live = {
        game_id: (first, last, count)
        for game_id, first, last, count in Ply.objects.filter(
            game__table__round__tournament_id__in=ids,
            game__table__round__status=CLOSED,
            game__status=Game.Status.FINISHED,
        )
        .order_by()
        .values("game_id")
        .annotate(first=Min("at"), last=Max("at"), count=Count("id"))
        .values_list("game_id", "first", "last", "count")
    }
    facts: dict[int, list[GameFact]] = {pk: [] for pk in events}
    for row in games:
        fact = _fact(row, tables, events, live)
        if fact is not None:
            facts[row[2]].append(fact)
    return {pk: EventSummary(summarise(facts[pk]), names[pk]) for pk in events}


NO_RESULT = frozenset(Game.WITHOUT_RESULT)
FINISHED = Game.Status.FINISHED.value


def _fact(
    row: tuple[Any, ...],
    tables: Mapping[int, _Table],
    events: Mapping[int, _Event],
    live: Mapping[int, tuple[datetime, datetime, int]],
) -> GameFact | None:
    """One game as the core's plain fact; None for a table without two seats or a result
    its event's scoring refuses."""
    (pk, table_id, event_id, status, first, direction, decider, leader_a, leader_b) = row[:9]
    outs, colours_text, plies = row[9:13], row[13], row[14]
    table = tables.get(table_id)
    if table is None:
        return None
    event = events[event_id]
    positions = table.positions
    if decider and leader_a is not None and leader_b is not None:
        # A decider: a 2-player game of the two leaders, the one named first moving first.
        playing = [i for i, p in enumerate(positions) if p in (leader_a, leader_b)]
        if len(playing) < 2:
            return None
        leaders = decider_order(first, (leader_a, leader_b))
        order = [positions.index(p) for p in leaders] if first in leaders else playing
        # From seat order to moving order: the whole table's lists, and the two's.
        pick = _picker(order)
        pick_played = _picker([playing.index(i) for i in order])
    else:
        playing = list(range(len(positions)))
        pick = pick_played = table.moving(first, direction)
    n = len(playing)
    if n < 2:
        return None
    if status in NO_RESULT:
        # Closed before it was played or ended: the book's unplayed 0:0, as the
        # standings count it (docs/scoring.md, "Unplayed games").
        out = (0,) * n
        finished = False
    else:
        out = tuple([int(outs[positions[i] - 1] or 0) for i in playing])
        finished = status == FINISHED
    try:
        scores = event.scores_of(out)
    except ValueError:
        # Pieces out its event's scoring refuses (a target changed under old results):
        # left out here, rather than the page failing for one game.
        return None
    colours: tuple[tuple[str, ...], ...] = ()
    if event.letters and colours_text and colours_text != "{}":
        given = json.loads(colours_text)
        colours = pick([tuple(given.get(str(p), ())) for p in positions])
    minutes = None
    times = live.get(pk)
    if times is not None and plies and times[2] == plies and plies >= 2:
        # Recorded live ply by ply: from the first ply to the last.
        minutes = (times[1] - times[0]).total_seconds() / 60
    return GameFact(
        game=event.game,
        status="finished" if finished else "unfinished",
        out=pick_played(out),
        scores=pick_played(scores),
        teams=event.teams and n == 4,
        players=pick(table.players),
        ratings=pick(table.ratings),
        colours=colours,
        plies=plies or None,
        minutes=minutes,
    )
