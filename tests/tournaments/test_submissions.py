"""Results as submissions: who reported what, and the game's result derived from them.

A director's entry is final; a player reports once per game through their own link and
confirms only another seat's report; reports that disagree are a dispute the organiser
settles with one click."""

from __future__ import annotations

import base64

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.desk.services.rounds import (
    round_close,
    round_pair_next,
    round_publish,
    round_repair,
    round_swap_seats,
)
from tournaments.models import AuditEntry, Game, ResultSubmission, Seat
from tournaments.results.services.results import (
    Actor,
    game_confirm,
    game_record_moves,
    game_record_out,
    result_accept,
)
from tournaments.standings.selectors.standings import tournament_scores

pytestmark = pytest.mark.django_db
State = ResultSubmission.State
DIRECTOR = Actor.command()


@pytest.fixture
def organiser():
    user = UserFactory(username="org")
    club = ClubFactory(name="Kiel", slug="kiel")
    club.organisers.add(user)
    return user


@pytest.fixture
def game(organiser):
    tournament = tournament_with_players(2, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    return Game.objects.get(table__round=round_, number=1)


def player(game: Game, position: int) -> Actor:
    return Actor.player(game.table.seats.get(position=position))


def states(game: Game) -> list[str]:
    return list(game.submissions.order_by("id").values_list("state", flat=True))


def test_no_actor_is_no_director(game):
    with pytest.raises(TypeError):
        game_record_out(game=game, out=[3, 1], by=None)
    with pytest.raises(ServiceError, match="signed-in director"):
        Actor.director(None)
    assert states(game) == []


def test_a_directors_result_is_final_and_a_players_report_never_replaces_it(game):
    game_record_out(game=game, out=[3, 1], by=DIRECTOR)
    with pytest.raises(ConflictError, match="final result"):
        game_record_out(game=game, out=[1, 3], by=player(game, 2))
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1] and game.confirmed and states(game) == [State.ENTERED]


def test_a_confirmed_report_is_final_for_players_too(game):
    game_record_out(game=game, out=[3, 1], by=player(game, 1))
    game_confirm(game=game, by=player(game, 2))
    with pytest.raises(ConflictError):
        game_record_out(game=game, out=[1, 3], by=player(game, 2))
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1] and game.confirmed


def test_a_seat_reports_once_per_game(game):
    game_record_out(game=game, out=[3, 1], by=player(game, 1))
    with pytest.raises(ConflictError, match="already reported"):
        game_record_out(game=game, out=[3, 2], by=player(game, 1))
    game.refresh_from_db()
    assert game.out_list(2) == [3, 1] and states(game) == [State.REPORTED]


def test_a_seat_never_confirms_its_own_report(game):
    game_record_out(game=game, out=[3, 1], by=player(game, 1))
    with pytest.raises(ServiceError, match="by an opponent"):
        game_confirm(game=game, by=player(game, 1))
    game.refresh_from_db()
    assert not game.confirmed and states(game) == [State.REPORTED]


def test_an_opponents_confirmation_makes_the_report_count(game):
    game_record_out(game=game, out=[3, 1], by=player(game, 1))
    assert set(tournament_scores(tournament=game.table.round.tournament).values()) == {0.0}
    game_confirm(game=game, by=player(game, 2))
    game.refresh_from_db()
    assert game.confirmed and game.reported_by_position == 1
    report = game.submissions.get()
    assert report.state == State.CONFIRMED and report.decided_by_seat.position == 2


def test_two_agreeing_reports_confirm_each_other(game):
    moves = ["W-W1B", "B-B1R"]
    game_record_moves(game=game, moves=moves, finished=False, by=player(game, 1))
    game.refresh_from_db()
    out = game.out_list(2)
    game_record_out(game=game, out=out, finished=False, by=player(game, 2))
    game.refresh_from_db()
    assert game.confirmed and game.out_list(2) == out
    # The current result keeps the move record of the first report.
    assert game.moves == moves
    assert states(game) == [State.CONFIRMED, State.CONFIRMED]


def test_two_disagreeing_reports_are_a_dispute_and_nothing_counts(game):
    game_record_out(game=game, out=[3, 1], by=player(game, 1))
    game_record_out(game=game, out=[1, 3], by=player(game, 2))
    game.refresh_from_db()
    assert game.status == Game.Status.PENDING and not game.confirmed
    assert states(game) == [State.DISPUTED, State.DISPUTED]
    with pytest.raises(ConflictError, match="organiser decides"):
        game_confirm(game=game, by=player(game, 1))
    with pytest.raises(ServiceError, match="await"):
        round_close(round=game.table.round, force=True, by=Actor.command())


def test_the_organiser_settles_a_dispute_with_one_click(client, organiser, game):
    game_record_out(game=game, out=[3, 1], by=player(game, 1))
    game_record_out(game=game, out=[1, 3], by=player(game, 2))
    tournament = game.table.round.tournament
    client.force_login(organiser)
    page = client.get(reverse("round-open-tables", args=[tournament.slug, 1])).content.decode()
    first, second = game.submissions.order_by("id")
    accept = reverse("submission-accept", args=[tournament.slug, second.pk])
    assert accept in page and reverse("submission-accept", args=[tournament.slug, first.pk]) in page
    client.post(accept)
    game.refresh_from_db()
    assert game.out_list(2) == [1, 3] and game.confirmed
    assert states(game) == [State.DISCARDED, State.CONFIRMED]
    second.refresh_from_db()
    assert second.decided_by_user == organiser
    assert AuditEntry.objects.filter(action="accept result", user=organiser).exists()
    # A second click on a settled report changes nothing.
    with pytest.raises(ConflictError):
        result_accept(submission=first, by=Actor.director(organiser))


def test_strangers_cannot_accept_a_report(client, game):
    game_record_out(game=game, out=[3, 1], by=player(game, 1))
    report = game.submissions.get()
    client.force_login(UserFactory(username="stranger"))
    url = reverse("submission-accept", args=[game.table.round.tournament.slug, report.pk])
    assert client.post(url).status_code == 403
    game.refresh_from_db()
    assert not game.confirmed


def test_a_directors_entry_discards_the_reports_and_the_trail_stays(organiser, game):
    game_record_out(game=game, out=[3, 1], by=player(game, 1))
    game_record_out(game=game, out=[1, 3], by=player(game, 2))
    game_record_out(game=game, out=[3, 2], by=Actor.director(organiser))
    game.refresh_from_db()
    assert game.out_list(2) == [3, 2] and game.confirmed and game.entered_by == organiser
    trail = list(game.submissions.order_by("id"))
    assert [s.state for s in trail] == [State.DISCARDED, State.DISCARDED, State.ENTERED]
    assert [s.out for s in trail] == [[3, 1], [1, 3], [3, 2]]
    assert [s.position for s in trail] == [1, 2, None]


def test_a_players_link_cannot_write_another_tables_game(organiser):
    tournament = tournament_with_players(4, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    here, there = round_.tables.order_by("number")
    game = here.games.first()
    with pytest.raises(ServiceError, match="not for this game's table"):
        game_record_out(game=game, out=[3, 1], by=Actor.player(there.seats.first()))
    with pytest.raises(ServiceError, match="not for this game's table"):
        game_confirm(game=game, by=Actor.player(there.seats.first()))


def test_a_players_page_reports_and_confirms_only_as_that_player(client, game):
    first, second = game.table.seats.order_by("position")
    page = client.get(reverse("seat-report", args=[first.report_token])).content.decode()
    assert first.entry.player.name in page and 'name="position"' not in page
    data = {"game": game.pk, "version": game.version, "finished": "1", "out_1": 3, "out_2": 1}
    client.post(reverse("seat-report", args=[first.report_token]), data)
    # The reporter's own page offers no confirmation; the opponent's does.
    own = client.get(reverse("seat-report", args=[first.report_token])).content.decode()
    theirs = client.get(reverse("seat-report", args=[second.report_token])).content.decode()
    assert 'name="confirm"' not in own and 'name="confirm"' in theirs
    client.post(reverse("seat-report", args=[first.report_token]), {"game": game.pk, "confirm": 1})
    game.refresh_from_db()
    assert not game.confirmed
    client.post(reverse("seat-report", args=[second.report_token]), {"game": game.pk, "confirm": 1})
    game.refresh_from_db()
    assert game.confirmed and game.submissions.get().decided_by_seat == second


def test_the_api_reports_and_confirms_only_as_the_links_player(game):
    from rest_framework.test import APIClient

    api = APIClient()
    first, second = game.table.seats.order_by("position")
    url = f"/api/v1/report/{first.report_token}/games/{game.pk}/"
    assert api.post(url, {"out": [3, 1]}, format="json").status_code == 200
    assert api.post(url + "confirm/", {}, format="json").status_code == 400
    pretend = api.post(url + "confirm/", {"position": 2}, format="json")
    assert pretend.status_code == 400 and pretend.json()["error"]["field"] == "position"
    game.refresh_from_db()
    assert not game.confirmed
    again = api.post(url, {"out": [3, 2]}, format="json")
    assert again.status_code == 409
    opponent = f"/api/v1/report/{second.report_token}/games/{game.pk}/confirm/"
    assert api.post(opponent, {}, format="json").json()["confirmed"] is True


def test_links_carry_at_least_128_random_bits_and_differ_per_seat(organiser):
    tournament = tournament_with_players(9, club=organiser.organised_clubs.get())
    round_pair_next(tournament=tournament, by=Actor.command())
    tokens = list(Seat.objects.values_list("report_token", flat=True))
    assert len(set(tokens)) == len(tokens) == 9
    for token in tokens:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128


def test_a_guessed_or_old_link_gets_404(client, organiser):
    tournament = tournament_with_players(4, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    a = Seat.objects.get(round=round_, table__number=1, position=1)
    b = Seat.objects.get(round=round_, table__number=2, position=1)
    old_a, old_b = a.report_token, b.report_token
    round_swap_seats(round=round_, first=a.entry, second=b.entry, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).first()
    for token in (old_a, old_b, "x" * 32, old_a[:-1] + ("A" if old_a[-1] != "A" else "B")):
        assert client.get(reverse("seat-report", args=[token])).status_code == 404
        api = f"/api/v1/report/{token}/games/{game.pk}/"
        assert client.post(api, {"out": [3, 1]}, content_type="application/json").status_code == 404
        board = reverse("games:record-token", args=[game.pk, token])
        assert client.get(board).status_code == 404
    fresh = Seat.objects.get(round=round_, entry=a.entry).report_token
    assert client.get(reverse("seat-report", args=[fresh])).status_code == 200


def test_re_pairing_keeps_the_links_of_players_whose_table_did_not_change(organiser):
    tournament = tournament_with_players(6, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())

    def links(r):
        return {
            s.entry_id: (s.table.number, s.report_token)
            for s in Seat.objects.filter(round=r).select_related("table")
        }

    before = links(round_)
    again = round_repair(round=round_, by=Actor.command())
    after = links(again)
    # The same seeding pairs the same tables: every printed sheet stays valid.
    assert after == before
    # Two players swapped: their links change, the others' stay.
    one = Seat.objects.get(round=again, table__number=1, position=1).entry
    two = Seat.objects.get(round=again, table__number=2, position=1).entry
    round_swap_seats(round=again, first=one, second=two, by=Actor.command())
    swapped = links(again)
    for entry_id, (_, token) in swapped.items():
        if entry_id in (one.pk, two.pk):
            assert token != before[entry_id][1]
        else:
            assert token == before[entry_id][1]


def test_a_closed_round_takes_no_reports_but_a_directors_correction(organiser, game):
    round_close(round=game.table.round, force=True, by=Actor.command())
    with pytest.raises(ServiceError, match="closed"):
        game_record_out(game=game, out=[3, 1], by=player(game, 1))
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser), correction=True)
    game.refresh_from_db()
    assert game.confirmed and states(game) == [State.ENTERED]


def test_the_results_page_shows_each_games_submissions(client, organiser, game):
    game_record_out(game=game, out=[3, 1], by=player(game, 1))
    game_record_out(game=game, out=[1, 3], by=player(game, 2))
    game_record_out(game=game, out=[3, 2], by=Actor.director(organiser))
    client.force_login(organiser)
    tournament = game.table.round.tournament
    page = client.get(reverse("round-results", args=[tournament.slug, 1])).content.decode()
    first, second = game.table.seats.order_by("position")
    assert "3 submissions" in page
    assert f"{first.entry.player.name} (seat 1): 3:1" in page
    assert f"{second.entry.player.name} (seat 2): 1:3" in page
    assert "director org: 3:2" in page and "entered by a director (final)" in page


def test_an_imported_result_is_the_importers_entry_and_no_link_replaces_it(organiser, game):
    from tournaments.transfer.services import (
        tournament_export_document,
        tournament_import_document,
    )

    game_record_out(game=game, out=[3, 1], by=DIRECTOR)
    document = tournament_export_document(tournament=game.table.round.tournament)
    document["tournament"]["slug"] = "copy"
    copy = tournament_import_document(
        document=document, players_by_name=True, by=Actor.director(organiser)
    )
    imported = Game.objects.get(table__round__tournament=copy, table__number=1, number=1)
    entry = imported.submissions.get()
    assert entry.state == State.ENTERED and entry.by_user == organiser and entry.out == [3, 1]
    with pytest.raises(ConflictError):
        game_record_out(game=imported, out=[1, 3], by=player(imported, 2))


def test_a_players_link_leaves_her_fields_empty_and_shows_the_others_report_beside_them(
    client, game
):
    """Her fields held the opponent's unconfirmed report, so typing 1 into a field
    holding 3 made 31, which the browser refused."""
    import re

    first, second = game.table.seats.order_by("position")
    data = {"game": game.pk, "version": game.version, "finished": "1", "out_1": 3, "out_2": 1}
    client.post(reverse("seat-report", args=[first.report_token]), data)
    theirs = client.get(reverse("seat-report", args=[second.report_token])).content.decode()
    fields = re.findall(rf'<input type="number" id="out-{game.pk}-\d"[^>]*>', theirs)
    assert len(fields) == 2
    assert all('value=""' in field for field in fields), fields
    assert "seat 1 reported 3 : 1 — confirm, or report what you saw" in theirs
    assert 'name="confirm"' in theirs
    # One tap confirms.
    client.post(reverse("seat-report", args=[second.report_token]), {"game": game.pk, "confirm": 1})
    game.refresh_from_db()
    assert game.confirmed and game.out_list(2) == [3, 1]
