"""The one write path: deletes replay the ratings, played settings are guarded, a swap
with a player who has no seat is refused, and each is refused or allowed with the right
status and the data re-read."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ratings.models import GameRating, PeriodRating, PlayerRating, RatingJob, RatingPeriod
from ratings.rate import ratings_recompute
from tests.factories import ClubFactory, EntryFactory, TournamentFactory, UserFactory
from tournaments.desk.services.entries import entry_withdraw
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import AuditEntry, Game, Tournament
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.django_db


def play(tournament: Tournament, rounds: int, on_commit) -> None:
    for number in range(rounds):
        round_ = round_pair_next(tournament=tournament, by=Actor.command())
        round_publish(round=round_, by=Actor.command())
        for game in Game.objects.filter(table__round=round_).select_related("table"):
            seats = game.table.seats.count()
            out = [3, (game.number + number) % 3, (game.number * 2) % 3][:seats]
            game_record_out(game=game, out=out, by=Actor.command())
        with on_commit(execute=True):
            round_close(round=round_, by=Actor.command())


def ratings_now() -> tuple[list[tuple], list[tuple]]:
    current = sorted(
        PlayerRating.objects.values_list(
            "player_id", "game", "system", "rating", "deviation", "state", "games", "last_played"
        )
    )
    history = sorted(
        PeriodRating.objects.values_list(
            "period_id", "player_id", "elo_after", "glicko2_after", "openskill_after"
        )
    )
    return current, history


def replay_from_nothing() -> tuple[list[tuple], list[tuple]]:
    """A fresh recomputation: forget every derived row, rate every period again."""
    GameRating.objects.all().delete()
    PeriodRating.objects.all().delete()
    PlayerRating.objects.all().delete()
    RatingPeriod.objects.update(rated_at=None)
    ratings_recompute()
    return ratings_now()


@pytest.fixture
def director():
    return UserFactory(username="td")


def three_tournaments(director):
    """Before, middle and after, sharing players: some play only in the middle one,
    some in it and before it, some in it and after it."""
    club = ClubFactory(slug="home")
    before = TournamentFactory(club=club, slug="before", name="Before")
    middle = TournamentFactory(club=club, slug="middle", name="Middle")
    after = TournamentFactory(club=club, slug="after", name="After")
    players = [EntryFactory(tournament=middle, seed=i + 1).player for i in range(7)]
    for seed, player in enumerate(players[:3], start=1):
        EntryFactory(tournament=before, seed=seed, player=player)
    EntryFactory(tournament=before, seed=4)
    for seed, player in enumerate(players[3:6], start=1):
        EntryFactory(tournament=after, seed=seed, player=player)
    EntryFactory(tournament=after, seed=4)
    middle.directors.add(director)
    return before, middle, after


def test_deleting_a_tournament_replays_the_ratings_as_if_it_never_was(
    director, django_capture_on_commit_callbacks
):
    """The defect: DELETE answered 204 and took the rating periods with it, but every
    player's current rating still counted its games and no recomputation was queued."""
    before, middle, after = three_tournaments(director)
    play(before, 2, django_capture_on_commit_callbacks)
    play(middle, 2, django_capture_on_commit_callbacks)
    play(after, 2, django_capture_on_commit_callbacks)
    only_middle = middle.entries.get(seed=7).player
    assert PlayerRating.objects.filter(player=only_middle).exists()
    api = APIClient()
    api.force_authenticate(director)
    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete("/api/v1/tournaments/middle/")
    assert response.status_code == 204
    assert not Tournament.objects.filter(slug="middle").exists()
    job = RatingJob.objects.filter(kind="recompute").get()
    assert job.status == "done", job.error
    replayed = ratings_now()
    assert not PlayerRating.objects.filter(player=only_middle).exists()
    assert replayed == replay_from_nothing()  # identical to the bit


def test_deleting_an_unplayed_tournament_queues_no_rating_job(director):
    tournament = TournamentFactory(slug="empty")
    tournament.directors.add(director)
    api = APIClient()
    api.force_authenticate(director)
    assert api.delete("/api/v1/tournaments/empty/").status_code == 204
    assert not RatingJob.objects.exists()


def test_only_directors_delete_a_tournament(director):
    tournament = TournamentFactory(slug="kept")
    tournament.directors.add(director)
    api = APIClient()
    api.force_authenticate(UserFactory(username="stranger"))
    assert api.delete("/api/v1/tournaments/kept/").status_code == 403  # published: seen, not run
    assert Tournament.objects.filter(slug="kept").exists()


@pytest.fixture
def played(director, django_capture_on_commit_callbacks):
    tournament = TournamentFactory(slug="cup", name="Cup")
    for i in range(4):
        EntryFactory(tournament=tournament, seed=i + 1)
    tournament.directors.add(director)
    play(tournament, 1, django_capture_on_commit_callbacks)
    return tournament


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("game", "pantarei"),
        ("kind", "evening"),
        ("factor_2", "0"),
        ("factor_3", "0"),
        ("target", 4),
        ("games_per_turn_2", 2),
        ("games_per_turn_3", 1),
        ("policy", "pairs+bye"),
    ],
)
def test_a_played_setting_is_refused_naming_the_field(director, played, field, value):
    """The defect: after results, the API accepted these silently."""
    before = Tournament.objects.values().get(pk=played.pk)
    api = APIClient()
    api.force_authenticate(director)
    response = api.patch("/api/v1/tournaments/cup/", {field: value}, format="json")
    assert response.status_code == 409, response.content
    assert response.json()["error"]["field"] == field
    assert Tournament.objects.values().get(pk=played.pk) == before


def test_a_confirmed_change_of_a_time_factor_recomputes_standings_and_ratings(
    director, played, django_capture_on_commit_callbacks
):
    api = APIClient()
    api.force_authenticate(director)
    etag = api.get("/api/v1/tournaments/cup/standings/")["ETag"]
    scores = [row["score"] for row in api.get("/api/v1/tournaments/cup/standings/").json()["rows"]]
    with django_capture_on_commit_callbacks(execute=True):
        response = api.patch(
            "/api/v1/tournaments/cup/",
            # Factor 1 makes an even turn worth 9 at 2 players against 18 at 3: confirmed.
            {"factor_2": "1", "recompute": True, "uneven_turns": True},
            format="json",
        )
    assert response.status_code == 200 and response.json()["factor_2"] == "1.00"
    assert "recompute" not in response.json() and "uneven_turns" not in response.json()
    assert Tournament.objects.get(pk=played.pk).factor_2 == Decimal("1")
    polled = api.get("/api/v1/tournaments/cup/standings/", HTTP_IF_NONE_MATCH=etag)
    assert polled.status_code == 200
    assert [row["score"] for row in polled.json()["rows"]] != scores
    assert RatingJob.objects.filter(kind="recompute", status="done").exists()
    assert AuditEntry.objects.filter(tournament=played, action="settings").exists()


def test_the_kind_never_changes_once_played_even_when_confirmed(director, played):
    api = APIClient()
    api.force_authenticate(director)
    response = api.patch(
        "/api/v1/tournaments/cup/", {"kind": "evening", "recompute": True}, format="json"
    )
    assert response.status_code == 409 and response.json()["error"]["field"] == "kind"
    assert Tournament.objects.get(pk=played.pk).kind == "swiss"


def test_unguarded_settings_still_change_after_results(director, played):
    api = APIClient()
    api.force_authenticate(director)
    response = api.patch("/api/v1/tournaments/cup/", {"rounds_planned": 7}, format="json")
    assert response.status_code == 200
    assert Tournament.objects.get(pk=played.pk).rounds_planned == 7


def test_the_settings_page_refuses_a_played_game_change_with_a_message(director, played):
    page = Client()
    page.force_login(director)
    form = {
        "club": played.club_id,
        "name": "Cup",
        "game": "pentacosmos",
        "kind": "swiss",
        "date": "",
        "rounds_planned": 5,
        "policy": played.policy,
        "games_per_turn_2": 3,
        "games_per_turn_3": 2,
        "factor_2": "2",
        "factor_3": "3",
        "target": 3,
        "bye_score": "",
        "absence_score": "0",
        "published": "on",
    }
    played.club.organisers.add(director)
    response = page.post("/t/cup/manage/settings/", form)
    assert response.status_code == 200
    assert "game cannot change" in response.content.decode(), response.context["form"].errors
    assert Tournament.objects.get(pk=played.pk).game == "pentagame"


@pytest.fixture
def paired(director):
    tournament = TournamentFactory(slug="cup", name="Cup")
    for i in range(5):
        EntryFactory(tournament=tournament, seed=i + 1)
    tournament.directors.add(director)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    round_close(round=round_, force=True, by=Actor.command())
    # Withdrawn after round 1: not seated in round 2.
    entry_withdraw(entry=tournament.entries.get(seed=5), by=Actor.director(director))
    round_pair_next(tournament=tournament, by=Actor.command())
    return tournament


def test_a_swap_with_a_withdrawn_player_is_a_400_naming_the_field(director, paired):
    """The defect: the seat lookup raised Seat.DoesNotExist, a 500."""
    seats = sorted(paired.rounds.get(number=2).tables.values_list("seats__entry_id", flat=True))
    withdrawn = paired.entries.get(seed=5)
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(director)
    response = api.post(
        "/api/v1/tournaments/cup/rounds/2/swap/",
        {"first": paired.entries.get(seed=1).pk, "second": withdrawn.pk},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert response.json()["error"]["field"] == "second"
    assert (
        sorted(paired.rounds.get(number=2).tables.values_list("seats__entry_id", flat=True))
        == seats
    )


def test_the_manage_page_swap_with_a_withdrawn_player_is_a_message(director, paired):
    page = Client(raise_request_exception=False)
    page.force_login(director)
    withdrawn = paired.entries.get(seed=5)
    response = page.post(
        "/t/cup/manage/rounds/2/swap/",
        {"first": paired.entries.get(seed=1).pk, "second": withdrawn.pk},
        follow=True,
    )
    assert response.status_code == 200
    assert "has no seat in round 2" in response.content.decode()


def test_deleting_a_closed_last_round_replays_the_ratings_without_it(
    director, django_capture_on_commit_callbacks
):
    before, middle, after = three_tournaments(director)
    play(before, 1, django_capture_on_commit_callbacks)
    play(middle, 2, django_capture_on_commit_callbacks)
    play(after, 1, django_capture_on_commit_callbacks)
    api = APIClient()
    api.force_authenticate(director)
    assert api.delete("/api/v1/tournaments/middle/rounds/1/").status_code == 409  # not last
    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete("/api/v1/tournaments/middle/rounds/2/")
    assert response.status_code == 204
    assert list(middle.rounds.values_list("number", flat=True)) == [1]
    assert Tournament.objects.get(pk=middle.pk).status == "running"
    job = RatingJob.objects.filter(kind="recompute").get()
    assert job.status == "done", job.error
    assert ratings_now() == replay_from_nothing()


def test_deleting_a_paired_round_needs_no_rating_job_and_is_refused_to_others(director, paired):
    api = APIClient()
    api.force_authenticate(UserFactory(username="stranger"))
    assert api.delete("/api/v1/tournaments/cup/rounds/2/").status_code == 403
    page = Client()
    page.force_login(director)
    page.post("/t/cup/manage/rounds/2/delete/")
    assert list(paired.rounds.values_list("number", flat=True)) == [1]
    assert not RatingJob.objects.filter(kind="recompute").exists()


def test_the_admin_shows_played_settings_read_only(played):
    admin = Client()
    admin.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    page = admin.get(f"/admin/tournaments/tournament/{played.pk}/change/").content.decode()
    assert 'name="name"' in page
    assert 'name="game"' not in page and 'name="factor_2"' not in page


def test_clearing_a_closed_result_replays_the_ratings_without_it(
    director, django_capture_on_commit_callbacks
):
    before, middle, after = three_tournaments(director)
    play(before, 1, django_capture_on_commit_callbacks)
    play(middle, 2, django_capture_on_commit_callbacks)
    play(after, 1, django_capture_on_commit_callbacks)
    game = Game.objects.filter(table__round__tournament=middle, table__round__number=1).first()
    api = APIClient()
    api.force_authenticate(director)
    stale = api.delete(
        f"/api/v1/games/{game.pk}/result/?version={game.version - 1}&correction=true"
    )
    assert stale.status_code == 409
    assert Game.objects.get(pk=game.pk).status == "finished"
    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(
            f"/api/v1/games/{game.pk}/result/?version={game.version}&correction=true"
        )
    assert response.status_code == 200, response.content
    assert (response.json()["status"], Game.objects.get(pk=game.pk).status) == ("pending",) * 2
    assert game.submissions.exclude(state="discarded").count() == 0
    assert AuditEntry.objects.filter(action="clear result", actor="td").count() == 1
    assert RatingJob.objects.filter(status="done").exists()
    assert not RatingJob.objects.exclude(status="done").exists()
    assert ratings_now() == replay_from_nothing()  # identical to the bit


def test_only_a_director_of_the_tournament_clears_a_result(
    director, django_capture_on_commit_callbacks
):
    _, middle, _ = three_tournaments(director)
    play(middle, 1, django_capture_on_commit_callbacks)
    game = Game.objects.filter(table__round__tournament=middle).first()
    api = APIClient()
    api.force_authenticate(UserFactory(username="stranger"))
    assert api.delete(f"/api/v1/games/{game.pk}/result/").status_code == 403
    api.force_authenticate(director)
    assert api.delete(f"/api/v1/games/{game.pk}/result/?version=x").status_code == 400
    assert api.delete(f"/api/v1/games/{game.pk}/").status_code == 405  # a game is never deleted
    assert Game.objects.get(pk=game.pk).status == "finished"
    assert not AuditEntry.objects.filter(action="clear result").exists()
