"""Each event's standings show every player's rating change from it once it is rated
(issue 26, item 5): over all of a Swiss's closed rounds, or a club evening as one
period; the column appears only once a period is rated, and rating an event moves its
standings' version so that open pages and polls see the change."""

from __future__ import annotations

import pytest

from ratings.models import PeriodRating, RatingJob
from ratings.selectors import event_rating_changes
from ratings.services import rating_job_run
from tests.factories import tournament_with_players
from tournaments.core.actor import Actor
from tournaments.desk.services.entries import entry_add
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Entry, Game, Tournament
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.django_db
BY = Actor.command()


def play_and_close(tournament: Tournament) -> None:
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        game_record_out(game=game, out=[3] + [0] * (game.table.seats.count() - 1), by=BY)
    round_close(round=round_, by=BY)


def run_jobs() -> None:
    for job in RatingJob.objects.exclude(status=RatingJob.Status.DONE).order_by("pk"):
        rating_job_run(job_id=job.pk)


def test_an_events_change_runs_from_before_its_first_round_to_after_its_last():
    cup = tournament_with_players(4, slug="cup", name="Cup", rounds_planned=2, published=True)
    play_and_close(cup)
    play_and_close(cup)
    run_jobs()
    system = cup.club.rating_system
    before, after, _ = PeriodRating.columns(system)
    changes = event_rating_changes(tournament_id=cup.pk, system=system, game=cup.game)
    players = set(Entry.objects.filter(tournament=cup).values_list("player_id", flat=True))
    assert set(changes) == players
    for player_id, (was, now) in changes.items():
        history = list(
            PeriodRating.objects.filter(player_id=player_id)
            .order_by("period__closed_at", "period_id")
            .values_list(before, after)
        )
        assert len(history) == 2
        assert (was, now) == (history[0][0], history[-1][1])
    # Winners and losers: the changes are not all zero, and not all of one sign.
    deltas = [now - was for was, now in changes.values()]
    assert max(deltas) > 0 > min(deltas)


def test_the_standings_show_the_change_only_once_rated_and_rating_moves_their_version(client):
    cup = tournament_with_players(4, slug="cup", name="Cup", rounds_planned=2, published=True)
    play_and_close(cup)
    page = client.get("/t/cup/standings/").content.decode()
    assert "Rating change" not in page
    version = Tournament.objects.get(pk=cup.pk).standings_version
    run_jobs()
    assert Tournament.objects.get(pk=cup.pk).standings_version > version
    page = client.get("/t/cup/standings/").content.decode()
    assert "Rating change" in page
    system = cup.club.rating_system
    changes = event_rating_changes(tournament_id=cup.pk, system=system, game=cup.game)
    shown = {f"+{round(now - was)}" for was, now in changes.values() if round(now - was) > 0}
    assert shown and all(text in page for text in shown)


def test_the_player_pages_list_the_change_per_event_and_mark_each_event_on_the_chart(client):
    from ratings.selectors import events_of, player_history, rating_chart

    cup = tournament_with_players(4, slug="cup", name="Cup", rounds_planned=2, published=True)
    play_and_close(cup)
    play_and_close(cup)
    later = tournament_with_players(0, club=cup.club, slug="later", name="Later", published=True)
    for name in ("P01", "P02", "P03", "P04"):
        entry_add(tournament=later, name=name, rating=None, by=BY)
    play_and_close(later)
    run_jobs()
    player = Entry.objects.get(tournament=cup, player__name="P01").player
    system = cup.club.rating_system
    history = player_history(player_id=player.pk, system=system, game=cup.game)
    events = events_of(history)
    assert [(e.event, e.periods) for e in events] == [("Cup", 2), ("Later", 1)]
    assert events[0].before == history[0].before and events[0].after == history[1].after
    assert events[1].change == history[2].after - history[2].before
    chart = rating_chart(history)
    assert [m.label for m in chart.marks] == ["Cup", "Later"]
    assert chart.ticks and chart.dates[0][2] == history[0].when
    for url in (f"/players/{player.pk}/", f"/ratings/players/{player.pk}/?system={system}"):
        page = client.get(url, follow=True).content.decode()
        assert "Rating change per event" in page
        assert page.count('class="event-mark"') >= 2
        assert "<title>Cup · " in page and "<title>Later · " in page
        assert history[0].when in page


def test_a_closed_club_evening_shows_each_players_change_over_the_whole_evening(client):
    from tournaments.desk.services.evenings import evening_close

    evening = tournament_with_players(
        4, slug="tuesday", name="Tuesday", kind=Tournament.Kind.EVENING, published=True
    )
    Entry.objects.filter(tournament=evening).update(checked_in=True)  # arranged: at the door
    play_and_close(evening)
    play_and_close(evening)
    assert "Rating change" not in client.get("/t/tuesday/standings/").content.decode()
    evening_close(tournament=evening, by=BY)
    run_jobs()
    system = evening.club.rating_system
    changes = event_rating_changes(tournament_id=evening.pk, system=system, game=evening.game)
    assert len(changes) == 4
    page = client.get("/t/tuesday/standings/").content.decode()
    assert "Rating change" in page
    for was, now in changes.values():
        shown = round(now - was)
        assert (f"+{shown}" if shown > 0 else str(shown)) in page
