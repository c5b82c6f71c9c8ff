from __future__ import annotations

import pytest

from ratings.models import RatingJob
from tests.factories import EntryFactory, tournament_with_players
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.desk.services.entries import entries_paste, entry_withdraw
from tournaments.desk.services.rounds import (
    round_close,
    round_pair_next,
    round_publish,
    round_repair,
    round_swap_seats,
)
from tournaments.models import Entry, ForbiddenPair, Game, Round, Seat
from tournaments.results.services.results import Actor, game_record_out
from tournaments.standings.selectors.standings import tournament_scores

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.django_db


def play_round(round_: Round) -> None:
    """Seat 1 wins every game 3:1 (3:1:2 at a 3-player table)."""
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        seats = game.table.seats.count()
        game_record_out(by=DIRECTOR, game=game, out=[3, 1, 2][:seats])


def test_first_round_pairs_by_seed_with_one_triple_when_odd():
    tournament = tournament_with_players(7)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    sizes = sorted(t.seats.count() for t in round_.tables.all())
    assert sizes == [2, 2, 3]
    assert Seat.objects.filter(round=round_).count() == 7
    top_table = round_.tables.get(number=1)
    assert {s.entry.seed for s in top_table.seats.all()} == {1, 2}
    triple = next(t for t in round_.tables.all() if t.seats.count() == 3)
    assert {s.entry.seed for s in triple.seats.all()} == {5, 6, 7}
    # Section 21: 3 games at 2-player tables, 2 (clockwise, widdershins) at 3-player ones.
    assert top_table.games.count() == 3
    assert list(triple.games.values_list("direction", flat=True)) == ["clockwise", "widdershins"]


def test_a_round_cannot_be_paired_before_the_last_one_is_closed():
    tournament = tournament_with_players(4)
    round_pair_next(tournament=tournament, by=Actor.command())
    with pytest.raises(ConflictError, match="round 1 is not closed"):
        round_pair_next(tournament=tournament, by=Actor.command())
    assert tournament.rounds.count() == 1


def test_closing_needs_every_result_and_queues_the_ratings_job(django_capture_on_commit_callbacks):
    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    with pytest.raises(ServiceError, match="results missing at table"):
        round_close(round=round_, by=Actor.command())
    play_round(round_)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round_, by=Actor.command())
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    job = RatingJob.objects.get()
    assert job.scope == {"round": round_.pk} and job.status == RatingJob.Status.DONE


def test_no_rematch_over_rounds_and_scores_follow_the_book():
    tournament = tournament_with_players(6, rounds_planned=5)
    met: set[frozenset[int]] = set()
    for _ in range(5):
        round_ = round_pair_next(tournament=tournament, by=Actor.command())
        for table in round_.tables.all():
            ids = [s.entry_id for s in table.seats.all()]
            pair = frozenset(ids)
            assert pair not in met
            met.add(pair)
        round_publish(round=round_, by=Actor.command())
        play_round(round_)
        round_close(round=round_, by=Actor.command())
    scores = tournament_scores(tournament=tournament)
    # Zero-sum: every 2-player game hands out 6 points, times 3 games times factor 2.
    assert sum(scores.values()) == pytest.approx(5 * 3 * 6 * 3 * 2)


def test_withdrawn_players_and_forbidden_pairs_are_respected():
    tournament = tournament_with_players(6)
    entries = list(tournament.entries.order_by("seed"))
    entry_withdraw(entry=entries[5], by=Actor.command())
    ForbiddenPair.objects.create(tournament=tournament, first=entries[0], second=entries[1])
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    seated = set(Seat.objects.filter(round=round_).values_list("entry_id", flat=True))
    assert entries[5].pk not in seated and len(seated) == 5
    for table in round_.tables.all():
        ids = {s.entry_id for s in table.seats.all()}
        assert not {entries[0].pk, entries[1].pk} <= ids


def test_manual_swap_and_repair_only_before_publishing():
    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    e1, e2, e3, _ = tournament.entries.order_by("seed")
    table_of_e3 = Seat.objects.get(round=round_, entry=e3).table_id
    round_swap_seats(round=round_, first=e2, second=e3, by=Actor.command())
    assert Seat.objects.get(round=round_, entry=e2).table_id == table_of_e3
    round_ = round_repair(round=round_, by=Actor.command())
    assert Seat.objects.filter(round=round_).count() == 4
    round_publish(round=round_, by=Actor.command())
    with pytest.raises(ConflictError, match="already published"):
        round_swap_seats(round=round_, first=e1, second=e3, by=Actor.command())


def test_pasted_list_is_all_or_nothing():
    tournament = tournament_with_players(0)
    entries = entries_paste(
        tournament=tournament, text="Anna, 1620\nBert\n\nCleo;1500\n", by=Actor.command()
    )
    assert [e.player.name for e in entries] == ["Anna", "Bert", "Cleo"]
    assert [e.rating for e in entries] == [1620, None, 1500]
    with pytest.raises(ServiceError, match=r"line 2: \"Dora\": Dora appears twice"):
        entries_paste(tournament=tournament, text="Dora\nDora", by=Actor.command())
    assert tournament.entries.count() == 3


def test_late_entry_joins_the_next_round():
    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    late = EntryFactory(tournament=tournament, seed=99)
    from tournaments.desk.services.entries import entry_add

    entry = entry_add(tournament=tournament, name="Latecomer", by=Actor.command())
    assert entry.status == Entry.Status.LATE and entry.joined_round == 2
    assert not Seat.objects.filter(round=round_, entry=entry).exists()
    late.delete()
