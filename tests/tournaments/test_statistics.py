"""The club's statistics through the database (tournaments/standings/selectors/statistics.py, the
pages of tournaments/standings/views/statistics.py; docs/statistics.md): the games a club, a season
and an event count, read as the standings read them, in a fixed number of queries, from
the cache until a result changes; the pages in English and German, empty or full."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import ClubFactory, EntryFactory, TournamentFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.demo import CLUB, demo_load
from tournaments.models import Club, Game, Player, Ply, Round, Season, Seat, Table, Tournament
from tournaments.results.services.results import game_record_out
from tournaments.standings.selectors import statistics as statistics_selectors
from tournaments.standings.selectors.statistics import (
    club_statistics,
    event_statistics,
    scope_statistics,
    season_statistics,
)

pytestmark = pytest.mark.django_db
ANONYMOUS = AnonymousUser()


def event(club: Club | None = None, n: int = 3, ratings=(), **kwargs) -> Tournament:
    tournament = TournamentFactory(club=club or ClubFactory(), **kwargs)
    for i in range(n):
        rating = ratings[i] if i < len(ratings) else None
        # The club's players, P1, P2, ..., play in several of its events.
        player, _ = Player.objects.get_or_create(club=tournament.club, name=f"P{i + 1}")
        EntryFactory(tournament=tournament, seed=i + 1, rating=rating, player=player)
    return tournament


def table(
    tournament: Tournament, seats: list[int], number: int = 1, status: str = "closed"
) -> Table:
    """A table of round `number` seating the tournament's entries of these seeds, in
    seat order (positions 1, 2, ...)."""
    round_, _ = Round.objects.get_or_create(
        tournament=tournament, number=number, defaults={"status": status}
    )
    at = Table.objects.create(round=round_, number=round_.tables.count() + 1)
    entries = {e.seed: e for e in tournament.entries.all()}
    for position, seed in enumerate(seats, start=1):
        Seat.objects.create(table=at, round=round_, entry=entries[seed], position=position)
    return at


def play(
    at: Table, out: list[int], *, first: int = 1, direction: str = "clockwise", **fields
) -> Game:
    fields.setdefault("status", Game.Status.FINISHED)
    values = {f"out_{i}": v for i, v in enumerate(out, start=1)}
    return Game.objects.create(
        table=at,
        number=at.games.count() + 1,
        first_position=first,
        direction=direction,
        **values,
        **fields,
    )


def test_the_first_mover_is_the_seat_the_game_names_not_seat_1():
    # Position 2 wins every game; it moves first in 6 of the 10.
    cup = event(n=2)
    at = table(cup, [1, 2])
    for i in range(10):
        play(at, [1, 3], first=2 if i < 6 else 1)
    (row,) = event_statistics(tournament=cup).stats.first_move
    assert row.games == 10
    assert (row.wins.hits, row.wins.n) == (6, 10)
    assert row.wins.low < 0.6 < row.wins.high


def test_only_closed_rounds_count_and_an_unplayed_game_is_unfinished():
    cup = event(n=2)
    closed = table(cup, [1, 2], number=1)
    play(closed, [3, 1])
    play(closed, [], status=Game.Status.PENDING)  # the round was closed before it was played
    play(closed, [2, 1], status=Game.Status.UNFINISHED)
    play(closed, [3, 0], confirmed=False)  # a report nobody confirmed counts nowhere
    open_ = table(cup, [1, 2], number=2, status="published")
    play(open_, [3, 2])
    stats = event_statistics(tournament=cup).stats
    assert stats.games == 3
    (row,) = stats.outcomes
    assert (row.won, row.unfinished, row.unplayed) == (1, 2, 1)


def test_seat_order_reads_the_direction_and_the_ratings_at_entry():
    # Seeds 1, 2, 3 rated 1800, 1600, 1400, seated in positions 1, 2, 3. Widdershins from
    # position 1 the order is 1 → 3 → 2: position 3 (1400) moves after position 1 (1800),
    # before position 2 (1600): after the stronger opponent; position 2 moves after 3,
    # before 1: after the weaker; position 1 after 2 (1600), before 3 (1400): after the
    # stronger. Out 1 : 3 : 2 gives position 1 (3 - 1 dropped) 1 + (0 + 1)/2 = 1.5,
    # position 2: 4.5, position 3: 3.0.
    cup = event(n=3, ratings=(1800, 1600, 1400))
    at = table(cup, [1, 2, 3])
    play(at, [1, 3, 2], first=1, direction="widdershins")
    (row,) = event_statistics(tournament=cup).stats.seat_order
    assert row.after_stronger.n == 2 and row.after_weaker.n == 1
    assert row.after_stronger.value == pytest.approx((1.5 + 3.0) / 2)
    assert row.after_weaker.value == pytest.approx(4.5)
    assert row.left_out == 0


def test_an_unrated_opponent_leaves_a_seat_out_and_it_is_counted():
    cup = event(n=3, ratings=(1800, None, 1400))
    play(table(cup, [1, 2, 3]), [3, 1, 2])
    (row,) = event_statistics(tournament=cup).stats.seat_order
    # Position 2 (unrated) is an opponent of both others: only her own seat counts.
    assert row.after_stronger.n + row.after_weaker.n == 1
    assert row.left_out == 2


def test_minutes_come_from_a_game_recorded_live_ply_by_ply():
    cup = event(n=2)
    at = table(cup, [1, 2])
    moves = ["W-W1B"] * 4
    live = play(at, [3, 1], moves=moves)
    start = timezone.now()
    for n, minute in enumerate((0, 5, 11, 20), start=1):
        Ply.objects.create(
            game=live, number=n, move="W-W1B", key=f"k{n}", at=start + dt.timedelta(minutes=minute)
        )
    saved_at_once = play(at, [3, 2], moves=moves * 2)  # a record without plies: no minutes
    Ply.objects.create(game=saved_at_once, number=1, move="W-W1B", key="x", at=start)
    (row,) = event_statistics(tournament=cup).stats.lengths
    assert (row.plies.n, row.plies.least, row.plies.most) == (2, 4, 8)
    assert (row.minutes.n, row.minutes.median) == (1, pytest.approx(20.0))
    assert row.book_minutes == 20


def test_colour_letters_and_words_name_the_players():
    cup = event(n=2)
    at = table(cup, [1, 2])
    play(at, [3, 1], colours_out={"1": ["w", "b", "r"], "2": ["g"]})  # F for P1
    play(at, [1, 3], first=2, colours_out={"1": ["w"], "2": ["y", "b", "w"]})  # I/J for P2
    play(at, [3, 2], colours_out={"1": ["g", "y", "r"], "2": ["r", "w"]})  # U for P1
    scope = event_statistics(tournament=cup)
    assert dict(scope.stats.letters.counts) == {"F": 1, "I/J": 1, "U": 1}
    assert [(w.name, w.text) for w in scope.words] == [("P1", "FU"), ("P2", "I")]


def test_a_team_event_counts_teams_as_sides():
    cup = event(n=4, kind=Tournament.Kind.TEAMS)
    at = table(cup, [1, 2, 3, 4])
    play(at, [3, 1, 2, 1])  # seats 1 + 3 bring out 5: the team wins
    play(at, [2, 3, 3, 2])  # 5 : 5, a draw
    (row,) = event_statistics(tournament=cup).stats.outcomes
    assert (row.group.teams, row.group.seats) == (True, 4)
    assert (row.won, row.drawn) == (1, 1)


def test_a_decider_is_a_2_player_game_of_the_two_leaders():
    cup = event(n=3, ratings=(1800, 1600, 1400))
    at = table(cup, [1, 2, 3])
    play(at, [3, 3, 1])
    play(at, [1, 3, 3], first=2, direction="widdershins")
    play(at, [None, 3, 1], first=3, decider=True, leader_a=2, leader_b=3)
    play(at, [3, None, 1], decider=True, leader_a=1, leader_b=3, voided=True)
    stats = event_statistics(tournament=cup).stats
    two, three = stats.first_move
    assert (two.group.seats, two.games) == (2, 1)
    # Position 3 moved first in the decider and lost 1 : 3.
    assert two.wins.hits == 0
    assert three.games == 2


def test_the_club_counts_what_the_reader_may_see():
    club = ClubFactory()
    public = event(club, n=2)
    hidden = event(club, n=2, published=False)
    play(table(public, [1, 2]), [3, 1])
    play(table(hidden, [1, 2]), [3, 1])
    assert club_statistics(club=club, user=ANONYMOUS).stats.games == 1
    assert club_statistics(club=club, user=UserFactory(is_staff=True)).stats.games == 2
    organiser = UserFactory()
    club.organisers.add(organiser)
    assert club_statistics(club=club, user=organiser).stats.games == 2


def test_a_season_counts_its_own_events():
    club = ClubFactory()
    season = Season.objects.create(
        club=club,
        name="2026",
        slug="2026",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 12, 31),
    )
    inside = event(club, n=2, season=season)
    outside = event(club, n=2)
    play(table(inside, [1, 2]), [3, 1])
    play(table(outside, [1, 2]), [3, 2])
    play(table(outside, [1, 2], number=2), [3, 2])
    assert season_statistics(season=season, user=ANONYMOUS).stats.games == 1
    assert club_statistics(club=club, user=ANONYMOUS).stats.games == 3


def many(games: int) -> Tournament:
    cup = event(n=6, ratings=(1700, 1600, 1500, 1400, 1300, 1200))
    for i in range(games):
        at = table(cup, [1, 2, 3], number=i + 1) if i % 2 else table(cup, [4, 5], number=i + 1)
        seats = at.seats.count()
        play(at, [3, 1, 2][:seats], colours_out={"1": ["w", "b", "r"]}, moves=["x"] * (10 + i))
    return cup


def test_the_queries_do_not_grow_with_games_and_a_warm_read_is_one():
    counts = []
    for games in (1, 40):
        cup = many(games)
        scope = Tournament.objects.filter(pk=cup.pk)
        with CaptureQueriesContext(connection) as cold:
            stats = scope_statistics(scope).stats
        with CaptureQueriesContext(connection) as warm:
            again = scope_statistics(scope).stats
        assert stats.games == games and again == stats
        counts.append((len(cold), len(warm)))
    # The events and their versions; then the events, seats, games and live plies.
    assert counts == [(5, 1), (5, 1)]


def test_after_a_change_only_that_events_games_are_read_again(monkeypatch):
    club = ClubFactory()
    cups = [event(club, n=2) for _ in range(3)]
    games = [play(table(cup, [1, 2]), [3, 1]) for cup in cups]
    assert club_statistics(club=club, user=ANONYMOUS).stats.first_move[0].wins.hits == 3
    read = []
    real = statistics_selectors.event_summaries

    def recorded(ids):
        read.append(sorted(ids))
        return real(ids)

    monkeypatch.setattr(statistics_selectors, "event_summaries", recorded)
    game_record_out(game=games[1], out=[1, 3], by=Actor.command(), correction=True)
    with CaptureQueriesContext(connection) as queries:
        stats = club_statistics(club=club, user=ANONYMOUS).stats
    assert read == [[cups[1].pk]]
    assert len(queries) == 5
    assert stats.first_move[0].wins.hits == 2 and stats.games == 3


def test_a_changed_result_is_seen_at_once():
    cup = event(n=2)
    at = table(cup, [1, 2])
    game = play(at, [3, 1])
    before = event_statistics(tournament=cup).stats
    assert before.first_move[0].wins.hits == 1
    # A director's correction in a closed round bumps the standings version with it.
    game_record_out(game=game, out=[1, 3], by=Actor.command(), correction=True)
    after = event_statistics(tournament=cup).stats
    assert after.first_move[0].wins.hits == 0


def test_nothing_to_count_is_empty_statistics_in_one_query():
    club = ClubFactory()
    with CaptureQueriesContext(connection) as queries:
        scope = club_statistics(club=club, user=ANONYMOUS)
    assert scope.stats.games == 0 and scope.events == 0
    assert len(queries) == 1


# --- The pages --------------------------------------------------------------------------


def filled_club() -> tuple[Club, Tournament]:
    club = ClubFactory(slug="hamburg", name="Hamburg")
    cup = event(club, n=3, ratings=(1800, 1600, 1400), slug="cup", name="Cup")
    at = table(cup, [1, 2, 3])
    play(at, [3, 1, 2], moves=["x"] * 30, colours_out={"1": ["w", "b"]})
    play(at, [1, 3, 2], direction="widdershins", colours_out={"2": ["b", "w"]})
    pair = table(cup, [1, 2], number=2)
    play(pair, [3, 3])
    play(pair, [2, 1], status=Game.Status.UNFINISHED)
    return club, cup


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_club_page_draws_every_chart_with_its_numbers(client, language):
    club, _cup = filled_club()
    client.cookies["django_language"] = language
    html = client.get(reverse("club-statistics", args=[club.slug])).content.decode()
    assert f'<html lang="{language}">' in html
    for key in ("first-wins", "first-score", "seat-order", "plies", "letters", "outcomes"):
        assert f'aria-labelledby="chart-{key}-title"' in html
    assert "P1" in html and "P2" in html  # the words
    # Numbers in the reader's format: 1 of 3 finished 2-player games... the draw share
    # 1 of 2 is "50 %"; a mean with decimals is "2,50" in German, "2.50" in English.
    assert "50 %" in html
    if language == "de":
        assert "Partien" in html and "3,00" in html
    else:
        assert "3.00" in html


def test_the_event_and_season_pages_and_their_json(client):
    club, cup = filled_club()
    season = Season.objects.create(
        club=club,
        name="Year",
        slug="year",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 12, 31),
    )
    Tournament.objects.filter(pk=cup.pk).update(season=season)
    page = client.get(reverse("tournament-statistics", args=[cup.slug]))
    assert page.status_code == 200
    assert reverse("season-statistics", args=[club.slug, season.slug]) in page.content.decode()
    answer = client.get(
        reverse("season-statistics", args=[club.slug, season.slug]) + "?format=json"
    )
    data = json.loads(answer.content)
    assert data["games"] == 4 and data["events"] == 1
    outcomes = {(o["seats"], o["teams"]): o for o in data["outcomes"]}
    assert outcomes[(2, False)]["drawn"] == 1 and outcomes[(2, False)]["unfinished"] == 1
    assert {w["player"] for w in data["words"]} == {"P1", "P2"}
    detail = client.get(reverse("tournament-detail", args=[cup.slug])).content.decode()
    assert reverse("tournament-statistics", args=[cup.slug]) in detail


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_club_without_games_says_so(client, language):
    club = ClubFactory(slug="new-club")
    client.cookies["django_language"] = language
    html = client.get(reverse("club-statistics", args=[club.slug])).content.decode()
    assert "stat-empty" in html
    assert '<svg class="stat-chart"' not in html


def test_unknown_addresses_and_unpublished_events_are_not_there(client):
    hidden = event(n=2, published=False, slug="hidden")
    assert client.get(reverse("club-statistics", args=["nowhere"])).status_code == 404
    assert client.get(reverse("season-statistics", args=["nowhere", "never"])).status_code == 404
    assert client.get(reverse("tournament-statistics", args=[hidden.slug])).status_code == 404


# --- The demo ---------------------------------------------------------------------------


def test_every_statistic_has_games_on_the_demo():
    demo_load(organiser=UserFactory(username="organiser", is_staff=True))
    cache.clear()
    scope = club_statistics(club=Club.objects.get(slug=CLUB), user=ANONYMOUS)
    stats = scope.stats
    assert stats.games > 100
    assert any(r.games >= 30 for r in stats.first_move)
    assert sum(r.after_stronger.n + r.after_weaker.n for r in stats.seat_order) >= 30
    assert sum(r.plies.n for r in stats.lengths) >= 30
    # Minutes come only from games recorded live over real time; the demo enters its
    # games within seconds at load, so it claims none (test_minutes_* cover them).
    assert sum(r.minutes.n for r in stats.lengths) == 0
    assert stats.letters.total >= 30 and scope.words
    assert sum(r.drawn for r in stats.outcomes) >= 1
    assert sum(r.unfinished for r in stats.outcomes) >= 1
