"""The standings page against the pure core, for the browser tests: the rows the page's
table shows, read from the DOM, and the rows `tournaments.standings.table.compute_standings`
makes of the results the database holds, those who have not played left out as
`ranked_apart` leaves them out. The database is read here with the ORM, model by model,
not through the selector that feeds the page, so a selector that drops or misreads a
result makes the two disagree. Single players only (no 2 vs 2 teams)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.models import Game, Round, Skip, Tournament
from tournaments.standings.selectors.standings import scoring_settings
from tournaments.standings.table import (
    TIE_BREAKS,
    GameResult,
    RoundResult,
    StandingsPlayer,
    TableResult,
    compute_standings,
    ranked_apart,
)

# The page rounds scores to one decimal and tie-breaks to two (floatformat); the core's
# values are compared within half of the last decimal shown.
SCORE_TOLERANCE = 0.05 + 1e-9
TIE_BREAK_TOLERANCE = 0.005 + 1e-9


@dataclass(frozen=True)
class Row:
    rank: int
    name: str
    score: float
    rounds: int
    games: int
    # None: nothing to show (an unrated player's rating).
    tie_breaks: tuple[float | None, ...]


def _number(text: str) -> float | None:
    return None if text in ("", "—") else float(text)


def shown_standings(browser: Any) -> list[Row]:
    """The standings table of the page open in `browser`, row by row. Read in one script
    call: the live page may replace the table between finding a row and reading it."""
    cells = browser.execute_script(
        "return [...document.querySelectorAll('table.standings tbody tr')]"
        ".filter(r => r.cells.length > 2)"
        # The rating change from the event (once rated) is the ratings', not the core's.
        ".map(r => [...r.cells].filter(c => !c.classList.contains('rating-change'))"
        ".map((c, i) => i === 1"
        " ? c.querySelector('a').innerText.trim() : c.innerText.trim()))"
    )
    return [
        Row(
            rank=int(row[0]),
            name=row[1],
            score=float(row[2]),
            rounds=int(row[3]),
            games=int(row[4]),
            # After rank, name, score, rounds, games and the two averages.
            tie_breaks=tuple(_number(c) for c in row[7:]),
        )
        for row in cells
    ]


def _games(table: Any, seats: int, outs: Mapping[int, Sequence[int]]) -> tuple[GameResult, ...]:
    results = []
    for game in Game.objects.filter(table=table).order_by("number"):
        # A closed round holds only final results (closing refuses waiting reports).
        assert game.confirmed, f"game {game.pk} of a closed round is not confirmed"
        order = tuple(p - 1 for p in game.moving_order(seats))
        if game.status == Game.Status.PENDING:
            # Closed with the turn over before it started: the book's unplayed game.
            results.append(GameResult.unplayed(seats, order))
            continue
        out = outs.get(game.pk, game.out_list(seats))
        results.append(GameResult(tuple(out), game.status == Game.Status.FINISHED, order))
    return tuple(results)


def core_standings(
    tournament: Tournament, *, outs: Mapping[int, Sequence[int]] | None = None
) -> list[Row]:
    """The pure core's standings over the closed rounds. `outs`: pieces out by game id
    as the test typed them, used instead of what the database holds for those games (so
    the comparison with the page also proves they were stored as typed)."""
    outs = outs or {}
    entries = {str(e.pk): e for e in tournament.entries.select_related("player").order_by("seed")}
    players = [
        StandingsPlayer(
            id=pid,
            rating=float(e.rating or 0),
            seed=e.seed,
            status=e.status,
            first_round=e.joined_round,
            late_score=None if e.missed_round_score is None else float(e.missed_round_score),
        )
        for pid, e in entries.items()
    ]
    rounds = []
    for round_ in tournament.rounds.filter(status=Round.Status.CLOSED).order_by("number"):
        tables, byes = [], []
        for table in round_.tables.order_by("number"):
            seats = tuple(str(s.entry_id) for s in table.seats.order_by("position"))
            if table.is_bye:
                byes.extend(seats)
                continue
            games = _games(table, len(seats), outs)
            if games:
                tables.append(TableResult(seats=seats, games=games))
        seated = {pid for t in tables for pid in t.seats} | set(byes)
        skips = Skip.objects.filter(entry__tournament=tournament, round_number=round_.number)
        skipped = {str(s.entry_id): s.bye for s in skips if str(s.entry_id) not in seated}
        rounds.append(
            RoundResult(
                number=round_.number,
                tables=tuple(tables),
                byes=(*byes, *(pid for pid, bye in skipped.items() if bye)),
                absent=tuple(pid for pid, bye in skipped.items() if not bye),
            )
        )
    tie_breaks = tuple(tournament.tiebreaks) if tournament.tiebreaks else TIE_BREAKS
    # Those with no table and no bye in a closed round are listed apart, not ranked.
    rows, _apart = ranked_apart(
        compute_standings(players, rounds, tie_breaks, scoring_settings(tournament))
    )
    return [
        Row(
            rank=row.rank,
            name=entries[row.player].player.name,
            score=row.score,
            rounds=row.rounds_played,
            games=row.games_played,
            tie_breaks=tuple(
                None if key == "rating" and entries[row.player].rating is None else value
                for key, value in zip(tie_breaks, row.tie_breaks, strict=True)
            ),
        )
        for row in rows
    ]


def _close(shown: float | None, core: float | None, tolerance: float) -> bool:
    if shown is None or core is None:
        return shown is core
    return abs(shown - core) <= tolerance


def same_standings(shown: Sequence[Row], core: Sequence[Row]) -> bool:
    """Rank, name, rounds and games exactly; scores and tie-breaks as the page rounds."""
    return len(shown) == len(core) and all(
        (s.rank, s.name, s.rounds, s.games) == (c.rank, c.name, c.rounds, c.games)
        and _close(s.score, c.score, SCORE_TOLERANCE)
        and len(s.tie_breaks) == len(c.tie_breaks)
        and all(
            _close(a, b, TIE_BREAK_TOLERANCE)
            for a, b in zip(s.tie_breaks, c.tie_breaks, strict=True)
        )
        for s, c in zip(shown, core, strict=False)
    )


def assert_page_shows_core_standings(
    browser: Any, tournament: Tournament, *, outs: Mapping[int, Sequence[int]] | None = None
) -> list[Row]:
    """The standings page open in `browser` shows the pure core's standings."""
    shown, core = shown_standings(browser), core_standings(tournament, outs=outs)
    assert same_standings(shown, core), "\n".join(
        ["page:", *map(repr, shown), "pure core:", *map(repr, core)]
    )
    return core
