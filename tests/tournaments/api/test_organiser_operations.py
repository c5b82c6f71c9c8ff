"""The API operations that do what only the pages did (issue 27, item 13): forbidden
pairs, a late entrant's own missed-round score, requested byes and skips, seeding by
rating, check-in of everyone, correcting and removing entries, planning more rounds,
closing and reopening an evening, importing, teams pasted or formed from entries, the
pairing editor's save, split and live check, and accepting a player's report.

Each calls the service the page's view calls. Only the tournament's directors may:
anyone else is refused (403: `not_authenticated` without a login, `permission_denied`
with one) and nothing changes. Bad input
is a 4xx naming the field at fault, in the site's one JSON error shape, and nothing is
half-saved."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import ClubFactory, TournamentFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError
from tournaments.desk.services.entries import (
    entries_check_in_all,
    entry_add,
    entry_skip,
    entry_update,
)
from tournaments.desk.services.evenings import evening_close
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.tournaments import forbidden_pair_add
from tournaments.models import (
    AuditEntry,
    Entry,
    ForbiddenPair,
    Game,
    PlyConflict,
    ResultSubmission,
    Round,
    Seat,
    Skip,
    Table,
    Team,
    Tournament,
)
from tournaments.results.services.result_path import PlyEntry, ResultEntry, game_result_record
from tournaments.results.services.results import game_record_out
from tournaments.transfer.services import tournament_export_document

pytestmark = pytest.mark.django_db
BASE = "/api/v1/tournaments/cup"
WATCHED = (Tournament, Entry, Skip, ForbiddenPair, Round, Table, Seat, Game, Team, AuditEntry)
WATCHED += (ResultSubmission,)


def fingerprint() -> list[list[dict[str, Any]]]:
    return [list(model.objects.order_by("pk").values()) for model in WATCHED]


@pytest.fixture
def world() -> dict[str, Any]:
    """Tournament "cup" of club "kiel": 5 players, round 1 paired (not published: two
    tables, one of three), 3 rounds planned. "td" directs it; "other" directs another
    tournament of another club."""
    director, other = UserFactory(username="td"), UserFactory(username="other")
    club = ClubFactory(slug="kiel")
    cup = tournament_with_players(5, club=club, slug="cup", name="Cup", rounds_planned=3)
    cup.directors.add(director)
    tournament_with_players(2, slug="elsewhere", name="Elsewhere").directors.add(other)
    round_pair_next(tournament=cup, by=Actor.director(director))
    return {"tournament": cup, "director": director, "other": other}


def client(user: Any = None) -> APIClient:
    api = APIClient(raise_request_exception=False)
    if user is not None:
        api.force_authenticate(user)
    return api


def entry(world: dict[str, Any], seed: int) -> Entry:
    return world["tournament"].entries.get(seed=seed)


def late_entry(world: dict[str, Any]) -> Entry:
    return entry_add(
        tournament=world["tournament"], name="Late", by=Actor.director(world["director"])
    )


def triple(world: dict[str, Any]) -> Table:
    return next(
        t
        for t in Table.objects.filter(round__tournament=world["tournament"])
        if t.seats.count() == 3
    )


def error_of(response: Any) -> dict[str, Any]:
    body = response.json()
    assert set(body["error"]) == {"code", "field", "message"}, body
    return body["error"]


# --- who may: (method, path, body, preparation, success status) -------------------------

Write = tuple[str, Callable[[dict], str], Callable[[dict], dict], Callable[[dict], Any], int]


def _nothing(world: dict[str, Any]) -> None:
    return None


def _publish_with_report(world: dict[str, Any]) -> None:
    round_ = world["tournament"].rounds.get(number=1)
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).order_by("table__number", "number").first()
    seat = game.table.seats.get(position=1)
    out = [3, 1, 0][: game.table.seats.count()]
    game_record_out(game=game, out=out, by=Actor.player(seat))


def _submission_url(world: dict[str, Any]) -> str:
    submission = ResultSubmission.objects.get(game__table__round__tournament=world["tournament"])
    return f"{BASE}/submissions/{submission.pk}/accept/"


def _forbidden(world: dict[str, Any]) -> None:
    forbidden_pair_add(
        tournament=world["tournament"],
        first=entry(world, 1),
        second=entry(world, 2),
        by=Actor.director(world["director"]),
    )


def _forbidden_url(world: dict[str, Any]) -> str:
    return f"{BASE}/forbidden-pairs/{ForbiddenPair.objects.get().pk}/"


def _skip(world: dict[str, Any]) -> None:
    entry_skip(entry=entry(world, 1), round_number=2, by=Actor.command())


def _two_apart(world: dict[str, Any]) -> dict[str, Any]:
    table = triple(world)
    mover = table.seats.order_by("position").first().entry_id
    other = Table.objects.filter(round=table.round, is_bye=False).exclude(pk=table.pk).get()
    return {"moves": [{"entry": mover, "to": other.number}], "override_reason": "a test"}


WRITES: dict[str, Write] = {
    "correct an entry": (
        "patch",
        lambda w: f"{BASE}/entries/{entry(w, 1).pk}/",
        lambda w: {"rating": 1750},
        _nothing,
        200,
    ),
    "remove an entry": (
        "delete",
        lambda w: f"{BASE}/entries/{Entry.objects.get(player__name='Late').pk}/",
        lambda w: {},
        late_entry,
        204,
    ),
    "announce a requested bye": (
        "put",
        lambda w: f"{BASE}/entries/{entry(w, 1).pk}/skips/2/",
        lambda w: {"bye": True},
        _nothing,
        200,
    ),
    "take back a skip": (
        "delete",
        lambda w: f"{BASE}/entries/{entry(w, 1).pk}/skips/2/",
        lambda w: {},
        _skip,
        200,
    ),
    "seed by rating": ("post", lambda w: f"{BASE}/entries/reseed/", lambda w: {}, _nothing, 200),
    "check in everyone": (
        "post",
        lambda w: f"{BASE}/entries/check-in-everyone/",
        lambda w: {},
        _nothing,
        200,
    ),
    "late entry with its own score": (
        "post",
        lambda w: f"{BASE}/entries/",
        lambda w: {"name": "Latecomer", "missed_round_score": "7.5"},
        _nothing,
        201,
    ),
    "forbid a pair": (
        "post",
        lambda w: f"{BASE}/forbidden-pairs/",
        lambda w: {"first": entry(w, 1).pk, "second": entry(w, 2).pk, "reason": "siblings"},
        _nothing,
        201,
    ),
    "allow a pair again": ("delete", _forbidden_url, lambda w: {}, _forbidden, 204),
    "plan more rounds": (
        "post",
        lambda w: f"{BASE}/add-rounds/",
        lambda w: {"count": 2},
        _nothing,
        200,
    ),
    "rearrange the pairing": (
        "post",
        lambda w: f"{BASE}/rounds/1/rearrange/",
        _two_apart,
        _nothing,
        200,
    ),
    "split a table": (
        "post",
        lambda w: f"{BASE}/rounds/1/split/",
        lambda w: {"table": triple(w).number, "override_reason": "a test"},
        _nothing,
        200,
    ),
    "accept a report": ("post", _submission_url, lambda w: {}, _publish_with_report, 200),
}


@pytest.mark.parametrize("name", sorted(WRITES))
@pytest.mark.parametrize("who", ["anonymous", "other", "director"])
def test_only_the_tournaments_directors_may(world, name, who):
    method, url, body, prepare, success = WRITES[name]
    prepare(world)
    before = fingerprint()
    user = {"anonymous": None, "other": world["other"], "director": world["director"]}[who]
    response = getattr(client(user), method)(url(world), body(world), format="json")
    if who == "director":
        assert response.status_code == success, response.content
        assert fingerprint() != before
        return
    # Without a login DRF answers 403 too (the session comes first): the code says why.
    assert response.status_code == 403, response.content
    code = "not_authenticated" if who == "anonymous" else "permission_denied"
    assert error_of(response)["code"] == code
    assert fingerprint() == before


@pytest.mark.parametrize("path", ["forbidden-pairs/", "submissions/"])
def test_forbidden_pairs_and_reports_are_read_by_the_directors_only(world, path):
    _forbidden(world)
    anonymous = client().get(f"{BASE}/{path}")
    assert anonymous.status_code == 403 and error_of(anonymous)["code"] == "not_authenticated"
    refused = client(world["other"]).get(f"{BASE}/{path}")
    assert refused.status_code == 403 and error_of(refused)["code"] == "permission_denied"
    assert client(world["director"]).get(f"{BASE}/{path}").status_code == 200


def test_the_edit_check_is_the_directors_and_saves_nothing(world):
    body = _two_apart(world)
    before = fingerprint()
    assert (
        client(world["other"]).post(f"{BASE}/rounds/1/edit-check/", body, format="json").status_code
        == 403
    )
    response = client(world["director"]).post(f"{BASE}/rounds/1/edit-check/", body, format="json")
    assert response.status_code == 200, response.content
    assert set(response.json()) == {"current", "after", "created"}
    assert fingerprint() == before


# --- what each does ---------------------------------------------------------------------


def test_forbidden_pairs_listed_added_refused_and_removed(world):
    api = client(world["director"])
    first, second = entry(world, 1), entry(world, 2)
    response = api.post(
        f"{BASE}/forbidden-pairs/",
        {"first": first.pk, "second": second.pk, "reason": "siblings"},
        format="json",
    )
    assert response.status_code == 201
    pair = response.json()
    assert pair == {"id": pair["id"], "first": first.pk, "second": second.pk, "reason": "siblings"}
    assert api.get(f"{BASE}/forbidden-pairs/").json()["results"] == [pair]
    assert AuditEntry.objects.filter(action="forbid pair").exists()
    before = fingerprint()
    same = api.post(
        f"{BASE}/forbidden-pairs/", {"first": first.pk, "second": first.pk}, format="json"
    )
    assert same.status_code == 400 and error_of(same)["field"] == "second"
    stranger = Entry.objects.get(tournament__slug="elsewhere", seed=1)
    other = api.post(
        f"{BASE}/forbidden-pairs/", {"first": stranger.pk, "second": second.pk}, format="json"
    )
    assert other.status_code == 400 and error_of(other)["field"] == "first"
    missing = api.post(f"{BASE}/forbidden-pairs/", {"second": second.pk}, format="json")
    assert missing.status_code == 400 and error_of(missing)["field"] == "first"
    assert fingerprint() == before
    assert api.delete(f"{BASE}/forbidden-pairs/{pair['id']}/").status_code == 204
    assert not ForbiddenPair.objects.exists()


def test_a_forbidden_pair_is_kept_apart_at_the_next_pairing(world):
    """From the API as from the page: the pairing the service makes respects it."""
    api = client(world["director"])
    round_ = world["tournament"].rounds.get(number=1)
    together = [list(t.seats.values_list("entry_id", flat=True)) for t in round_.tables.all()]
    first, second = next(seats for seats in together if len(seats) >= 2)[:2]
    api.post(f"{BASE}/forbidden-pairs/", {"first": first, "second": second}, format="json")
    assert api.post(f"{BASE}/rounds/1/repair/").status_code == 200
    for table in Table.objects.filter(round__tournament=world["tournament"]):
        assert not {first, second} <= set(table.seats.values_list("entry_id", flat=True))


def test_a_late_entrant_gets_her_own_missed_round_score_and_can_correct_it(world):
    api = client(world["director"])
    response = api.post(
        f"{BASE}/entries/", {"name": "Latecomer", "missed_round_score": "7.5"}, format="json"
    )
    assert response.status_code == 201
    late = response.json()
    assert late["status"] == "late" and late["joined_round"] == 2
    assert late["missed_round_score"] == "7.50"
    corrected = api.patch(
        f"{BASE}/entries/{late['id']}/", {"missed_round_score": "9", "rating": 1600}, format="json"
    )
    assert corrected.status_code == 200
    assert corrected.json()["missed_round_score"] == "9.00" and corrected.json()["rating"] == 1600
    assert Entry.objects.get(pk=late["id"]).missed_round_score == Decimal("9.00")
    before = fingerprint()
    for body, field in [
        ({"missed_round_score": "5000"}, "missed_round_score"),
        ({"missed_round_score": "a lot"}, "missed_round_score"),
        ({"rating": "strong"}, "rating"),
        ({"name": ""}, "name"),
    ]:
        refused = api.patch(f"{BASE}/entries/{late['id']}/", body, format="json")
        assert refused.status_code == 400, (body, refused.content)
        assert error_of(refused)["field"] == field, body
    # An entry from round 1 missed no round: the service refuses, naming the field.
    early = api.patch(
        f"{BASE}/entries/{entry(world, 1).pk}/", {"missed_round_score": "3"}, format="json"
    )
    assert early.status_code == 400 and error_of(early)["field"] == "missed_round_score"
    bad = api.post(f"{BASE}/entries/", {"name": "X", "missed_round_score": "1e9"}, format="json")
    assert bad.status_code == 400 and error_of(bad)["field"] == "missed_round_score"
    assert fingerprint() == before


def test_requested_byes_and_skips_announced_and_taken_back(world):
    api = client(world["director"])
    anna = entry(world, 1)
    url = f"{BASE}/entries/{anna.pk}/skips/"
    response = api.put(f"{url}2/", {"bye": True}, format="json")
    assert response.status_code == 200
    assert response.json()["skips"] == [{"round_number": 2, "bye": True}]
    response = api.put(f"{url}3/", {}, format="json")
    assert response.json()["skips"] == [
        {"round_number": 2, "bye": True},
        {"round_number": 3, "bye": False},
    ]
    listed = api.get(f"{BASE}/entries/").json()["results"]
    assert next(e for e in listed if e["id"] == anna.pk)["skips"] == response.json()["skips"]
    before = fingerprint()
    for number, status, field in [
        (1, 409, "round_number"),  # paired already
        (4, 400, "round_number"),  # only 3 rounds planned
        (0, 400, "round_number"),
        (100, 400, "round_number"),
    ]:
        refused = api.put(f"{url}{number}/", {"bye": True}, format="json")
        assert refused.status_code == status, (number, refused.content)
        assert error_of(refused)["field"] == field
    not_a_bool = api.put(f"{url}2/", {"bye": "perhaps"}, format="json")
    assert not_a_bool.status_code == 400 and error_of(not_a_bool)["field"] == "bye"
    assert fingerprint() == before
    response = api.delete(f"{url}3/")
    assert response.status_code == 200
    assert response.json()["skips"] == [{"round_number": 2, "bye": True}]
    assert list(Skip.objects.values_list("round_number", "bye")) == [(2, True)]


def test_seeding_by_rating_and_checking_in_everyone(world):
    api = client(world["director"])
    for seed, rating in [(1, 1200), (2, None), (3, 1900), (4, 1500), (5, None)]:
        entry_update(entry=entry(world, seed), rating=rating, by=Actor.command())
    names = {e.seed: e.player.name for e in world["tournament"].entries.select_related("player")}
    response = api.post(f"{BASE}/entries/reseed/")
    assert response.status_code == 200
    body = response.json()
    assert body["unrated"] == 2
    assert [e["player"] for e in body["entries"]] == [
        names[3],
        names[4],
        names[1],
        names[2],
        names[5],
    ]
    assert [e["seed"] for e in body["entries"]] == [1, 2, 3, 4, 5]
    response = api.post(f"{BASE}/entries/check-in-everyone/")
    assert response.status_code == 200 and response.json() == {"checked_in": 5}
    assert not world["tournament"].entries.filter(checked_in=False).exists()


def test_removing_an_entry_who_played_is_refused_and_changes_nothing(world):
    api = client(world["director"])
    before = fingerprint()
    refused = api.delete(f"{BASE}/entries/{entry(world, 1).pk}/")
    assert refused.status_code == 409 and error_of(refused)["field"] == "entry"
    assert fingerprint() == before
    late = late_entry(world)
    assert api.delete(f"{BASE}/entries/{late.pk}/").status_code == 204
    assert not Entry.objects.filter(pk=late.pk).exists()


def test_planning_more_rounds(world):
    api = client(world["director"])
    response = api.post(f"{BASE}/add-rounds/", {"count": 2}, format="json")
    assert response.status_code == 200 and response.json()["rounds_planned"] == 5
    before = fingerprint()
    for count in (0, 21, "many"):
        refused = api.post(f"{BASE}/add-rounds/", {"count": count}, format="json")
        assert refused.status_code == 400 and error_of(refused)["field"] == "count"
    assert fingerprint() == before


def test_the_pairing_editor_save_split_and_check(world):
    api = client(world["director"])
    table = triple(world)
    ranked = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    check = api.post(f"{BASE}/rounds/1/edit-check/", {"moves": []}, format="json")
    assert check.status_code == 200 and check.json()["created"] == []
    response = api.post(
        f"{BASE}/rounds/1/split/", {"table": table.number, "override_reason": "test"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["round"]["status"] == "paired"
    tables = Table.objects.filter(round__tournament=world["tournament"])
    assert max(t.seats.count() for t in tables) == 2 and tables.filter(is_bye=True).count() == 1
    bye = Seat.objects.get(table__round__number=1, table__is_bye=True).entry_id
    partner = next(
        t
        for t in tables
        if not t.is_bye and set(t.seats.values_list("entry_id", flat=True)) & set(ranked)
    )
    response = api.post(
        f"{BASE}/rounds/1/rearrange/",
        {"moves": [{"entry": bye, "to": partner.number}], "override_reason": "test"},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert Seat.objects.filter(table__round__number=1, table__is_bye=True).count() == 0
    assert set(response.json()) == {"round", "current", "after", "created"}


def test_pairing_editor_refusals_name_the_field_and_save_nothing(world):
    api = client(world["director"])
    two = next(t for t in Table.objects.filter(round__number=1) if t.seats.count() == 2)
    mover = _two_apart(world)["moves"][0]
    before = fingerprint()
    cases = [
        ({"moves": [{"entry": mover["entry"], "to": "somewhere"}]}, "moves.0.to"),
        ({"moves": [{"entry": 10**6, "to": "bye"}]}, "moves.0.entry"),
        ({"moves": []}, "moves"),
        ({"moves": [{"entry": mover["entry"], "to": 99}]}, "table"),
        # A bye under "pairs+triple" is a warning: refused without a reason.
        ({"moves": [{"entry": mover["entry"], "to": "bye"}]}, "override_reason"),
    ]
    for body, field in cases:
        refused = api.post(f"{BASE}/rounds/1/rearrange/", body, format="json")
        assert refused.status_code == 400, (body, refused.content)
        assert error_of(refused)["field"] == field, (body, refused.json())
    warned = api.post(f"{BASE}/rounds/1/rearrange/", cases[-1][0], format="json").json()
    assert warned["warnings"]
    refused = api.post(f"{BASE}/rounds/1/split/", {"table": two.number}, format="json")
    assert refused.status_code == 400 and error_of(refused)["field"] == "table"
    assert fingerprint() == before
    round_publish(round=world["tournament"].rounds.get(number=1), by=Actor.command())
    published = fingerprint()
    refused = api.post(f"{BASE}/rounds/1/rearrange/", {**_two_apart(world)}, format="json")
    assert refused.status_code == 409
    assert fingerprint() == published


def test_accepting_a_players_report(world):
    _publish_with_report(world)
    api = client(world["director"])
    listed = api.get(f"{BASE}/submissions/?state=reported").json()["results"]
    (report,) = listed
    assert report["position"] == 1 and report["round"] == 1 and report["player"]
    game = Game.objects.get(pk=report["game"])
    before = fingerprint()
    stale = api.post(
        f"{BASE}/submissions/{report['id']}/accept/", {"version": game.version + 5}, format="json"
    )
    assert stale.status_code == 409 and error_of(stale)["field"] == "version"
    assert fingerprint() == before
    accepted = api.post(
        f"{BASE}/submissions/{report['id']}/accept/", {"version": game.version}, format="json"
    )
    assert accepted.status_code == 200 and accepted.json()["confirmed"] is True
    again = api.post(f"{BASE}/submissions/{report['id']}/accept/", {}, format="json")
    assert again.status_code == 409


def test_closing_and_reopening_an_evening(world):
    director = world["director"]
    evening = TournamentFactory(
        kind=Tournament.Kind.EVENING, slug="thursday", club=world["tournament"].club
    )
    evening.directors.add(director)
    for name in ("Anna", "Bert"):
        entry_add(tournament=evening, name=name, by=Actor.command())
    entries_check_in_all(tournament=evening, by=Actor.command())
    round_ = round_pair_next(tournament=evening, by=Actor.command())
    api = client(director)
    refused = api.post("/api/v1/tournaments/thursday/close-evening/")
    assert refused.status_code == 409  # the round is not closed
    round_publish(round=round_, by=Actor.command())
    round_close(round=round_, by=Actor.command(), force=True)
    assert (
        client(world["other"]).post("/api/v1/tournaments/thursday/close-evening/").status_code
        == 403
    )
    closed = api.post("/api/v1/tournaments/thursday/close-evening/")
    assert closed.status_code == 200 and closed.json()["status"] == "finished"
    reopened = api.post("/api/v1/tournaments/thursday/reopen-evening/")
    assert reopened.status_code == 200 and reopened.json()["status"] == "running"
    assert api.post("/api/v1/tournaments/thursday/reopen-evening/").status_code == 409
    not_an_evening = api.post(f"{BASE}/close-evening/")
    assert not_an_evening.status_code == 400
    evening_close(tournament=evening, by=Actor.command())


def test_importing_a_tournament_into_a_club(world):
    director, club = world["director"], world["tournament"].club
    document = tournament_export_document(tournament=world["tournament"])
    document["tournament"]["slug"] = "cup-copy"
    url = f"/api/v1/clubs/{club.slug}/import/"
    body = {"document": document, "players_by_name": True}
    assert client(director).post(url, body, format="json").status_code == 403  # no organiser
    assert client().post(url, body, format="json").status_code == 403
    club.organisers.add(director)
    before = Tournament.objects.count()
    garbage = client(director).post(url, {"document": {"entries": 3}}, format="json")
    assert garbage.status_code == 400 and error_of(garbage)["field"] == "document"
    assert Tournament.objects.count() == before
    response = client(director).post(url, body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["slug"] == "cup-copy"
    copy = Tournament.objects.get(slug="cup-copy")
    assert copy.club_id == club.pk and copy.entries.count() == 5


def test_teams_pasted_and_formed_from_entries(world):
    director = world["director"]
    event = TournamentFactory(
        kind=Tournament.Kind.TEAMS, slug="pairs", club=world["tournament"].club
    )
    event.directors.add(director)
    api = client(director)
    url = "/api/v1/tournaments/pairs/teams/"
    before = fingerprint()
    bad = api.post(f"{url}paste/", {"teams": "Stars: Ann + Bea\nMoons: Cid"}, format="json")
    assert bad.status_code == 400 and error_of(bad)["field"] == "teams"
    assert "line 2" in error_of(bad)["message"]
    assert fingerprint() == before  # all or nothing: Stars is not entered either
    assert (
        client(world["other"])
        .post(f"{url}paste/", {"teams": "Stars: Ann + Bea"}, format="json")
        .status_code
        == 403
    )
    pasted = api.post(
        f"{url}paste/", {"teams": "Stars: Ann + Bea\nMoons: Cid + Dan"}, format="json"
    )
    assert pasted.status_code == 201, pasted.content
    assert [t["name"] for t in pasted.json()] == ["Stars", "Moons"]
    eve = entry_add(tournament=event, name="Eve", by=Actor.command())
    fay = entry_add(tournament=event, name="Fay", by=Actor.command())
    taken = event.entries.get(player__name="Ann")
    refused = api.post(
        f"{url}from-entries/", {"name": "Suns", "first": eve.pk, "second": taken.pk}, format="json"
    )
    assert refused.status_code == 409 and error_of(refused)["field"] == "second"
    formed = api.post(
        f"{url}from-entries/", {"name": "Suns", "first": eve.pk, "second": fay.pk}, format="json"
    )
    assert formed.status_code == 201
    assert [p["player"] for p in formed.json()["players"]] == ["Eve", "Fay"]
    missing = api.post(f"{url}from-entries/", {"name": "Nobody", "first": eve.pk}, format="json")
    assert missing.status_code == 400 and error_of(missing)["field"] == "second"


def test_clearing_a_flagged_tables_flag(world):
    """The results screen's "looked at it" for a table whose ply another device sent was
    refused: the API's `DELETE /games/{id}/flag/`, the same service."""
    round_ = world["tournament"].rounds.get(number=1)
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).order_by("pk").first()
    # Flagged the way a table is: one device recorded ply 1, another sent a different one.
    first, second = Seat.objects.filter(table=game.table).order_by("position")[:2]
    game_result_record(
        game=game, entry=ResultEntry(ply=PlyEntry(1, "pass", key="a")), by=Actor.player(first)
    )
    with pytest.raises(ConflictError):
        game_result_record(
            game=game, entry=ResultEntry(ply=PlyEntry(1, "W-W1B", key="b")), by=Actor.player(second)
        )
    game.refresh_from_db()
    url = f"/api/v1/games/{game.pk}/flag/"
    before = fingerprint()
    refused = client(world["other"]).delete(url)
    assert refused.status_code == 403 and error_of(refused)["code"] == "permission_denied"
    assert fingerprint() == before
    assert PlyConflict.objects.get().cleared_at is None
    response = client(world["director"]).delete(url)
    assert response.status_code == 200, response.content
    assert response.json()["version"] == game.version + 1
    assert PlyConflict.objects.get().cleared_at is not None
