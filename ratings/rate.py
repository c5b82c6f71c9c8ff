"""Rating periods into the database: one transaction per job, the ledger row of each
system locked, so a job killed halfway leaves nothing behind and a rerun (acks late)
gives the same numbers; a period that is already rated is not rated twice.

A job reads all its periods' games with a few large queries, keeps the players' states
in memory from one period to the next (the state a period leaves is exactly the one the
next period would read back), streams the history rows out in large batches (COPY on
PostgreSQL, ``bulk_create`` elsewhere) and writes each player's current rating once at
the end (on PostgreSQL one COPY and one ``INSERT … ON CONFLICT``); with the compiled
rows (``ratings/copy_kernel.pyx``) a period's history rows are made in one buffer. A
recomputation from the very first period empties the history tables (``TRUNCATE``)
instead of rewinding them row by row, and builds their indexes once at the end.
``docs/benchmarks.md`` has the figures.
"""

from __future__ import annotations

import gc
import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from itertools import repeat
from operator import attrgetter
from typing import Any

from django.db import connection, transaction
from django.db.models import OuterRef, Q, Subquery, Sum
from django.utils import timezone

from ratings.history_rows import (
    Rows,
    Writer,
    indexes_built_after,
    json_encoder,
    row_kernel,
    truncate,
    upsert,
)
from ratings.models import (
    STATE_COLUMNS,
    GameRating,
    PeriodRating,
    PlayerRating,
    RatingLedger,
    RatingPeriod,
)
from ratings.periods import periods_games
from ratings.replay import RatedPeriod, rate_one_period
from ratings.systems import SYSTEM_NAMES, make_system
from tournaments.core.freshness import standings_changed_for_events
from tournaments.models import Round, Tournament

logger = logging.getLogger("ratings")

#: Ids per ``IN (...)`` list (SQLite limits the parameters of one statement).
IDS_PER_QUERY = 500
#: History rows kept in memory before they are handed to the COPY thread: small enough
#: that the last batch, which the job waits for, is quick.
ROWS_PER_WRITE = 20_000
#: Seconds spent in each part of the last job (for the benchmark).
last_timings: dict[str, float] = {}


def _chunks(items: Sequence[Any], size: int = IDS_PER_QUERY) -> list[Sequence[Any]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def _ledgers() -> dict[str, RatingLedger]:
    for name in SYSTEM_NAMES:
        RatingLedger.objects.get_or_create(system=name)
    # Locked in a fixed order, so two jobs can never deadlock on them.
    return {row.system: row for row in RatingLedger.objects.select_for_update().order_by("system")}


def _deviation_name(default: Any) -> str | None:
    """The attribute holding the deviation of one system's states (they share the type
    of its default state), or None for a system without one."""
    return next((name for name in ("rd", "sigma") if hasattr(default, name)), None)


def _deviation_of(name: str | None) -> Callable[[Any], float | None]:
    """A state's deviation, from the attribute ``_deviation_name`` gives."""
    if name is None:
        return lambda state: None
    return lambda state: float(getattr(state, name))


def _stored(player_ids: Sequence[int], game: str) -> dict[str, list[tuple[int, int, Any, int]]]:
    """PlayerRating rows of these players in this game per system: (pk, player id,
    state, games)."""
    found: dict[str, list[tuple[int, int, Any, int]]] = {name: [] for name in SYSTEM_NAMES}
    for chunk in _chunks(player_ids):
        for pk, player_id, system, state, games in PlayerRating.objects.filter(
            player_id__in=chunk, game=game
        ).values_list("pk", "player_id", "system", "state", "games"):
            found.setdefault(system, []).append((pk, player_id, state, games))
    return found


@contextmanager
def _without_cycle_collection() -> Iterator[None]:
    """A job keeps millions of objects alive at once (the games it read, the states,
    the history rows waiting to be written), none of them in reference cycles; Python's
    cycle collector would scan them all again and again as they pile up (164 s against
    127 s for a million-game recomputation, docs/benchmarks.md). Plain reference
    counting still frees everything; collection resumes after the job."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _rate(periods: Sequence[RatingPeriod], ledgers: dict[str, RatingLedger]) -> None:
    """Rate the periods in order; each game of the family is a chain of its own."""
    by_game: dict[str, list[RatingPeriod]] = {}
    for period in periods:
        by_game.setdefault(period.game, []).append(period)
    timings: dict[str, float] = {}
    with _without_cycle_collection():
        for game, group in sorted(by_game.items()):
            _rate_game(game, group, ledgers, timings)
    clock = time.perf_counter()
    now = timezone.now()
    for period in periods:
        period.rated_at = now
    RatingPeriod.objects.bulk_update(periods, ["rated_at", "games", "skipped"], batch_size=200)
    _events_rated(periods)
    timings["periods"] = time.perf_counter() - clock
    last_timings.clear()
    last_timings.update(timings)


def _events_rated(periods: Sequence[RatingPeriod]) -> None:
    """The events' standings show each player's rating change (issue 26): their pages
    and polls (ETag on the standings version) must see the new ratings; so must the
    pages of every event with a round being played, whose tables show each seat's
    chance from the ratings (the round page is cached on that version). One query; a
    long recomputation touches every event."""
    if len(periods) > 500:
        standings_changed_for_events(tournaments=None)
        return
    evenings = [p.evening_id for p in periods if p.evening_id is not None]
    rounds = Round.objects.filter(pk__in=[p.round_id for p in periods if p.round_id is not None])
    playing = Round.objects.exclude(status=Round.Status.CLOSED)
    standings_changed_for_events(
        tournaments=Tournament.objects.filter(
            Q(pk__in=evenings)
            | Q(pk__in=rounds.values("tournament_id"))
            | Q(pk__in=playing.values("tournament_id"))
        )
    )


class _Chain:
    """One rating system's chain through a job's periods: the players' states in memory
    from one period to the next (exactly what the next period would read back from the
    database), their game counts, and the state each player ends on."""

    def __init__(
        self, name: str, params: dict[str, Any], stored: list[tuple[int, int, Any, int]]
    ) -> None:
        self.name = name
        self.system = make_system(name, params)
        self.default = self.system.default_state()
        self.deviation_name = _deviation_name(self.default)
        self.deviation = _deviation_of(self.deviation_name)
        # What PeriodRating keeps of a state beside its rating and deviation.
        self.state_keys = [key for key, _ in PeriodRating.state_columns(name)]
        self.state_fields = [attrgetter(key) for key in self.state_keys]
        self.rows = {str(player_id): (pk, games) for pk, player_id, _, games in stored}
        self.known = {
            str(player_id): self.system.state_from_json(state) for _, player_id, state, _ in stored
        }
        self.games_total = {pid: games for pid, (_, games) in self.rows.items()}
        self.last: dict[str, RatingPeriod] = {}
        self.seconds = 0.0

    def rate(
        self,
        period: RatingPeriod,
        games: Sequence[Any],
        players: Sequence[str],
        played: dict[str, int],
    ) -> tuple[RatedPeriod[Any], dict[str, Any]]:
        """Rate one period; returns the outcome and the states it started from. The
        players in the outcome's states are the ones rated here."""
        known = self.known
        # Only the period's players are passed: a player's deviation grows over the
        # periods she plays in, not over every period of every club (docs/ratings.md).
        states = {pid: known[pid] for pid in players if pid in known}
        rated = rate_one_period(self.system, states, games)
        after = rated.states
        known.update(after)
        # In the order of ``players``: new rows are written in the order first rated.
        self.last.update({pid: period for pid in players if pid in after})
        games_total = self.games_total
        for pid in after:
            games_total[pid] = games_total.get(pid, 0) + played[pid]
        return rated, states


def kernel_state_fields(
    chains: Sequence[_Chain], types: Sequence[str]
) -> list[tuple[int, str, str]]:
    """The state columns of a PeriodRating row after every system's ratings, as the
    compiled rows take them: (the system's position, the state's field, the column's
    type in ``types``, the row's)."""
    fields = [(at, key) for at, chain in enumerate(chains) for key in chain.state_keys]
    first = 3 + 3 * len(chains)  # after (period, player, games) and (before, after, deviation)
    return [(at, key, types[first + column]) for column, (at, key) in enumerate(fields)]


def _period_rows(
    period_id: int,
    players: Sequence[str],
    played: dict[str, int],
    ids: dict[str, int],
    chains: Sequence[_Chain],
    outcomes: Sequence[tuple[RatedPeriod[Any], dict[str, Any]]],
    make: Callable[..., Any],
    encode: Callable[[Sequence[Any]], Any],
) -> Iterator[Any]:
    """One PeriodRating row per player: every system's (before, after, deviation),
    then every system's ``state_fields`` of the state it ends on; made by ``make``
    (``Rows.maker``, its NULLs the deviations of systems without one) when every
    system rated every player, else by ``encode``."""
    systems = [
        (chain.default, chain.deviation, chain.state_fields, before, rated.states)
        for chain, (rated, before) in zip(chains, outcomes, strict=True)
    ]
    if all(len(after) == len(players) for *_, after in systems):
        # The common case: every system rated every player. Column by column, so that
        # the rows are put together by ``zip``, not one by one.
        columns: list[Iterable[Any]] = [
            repeat(period_id),
            map(ids.__getitem__, players),
            map(played.__getitem__, players),
        ]
        fields: list[Iterable[Any]] = []
        for default, deviation, state_fields, before, after in systems:
            ended = list(map(after.__getitem__, players))
            columns.append([before.get(pid, default).rating for pid in players])
            columns.append([state.rating for state in ended])
            columns.append(list(map(deviation, ended)))
            fields += ([field(state) for state in ended] for field in state_fields)
        yield from map(make, *columns, *fields)  # the first column repeats
        return
    for pid in players:
        row: list[Any] = [period_id, ids[pid], played[pid]]
        rest: list[Any] = []
        for default, deviation, state_fields, before, after in systems:
            state = after.get(pid)
            if state is None:
                row += (None, None, None)
                rest += (None for _ in state_fields)
            else:
                row += (before.get(pid, default).rating, state.rating, deviation(state))
                rest += (field(state) for field in state_fields)
        if any(value is not None for value in row[3:]):
            yield encode((*row, *rest))


def _game_rows(
    records: Sequence[int],
    period_id: int,
    ids: dict[str, int],
    rated_by: Sequence[RatedPeriod[Any]],
    count: int,
    make: Callable[..., Any],
    encode: Callable[[Sequence[Any]], Any],
) -> Iterator[Any]:
    """One GameRating row per game and player with every system's (before, after), in
    game and seat order, made by ``make`` (``Rows.maker``) when every system rated every
    game, else by ``encode``. ``count`` is the number of games in the period."""
    if all(len(rated.games) == count for rated in rated_by):
        # The common case: no system skipped a game, so the changes line up.
        if len(rated_by) == 3:  # the three systems, spelled out: millions of rows
            first, second, third = (rated.games for rated in rated_by)
            for one, two, three in zip(first, second, third, strict=True):
                game = records[one.index]
                b0, a0, b1, a1, b2, a2 = (
                    one.before,
                    one.after,
                    two.before,
                    two.after,
                    three.before,
                    three.after,
                )
                for pid in a0:
                    yield make(
                        game,
                        period_id,
                        ids[pid],
                        b0[pid],
                        a0[pid],
                        b1[pid],
                        a1[pid],
                        b2[pid],
                        a2[pid],
                    )
            return
        for changes in zip(*(rated.games for rated in rated_by), strict=True):
            game = records[changes[0].index]
            sides = [side for change in changes for side in (change.before, change.after)]
            for pid in changes[0].after:
                yield make(game, period_id, ids[pid], *[side[pid] for side in sides])
        return
    width = 2 * len(rated_by)
    merged: dict[int, dict[str, list[float | None]]] = {}
    for at, rated in enumerate(rated_by):
        for change in rated.games:
            seats = merged.setdefault(change.index, {})
            for pid, value in change.after.items():
                pair = seats.setdefault(pid, [None] * width)
                pair[2 * at] = change.before[pid]
                pair[2 * at + 1] = value
    for index in sorted(merged):
        for pid, pairs in merged[index].items():
            yield encode((records[index], period_id, ids[pid], *pairs))


def _rate_game(
    game_name: str,
    periods: Sequence[RatingPeriod],
    ledgers: dict[str, RatingLedger],
    timings: dict[str, float],
) -> None:
    clock = time.perf_counter()
    loaded = periods_games(periods)
    ids: dict[str, int] = {}
    for source in loaded:
        for game in source.games:
            for pid in game.seats:
                if pid not in ids:
                    ids[pid] = int(pid)
    stored = _stored(sorted(ids.values()), game_name)
    timings["read"] = timings.get("read", 0.0) + time.perf_counter() - clock
    chains = [_Chain(name, ledgers[name].params, stored[name]) for name in SYSTEM_NAMES]
    writer = Writer()
    game_columns = [column for name in SYSTEM_NAMES for column in GameRating.columns(name)]
    game_rows = Rows(GameRating, ("game_id", "period_id", "player_id", *game_columns), writer)
    period_rows = Rows(
        PeriodRating, ("period_id", "player_id", "games", *PeriodRating.rating_columns()), writer
    )
    game_make, game_encode = game_rows.maker(), game_rows.encoder()
    # The deviation columns of the systems without one (their states have none).
    period_make = period_rows.maker(
        nulls=[
            3 + 3 * at + 2
            for at, chain in enumerate(chains)
            if chain.deviation(chain.default) is None
        ]
    )
    period_encode = period_rows.encoder()
    # The rows in C when the build is there (ratings/copy_kernel.pyx): the same bytes.
    kernel = row_kernel()
    state_fields = kernel_state_fields(chains, period_rows.types) if kernel is not None else []
    by_int = int
    encode = json_encoder()
    players_seconds = 0.0
    clock = time.perf_counter()
    try:
        for period, source in zip(periods, loaded, strict=True):
            played: dict[str, int] = {}
            for game in source.games:
                for pid in game.seats:
                    played[pid] = played.get(pid, 0) + 1
            players = sorted(played, key=by_int)
            outcomes = []
            for chain in chains:
                started = time.perf_counter()
                outcomes.append(chain.rate(period, source.games, players, played))
                chain.seconds += time.perf_counter() - started
            if kernel is not None and all(len(r.states) == len(players) for r, _ in outcomes):
                period_rows.add_block(
                    kernel.period_rows(
                        period.pk,
                        players,
                        played,
                        ids,
                        [
                            (before, chain.default, rated.states, chain.deviation_name)
                            for chain, (rated, before) in zip(chains, outcomes, strict=True)
                        ],
                        state_fields,
                    )
                )
            else:
                period_rows.add(
                    _period_rows(
                        period.pk,
                        players,
                        played,
                        ids,
                        chains,
                        outcomes,
                        period_make,
                        period_encode,
                    )
                )
            if kernel is not None and all(len(r.games) == len(source.games) for r, _ in outcomes):
                game_rows.add_block(
                    kernel.game_rows(
                        source.records, period.pk, ids, tuple(r.games for r, _ in outcomes)
                    )
                )
            else:
                game_rows.add(
                    _game_rows(
                        source.records,
                        period.pk,
                        ids,
                        [r for r, _ in outcomes],
                        len(source.games),
                        game_make,
                        game_encode,
                    )
                )
            period.games = len(source.games)
            period.skipped = [{"game": s.game, "reason": s.reason} for s in outcomes[0][0].skipped]
            if game_rows.count >= ROWS_PER_WRITE:
                game_rows.flush()
            if period_rows.count >= ROWS_PER_WRITE:
                period_rows.flush()
        game_rows.flush()
        period_rows.flush()
        writer.wait()
        started = time.perf_counter()
        for chain in chains:
            _player_ratings(game_name, chain, encode)
        players_seconds = time.perf_counter() - started
    finally:
        # Never leave a COPY running on the connection, even when rating failed.
        writer.wait()
        for chain in chains:
            timings[chain.name] = timings.get(chain.name, 0.0) + chain.seconds
        total = time.perf_counter() - clock
        timings["history rows"] = (
            timings.get("history rows", 0.0)
            + total
            - sum(chain.seconds for chain in chains)
            - players_seconds
        )
        timings["players"] = timings.get("players", 0.0) + players_seconds
        timings["copy busy"] = timings.get("copy busy", 0.0) + writer.busy
        timings["copy cpu"] = timings.get("copy cpu", 0.0) + writer.cpu
        timings["copy waited"] = timings.get("copy waited", 0.0) + writer.waited


#: What a job writes of each rated player's current rating.
PLAYER_COLUMNS = (
    "player_id",
    "game",
    "system",
    "rating",
    "deviation",
    "state",
    "games",
    "last_played",
)


def _player_ratings(game: str, chain: _Chain, encode: Callable[[str], Any]) -> None:
    """Each rated player's current rating, written once: new rows in the order they
    were first rated, existing ones updated. On PostgreSQL one COPY and one
    ``INSERT … ON CONFLICT``."""
    to_json, deviation, games_total = chain.system.state_to_json, chain.deviation, chain.games_total
    if connection.vendor == "postgresql":
        upsert(
            PlayerRating,
            PLAYER_COLUMNS,
            "rating_once_per_game_and_system",
            [
                (
                    int(pid),
                    game,
                    chain.name,
                    state.rating,
                    deviation(state),
                    encode(json.dumps(to_json(state))),
                    games_total[pid],
                    period.closed_at,
                )
                for pid, period in chain.last.items()
                for state in (chain.known[pid],)
            ],
        )
        return
    new: list[PlayerRating] = []
    changed: list[PlayerRating] = []
    for pid, period in chain.last.items():
        state = chain.known[pid]
        row = PlayerRating(
            player_id=int(pid),
            game=game,
            system=chain.name,
            rating=state.rating,
            deviation=deviation(state),
            state=to_json(state),
            games=games_total[pid],
            last_played=period.closed_at,
        )
        if pid in chain.rows:
            row.pk = chain.rows[pid][0]
            changed.append(row)
        else:
            new.append(row)
    PlayerRating.objects.bulk_create(new, batch_size=1000)
    PlayerRating.objects.bulk_update(
        changed, ["rating", "deviation", "state", "games", "last_played"], batch_size=500
    )


def _is_first(start: RatingPeriod) -> bool:
    earlier = RatingPeriod.objects.filter(closed_at__lt=start.closed_at) | (
        RatingPeriod.objects.filter(closed_at=start.closed_at, id__lt=start.id)
    )
    return not earlier.exists()


def _rate_again(start: RatingPeriod, ledgers: dict[str, RatingLedger]) -> list[RatingPeriod]:
    """Rewind to just before ``start`` and rate every period from there; returns them.
    From the very first period the history tables are emptied, and their indexes built
    once from all the new rows at the end instead of row by row."""
    clock = time.perf_counter()
    if not _is_first(start):
        periods = _rewind(start)
        rewound = time.perf_counter() - clock
        _rate(periods, ledgers)
        last_timings["rewind"] = rewound
        return periods
    periods = _forget_everything()
    with indexes_built_after(GameRating, PeriodRating):
        rewound = time.perf_counter() - clock
        _rate(periods, ledgers)
        clock = time.perf_counter()
    last_timings["rewind"] = rewound
    last_timings["indexes"] = time.perf_counter() - clock
    return periods


def _rewind(start: RatingPeriod) -> list[RatingPeriod]:
    """Forget the history from ``start`` (not the first period: ``_rate_again``) on and
    restore every player's state to what it was before it; returns the periods to rate
    again, in order."""
    from_start = RatingPeriod.objects.filter(closed_at__gt=start.closed_at) | (
        RatingPeriod.objects.filter(closed_at=start.closed_at, id__gte=start.id)
    )
    later = sorted(from_start, key=lambda p: (p.closed_at, p.id))
    touched: set[tuple[int, str]] = set(
        PeriodRating.objects.filter(period__in=from_start)
        .order_by()
        .values_list("player_id", "period__game")
        .distinct()
    )
    # One statement per table with the periods as a subquery: GameRating has no index
    # on its period, so this is one scan whatever the number of periods.
    GameRating.objects.filter(period__in=from_start.values("pk")).delete()
    PeriodRating.objects.filter(period__in=from_start.values("pk")).delete()
    if touched:
        _restore(touched)
    from_start.update(rated_at=None)
    return later


def _forget_everything() -> list[RatingPeriod]:
    """``_rewind`` from the very first period: what it leaves, without its work. No
    history remains, so every player with a history loses the rating in that game (the
    restore would find no period to go back to), and the history tables are emptied at
    once instead of row by row. Players without any history keep theirs, as there."""
    everything = sorted(RatingPeriod.objects.all(), key=lambda p: (p.closed_at, p.id))
    # One statement per game of the family, its players with history as an uncorrelated
    # subquery (hashed once): correlated on (player, game), PostgreSQL's plan compared
    # every rating with every player's history, 0.44 s for 2,000 players
    # (docs/benchmarks.md).
    for game in sorted({period.game for period in everything}):
        PlayerRating.objects.filter(
            game=game,
            player_id__in=PeriodRating.objects.filter(period__game=game).values("player_id"),
        ).delete()
    truncate(GameRating, PeriodRating)
    RatingPeriod.objects.update(rated_at=None)
    return everything


def _restore(touched: set[tuple[int, str]]) -> None:
    """Each touched player's rating in each system as her last remaining period of that
    game left it (ratings without any remaining period are deleted)."""
    players = sorted({player_id for player_id, _ in touched})
    for system in SYSTEM_NAMES:
        _restore_system(system, players, touched)


def _restore_system(system: str, players: Sequence[int], touched: set[tuple[int, str]]) -> None:
    _, after, deviation = PeriodRating.columns(system)
    rated_here = {f"{after}__isnull": False}
    latest = PeriodRating.objects.filter(
        player_id=OuterRef("player_id"), period__game=OuterRef("game"), **rated_here
    ).order_by("-period__closed_at", "-period_id")
    ratings: dict[tuple[int, str], tuple[int, int | None]] = {}
    totals: dict[tuple[int, str], int] = {}
    for chunk in _chunks(players):
        for pk, player_id, game, last_id in (
            PlayerRating.objects.filter(player_id__in=chunk, system=system)
            .annotate(last_id=Subquery(latest.values("pk")[:1]))
            .order_by()
            .values_list("pk", "player_id", "game", "last_id")
        ):
            if (player_id, game) in touched:
                ratings[(player_id, game)] = (pk, last_id)
        for row in (
            PeriodRating.objects.filter(player_id__in=chunk, **rated_here)
            .order_by()
            .values("player_id", "period__game")
            .annotate(total=Sum("games"))
        ):
            totals[(row["player_id"], row["period__game"])] = row["total"]
    gone = sorted(pk for pk, last_id in ratings.values() if last_id is None)
    for chunk in _chunks(gone):
        PlayerRating.objects.filter(pk__in=chunk).delete()
    kept = {last_id: key for key, (_, last_id) in ratings.items() if last_id is not None}
    rater = make_system(system, RatingLedger.objects.get(system=system).params)
    state_columns = list(STATE_COLUMNS[system].items())
    restored: list[PlayerRating] = []
    for chunk in _chunks(sorted(kept)):
        for last_id, rating, spread, closed_at, *fields in PeriodRating.objects.filter(
            pk__in=chunk
        ).values_list(
            "pk", after, deviation, "period__closed_at", *(column for _, column in state_columns)
        ):
            key = kept[last_id]
            # The state as the job wrote it: the same fields, read back and written
            # out as the system writes every state.
            state = rater.state_from_json(
                {name: value for (name, _), value in zip(state_columns, fields, strict=True)}
            )
            restored.append(
                PlayerRating(
                    pk=ratings[key][0],
                    rating=rating,
                    deviation=spread,
                    state=rater.state_to_json(state),
                    games=totals.get(key, 0),
                    last_played=closed_at,
                )
            )
    PlayerRating.objects.bulk_update(
        restored, ["rating", "deviation", "state", "games", "last_played"], batch_size=500
    )


def ratings_forget(*, players: Sequence[int], games: Sequence[str], since: str) -> int:
    """A tournament (rated from ``since`` on, an ISO time) has been deleted with its
    periods and their history: its players go back to their last remaining period (or
    lose a rating nothing is left of), and every period from ``since`` on is rated
    again, so the ratings equal a full replay without it. Returns periods rated."""
    with transaction.atomic():
        ledgers = _ledgers()
        touched = {(player, game) for player in players for game in games}
        if touched:
            _restore(touched)
        start = (
            RatingPeriod.objects.filter(closed_at__gte=datetime.fromisoformat(since))
            .order_by("closed_at", "id")
            .first()
        )
        if start is None:
            return 0
        periods = _rate_again(start, ledgers)
    return len(periods)


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
            _rate_again(period, ledgers)
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
        periods = _rate_again(start, ledgers)
    return len(periods)
