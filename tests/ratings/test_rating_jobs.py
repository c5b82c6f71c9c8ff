from __future__ import annotations

import pytest
from django.db.models import Q
from django.urls import reverse

from ratings.models import (
    GameRating,
    PeriodRating,
    PlayerRating,
    RatingJob,
    RatingLedger,
    RatingPeriod,
)
from ratings.periods import period_for_round
from ratings.rate import period_rate, ratings_recompute
from ratings.systems import SYSTEM_NAMES, make_system
from tests.factories import tournament_with_players
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game
from tournaments.results.services.results import Actor, game_record_out

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.django_db


def play(tournament, rounds: int, on_commit) -> None:
    for number in range(rounds):
        round_ = round_pair_next(tournament=tournament, by=Actor.command())
        round_publish(round=round_, by=Actor.command())
        for game in Game.objects.filter(table__round=round_).select_related("table"):
            seats = game.table.seats.count()
            # A fixed, seat-dependent pattern so results differ between games.
            out = [3, (game.number + number) % 3, (game.number * 2) % 3][:seats]
            game_record_out(by=DIRECTOR, game=game, out=out)
        with on_commit(execute=True):
            round_close(round=round_, by=Actor.command())


def snapshot() -> list[tuple]:
    return sorted(
        PlayerRating.objects.values_list(
            "player_id", "system", "rating", "deviation", "state", "games"
        )
    )


def test_closing_rounds_rates_them_and_a_second_run_does_nothing(
    django_capture_on_commit_callbacks,
):
    tournament = tournament_with_players(7)
    play(tournament, 2, django_capture_on_commit_callbacks)
    assert RatingJob.objects.filter(status="done").count() == 2
    assert RatingPeriod.objects.filter(rated_at__isnull=False).count() == 2
    # 7 players rated in three systems.
    assert PlayerRating.objects.count() == 21
    before = snapshot()
    period = RatingPeriod.objects.first()
    assert period_rate(period=period) == "already rated"
    assert snapshot() == before


def test_a_full_recomputation_is_bit_identical(django_capture_on_commit_callbacks):
    tournament = tournament_with_players(9)
    play(tournament, 3, django_capture_on_commit_callbacks)
    before = snapshot()
    history = sorted(PeriodRating.objects.values_list("period_id", "player_id", "elo_after"))
    assert ratings_recompute() == 3
    assert snapshot() == before
    assert (
        sorted(PeriodRating.objects.values_list("period_id", "player_id", "elo_after")) == history
    )


def test_editing_an_old_result_recomputes_from_that_round(django_capture_on_commit_callbacks):
    tournament = tournament_with_players(6)
    play(tournament, 3, django_capture_on_commit_callbacks)
    first_round = tournament.rounds.get(number=1)
    game = Game.objects.filter(table__round=first_round).order_by("table__number", "number").first()
    with django_capture_on_commit_callbacks(execute=True):
        game_record_out(by=DIRECTOR, game=game, out=[0, 3], correction=True)
    job = RatingJob.objects.filter(kind="recompute").get()
    assert job.status == "done" and job.result["periods"] == 3
    after_edit = snapshot()
    ratings_recompute()
    assert snapshot() == after_edit
    change = GameRating.objects.get(game=game, player=game.table.seats.get(position=2).entry.player)
    before, after = change.change("elo")
    assert after > before  # seat 2 now won that game


def test_a_job_that_dies_halfway_leaves_nothing_and_can_run_again(
    monkeypatch, django_capture_on_commit_callbacks
):
    tournament = tournament_with_players(4)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for game in Game.objects.filter(table__round=round_):
        game_record_out(by=DIRECTOR, game=game, out=[3, 1])
    import ratings.rate as rate

    calls = {"n": 0}
    real = rate.rate_one_period

    def dying(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:  # the second system: the first one has written rows already
            raise RuntimeError("worker killed")
        return real(*args, **kwargs)

    monkeypatch.setattr(rate, "rate_one_period", dying)
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round_, by=Actor.command())
    job = RatingJob.objects.get()
    assert job.status == "failed" and "worker killed" in job.error
    assert not PlayerRating.objects.exists() and not GameRating.objects.exists()
    monkeypatch.setattr(rate, "rate_one_period", real)
    assert period_rate(period=period_for_round(round_)) == "rated"
    assert PlayerRating.objects.count() == 12


def test_leaderboard_and_player_pages(client, django_capture_on_commit_callbacks):
    tournament = tournament_with_players(5)
    play(tournament, 2, django_capture_on_commit_callbacks)
    page = client.get(reverse("ratings:leaderboard") + "?system=glicko2&min_games=1")
    assert page.status_code == 200 and b"provisional" in page.content
    top = PlayerRating.objects.filter(system="elo").order_by("-rating").first()
    page = client.get(reverse("ratings:player", args=[top.player_id]) + "?system=elo", follow=True)
    assert page.redirect_chain[-1][1] == 301
    assert page.status_code == 200 and b"<polyline" in page.content
    assert client.get(reverse("ratings:leaderboard") + "?system=nope").status_code == 404


# --- The batched jobs against a straightforward reference -----------------------------
# The jobs read all periods at once, keep states in memory and write history in large
# batches; this reference rates period by period through the database, as the first
# version of the jobs did, and both must write exactly the same rows.


def _reference_rewind(start: RatingPeriod) -> list[RatingPeriod]:
    later = list(
        RatingPeriod.objects.filter(closed_at__gt=start.closed_at)
        | RatingPeriod.objects.filter(closed_at=start.closed_at, id__gte=start.id)
    )
    later.sort(key=lambda p: (p.closed_at, p.id))
    ids = [p.pk for p in later]
    touched = set(PeriodRating.objects.filter(period_id__in=ids).values_list("player_id"))
    GameRating.objects.filter(period_id__in=ids).delete()
    PeriodRating.objects.filter(period_id__in=ids).delete()
    for (player_id,) in sorted(touched):
        for system in SYSTEM_NAMES:
            rater = make_system(system, RatingLedger.objects.get(system=system).params)
            _, after, deviation = PeriodRating.columns(system)
            rows = PeriodRating.objects.filter(player_id=player_id, **{f"{after}__isnull": False})
            last = rows.order_by("-period__closed_at", "-period_id").first()
            if last is None:
                PlayerRating.objects.filter(player_id=player_id, system=system).delete()
                continue
            PlayerRating.objects.filter(player_id=player_id, system=system).update(
                rating=getattr(last, after),
                deviation=getattr(last, deviation),
                state=rater.state_to_json(rater.state_from_json(last.state(system))),
                games=sum(rows.values_list("games", flat=True)),
                last_played=last.period.closed_at,
            )
    RatingPeriod.objects.filter(pk__in=ids).update(rated_at=None)
    return later


def _reference_rate(periods: list[RatingPeriod]) -> None:
    from ratings.models import RatingLedger
    from ratings.periods import period_games
    from ratings.replay import rate_one_period
    from ratings.systems import SYSTEM_NAMES, make_system

    def deviation(state):
        for name in ("rd", "sigma"):
            if hasattr(state, name):
                return float(getattr(state, name))
        return None

    loaded = [(period, period_games(period)) for period in periods]
    for name in SYSTEM_NAMES:
        system = make_system(name, RatingLedger.objects.get(system=name).params)
        default = system.default_state()
        for period, source in loaded:
            players = sorted({p for g in source.games for p in g.seats}, key=int)
            current = {
                str(r.player_id): r
                for r in PlayerRating.objects.filter(system=name, player_id__in=players)
            }
            states = {pid: system.state_from_json(row.state) for pid, row in current.items()}
            rated = rate_one_period(system, states, source.games)
            played: dict[str, int] = {}
            for g in source.games:
                for p in g.seats:
                    played[p] = played.get(p, 0) + 1
            before_column, after_column = GameRating.columns(name)
            for change in rated.games:
                for pid in sorted(change.after, key=int):
                    row, _ = GameRating.objects.get_or_create(
                        game_id=source.records[change.index], player_id=int(pid), period=period
                    )
                    setattr(row, before_column, change.before[pid])
                    setattr(row, after_column, change.after[pid])
                    row.save()
            for pid in players:
                if pid not in rated.states:
                    continue
                after = rated.states[pid]
                history, _ = PeriodRating.objects.get_or_create(
                    period=period, player_id=int(pid), defaults={"games": played[pid]}
                )
                before_column, after_column, deviation_column = PeriodRating.columns(name)
                setattr(history, before_column, states.get(pid, default).rating)
                setattr(history, after_column, after.rating)
                setattr(history, deviation_column, deviation(after))
                written = system.state_to_json(after)
                for key, column in PeriodRating.state_columns(name):
                    setattr(history, column, written[key])
                history.save()
                row = current.get(pid) or PlayerRating(player_id=int(pid), system=name, games=0)
                row.rating = after.rating
                row.deviation = deviation(after)
                row.state = system.state_to_json(after)
                row.last_played = period.closed_at
                row.games += played[pid]
                row.save()
            if name == SYSTEM_NAMES[0]:
                period.games = len(source.games)
                period.skipped = [{"game": s.game, "reason": s.reason} for s in rated.skipped]
    for period in periods:
        period.rated_at = period.closed_at
        period.save(update_fields=["rated_at", "games", "skipped"])


def everything() -> dict[str, list[tuple]]:
    return {
        "players": sorted(
            PlayerRating.objects.values_list(
                "player_id", "system", "rating", "deviation", "state", "games", "last_played"
            )
        ),
        "periods": sorted(
            PeriodRating.objects.values_list(
                "period_id",
                "player_id",
                "games",
                *PeriodRating.rating_columns(),
            )
        ),
        "games": sorted(
            GameRating.objects.values_list(
                "game_id",
                "period_id",
                "player_id",
                *(column for name in SYSTEM_NAMES for column in GameRating.columns(name)),
            )
        ),
        "rated": sorted(
            RatingPeriod.objects.values_list("id", "games", "skipped", Q(rated_at__isnull=False))
        ),
    }


def test_the_batched_jobs_write_what_the_reference_writes(django_capture_on_commit_callbacks):
    from django.db import transaction

    from tests.factories import EntryFactory, TournamentFactory

    first = tournament_with_players(7)  # odd: a 3-player table every round
    play(first, 3, django_capture_on_commit_callbacks)
    second = TournamentFactory(club=first.club)
    players = [entry.player for entry in first.entries.order_by("seed")][2:]
    for seed, player in enumerate(players, start=1):
        EntryFactory(tournament=second, player=player, seed=seed)
    for seed in range(len(players) + 1, len(players) + 4):
        EntryFactory(tournament=second, seed=seed)
    play(second, 2, django_capture_on_commit_callbacks)
    as_rated = everything()
    assert len(as_rated["rated"]) == 5 and all(rated for *_, rated in as_rated["rated"])

    assert ratings_recompute() == 5
    full = everything()
    with transaction.atomic():
        _reference_rate(_reference_rewind(RatingPeriod.objects.order_by("closed_at", "id")[0]))
    assert everything() == full == as_rated

    # From the middle: the players of the earlier periods are restored, not reset.
    start = period_for_round(first.rounds.get(number=3))
    assert ratings_recompute(start=start) == 3
    assert everything() == full
    with transaction.atomic():
        _reference_rate(_reference_rewind(start))
    assert everything() == full


def test_each_game_of_the_family_has_its_own_ratings(django_capture_on_commit_callbacks):
    from ratings.selectors import leaderboard

    pentagame = tournament_with_players(4)
    play(pentagame, 1, django_capture_on_commit_callbacks)
    pantarei = tournament_with_players(2, game="pantarei", policy="pairs+bye", games_per_turn_2=1)
    round_ = round_pair_next(tournament=pantarei, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_)
    winner = game.table.seats.get(position=1).entry.player_id
    game_record_out(by=DIRECTOR, game=game, out=[1, 0])
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round_, by=Actor.command())
    rows = PlayerRating.objects.filter(game="pantarei", system="elo")
    assert rows.count() == 2
    # A Pantarei win is a full win on the rating scale: the winner gains what the loser loses.
    gain = {r.player_id: r.rating - 1500 for r in rows}
    assert gain[winner] > 0 and sum(gain.values()) == pytest.approx(0)
    assert {r.player_id for r in leaderboard(system="elo", game="pantarei")} == set(gain)
    assert not set(gain) & {r.player_id for r in leaderboard(system="elo")}


def test_game_history_has_a_before_and_after_column_for_every_system():
    for name in SYSTEM_NAMES:
        for column in GameRating.columns(name):
            assert GameRating._meta.get_field(column).null  # empty when skipped there
