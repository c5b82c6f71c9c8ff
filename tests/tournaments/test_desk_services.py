"""The organiser's desk as services: correcting, deleting, withdrawing and re-admitting
players, announced byes and absences, late entries with chosen points, check-in, and
taking back a step (a closed round, a published round, a finished tournament, a closed
evening), each audited; a reopened round's rating is taken back and rated afresh."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from ratings.models import PlayerRating, RatingPeriod
from ratings.rate import ratings_recompute
from tests.factories import PlayerFactory, TournamentFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.desk.services.entries import (
    PasteError,
    _parse_paste,
    entries_check_in_all,
    entries_paste,
    entry_add,
    entry_check_in,
    entry_delete,
    entry_readmit,
    entry_skip,
    entry_unskip,
    entry_update,
    entry_withdraw,
)
from tournaments.desk.services.evenings import evening_close, evening_reopen
from tournaments.desk.services.rounds import (
    round_close,
    round_pair_next,
    round_publish,
    round_reopen,
    round_repair,
    round_unpublish,
)
from tournaments.desk.services.tournaments import tournament_add_rounds, tournament_update
from tournaments.models import AuditEntry, Entry, Game, Player, Round, Skip, Tournament
from tournaments.results.services.results import game_record_out
from tournaments.standings.selectors.standings import tournament_standings

pytestmark = pytest.mark.django_db
BY = Actor.command()


def actions(tournament: Tournament) -> list[str]:
    return list(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))


def play_round(tournament: Tournament, winner_first: bool = True) -> Round:
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        seats = game.table.seats.count()
        out = [3] + [0] * (seats - 1) if winner_first else [0] * (seats - 1) + [3]
        game_record_out(game=game, out=out, by=BY)
    return round_


def director_of(tournament: Tournament) -> Actor:
    user = UserFactory()
    tournament.directors.add(user)
    return Actor.director(user)


def version(tournament: Tournament) -> int:
    return Tournament.objects.get(pk=tournament.pk).standings_version


# --- pasted lists -------------------------------------------------------------------


def test_a_pasted_list_reports_every_bad_line_and_enters_nobody():
    tournament = tournament_with_players(1)
    text = "Anna, 1620\nBert\nIda Imhof, abc\nCleo, 99999\nBert\nP01\nDora, 1, 2\n"
    with pytest.raises(PasteError) as caught:
        entries_paste(tournament=tournament, text=text, by=BY)
    assert caught.value.problems == [
        'line 3: "Ida Imhof, abc": rating must be a number',
        'line 4: "Cleo, 99999": rating must be between 0 and 3000',
        'line 5: "Bert": Bert appears twice (line 2 too)',
        'line 6: "P01": already entered',
        'line 7: "Dora, 1, 2": one name and at most one rating per line',
    ]
    assert tournament.entries.count() == 1


def test_a_pasted_list_names_its_bad_lines_in_german_in_line_order():
    tournament = tournament_with_players(1)
    text = "P01\n" + "Anna\n" * 9 + "Cleo, abc\n"
    with translation.override("de"), pytest.raises(PasteError) as caught:
        entries_paste(tournament=tournament, text=text, by=BY)
    assert caught.value.problems[0] == "Zeile 1: „P01“: schon eingetragen"
    assert caught.value.problems[1] == ("Zeile 3: „Anna“: Anna kommt zweimal vor (auch in Zeile 2)")
    assert caught.value.problems[-1] == "Zeile 11: „Cleo, abc“: das Rating muss eine Zahl sein"


def test_a_good_paste_enters_names_and_ratings():
    rows, problems = _parse_paste("Anna, 1620\n\nBert;\nCleo\t1500")
    assert problems == []
    assert rows == [(1, "Anna", 1620), (3, "Bert", None), (4, "Cleo", 1500)]


def test_a_rating_out_of_bounds_or_a_name_with_a_comma_is_refused_one_by_one():
    tournament = tournament_with_players(0)
    with pytest.raises(ServiceError) as caught:
        entry_add(tournament=tournament, name="Zed", rating=99999, by=BY)
    assert caught.value.field == "rating"
    with pytest.raises(ServiceError) as caught:
        entry_add(tournament=tournament, name="Ida Imhof, abc", by=BY)
    assert caught.value.field == "name"
    assert not tournament.entries.exists()


# --- corrections and deletion -------------------------------------------------------


def test_editing_an_entry_fixes_name_and_rating_audited_and_bumps_the_standings():
    tournament = tournament_with_players(0)
    entry = entry_add(tournament=tournament, name="Ida Imhf", rating=1500, by=BY)
    before = version(tournament)
    entry_update(entry=entry, name="Ida Imhof", rating=1620, by=BY)
    entry.refresh_from_db()
    assert (entry.player.name, entry.rating) == ("Ida Imhof", 1620)
    audit = AuditEntry.objects.get(tournament=tournament, action="edit entry")
    assert audit.before == {"name": "Ida Imhf", "rating": 1500}
    assert audit.after == {"name": "Ida Imhof", "rating": 1620}
    assert version(tournament) > before


def test_editing_to_a_known_club_players_name_repoints_the_entry_and_drops_the_typo():
    tournament = tournament_with_players(0)
    known = PlayerFactory(club=tournament.club, name="Ida Imhof")
    entry = entry_add(tournament=tournament, name="Ida Imhf", by=BY)
    typo = entry.player
    entry_update(entry=entry, name="Ida Imhof", by=BY)
    entry.refresh_from_db()
    assert entry.player == known
    assert not Player.objects.filter(pk=typo.pk).exists()


def test_an_edit_refused_changes_nothing():
    tournament = tournament_with_players(2)
    entry = tournament.entries.get(seed=1)
    with pytest.raises(ServiceError):
        entry_update(entry=entry, name="P02", rating=3001, by=BY)
    with pytest.raises(ConflictError, match="already entered"):
        entry_update(entry=entry, name="P02", by=BY)
    entry.refresh_from_db()
    assert entry.player.name == "P01" and not AuditEntry.objects.exists()


def test_deleting_before_the_first_round_removes_entry_and_typo_player_audited():
    tournament = tournament_with_players(2)
    entry = entry_add(tournament=tournament, name="Ida Imhof", by=BY)
    player = entry.player
    entry_delete(entry=entry, by=BY)
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert not Player.objects.filter(pk=player.pk).exists()
    assert AuditEntry.objects.get(tournament=tournament, action="delete entry").target == (
        "Ida Imhof"
    )


def test_a_player_who_has_played_cannot_be_deleted_only_withdrawn():
    tournament = tournament_with_players(4)
    round_pair_next(tournament=tournament, by=BY)
    entry = tournament.entries.get(seed=1)
    with pytest.raises(ConflictError, match="has played in round 1; withdraw"):
        entry_delete(entry=entry, by=BY)
    assert Entry.objects.filter(pk=entry.pk).exists()


# --- withdraw and re-admit, byes and absences, late entries -----------------------------


def test_withdraw_then_readmit_pairs_again_and_both_are_audited():
    tournament = tournament_with_players(4)
    round_close(round=play_round(tournament), by=BY)
    entry = tournament.entries.get(seed=4)
    entry_withdraw(entry=entry, by=BY)
    round_ = round_pair_next(tournament=tournament, by=BY)
    assert not round_.tables.filter(seats__entry=entry).exists()
    entry_readmit(entry=entry, by=BY)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE and entry.withdrawn_after_round is None
    round_ = round_repair(round=round_, by=BY)
    assert round_.tables.filter(seats__entry=entry).exists()
    assert actions(tournament)[:4] == ["re-pair", "re-admit", "pair", "withdraw"]


def test_a_withdrawn_players_later_absences_are_one_note_not_one_per_round():
    tournament = tournament_with_players(5, rounds_planned=4)
    round_close(round=play_round(tournament), by=BY)
    entry = tournament.entries.get(seed=5)
    entry_withdraw(entry=entry, by=BY)
    for _ in range(2):
        round_close(round=play_round(tournament), by=BY)
    row = next(
        r for r in tournament_standings(tournament=tournament).rows if r.entry_id == entry.pk
    )
    assert "absent in round 2" not in row.notes
    assert "withdrawn after round 1" in row.notes


def test_a_requested_bye_and_an_announced_absence_are_not_paired_and_scored_by_settings():
    tournament = tournament_with_players(6, bye_score=Decimal("4.5"), absence_score=Decimal("1"))
    bye = tournament.entries.get(seed=5)
    absent = tournament.entries.get(seed=6)
    entry_skip(entry=bye, round_number=1, bye=True, by=BY)
    entry_skip(entry=absent, round_number=1, bye=False, by=BY)
    round_ = play_round(tournament)
    seated = set(round_.tables.values_list("seats__entry_id", flat=True))
    assert bye.pk not in seated and absent.pk not in seated
    round_close(round=round_, by=BY)
    standings = tournament_standings(tournament=tournament)
    rows = {r.entry_id: r for r in (*standings.rows, *standings.not_ranked)}
    assert rows[bye.pk].score == 4.5 and "bye in round 1" in rows[bye.pk].notes
    assert rows[absent.pk].score == 1.0 and "absent in round 1" in rows[absent.pk].notes
    # A bye is taking part; an absence in the only closed round is not: not ranked.
    assert bye.pk in {r.entry_id for r in standings.rows}
    assert [r.entry_id for r in standings.not_ranked] == [absent.pk]
    with pytest.raises(ConflictError, match="paired already"):
        entry_skip(entry=bye, round_number=1, by=BY)
    with pytest.raises(ConflictError, match="paired already"):
        entry_unskip(entry=bye, round_number=1, by=BY)
    assert Skip.objects.count() == 2


def test_an_announced_absence_taken_back_before_pairing_plays_again():
    tournament = tournament_with_players(4)
    entry = tournament.entries.get(seed=4)
    entry_skip(entry=entry, round_number=1, by=BY)
    entry_unskip(entry=entry, round_number=1, by=BY)
    round_ = round_pair_next(tournament=tournament, by=BY)
    assert round_.tables.filter(seats__entry=entry).exists()
    assert actions(tournament)[1:3] == ["plays round", "skips round"]


def test_a_late_entry_scores_the_organisers_points_for_each_missed_round():
    tournament = tournament_with_players(4, rounds_planned=3)
    round_close(round=play_round(tournament), by=BY)
    round_close(round=play_round(tournament), by=BY)
    late = entry_add(tournament=tournament, name="Latecomer", missed_round_score="2.5", by=BY)
    assert late.joined_round == 3 and late.missed_round_score == Decimal("2.50")
    # Not ranked before she has played, her missed rounds' points counted all the same.
    standings = tournament_standings(tournament=tournament)
    (row,) = (r for r in standings.not_ranked if r.entry_id == late.pk)
    assert row.score == 5.0 and row.apart_note == "entered in round 3"
    assert AuditEntry.objects.get(action="late entry").after == {
        "joined_round": 3,
        "missed_round_score": "2.50",
    }


# --- check-in -------------------------------------------------------------------------


def test_once_check_in_is_used_only_players_checked_in_are_paired_in_a_tournament():
    tournament = tournament_with_players(5)
    for seed in (1, 2, 3, 4):
        entry_check_in(entry=tournament.entries.get(seed=seed), by=BY)
    round_ = round_pair_next(tournament=tournament, by=BY)
    seated = set(round_.tables.values_list("seats__entry__seed", flat=True))
    assert seated == {1, 2, 3, 4}
    assert actions(tournament).count("check in") == 4


def test_check_in_everyone_skips_the_withdrawn_and_a_late_walk_in_is_checked_in_at_once():
    tournament = TournamentFactory(kind=Tournament.Kind.EVENING)
    for name in ("Anna", "Bert", "Cleo"):
        entry_add(tournament=tournament, name=name, by=BY)
    entry_withdraw(entry=tournament.entries.get(player__name="Cleo"), by=BY)
    assert entries_check_in_all(tournament=tournament, by=BY) == 2
    walk_in = entry_add(tournament=tournament, name="Dora", by=BY)
    assert walk_in.checked_in
    assert not tournament.entries.get(player__name="Cleo").checked_in


# --- taking back a step ---------------------------------------------------------------


def test_a_published_round_nobody_played_is_taken_back_and_a_played_one_is_not():
    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    round_unpublish(round=round_, by=BY)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PAIRED and round_.published_at is None
    round_publish(round=round_, by=BY)
    game = Game.objects.filter(table__round=round_).first()
    game_record_out(game=game, out=[3, 0], by=BY)
    with pytest.raises(ConflictError, match="stays published"):
        round_unpublish(round=round_, by=BY)
    assert "unpublish round" in actions(tournament)


def test_the_last_round_reopens_a_finished_tournament_and_closes_it_again():
    tournament = tournament_with_players(4, rounds_planned=1)
    round_ = play_round(tournament)
    round_close(round=round_, by=BY)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    round_reopen(round=round_, by=BY)
    round_.refresh_from_db()
    tournament.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED and round_.closed_at is None
    assert tournament.status == Tournament.Status.RUNNING
    round_close(round=round_, by=BY)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    assert actions(tournament)[:3] == ["close", "reopen", "close"]


def test_an_earlier_round_or_an_open_one_cannot_be_reopened():
    tournament = tournament_with_players(4)
    first = play_round(tournament)
    round_close(round=first, by=BY)
    second = round_pair_next(tournament=tournament, by=BY)
    with pytest.raises(ConflictError, match="round 2 is paired already"):
        round_reopen(round=first, by=BY)
    with pytest.raises(ConflictError, match="not closed"):
        round_reopen(round=second, by=BY)
    first.refresh_from_db()
    assert first.status == Round.Status.CLOSED


def test_adding_rounds_to_a_finished_tournament_brings_pairing_back():
    tournament = tournament_with_players(4, rounds_planned=1)
    round_close(round=play_round(tournament), by=BY)
    with pytest.raises(ServiceError, match="all 1 rounds have been played; add rounds first"):
        round_pair_next(tournament=tournament, by=BY)
    tournament_add_rounds(tournament=tournament, count=2, by=director_of(tournament))
    tournament.refresh_from_db()
    assert (tournament.rounds_planned, tournament.status) == (3, Tournament.Status.RUNNING)
    assert round_pair_next(tournament=tournament, by=BY).number == 2
    audit = AuditEntry.objects.filter(action="settings").first()
    assert audit.before == {"rounds_planned": 1} and audit.after == {"rounds_planned": 3}


def test_raising_rounds_planned_in_the_settings_also_reopens_and_fewer_than_paired_is_refused():
    tournament = tournament_with_players(4, rounds_planned=1)
    round_close(round=play_round(tournament), by=BY)
    director = director_of(tournament)
    tournament_update(tournament=tournament, rounds_planned=2, by=director)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    round_pair_next(tournament=tournament, by=BY)
    with pytest.raises(ConflictError, match="plan at least 2"):
        tournament_update(tournament=tournament, rounds_planned=1, by=director)


def test_a_closed_evening_takes_no_players_until_reopened_and_closes_again():
    evening = TournamentFactory(kind=Tournament.Kind.EVENING)
    for name in ("Anna", "Bert"):
        entry_add(tournament=evening, name=name, by=BY)
    entries_check_in_all(tournament=evening, by=BY)
    round_close(round=play_round(evening), by=BY)
    evening_close(tournament=evening, by=BY)
    with pytest.raises(ConflictError, match="evening is closed"):
        entry_add(tournament=evening, name="Cleo", by=BY)
    with pytest.raises(ConflictError, match="evening is closed"):
        round_pair_next(tournament=evening, by=BY)
    with pytest.raises(ConflictError, match="reopen the evening first"):
        round_reopen(round=evening.rounds.get(), by=BY)
    assert evening.entries.count() == 2
    evening_reopen(tournament=evening, by=BY)
    entry_add(tournament=evening, name="Cleo", by=BY)
    evening_close(tournament=evening, by=BY)
    assert actions(evening).count("close evening") == 2
    assert "reopen evening" in actions(evening)
    assert Tournament.objects.get(pk=evening.pk).status == Tournament.Status.FINISHED


# --- ratings --------------------------------------------------------------------------


def snapshot() -> list[tuple]:
    return sorted(
        PlayerRating.objects.values_list(
            "player_id", "system", "rating", "deviation", "state", "games"
        )
    )


def test_reopening_and_closing_again_gives_ratings_identical_to_a_fresh_recomputation(
    django_capture_on_commit_callbacks,
):
    tournament = tournament_with_players(6, rounds_planned=2)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=play_round(tournament), by=BY)
    second = play_round(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=second, by=BY)
    before_reopen = snapshot()
    with django_capture_on_commit_callbacks(execute=True):
        round_reopen(round=second, by=BY)
    # The reopened round is not rated: its period is gone and the replay ran without it.
    assert not RatingPeriod.objects.filter(round=second).exists()
    game = Game.objects.filter(table__round=second).order_by("table__number").first()
    game_record_out(game=game, out=[0, 3], version=game.version, by=BY)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=second, by=BY)
    assert RatingPeriod.objects.filter(round=second, rated_at__isnull=False).exists()
    after = snapshot()
    assert after != before_reopen  # the changed result counts
    ratings_recompute()
    assert snapshot() == after


def test_reopening_an_evening_takes_its_rating_back_and_closing_rates_it_again(
    django_capture_on_commit_callbacks,
):
    evening = TournamentFactory(kind=Tournament.Kind.EVENING)
    for name in ("Anna", "Bert", "Cleo", "Dora"):
        entry_add(tournament=evening, name=name, by=BY)
    entries_check_in_all(tournament=evening, by=BY)
    round_close(round=play_round(evening), by=BY)
    with django_capture_on_commit_callbacks(execute=True):
        evening_close(tournament=evening, by=BY)
    rated = snapshot()
    assert rated
    with django_capture_on_commit_callbacks(execute=True):
        evening_reopen(tournament=evening, by=BY)
    assert not RatingPeriod.objects.filter(evening=evening).exists()
    assert not PlayerRating.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        evening_close(tournament=evening, by=BY)
    assert snapshot() == rated
    ratings_recompute()
    assert snapshot() == rated


def test_announced_skips_and_a_late_entrys_points_survive_export_and_import():
    from tests.factories import ClubFactory
    from tournaments.transfer.services import (
        tournament_export_document,
        tournament_import_document,
    )

    organiser = UserFactory()
    club = ClubFactory()
    club.organisers.add(organiser)
    tournament = tournament_with_players(4, club=club, rounds_planned=3)
    entry_skip(entry=tournament.entries.get(seed=1), round_number=2, bye=True, by=BY)
    round_close(round=play_round(tournament), by=BY)
    entry_add(tournament=tournament, name="Latecomer", missed_round_score="1.5", by=BY)
    document = tournament_export_document(tournament=tournament)
    document["tournament"]["slug"] = "copy"
    copy = tournament_import_document(
        document=document, players_by_name=True, by=Actor.director(organiser)
    )
    assert list(Skip.objects.filter(entry__tournament=copy).values_list("round_number", "bye")) == [
        (2, True)
    ]
    assert copy.entries.get(player__name="Latecomer").missed_round_score == Decimal("1.50")
    assert tournament_export_document(tournament=copy)["entries"] == document["entries"]
