"""The 3-player decider (sections 3 and 18; docs/scoring.md, section 8): a 3-player
match tied at the top by two adds a 2-player game of those two, which settles who wins
the match and leaves every round score as it was. Through the services, the results
screen, the API, the players' links and the board; a correction takes it away or voids
it; two reports racing add one; a property over random matches."""

from __future__ import annotations

import copy
import re
import threading
from fractions import Fraction
from typing import Any

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from ratings.periods import period_for_round, period_games
from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.demo import demo_load
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.tournaments import tournament_create, tournament_update
from tournaments.models import AuditEntry, Game, ResultSubmission, Round, Seat, Tournament
from tournaments.results.selectors.rounds import round_tables
from tournaments.results.services.result_path import PlyEntry, ResultEntry, game_result_record
from tournaments.results.services.results import Actor, game_clear, game_confirm, game_record_out
from tournaments.scoring import decider_first, decider_pair
from tournaments.standings.selectors.standings import tournament_standings
from tournaments.transfer.services import tournament_export_document, tournament_import_document

pytestmark = pytest.mark.django_db

CMD = Actor.command()
HTMX = {"HTTP_HX_REQUEST": "true"}
# Two games 0:3:3 (clockwise, widdershins): dropped 0, 4.5, 4.5 each, match totals 0, 9,
# 9: seats 2 and 3 tied at the top (docs/scoring.md, section 8's worked example).
TIED = [0, 3, 3]
# 3:1:0 twice: dropped 5.5, 2.5, 1 each, seat 1 alone at the top.
CLEAR = [3, 1, 0]


def match(*, decider: bool = True, club: Any = None, **settings_: Any) -> tuple[Round, list[Game]]:
    """A published round of one 3-player table: its two games, seat 1 begins both."""
    extra = {"club": club} if club is not None else {}
    tournament = tournament_with_players(
        3, policy="prefer-triples", decider=decider, **extra, **settings_
    )
    round_ = round_pair_next(tournament=tournament, by=CMD)
    round_publish(round=round_, by=CMD)
    return round_, list(Game.objects.filter(table__round=round_).order_by("number"))


def deciders(round_: Round, **filters: Any) -> list[Game]:
    return list(
        Game.objects.filter(table__round=round_, decider=True, **filters).order_by("number")
    )


def seat(round_: Round, position: int) -> Seat:
    return Seat.objects.select_related("entry__player").get(round=round_, position=position)


def player(round_: Round, position: int) -> Actor:
    return Actor.player(seat(round_, position))


def enter(game: Game, out: list[int], finished: bool = True) -> Game:
    return game_record_out(game=Game.objects.get(pk=game.pk), out=out, finished=finished, by=CMD)


def actions(round_: Round) -> list[str]:
    return list(
        AuditEntry.objects.filter(tournament=round_.tournament)
        .order_by("at", "pk")
        .values_list("action", flat=True)
    )


# --- the pure core ------------------------------------------------------------------


def test_the_core_names_two_leaders_tied_at_the_top_and_nobody_else():
    from tournaments.scoring import DEFAULT_SETTINGS as book

    assert decider_pair([TIED, TIED], book) == (1, 2)
    assert decider_pair([CLEAR, CLEAR], book) is None
    # 3:1:2 then 1:3:2: 4.5 + 1.5, 1.5 + 4.5, 3 + 3: all three on 6, no two leaders.
    assert decider_pair([[3, 1, 2], [1, 3, 2]], book) is None
    # Tied below the top (5.5, 5.5, 7) is no tie at the top.
    assert decider_pair([[3, 0, 2], [0, 3, 2]], book) is None
    assert decider_pair([[3, 1], [1, 3]], book) is None  # a 2-player table has no decider


def test_the_leader_who_began_fewer_games_of_the_match_begins_the_decider():
    # The book's match: seat 1 begins both games (clockwise and widdershins).
    assert decider_first((0, 1), [0, 0]) == 1
    assert decider_first((0, 2), [0, 0]) == 2
    assert decider_first((1, 2), [0, 0]) == 1  # neither began one: the lower seat


# --- when a decider comes and goes -----------------------------------------------------


def test_a_match_tied_at_the_top_adds_one_decider_of_the_two_leaders():
    round_, (one, two) = match()
    enter(one, TIED)
    assert deciders(round_) == []  # the match is not over yet
    enter(two, TIED)
    (decider,) = deciders(round_)
    assert decider.leaders == (2, 3) and not decider.voided
    assert decider.number == 3 and decider.status == Game.Status.PENDING
    # Seat 2 and 3 began no game of the match: the lower seat begins.
    assert decider.first_position == 2 and decider.target == round_.tournament.target
    assert decider.out_list(3) == [None, None]
    assert actions(round_)[-1] == "add decider"


def test_a_clear_match_and_a_three_way_tie_add_no_decider():
    round_, (one, two) = match()
    enter(one, CLEAR)
    enter(two, CLEAR)
    assert deciders(round_) == []
    assert round_tables(round_=round_)[0].match.winner == 1
    # 3:1:2 then 1:3:2: 4.5 + 1.5, 1.5 + 4.5, 3 + 3: all three on 6, not "the two leaders".
    enter(one, [3, 1, 2])
    enter(two, [1, 3, 2])
    assert deciders(round_) == []
    match_ = round_tables(round_=round_)[0].match
    assert match_.winner is None and match_.leaders == (1, 2, 3)


def test_without_the_option_a_tied_match_adds_no_decider():
    round_, (one, two) = match(decider=False)
    enter(one, TIED)
    enter(two, TIED)
    assert deciders(round_) == []


def test_the_decider_waits_until_every_game_of_the_match_counts():
    round_, (one, two) = match()
    enter(one, TIED)
    game_record_out(game=two, out=TIED, by=player(round_, 1))
    assert deciders(round_) == []  # reported, not yet confirmed: it does not count
    game_confirm(game=two, by=player(round_, 2))
    assert [d.leaders for d in deciders(round_)] == [(2, 3)]


def test_a_correction_takes_an_unplayed_decider_away_and_says_so():
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    enter(two, [0, 3, 2])  # Ben now 9, Cleo 8.5: Ben alone at the top
    assert not Game.objects.filter(pk=decider.pk).exists()
    removed = AuditEntry.objects.get(tournament=round_.tournament, action="remove decider")
    assert removed.before["leaders"] == [2, 3] and removed.target.endswith("game 3")


def test_a_correction_voids_a_played_decider_keeping_its_result_and_taking_it_back_restores_it():
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    enter(decider, [3, 1])
    enter(two, [0, 3, 2])
    decider.refresh_from_db()
    # Never lost: the result and its submission stay, counting nowhere.
    assert decider.voided and decider.out_list(3) == [3, 1] and decider.submissions.count() == 1
    assert round_tables(round_=round_)[0].match.winner == 2  # Ben alone, no decider needed
    voided = AuditEntry.objects.get(tournament=round_.tournament, action="void decider")
    assert voided.before["out"] == [3, 1]
    with pytest.raises(ConflictError, match="no longer counts"):
        enter(decider, [1, 3])
    with pytest.raises(ServiceError, match="no longer counts"):
        game_record_out(game=decider, out=[1, 3], by=player(round_, 3))
    enter(two, TIED)  # the correction taken back: the same two tie again
    decider.refresh_from_db()
    assert not decider.voided and decider.out_list(3) == [3, 1]
    assert actions(round_)[-1] == "restore decider"
    assert len(deciders(round_)) == 1


def test_a_tie_between_other_leaders_gets_a_decider_of_its_own():
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (first,) = deciders(round_)
    enter(first, [3, 2])
    # 3:3:0 and 0:3:3: Ben alone on 9 (the played decider is voided); then 3:3:0 twice:
    # Anna and Ben tied at the top on 9.
    enter(one, [3, 3, 0])
    enter(two, [3, 3, 0])
    old, new = deciders(round_)
    old.refresh_from_db()
    assert old.voided and old.leaders == (2, 3)
    assert not new.voided and new.leaders == (1, 2) and new.number == 4
    # Seat 1 began both games of the match, seat 2 none: seat 2 begins the decider.
    assert new.first_position == 2


def test_a_cleared_result_leaves_the_match_unfinished_and_takes_the_decider_away():
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    game_clear(game=Game.objects.get(pk=two.pk), by=CMD)
    assert deciders(round_) == []


def test_the_database_allows_one_decider_that_counts_per_table():
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(
            table=decider.table, number=9, decider=True, leader_a=1, leader_b=2, target=3
        )
    # A result at a decider's seat that does not play is refused by the database too.
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=decider.pk).update(status="finished", out_1=3, out_2=3, out_3=1)
    # ...and a decider's result needs the two leaders' pieces out, not seat 1's.
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.filter(pk=decider.pk).update(status="finished", out_2=3)


# --- scoring: the decider settles the match, and no round score ----------------------


def test_the_decider_settles_the_match_and_changes_no_round_score():
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)

    def scores() -> list[float | None]:
        return [s.round_score for s in round_tables(round_=round_)[0].seats]

    assert scores() == [0, 27, 27]
    assert round_tables(round_=round_)[0].match.pending
    enter(decider, [3, 1])
    assert scores() == [0, 27, 27] and sum(scores()) == 54
    table = round_tables(round_=round_)[0]
    assert table.match.winner == 2 and table.match.by_decider
    round_close(round=round_, by=CMD)
    rows = {r.name: r for r in tournament_standings(tournament=round_.tournament).rows}
    ben, cleo = seat(round_, 2).entry.player.name, seat(round_, 3).entry.player.name
    assert rows[ben].score == rows[cleo].score == 27
    # The turn's two games only: the decider is no game of the turn...
    assert rows[ben].games == rows[cleo].games == 2
    assert rows[ben].per_game == rows[cleo].per_game == 4.5
    # ...but it settled the match: Ben's one win (both games of the match were shared at
    # the top, nobody's win) ranks him above Cleo.
    wins = list(tournament_standings(tournament=round_.tournament).tiebreak_labels).index("Wins")
    assert rows[ben].tiebreaks[wins] == 1 and rows[cleo].tiebreaks[wins] == 0
    assert rows[ben].rank == 1 and rows[cleo].rank == 2


def test_a_drawn_decider_leaves_the_match_shared_and_is_nobodys_win():
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    enter(decider, [3, 3])
    table = round_tables(round_=round_)[0]
    assert table.match.winner is None and table.match.leaders == (2, 3)
    round_close(round=round_, by=CMD)
    rows = tournament_standings(tournament=round_.tournament).rows
    assert [r.rank for r in rows if r.score == 27] == [1, 1]


def test_the_round_does_not_close_on_a_decider_without_a_result_unless_closed_anyway():
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    with pytest.raises(ServiceError, match=r"the decider at table\(s\) 1 has no result yet"):
        round_close(round=round_, by=CMD)
    round_close(round=round_, by=CMD, force=True)
    table = round_tables(round_=Round.objects.get(pk=round_.pk))[0]
    # Closed anyway: the match is shared; the unplayed decider is no 3:3 in any score.
    assert table.match.winner is None and not table.match.pending
    assert [s.round_score for s in table.seats] == [0, 27, 27]


def test_a_voided_decider_keeps_nothing_open():
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    game_record_out(game=decider, out=[3, 1], by=player(round_, 2))  # waiting for Cleo
    enter(two, [0, 3, 2])
    decider.refresh_from_db()
    assert decider.voided and decider.submissions.get().state == "reported"
    round_close(round=round_, by=CMD)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED


def test_the_ratings_rate_a_decider_as_a_two_player_game_of_its_leaders():
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    enter(decider, [1, 3])
    round_close(round=round_, by=CMD)
    games = period_games(period_for_round(Round.objects.get(pk=round_.pk)))
    rated = dict(zip(games.records, games.games, strict=True))
    ben, cleo = (str(seat(round_, p).entry.player_id) for p in (2, 3))
    # Ben (seat 2) began it: the moving order, and their pieces out in it.
    assert rated[decider.pk].seats == (ben, cleo) and rated[decider.pk].out == (1, 3)
    assert len(rated[one.pk].seats) == 3


# --- who reports it: the third player's link cannot --------------------------------


def test_only_the_two_leaders_links_report_and_confirm_the_decider():
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    with pytest.raises(ServiceError, match="played by seats 2 and 3; your link cannot"):
        game_record_out(game=decider, out=[3, 1], by=player(round_, 1))
    game_record_out(game=decider, out=[3, 1], by=player(round_, 2))
    with pytest.raises(ServiceError, match="played by seats 2 and 3"):
        game_confirm(game=decider, by=player(round_, 1))
    game_confirm(game=decider, by=player(round_, 3))
    decider.refresh_from_db()
    assert decider.counts and decider.out_list(3) == [3, 1]
    assert (decider.out_1, decider.out_2, decider.out_3) == (None, 3, 1)


def test_the_third_player_can_record_no_ply_of_the_decider_and_its_board_is_a_two_player_game(
    client,
):
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    with pytest.raises(ServiceError, match="your link cannot report it"):
        game_result_record(
            game=decider, entry=ResultEntry(ply=PlyEntry(1, "W-W1B", "k1")), by=player(round_, 1)
        )
    saved = game_result_record(
        game=decider, entry=ResultEntry(ply=PlyEntry(1, "W-W1B", "k1")), by=player(round_, 3)
    )
    assert saved.status == Game.Status.IN_PROGRESS and saved.moves == ["W-W1B"]
    third = seat(round_, 1).report_token
    assert client.get(reverse("games:record-token", args=[decider.pk, third])).status_code == 404
    page = client.get(
        reverse("games:record-token", args=[decider.pk, seat(round_, 2).report_token])
    )
    players = page.context["data"]["players"]
    assert [p["position"] for p in players] == [2, 3]  # Ben begins; a 2-player record
    assert page.context["data"]["record"]["players"] == 2


def test_a_leaders_link_shows_a_form_for_the_decider_with_two_fields_and_the_third_a_line(client):
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    ben, anna = seat(round_, 2), seat(round_, 1)
    page = client.get(reverse("seat-report", args=[ben.report_token])).content.decode()
    form = page[page.index(f'id="game-{decider.pk}"') :]
    form = form[: form.index("</form>")]
    assert "Decider" in form and f'name="out_{2}"' in form and 'name="out_3"' in form
    assert 'name="out_1"' not in form
    assert "Match tied at the top" in page
    theirs = client.get(reverse("seat-report", args=[anna.report_token])).content.decode()
    line = theirs[theirs.index(f'id="game-{decider.pk}"') :]
    assert line.startswith(f'id="game-{decider.pk}"><strong>Decider</strong>')
    assert "<form" not in line[: line.index("</p>")]
    data = {"game": decider.pk, "version": decider.version, "finished": "1", "out_2": 3, "out_3": 0}
    client.post(reverse("seat-report", args=[ben.report_token]), data)
    refused = {
        "game": decider.pk,
        "version": decider.version,
        "finished": "1",
        "out_2": 3,
        "out_3": 0,
    }
    client.post(reverse("seat-report", args=[anna.report_token]), refused)
    decider.refresh_from_db()
    assert [s.by_seat_id for s in decider.submissions.all()] == [ben.pk]
    client.post(
        reverse("seat-report", args=[seat(round_, 3).report_token]),
        {"game": decider.pk, "confirm": 1},
    )
    decider.refresh_from_db()
    assert decider.counts and decider.out_list(3) == [3, 0]
    page = client.get(reverse("seat-report", args=[anna.report_token])).content.decode()
    assert f"Match won by {ben.entry.player.name} in the decider" in page


# --- the results screen -----------------------------------------------------------


@pytest.fixture
def organiser():
    user = UserFactory(username="org")
    ClubFactory(name="Kiel", slug="kiel").organisers.add(user)
    return user


def save(client, game: Game, out: str):
    game = Game.objects.get(pk=game.pk)
    round_ = game.table.round
    url = reverse("round-result-save", args=[round_.tournament.slug, round_.number, game.pk])
    return client.post(url, {"out": out, "version": game.version}, **HTMX)


def test_the_results_screen_brings_the_decider_in_with_the_save_that_ties_the_match(
    client, organiser
):
    client.force_login(organiser)
    club = organiser.organised_clubs.get()
    round_, (one, two) = match(club=club)
    table = one.table
    page = client.get(reverse("round-results", args=[round_.tournament.slug, 1])).content.decode()
    # Every 3-player table has its group for the decider, empty before the match ends.
    assert re.search(
        rf'<tbody id="match-{table.pk}" class="match-rows" data-live-region>\s*</tbody>', page
    )
    assert save(client, one, "033").status_code == 200
    answer = save(client, two, "0 3 3").content.decode()
    (decider,) = deciders(round_)
    # The answer's own row, then out of band the table's group with the decider's row, in
    # a <template> of its own (one that began with the progress line would drop rows).
    assert f'<template>\n<tbody id="match-{table.pk}"' in answer
    group = answer[answer.index(f'<tbody id="match-{table.pk}"') :]
    assert 'hx-swap-oob="true"' in group[: group.index(">")]
    assert f'id="game-{decider.pk}"' in group and "Decider" in group
    assert 'data-seats="2"' in group and 'placeholder="3 1"' in group
    assert "play the decider" in group
    answer = save(client, decider, "31").content.decode()
    assert 'class="result-row is-in"' in answer.split("<template>")[0]
    assert f'id="match-line-{table.pk}" class="match-line" hx-swap-oob="true"' in answer
    assert "in the decider" in answer
    # A correction that unties the match voids the played decider: its row says so.
    answer = save(client, two, "032").content.decode()
    group = answer[answer.index(f'<tbody id="match-{table.pk}"') :]
    assert "is-voided" in group and "no longer tied at the top" in group
    assert f'name="out" form="result-{decider.pk}"' not in group
    page = client.get(reverse("round-results", args=[round_.tournament.slug, 1])).content.decode()
    assert "is-voided" in page


def test_the_round_page_shows_the_decider_with_its_two_players_and_the_match_result(client):
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    enter(decider, [1, 3])
    page = client.get(reverse("round-detail", args=[round_.tournament.slug, 1])).content.decode()
    ben, cleo = (seat(round_, p).entry.player.name for p in (2, 3))
    assert f"Decider (seat 2 starts), {ben} – {cleo}:" in page
    assert f"Match won by {cleo} in the decider" in page


def test_the_crosstable_marks_the_decider_between_its_two_leaders_and_no_total(client):
    round_, (one, two) = match()
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    enter(decider, [1, 3])  # Cleo (seat 3) wins it
    round_close(round=round_, by=CMD)
    slug = round_.tournament.slug
    page = client.get(reverse("tournament-crosstable", args=[slug])).content.decode()
    cells = re.findall(r'<td class="num">([^<]*(?:<span[^>]*>[^<]*</span>)*)', page)
    marked = [c for c in cells if "decider-mark" in c]
    # Ben's cell against Cleo and Cleo's against Ben; Ann's cells carry no mark.
    assert sorted(re.search(r">(D.)<", c).group(1) for c in marked) == ["D+", "D−"]
    # Beside the two games' head-to-head scores, which it leaves as they are.
    assert all(re.match(r"[\d.]+ [\d.]+ <span", c) for c in marked)
    assert "won the decider" in page and "lost the decider" in page
    assert "D+ and D−: won and lost the decider" in page


def test_a_crosstable_without_a_decider_has_no_mark_and_no_legend(client):
    round_, (one, two) = match()
    enter(one, CLEAR)
    enter(two, CLEAR)
    round_close(round=round_, by=CMD)
    page = client.get(reverse("tournament-crosstable", args=[round_.tournament.slug]))
    assert "decider" not in page.content.decode().lower()


def test_the_demos_season_evenings_settle_a_tied_match_by_a_decider_shown_in_the_crosstable(
    client,
):
    demo_load(organiser=UserFactory(username="organiser", is_staff=True))
    played = Game.objects.filter(decider=True, voided=False, confirmed=True).exclude(
        status__in=Game.WITHOUT_RESULT
    )
    assert played.exists()
    # Every decider of a closed demo round has its result: none keeps a round open.
    assert not Game.objects.filter(
        decider=True, voided=False, status=Game.Status.PENDING, table__round__status="closed"
    ).exists()
    event = played.first().table.round.tournament
    assert event.decider and event.season is not None
    page = client.get(reverse("tournament-crosstable", args=[event.slug])).content.decode()
    assert "decider-mark" in page


# --- the API ----------------------------------------------------------------------


def test_the_api_writes_and_shows_the_decider_through_the_same_doors(organiser):
    api = APIClient()
    api.force_authenticate(organiser)
    round_, (one, two) = match(club=organiser.organised_clubs.get())
    slug = round_.tournament.slug
    for game in (one, two):
        response = api.put(f"/api/v1/games/{game.pk}/", {"out": TIED}, format="json")
        assert response.status_code == 200, response.content
    tables = api.get(f"/api/v1/tournaments/{slug}/rounds/1/tables/").json()
    decider = tables[0]["games"][-1]
    assert decider["decider"] and decider["positions"] == [2, 3] and not decider["voided"]
    assert tables[0]["match"] == {
        "leaders": [2, 3],
        "winner": None,
        "by_decider": False,
        "pending": True,
    }
    anna = seat(round_, 1).report_token
    refused = api.post(
        f"/api/v1/report/{anna}/games/{decider['id']}/", {"out": [3, 1]}, format="json"
    )
    assert refused.status_code == 400 and "your link cannot report it" in refused.content.decode()
    response = api.put(f"/api/v1/games/{decider['id']}/", {"out": [3, 1]}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["decider"] and body["leaders"] == [2, 3] and body["out"] == [3, 1]
    tables = api.get(f"/api/v1/tournaments/{slug}/rounds/1/tables/").json()
    assert tables[0]["match"]["winner"] == 2 and tables[0]["match"]["by_decider"]
    assert [s["round_score"] for s in tables[0]["seats"]] == [0, 27, 27]


def test_the_option_is_a_setting_refused_where_no_three_player_match_can_be_tied(organiser):
    club = organiser.organised_clubs.get()
    by = Actor.director(organiser)
    made = tournament_create(club=club, name="Evening", kind="evening", decider=True, by=by)
    assert made.decider
    for settings_ in (
        {"policy": "pairs+bye"},
        {"kind": "teams"},
        {"game": "pantarei", "policy": "pairs+bye"},
    ):
        with pytest.raises(ServiceError) as refused:
            tournament_create(club=club, name="No", decider=True, by=by, **settings_)
        assert refused.value.field == "decider", settings_
    # Changing the tables under a tournament with deciders names the field changed.
    with pytest.raises(ServiceError) as refused:
        tournament_update(tournament=made, policy="pairs+bye", by=by)
    assert refused.value.field == "policy"
    api = APIClient()
    api.force_authenticate(organiser)
    body = {"club": club.slug, "name": "Pairs", "policy": "pairs+bye", "decider": True}
    response = api.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "decider"
    response = api.patch(f"/api/v1/tournaments/{made.slug}/", {"decider": False}, format="json")
    assert response.status_code == 200 and response.json()["decider"] is False


def test_switching_the_option_after_play_adds_and_voids_deciders_with_the_confirmation(organiser):
    round_, (one, two) = match(decider=False, club=organiser.organised_clubs.get())
    round_.tournament.directors.add(organiser)
    by = Actor.director(organiser)
    enter(one, TIED)
    enter(two, TIED)
    with pytest.raises(ConflictError) as refused:
        tournament_update(tournament=round_.tournament, decider=True, by=by)
    assert refused.value.field == "decider"
    tournament_update(tournament=round_.tournament, decider=True, recompute=True, by=by)
    (decider,) = deciders(round_)
    enter(decider, [3, 1])
    tournament_update(tournament=round_.tournament, decider=False, recompute=True, by=by)
    decider.refresh_from_db()
    assert decider.voided and decider.out_list(3) == [3, 1]
    assert round_tables(round_=round_)[0].match is None


def test_the_settings_page_offers_the_decider(client, organiser):
    client.force_login(organiser)
    tournament = tournament_with_players(3, club=organiser.organised_clubs.get(), slug="cup")
    tournament.directors.add(organiser)
    html = client.get("/t/cup/manage/settings/").content.decode()
    assert 'name="decider"' in html and "Decider at 3-player tables" in html


def settings_form(tournament: Tournament, **changes: Any) -> dict[str, Any]:
    """The settings page's form as it posts the tournament's settings, with ``changes``."""
    form: dict[str, Any] = {
        "club": tournament.club_id,
        "name": tournament.name,
        "game": tournament.game,
        "kind": tournament.kind,
        "rounds_planned": 5,
        "policy": tournament.policy,
        "games_per_turn_2": 3,
        "games_per_turn_3": 2,
        "factor_2": "2",
        "factor_3": "3",
        "target": 3,
        "absence_score": "0",
    }
    return {**form, **changes}


def test_the_settings_page_saves_the_decider_and_refuses_it_beside_its_field(client, organiser):
    client.force_login(organiser)
    tournament = tournament_with_players(3, club=organiser.organised_clubs.get(), slug="cup")
    tournament.directors.add(organiser)
    refused = settings_form(tournament, decider="on", policy="pairs+bye")
    response = client.post("/t/cup/manage/settings/", refused)
    assert response.status_code == 200
    assert "no 3-player tables" in " ".join(response.context["form"].errors["decider"])
    assert not Tournament.objects.get(slug="cup").decider
    response = client.post("/t/cup/manage/settings/", settings_form(tournament, decider="on"))
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get(slug="cup").decider
    # With deciders on, the change that would leave them no table is the one refused.
    response = client.post("/t/cup/manage/settings/", refused)
    assert "no 3-player tables" in " ".join(response.context["form"].errors["policy"])
    assert Tournament.objects.get(slug="cup").policy == "pairs+triple"


# --- the transfer document --------------------------------------------------------


def test_an_exported_tournament_with_deciders_imports_as_it_was(organiser):
    round_, (one, two) = match(club=organiser.organised_clubs.get())
    enter(one, TIED)
    enter(two, TIED)
    (decider,) = deciders(round_)
    enter(decider, [3, 1])
    enter(two, [0, 3, 2])  # Ben alone at the top: the decider is voided
    enter(two, TIED)  # the same two again: restored
    round_close(round=round_, by=CMD)
    document = copy.deepcopy(tournament_export_document(tournament=round_.tournament))
    document["tournament"]["slug"] = "copy"
    games = document["rounds"][0]["tables"][0]["games"]
    assert games[-1]["decider"] and games[-1]["leaders"] == [2, 3] and games[-1]["out"] == [3, 1]
    mapping = {
        e["key"]: round_.tournament.entries.get(seed=e["seed"]).player_id
        for e in document["entries"]
    }
    copied = tournament_import_document(
        document=document, players=mapping, by=Actor.director(organiser)
    )
    assert copied.decider
    (again,) = Game.objects.filter(table__round__tournament=copied, decider=True)
    assert again.leaders == (2, 3) and again.out_list(3) == [3, 1] and not again.voided
    # A document whose decider does not follow from its results is refused, naming where.
    document["tournament"]["slug"] = "wrong"
    document["rounds"][0]["tables"][0]["games"][-1]["leaders"] = [1, 2]
    with pytest.raises(ServiceError, match=r"rounds\[0\]\.tables\[0\]\.games: the deciders"):
        tournament_import_document(document=document, players=mapping, by=Actor.director(organiser))


def test_an_older_document_without_deciders_still_imports(organiser):
    round_, (one, two) = match(decider=False, club=organiser.organised_clubs.get())
    enter(one, CLEAR)
    enter(two, CLEAR)
    round_close(round=round_, by=CMD)
    document = copy.deepcopy(tournament_export_document(tournament=round_.tournament))
    document["tournament"]["slug"] = "old"
    del document["tournament"]["decider"]
    for game in document["rounds"][0]["tables"][0]["games"]:
        for key in ("decider", "leaders", "voided"):
            del game[key]
    mapping = {
        e["key"]: round_.tournament.entries.get(seed=e["seed"]).player_id
        for e in document["entries"]
    }
    copied = tournament_import_document(
        document=document, players=mapping, by=Actor.director(organiser)
    )
    assert not copied.decider and not Game.objects.filter(
        table__round__tournament=copied, decider=True
    )


# --- a property over random matches ------------------------------------------------


def book_totals(games: list[list[int]], target: int = 3) -> list[Fraction]:
    """The match totals by the book's dropped score, worked out here on its own:
    pieces out plus half of what each of the two others failed to bring out."""
    totals = [Fraction(0)] * 3
    for out in games:
        for i in range(3):
            failed = sum(target - out[j] for j in range(3) if j != i)
            totals[i] += out[i] + Fraction(failed, 2)
    return totals


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    results=st.lists(
        st.tuples(st.sampled_from([0, 1]), st.lists(st.integers(0, 3), min_size=3, max_size=3)),
        min_size=1,
        max_size=6,
    )
)
def test_a_decider_counts_exactly_when_two_share_the_top_and_is_theirs(results):
    """Whatever results are entered and corrected, in any order, the table has a decider
    that counts exactly when both games count and two players (not one, not three) share
    the best match total, and it is those two's; no decider with a result is lost."""
    round_, games = match()
    played: set[int] = set()
    for index, out in results:
        enter(games[index], out, finished=False)
        rows = [Game.objects.get(pk=g.pk).out_list(3) for g in games]
        live = deciders(round_, voided=False)
        totals = book_totals(rows) if all(r[0] is not None for r in rows) else None
        top = [] if totals is None else [i + 1 for i, t in enumerate(totals) if t == max(totals)]
        if len(top) == 2:
            assert [d.leaders for d in live] == [tuple(top)], (rows, totals)
            # Play each decider once, so that later corrections void rather than remove.
            if live[0].pk not in played:
                enter(live[0], [3, 2])
                played.add(live[0].pk)
        else:
            assert live == [], (rows, totals)
        # A decider with a result is voided at most, never removed.
        assert played <= set(Game.objects.filter(table__round=round_).values_list("pk", flat=True))
        scores = [s.round_score for s in round_tables(round_=round_)[0].seats]
        if totals is not None:
            assert sum(scores) == 54 and scores == [float(3 * t) for t in totals]


# --- two reports racing (PostgreSQL) --------------------------------------------------


def race(calls) -> list[object]:
    """Run the calls at the same moment in threads; collect results or exceptions."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            outcomes[i] = call()
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test checks
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcomes


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_results_completing_a_tied_match_at_once_add_one_decider():
    assert connection.vendor == "postgresql"
    for _ in range(5):
        round_, (one, two) = match()
        outcomes = race([lambda g=one: enter(g, TIED), lambda g=two: enter(g, TIED)])
        assert all(isinstance(o, Game) for o in outcomes), outcomes
        # Neither missed the other's result (no match left without its decider), and the
        # two did not add two.
        assert [d.leaders for d in deciders(round_)] == [(2, 3)]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_confirmations_racing_to_complete_a_tied_match_add_one_decider():
    assert connection.vendor == "postgresql"
    round_, (one, two) = match()
    for game in (one, two):
        game_record_out(game=game, out=TIED, by=player(round_, 1))
    outcomes = race(
        [
            lambda: game_confirm(game=one, by=player(round_, 2)),
            lambda: game_confirm(game=two, by=player(round_, 3)),
        ]
    )
    assert all(isinstance(o, Game) for o in outcomes), outcomes
    assert [d.leaders for d in deciders(round_)] == [(2, 3)]


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_decider_reported_while_a_correction_unties_the_match_is_never_lost():
    assert connection.vendor == "postgresql"
    for _ in range(5):
        round_, (one, two) = match()
        enter(one, TIED)
        enter(two, TIED)
        (decider,) = deciders(round_)
        ben = player(round_, 2)
        outcomes = race(
            [
                lambda d=decider, by=ben: game_record_out(game=d, out=[3, 1], by=by),
                lambda g=two: enter(g, [0, 3, 2]),
            ]
        )
        report, correction = outcomes
        assert isinstance(correction, Game), outcomes
        if isinstance(report, Game):
            # The report came first: the correction voided the decider, report kept.
            kept = Game.objects.get(pk=decider.pk)
            assert kept.voided and kept.submissions.count() == 1
        else:
            # The correction came first and took the untouched decider away; the report
            # was refused, not written into a game that is gone.
            assert isinstance(report, ConflictError), outcomes
            assert not ResultSubmission.objects.filter(game_id=decider.pk).exists()
        assert deciders(round_, voided=False) == []


def test_a_tournament_made_with_the_option_through_the_service_keeps_it(organiser):
    made = tournament_create(
        club=organiser.organised_clubs.get(),
        name="Triples",
        decider=True,
        policy="prefer-triples",
        by=Actor.director(organiser),
    )
    assert Tournament.objects.get(pk=made.pk).decider
