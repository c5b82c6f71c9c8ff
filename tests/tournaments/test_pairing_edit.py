"""The pairing editor's services: moves, built and split tables, their warnings and the
reason that overrides them, and the round's invariants after any edit."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import tournament_with_players
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.desk.services.entries import entry_withdraw
from tournaments.desk.services.pairing_edit import (
    NEW_TABLE,
    PairingWarningsError,
    round_edit_preview,
    round_seat_move,
    round_seats_rearrange,
    round_table_build,
    round_table_split,
)
from tournaments.desk.services.rounds import (
    round_close,
    round_pair_next,
    round_publish,
    round_swap_seats,
)
from tournaments.models import AuditEntry, Entry, ForbiddenPair, Game, Round, Seat, Tournament
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.django_db
BY = Actor.command()


def layout(round_: Round) -> list[tuple[int, bool, list[str]]]:
    """(number, is_bye, names in seat order) per table."""
    return [
        (
            t.number,
            t.is_bye,
            [
                s.entry.player.name
                for s in t.seats.order_by("position").select_related("entry__player")
            ],
        )
        for t in round_.tables.order_by("number")
    ]


def assert_invariants(round_: Round, present: set[int]) -> None:
    seats = list(Seat.objects.filter(round=round_).values_list("entry_id", flat=True))
    assert sorted(seats) == sorted(present), "every present player seated exactly once"
    tables = list(round_.tables.order_by("number"))
    assert [t.number for t in tables] == list(range(1, len(tables) + 1))
    byes = [t.is_bye for t in tables]
    assert byes == sorted(byes), "byes come last"
    for t in tables:
        n = t.seats.count()
        assert sorted(t.seats.values_list("position", flat=True)) == list(range(1, n + 1))
        games = Game.objects.filter(table=t).count()
        if t.is_bye:
            assert n == 1 and games == 0
        else:
            assert n in (2, 3) and games == (3 if n == 2 else 2)


def entry(tournament: Tournament, seed: int) -> Entry:
    return tournament.entries.select_related("player").get(seed=seed)


def play(round_: Round) -> None:
    """Seat 1 wins every game 3:0 (3:0:0 at a 3-player table)."""
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        n = game.table.seats.count()
        game_record_out(by=BY, game=game, out=[3] + [0] * (n - 1))
    round_close(round=round_, by=BY)


def test_moving_a_player_to_a_pair_makes_a_3_player_table_with_its_games():
    t = tournament_with_players(5)
    round_ = round_pair_next(tournament=t, by=BY)
    assert layout(round_) == [(1, False, ["P01", "P02"]), (2, False, ["P03", "P04", "P05"])]
    # The leader at the 3-player table: the book gives it to the lowest ranks (all have
    # 0 points in round 1), so the move needs a reason.
    book = "not the book's rule (within its score group the 3-player table goes to the lowest"
    with pytest.raises(PairingWarningsError, match=r"P04 ranks below P01"):
        round_seat_move(round=round_, entry=entry(t, 5), table=1, by=BY)
    round_seat_move(round=round_, entry=entry(t, 5), table=1, override_reason="P01 asked", by=BY)
    assert [sorted(names) for _, _, names in layout(round_)] == [
        ["P01", "P02", "P05"],
        ["P03", "P04"],
    ]
    assert_invariants(round_, set(t.entries.values_list("pk", flat=True)))
    audit = AuditEntry.objects.get(action="move seat")
    assert audit.after["moves"] == [["P05", "1"]]
    assert [w.startswith(book) for w in audit.after["warnings"]] == [True]


def test_a_player_left_alone_gets_the_bye_which_the_policy_warns_about():
    t = tournament_with_players(4)
    round_ = round_pair_next(tournament=t, by=BY)
    with pytest.raises(PairingWarningsError, match="a bye for P02") as refused:
        round_seat_move(round=round_, entry=entry(t, 1), table=2, by=BY)
    assert refused.value.field == "override_reason"
    assert layout(round_)[0] == (1, False, ["P01", "P02"]), "refused: nothing changed"
    round_seat_move(round=round_, entry=entry(t, 1), table=2, override_reason="P02 late", by=BY)
    assert layout(round_)[-1] == (2, True, ["P02"])
    assert_invariants(round_, set(t.entries.values_list("pk", flat=True)))
    audit = AuditEntry.objects.get(action="move seat")
    assert audit.after["override_reason"] == "P02 late"
    assert any("a bye for P02" in w for w in audit.after["warnings"])


def test_a_rematch_needs_a_reason_and_names_the_earlier_round():
    t = tournament_with_players(6, rounds_planned=3)
    play(round_pair_next(tournament=t, by=BY))
    round_ = round_pair_next(tournament=t, by=BY)
    # Round 1 seated P01 with P02; move P02 to P01's table in round 2.
    first_table = Seat.objects.get(round=round_, entry=entry(t, 1)).table.number
    mover = (
        2 if Seat.objects.get(round=round_, entry=entry(t, 2)).table.number != first_table else None
    )
    assert mover is not None
    with pytest.raises(PairingWarningsError, match="P01 and P02 met already in round 1"):
        round_seat_move(round=round_, entry=entry(t, 2), table=first_table, by=BY)
    preview = round_edit_preview(round=round_, moves=[(entry(t, 2), first_table)])
    assert any("met already in round 1" in w for w in preview.created)


def test_a_forbidden_pair_needs_a_reason():
    t = tournament_with_players(5)
    ForbiddenPair.objects.create(tournament=t, first=entry(t, 1), second=entry(t, 5))
    round_ = round_pair_next(tournament=t, by=BY)
    table_of_1 = Seat.objects.get(round=round_, entry=entry(t, 1)).table.number
    with pytest.raises(PairingWarningsError, match="must never be seated together"):
        round_seat_move(round=round_, entry=entry(t, 5), table=table_of_1, by=BY)
    round_seat_move(
        round=round_, entry=entry(t, 5), table=table_of_1, override_reason="same car", by=BY
    )
    assert entry(t, 5).pk in Seat.objects.filter(
        round=round_, table__number=table_of_1
    ).values_list("entry_id", flat=True)


def test_a_3_player_table_under_pairs_and_bye_is_a_table_size_warning():
    t = tournament_with_players(5, policy=Tournament.Policy.PAIRS_BYE)
    round_ = round_pair_next(tournament=t, by=BY)
    bye = round_.tables.get(is_bye=True).seats.get().entry
    with pytest.raises(PairingWarningsError, match="a table of 3"):
        round_seat_move(round=round_, entry=bye, table=1, by=BY)


def test_a_second_3_player_table_is_a_table_size_warning():
    t = tournament_with_players(6)
    round_ = round_pair_next(tournament=t, by=BY)
    with pytest.raises(PairingWarningsError, match="more than one 3-player table|a bye"):
        round_table_build(round=round_, entries=[entry(t, 1), entry(t, 3)], by=BY)


def test_a_table_of_four_cannot_be_played_and_no_reason_overrides_it():
    t = tournament_with_players(5)
    round_ = round_pair_next(tournament=t, by=BY)
    with pytest.raises(ServiceError, match="a table of 4 cannot be played") as refused:
        round_seat_move(round=round_, entry=entry(t, 1), table=2, override_reason="x", by=BY)
    assert refused.value.field == "table"


def test_a_score_gap_above_one_even_turn_needs_a_reason():
    t = tournament_with_players(8, rounds_planned=3)
    play(round_pair_next(tournament=t, by=BY))
    round_ = round_pair_next(tournament=t, by=BY)
    # After a 3:0 sweep the winners lead the losers by far more than an even turn (18).
    winner = Seat.objects.get(round=round_, table__number=1, position=1).entry
    last_table = round_.tables.filter(is_bye=False).order_by("-number").first()
    with pytest.raises(PairingWarningsError, match="points apart"):
        round_seats_rearrange(
            round=round_,
            moves=[
                (winner, last_table.number),
                (last_table.seats.order_by("position").first().entry, 1),
            ],
            by=BY,
        )


def test_the_editor_refuses_a_published_round():
    t = tournament_with_players(5)
    round_ = round_pair_next(tournament=t, by=BY)
    round_publish(round=round_, by=BY)
    with pytest.raises(ConflictError, match="already published"):
        round_seat_move(round=round_, entry=entry(t, 5), table=1, by=BY)


def test_a_withdrawn_player_is_refused_naming_the_field():
    t = tournament_with_players(5)
    round_ = round_pair_next(tournament=t, by=BY)
    gone = entry(t, 5)
    entry_withdraw(entry=gone, by=BY)
    gone.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        round_seat_move(round=round_, entry=gone, table=1, by=BY)
    assert refused.value.field == "entry"


def test_an_unseated_player_is_refused_naming_the_field():
    t = tournament_with_players(4)
    round_ = round_pair_next(tournament=t, by=BY)
    late = Entry.objects.create(
        tournament=t, player=entry(t, 1).player.__class__.objects.create(name="Late"), seed=9
    )
    with pytest.raises(ServiceError, match="has no seat in round 1") as refused:
        round_seat_move(round=round_, entry=late, table=1, by=BY)
    assert refused.value.field == "entry"


def test_a_split_3_player_table_keeps_the_top_two_and_gives_the_third_the_bye():
    t = tournament_with_players(5)
    round_ = round_pair_next(tournament=t, by=BY)
    with pytest.raises(PairingWarningsError):
        round_table_split(round=round_, table=2, by=BY)
    round_table_split(round=round_, table=2, override_reason="P05 leaves early", by=BY)
    assert layout(round_) == [
        (1, False, ["P01", "P02"]),
        (2, False, ["P03", "P04"]),
        (3, True, ["P05"]),
    ]
    assert_invariants(round_, set(t.entries.values_list("pk", flat=True)))
    with pytest.raises(ServiceError, match="only a table of three"):
        round_table_split(round=round_, table=1, override_reason="x", by=BY)


def test_built_table_takes_its_players_from_their_tables():
    t = tournament_with_players(7)
    round_ = round_pair_next(tournament=t, by=BY)
    # 7 players: 2 + 2 + 3. Take one from each pair: both pairs' others get the bye...
    with pytest.raises(ServiceError, match="at least two"):
        round_table_build(round=round_, entries=[entry(t, 1)], by=BY)
    round_table_build(
        round=round_, entries=[entry(t, 5), entry(t, 6)], override_reason="friends", by=BY
    )
    assert_invariants(round_, set(t.entries.values_list("pk", flat=True)))
    tables = layout(round_)
    assert sorted(tables[2][2]) == ["P05", "P06"] or any(
        sorted(names) == ["P05", "P06"] for _, _, names in tables
    )


def test_joining_the_bye_player_makes_a_table_of_two():
    t = tournament_with_players(5, policy=Tournament.Policy.PAIRS_BYE)
    round_ = round_pair_next(tournament=t, by=BY)
    round_seat_move(round=round_, entry=entry(t, 1), table=3, override_reason="x", by=BY)
    assert_invariants(round_, set(t.entries.values_list("pk", flat=True)))
    assert sorted(n for _, bye, names in layout(round_) if bye for n in names) == ["P02"]


def test_a_swap_into_a_rematch_needs_a_reason_too():
    t = tournament_with_players(6, rounds_planned=3)
    play(round_pair_next(tournament=t, by=BY))
    round_ = round_pair_next(tournament=t, by=BY)
    one, two = entry(t, 1), entry(t, 2)
    mate = (
        Seat.objects.filter(round=round_, table=Seat.objects.get(round=round_, entry=one).table)
        .exclude(entry=one)
        .get()
        .entry
    )
    with pytest.raises(PairingWarningsError, match="met already"):
        round_swap_seats(round=round_, first=mate, second=two, by=BY)
    round_swap_seats(round=round_, first=mate, second=two, override_reason="ok", by=BY)
    audit = AuditEntry.objects.get(action="swap")
    assert audit.after[2]["override_reason"] == "ok"


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    size=st.integers(3, 9),
    policy=st.sampled_from(list(Tournament.Policy.values)),
    moves=st.lists(
        st.tuples(st.integers(0, 8), st.one_of(st.none(), st.just(NEW_TABLE), st.integers(1, 6))),
        min_size=1,
        max_size=6,
    ),
)
def test_any_sequence_of_moves_keeps_every_present_player_seated_once(size, policy, moves):
    t = tournament_with_players(size, policy=policy)
    round_ = round_pair_next(tournament=t, by=BY)
    present = set(t.entries.values_list("pk", flat=True))
    entries = list(t.entries.select_related("player").order_by("seed"))
    for index, target in moves:
        # Refusals (a table of 4, no such table...) leave the round as it was.
        with contextlib.suppress(ServiceError):
            round_seats_rearrange(
                round=round_,
                moves=[(entries[index % size], target)],
                override_reason="testing",
                by=BY,
            )
        assert_invariants(round_, present)


@pytest.fixture
def director_api():
    from rest_framework.test import APIClient

    from tests.factories import UserFactory

    user = UserFactory(username="td")
    t = tournament_with_players(5, slug="cup")
    t.directors.add(user)
    round_pair_next(tournament=t, by=BY)
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(user)
    return t, api


def test_the_api_move_asks_for_a_reason_and_lists_the_warnings(director_api):
    t, api = director_api
    url = "/api/v1/tournaments/cup/rounds/1/move/"
    # P03 leaves the 3-player table for P01's pair: P01, P02, P03 at table 1 and the
    # remaining pair at table 2; the book gives the 3-player table to the lowest ranks.
    move = {"entry": entry(t, 3).pk, "table": 1}
    refused = api.post(url, move, format="json")
    assert refused.status_code == 400
    assert refused.json()["warnings"] == [
        "not the book's rule (within its score group the 3-player table goes to the lowest "
        "ranks): P05 ranks below P01"
    ]
    ok = api.post(url, {**move, "override_reason": "P03 plays P01"}, format="json")
    assert ok.status_code == 200, ok.content
    # P04 to the bye under "pairs+triple": a warning, refused without a reason.
    refused = api.post(url, {"entry": entry(t, 4).pk, "table": None}, format="json")
    assert refused.status_code == 400
    body = refused.json()
    assert body["error"]["field"] == "override_reason"
    # P05, left at table 2, has the bye with her.
    assert body["warnings"][0] == "P05 is left alone at table 2 and would get the bye"
    assert "a bye for P04, P05" in body["warnings"][1]
    done = api.post(
        url, {"entry": entry(t, 4).pk, "table": None, "override_reason": "asked"}, format="json"
    )
    assert done.status_code == 200
    assert AuditEntry.objects.filter(action="move seat").count() == 2


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"entry": "x", "table": 1},
        {"entry": 10**12, "table": 1},
        {"entry": None, "table": None},
        {"table": 1},
        {"entry": 1, "table": -4},
        {"entry": 1, "table": "bye"},
        {"entry": 1, "table": 99, "override_reason": "x" * 5000},
    ],
)
def test_hostile_api_moves_are_4xx_and_change_nothing(director_api, body):
    t, api = director_api
    before = list(Seat.objects.order_by("pk").values_list("entry_id", "table_id"))
    response = api.post("/api/v1/tournaments/cup/rounds/1/move/", body, format="json")
    assert 400 <= response.status_code < 500, response.content
    assert list(Seat.objects.order_by("pk").values_list("entry_id", "table_id")) == before


def test_the_api_move_after_publishing_is_a_409(director_api):
    t, api = director_api
    round_publish(round=t.rounds.get(), by=BY)
    response = api.post(
        "/api/v1/tournaments/cup/rounds/1/move/",
        {"entry": entry(t, 5).pk, "table": 1},
        format="json",
    )
    assert response.status_code == 409


def test_who_stays_at_her_table_keeps_her_report_link_and_the_moved_get_new_ones():
    t = tournament_with_players(5)
    round_ = round_pair_next(tournament=t, by=BY)
    links = dict(Seat.objects.filter(round=round_).values_list("entry_id", "report_token"))
    round_seat_move(round=round_, entry=entry(t, 5), table=1, override_reason="asked", by=BY)
    after = dict(Seat.objects.filter(round=round_).values_list("entry_id", "report_token"))
    moved = entry(t, 5).pk
    assert after[moved] != links[moved]
    assert all(after[e] == links[e] for e in links if e != moved)
