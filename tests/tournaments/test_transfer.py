"""Import through the services: a document checked by its schema (errors name the field
path), written all or nothing into a club the importer organises, every result replayed
through the result services, and a round trip that loses nothing."""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.models import RatingJob
from tests.factories import ClubFactory, PlayerFactory, UserFactory, tournament_with_players
from tests.tournaments.test_write_path import ratings_now, replay_from_nothing
from tournaments.core.errors import ServiceError
from tournaments.demo import random_record
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.tournaments import tournament_delete
from tournaments.models import AuditEntry, Club, Game, Player, ResultSubmission, Tournament
from tournaments.results.services.results import Actor, game_record_moves, game_record_out
from tournaments.transfer.services import tournament_export_document, tournament_import_document

pytestmark = pytest.mark.django_db
DIRECTOR = Actor.command()
State = ResultSubmission.State


@pytest.fixture
def organiser():
    user = UserFactory(username="org")
    ClubFactory(name="Kiel", slug="kiel").organisers.add(user)
    return user


def played(organiser, n: int = 4, **settings: Any) -> Tournament:
    """A tournament of the organiser's club with one closed round."""
    tournament = tournament_with_players(n, club=organiser.organised_clubs.get(), **settings)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        game_record_out(game=game, out=[3, 1, 0][: game.table.seats.count()], by=DIRECTOR)
    round_close(round=round_, by=Actor.command())
    return tournament


def renamed(document: dict[str, Any], slug: str = "copy") -> dict[str, Any]:
    document = copy.deepcopy(document)
    document["tournament"]["slug"] = slug
    return document


def counts() -> tuple[int, int, int, int]:
    return (
        Tournament.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        Club.objects.count(),
    )


def test_an_organiser_of_another_club_cannot_import_into_this_one(organiser):
    document = renamed(tournament_export_document(tournament=played(organiser)))
    stranger = UserFactory(username="stranger")
    ClubFactory(slug="elsewhere").organisers.add(stranger)
    before = counts()
    with pytest.raises(PermissionDenied):
        tournament_import_document(
            document=document, players_by_name=True, by=Actor.director(stranger)
        )
    assert counts() == before


def test_an_import_never_creates_a_club(organiser):
    document = renamed(tournament_export_document(tournament=played(organiser)))
    document["club"]["slug"] = "new-club"
    before = counts()
    with pytest.raises(ServiceError) as refused:
        tournament_import_document(document=document, by=Actor.director(organiser))
    assert refused.value.field == "club"
    assert counts() == before


def test_a_name_the_club_has_already_is_refused_unless_mapped(organiser):
    tournament = played(organiser)
    document = renamed(tournament_export_document(tournament=tournament))
    with pytest.raises(ServiceError, match=r"entries\[0\]\.player: Kiel has a player 'P01'"):
        tournament_import_document(document=document, by=Actor.director(organiser))
    assert not Tournament.objects.filter(slug="copy").exists()
    mapping = {
        e["key"]: tournament.entries.get(seed=e["seed"]).player_id for e in document["entries"]
    }
    imported = tournament_import_document(
        document=document, players=mapping, by=Actor.director(organiser)
    )
    assert sorted(imported.entries.values_list("player_id", flat=True)) == sorted(mapping.values())


def test_a_player_of_another_club_cannot_be_mapped(organiser):
    document = renamed(tournament_export_document(tournament=played(organiser)))
    foreign = PlayerFactory(club=ClubFactory(slug="other"))
    with pytest.raises(ServiceError, match=r"entries\[0\]\.player: the chosen player"):
        tournament_import_document(
            document=document,
            players={"e1": foreign.pk},
            players_by_name=True,
            by=Actor.director(organiser),
        )
    assert not Tournament.objects.filter(slug="copy").exists()


def test_an_import_into_a_chosen_club_creates_its_players_there(organiser):
    document = renamed(tournament_export_document(tournament=played(organiser)))
    other = ClubFactory(slug="second")
    other.organisers.add(organiser)
    imported = tournament_import_document(
        document=document, club=other, by=Actor.director(organiser)
    )
    assert set(imported.entries.values_list("player__club", flat=True)) == {other.pk}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda g: g.update(out=[5, 5]), r"rounds\[0\]\.tables\[0\]\.games\[0\]\.out: "),
        (
            lambda g: g["submissions"][0].update(out=[5, 5]),
            r"rounds\[0\]\.tables\[0\]\.games\[0\]\.submissions\[0\]\.out_1: seat 1",
        ),
        (
            lambda g: g["submissions"][0].update(moves=["not a move"]),
            r"rounds\[0\]\.tables\[0\]\.games\[0\]\.submissions\[0\]\.moves",
        ),
        (lambda g: g.update(colours_out="x"), r"rounds\[0\]\.tables\[0\]\.games\[0\]\.colours_out"),
        (
            lambda g: g["submissions"][0].update(colours_out={"1": ["x"]}),
            r"submissions\[0\]\.colours_1: seat 1: colours are",
        ),
    ],
)
def test_a_result_the_rules_refuse_is_refused_with_its_field_path(organiser, change, message):
    document = renamed(tournament_export_document(tournament=played(organiser)))
    change(document["rounds"][0]["tables"][0]["games"][0])
    before = counts()
    with pytest.raises(ServiceError, match=message):
        tournament_import_document(
            document=document, players_by_name=True, by=Actor.director(organiser)
        )
    assert counts() == before


def test_a_pantarei_setup_survives_the_round_trip_and_replays(organiser):
    tournament = tournament_with_players(
        2, club=organiser.organised_clubs.get(), game="pantarei", policy="pairs+bye"
    )
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_, number=1)
    moves, setup = random_record("pantarei", 2, seed=7)
    game_record_moves(game=game, moves=moves, setup=setup, by=DIRECTOR)
    document = tournament_export_document(tournament=tournament)
    imported = tournament_import_document(
        document=renamed(document), players_by_name=True, by=Actor.director(organiser)
    )
    copy_game = Game.objects.get(table__round__tournament=imported, number=1, table__number=1)
    assert copy_game.setup == setup and copy_game.moves == moves
    assert copy_game.out_list(2) == Game.objects.get(pk=game.pk).out_list(2)


def test_a_pentagame_recorded_by_moves_survives_the_round_trip_with_its_colours_out(organiser):
    """A record's replay names the colours out ("yellow"), where pieces out entered by
    hand give letters ("y"); the document of a game recorded by moves imports again
    (it was refused: the schema took letters only; found by the two-site test)."""
    tournament = tournament_with_players(2, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_, number=1)
    moves, setup = random_record("pentagame", 2, seed=3)
    game_record_moves(game=game, moves=moves, finished=True, setup=setup, by=DIRECTOR)
    document = tournament_export_document(tournament=tournament)
    names = [
        c
        for cs in document["rounds"][0]["tables"][0]["games"][0]["colours_out"].values()
        for c in cs
    ]
    assert any(len(c) > 1 for c in names)
    imported = tournament_import_document(
        document=renamed(document), players_by_name=True, by=Actor.director(organiser)
    )
    again = tournament_export_document(tournament=imported)
    assert again["rounds"] == document["rounds"]


def test_an_unconfirmed_report_stays_unconfirmed_with_its_reporter(organiser):
    tournament = tournament_with_players(2, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_, number=1)
    game_record_out(game=game, out=[3, 1], by=Actor.player(game.table.seats.get(position=2)))
    second = Game.objects.get(table__round=round_, number=2)
    game_record_out(game=second, out=[3, 2], by=Actor.player(second.table.seats.get(position=1)))
    game_record_out(game=second, out=[3, 2], by=Actor.player(second.table.seats.get(position=2)))
    document = tournament_export_document(tournament=tournament)
    imported = tournament_import_document(
        document=renamed(document), players_by_name=True, by=Actor.director(organiser)
    )
    first, other = Game.objects.filter(table__round__tournament=imported).order_by("number")[:2]
    assert not first.confirmed and first.reported_by_position == 2
    report = first.submissions.get()
    assert report.state == State.REPORTED and report.by_seat.position == 2
    assert other.confirmed
    assert sorted(other.submissions.values_list("state", "by_seat__position")) == [
        (State.CONFIRMED, 1),
        (State.CONFIRMED, 2),
    ]
    again = tournament_export_document(tournament=imported)
    assert again["rounds"] == document["rounds"]


def test_the_audit_log_survives_the_round_trip(organiser):
    tournament = played(organiser)
    game = Game.objects.filter(table__round__tournament=tournament).first()
    game_record_out(game=game, out=[1, 3], by=Actor.director(organiser), correction=True)
    document = tournament_export_document(tournament=tournament)
    actions = [a["action"] for a in document["audit"]]
    assert actions[-2:] == ["close", "edit result"]
    imported = tournament_import_document(
        document=renamed(document), players_by_name=True, by=Actor.director(organiser)
    )
    log = list(AuditEntry.objects.filter(tournament=imported).order_by("at", "pk"))
    assert [a.action for a in log] == [*actions, "import"]
    assert log[-2].before == document["audit"][-1]["before"]
    assert tournament_export_document(tournament=imported)["audit"][:-1] == [
        {**a, "user": None} for a in document["audit"]
    ]


def test_imported_audit_entries_keep_who_acted_as_text_not_as_a_local_user(organiser):
    tournament = played(organiser)
    game = Game.objects.filter(table__round__tournament=tournament).first()
    game_record_out(game=game, out=[1, 3], by=Actor.director(organiser), correction=True)
    document = tournament_export_document(tournament=tournament)
    actors = [a["actor"] for a in document["audit"]]
    assert set(actors) == {"command", organiser.username}
    imported = tournament_import_document(
        document=renamed(document), players_by_name=True, by=Actor.director(organiser)
    )
    log = list(AuditEntry.objects.filter(tournament=imported).order_by("at", "pk"))
    assert [a.actor for a in log] == [*actors, organiser.username]
    assert all(a.user is None for a in log[:-1])  # the same name here is not the same person
    assert (log[-1].action, log[-1].user) == ("import", organiser)


def test_a_document_without_actors_names_the_exported_user(organiser):
    tournament = played(organiser)
    game = Game.objects.filter(table__round__tournament=tournament).first()
    game_record_out(game=game, out=[1, 3], by=Actor.director(organiser), correction=True)
    document = renamed(tournament_export_document(tournament=tournament))
    for row in document["audit"]:
        del row["actor"]
    imported = tournament_import_document(
        document=document, players_by_name=True, by=Actor.director(organiser)
    )
    log = AuditEntry.objects.filter(tournament=imported).order_by("at", "pk")
    assert list(log.values_list("actor", flat=True)) == [
        row["user"] or "" for row in document["audit"]
    ] + [organiser.username]


def test_a_version_1_document_still_imports(organiser):
    tournament = played(organiser)
    document = renamed(tournament_export_document(tournament=tournament))
    document["version"] = 1
    del document["audit"]
    for round_ in document["rounds"]:
        for table in round_["tables"]:
            for game in table["games"]:
                del game["setup"], game["submissions"]
    imported = tournament_import_document(
        document=document, players_by_name=True, by=Actor.director(organiser)
    )
    assert imported.rounds.get().status == "closed"
    assert sorted(
        Game.objects.filter(table__round__tournament=imported).values_list("out_1", "out_2")
    ) == sorted(
        Game.objects.filter(table__round__tournament=tournament).values_list("out_1", "out_2")
    )


def test_reimporting_a_deleted_tournament_rates_it_as_a_fresh_recomputation(
    organiser, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = played(organiser, n=5)
    rated = ratings_now()
    assert rated[0]
    document = tournament_export_document(tournament=tournament)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_delete(tournament=tournament, by=Actor.director(organiser))
    assert not ratings_now()[0]
    with django_capture_on_commit_callbacks(execute=True):
        tournament_import_document(
            document=document, players_by_name=True, by=Actor.director(organiser)
        )
    assert RatingJob.objects.exclude(status="done").count() == 0
    after = ratings_now()
    assert after[0], "the import queued no rating of its closed round"
    assert after == replay_from_nothing()
    assert [r[2:] for r in after[0]] == [r[2:] for r in rated[0]]  # counted once, as before


# --- fuzz: mutated exports never give a server error or a half import ---------------

JUNK = st.one_of(
    # Values of the right shape, to get past the schema and into the services.
    st.integers(min_value=0, max_value=6),
    st.sampled_from(["e1", "e2", "e6", "pending", "finished", "closed", "paired", "reported"]),
    st.lists(st.integers(min_value=0, max_value=4), min_size=2, max_size=3),
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.lists(st.integers(min_value=-3, max_value=9), max_size=5),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _paths(value, (*path, i))
    return found


def _mutate(document: dict[str, Any], path: tuple, how: str, junk: Any) -> dict[str, Any]:
    document = copy.deepcopy(document)
    if not path:
        return junk if how == "replace" else document
    parent = document
    for step in path[:-1]:
        parent = parent[step]
    if how == "delete":
        del parent[path[-1]]
    elif how == "duplicate" and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[path[-1]]))
    else:
        parent[path[-1]] = junk
    return document


@pytest.fixture
def base_document(organiser):
    tournament = played(organiser, n=5)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).first()
    game_record_out(game=game, out=[3, 2], by=Actor.player(game.table.seats.get(position=1)))
    return json.loads(json.dumps(renamed(tournament_export_document(tournament=tournament))))


def test_mutated_exports_give_no_server_error_and_no_half_import(organiser, base_document):
    paths = _paths(base_document)
    pages = Client(raise_request_exception=False)
    pages.force_login(organiser)

    @settings(
        max_examples=60,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        picks=st.lists(
            st.tuples(
                st.integers(min_value=0, max_value=len(paths) - 1),
                st.sampled_from(["replace", "delete", "duplicate"]),
                JUNK,
            ),
            min_size=1,
            max_size=3,
        )
    )
    def run(picks: list[tuple[int, str, Any]]) -> None:
        document: Any = base_document
        for index, how, junk in picks:
            # An earlier mutation may have removed this path.
            with contextlib.suppress(KeyError, IndexError, TypeError):
                document = _mutate(document, paths[index], how, junk)
        before = counts()
        try:
            imported = tournament_import_document(
                document=document, players_by_name=True, by=Actor.director(organiser)
            )
        except ServiceError:
            assert counts() == before
        else:
            # What was accepted is whole: its pages answer, and exported again it
            # imports again.
            slug = imported.slug
            urls = [
                reverse("tournament-detail", args=[slug]),
                reverse("tournament-standings", args=[slug]),
                reverse("tournament-manage", args=[slug]),
                *(reverse("round-detail", args=[slug, r.number]) for r in imported.rounds.all()),
                *(reverse("round-sheets", args=[slug, r.number]) for r in imported.rounds.all()),
            ]
            for url in urls:
                assert pages.get(url).status_code < 500, url
            tournament_import_document(
                document=renamed(tournament_export_document(tournament=imported), "copy-2"),
                players_by_name=True,
                by=Actor.director(organiser),
            )
            Tournament.objects.filter(slug__in=["copy", "copy-2"]).delete()

    run()


def test_the_import_page_imports_into_a_chosen_club_of_the_organiser_only(client, organiser):
    import io

    document = renamed(tournament_export_document(tournament=played(organiser)))
    client.force_login(organiser)
    foreign = ClubFactory(slug="foreign")

    def post(**fields: str) -> str:
        upload = io.BytesIO(json.dumps(document).encode())
        upload.name = "t.json"
        page = client.post(
            reverse("tournament-import"), {"document": upload, **fields}, follow=True
        )
        assert page.status_code == 200
        return page.content.decode()

    assert "choose one of your clubs" in post(club=str(foreign.pk))
    assert "Kiel has a player" in post()
    assert not Tournament.objects.filter(slug="copy").exists()
    post(players_by_name="1")
    assert Tournament.objects.get(slug="copy").club.slug == "kiel"


def test_a_dispute_the_organiser_settled_imports_settled(organiser):
    from tournaments.results.services.results import result_accept

    tournament = tournament_with_players(2, club=organiser.organised_clubs.get())
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.get(table__round=round_, number=1)
    game_record_out(game=game, out=[3, 1], by=Actor.player(game.table.seats.get(position=1)))
    game_record_out(game=game, out=[1, 3], by=Actor.player(game.table.seats.get(position=2)))
    result_accept(submission=game.submissions.order_by("pk").first(), by=DIRECTOR)
    document = tournament_export_document(tournament=tournament)
    imported = tournament_import_document(
        document=renamed(document), players_by_name=True, by=Actor.director(organiser)
    )
    copy_game = Game.objects.get(table__round__tournament=imported, table__number=1, number=1)
    assert copy_game.out_list(2) == [3, 1] and copy_game.confirmed
    assert list(copy_game.submissions.order_by("pk").values_list("state", flat=True)) == [
        State.CONFIRMED,
        State.DISCARDED,
    ]
    assert tournament_export_document(tournament=imported)["rounds"] == document["rounds"]


def test_game_versions_survive_the_round_trip(organiser):
    tournament = played(organiser)
    game = Game.objects.filter(table__round__tournament=tournament).first()
    game_record_out(game=game, out=[1, 3], by=Actor.director(organiser), correction=True)
    game_record_out(game=game, out=[3, 1], by=Actor.director(organiser), correction=True)
    versions = sorted(
        Game.objects.filter(table__round__tournament=tournament).values_list(
            "table__round__number", "table__number", "number", "version"
        )
    )
    assert max(v for *_, v in versions) >= 3
    document = tournament_export_document(tournament=tournament)
    imported = tournament_import_document(
        document=renamed(document), players_by_name=True, by=Actor.director(organiser)
    )
    assert (
        sorted(
            Game.objects.filter(table__round__tournament=imported).values_list(
                "table__round__number", "table__number", "number", "version"
            )
        )
        == versions
    )


def _team_event(organiser) -> Tournament:
    """A 2 vs 2 event of four teams with one closed round."""
    from tournaments.desk.services.teams import team_add
    from tournaments.desk.services.tournaments import tournament_create

    by = Actor.director(organiser)
    tournament = tournament_create(
        club=organiser.organised_clubs.get(), name="Pairs", kind="teams", by=by
    )
    for i, name in enumerate(["Stars", "Moons", "Suns", "Comets"]):
        team_add(tournament=tournament, name=name, players=[f"T{i}a", f"T{i}b"], by=by)
    round_ = round_pair_next(tournament=tournament, by=by)
    round_publish(round=round_, by=by)
    for game in Game.objects.filter(table__round=round_).order_by("pk"):
        game_record_out(game=game, out=[3, 1, 2, 2], by=by)  # 5 : 3 for seats 1+3
    round_close(round=round_, by=by)
    return tournament


def test_a_team_event_survives_the_round_trip_with_its_teams(organiser):
    from tournaments.standings.selectors.teams import team_standings

    tournament = _team_event(organiser)
    document = tournament_export_document(tournament=tournament)
    assert [t["name"] for t in document["teams"]] == ["Stars", "Moons", "Suns", "Comets"]
    imported = tournament_import_document(
        document=renamed(document), players_by_name=True, by=Actor.director(organiser)
    )
    again = tournament_export_document(tournament=imported)
    assert again["teams"] == document["teams"]
    assert again["rounds"] == document["rounds"]
    standings = [(r.name, r.score) for r in team_standings(tournament=tournament).rows]
    assert [(r.name, r.score) for r in team_standings(tournament=imported).rows] == standings
    assert len({s for _, s in standings}) > 1  # a real result, not all equal


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda teams: teams[0].update(second=teams[0]["first"]), "two different entry keys"),
        (lambda teams: teams[1].update(first=teams[0]["first"]), "in one team only"),
        (lambda teams: teams[1].update(name=teams[0]["name"]), "names and seeds are distinct"),
    ],
)
def test_damaged_teams_are_refused_and_nothing_is_imported(organiser, change, message):
    document = renamed(tournament_export_document(tournament=_team_event(organiser)))
    change(document["teams"])
    before = counts()
    with pytest.raises(ServiceError, match=message):
        tournament_import_document(
            document=document, players_by_name=True, by=Actor.director(organiser)
        )
    assert counts() == before
