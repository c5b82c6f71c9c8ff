"""The pre-round (issue 26, item 1): the book begins a Swiss "with some prior ranking,
typically the result of the previous tournament, or a pre-round" (section 21). Round 1
is paired by rating or by a draw anyone can replay, its result orders the Swiss proper,
and the organiser says whether its scores count. The examples of docs/pairing.md
("Pre-round") through the pages and the API, each number as the page computes it."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import ClubFactory, TournamentFactory, UserFactory
from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.desk.services.entries import entry_add
from tournaments.desk.services.pairing_edit import round_edit_preview
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.tournaments import tournament_create, tournament_update
from tournaments.models import AuditEntry, Club, Game, Round, Seat, Tournament
from tournaments.pairing.pre_round import Entrant, drawn_order
from tournaments.results.services.results import game_record_out
from tournaments.standings.selectors.crosstable import tournament_crosstable
from tournaments.standings.selectors.standings import tournament_standings
from tournaments.transfer.services import tournament_export_document, tournament_import_document

pytestmark = pytest.mark.django_db
BY = Actor.command()

# docs/pairing.md, "Example: six players, by rating": entered in seed order.
SIX = [
    ("Anna", 1500),
    ("Ben", 1720),
    ("Cleo", None),
    ("Dora", 1610),
    ("Emil", 1720),
    ("Finn", 1400),
]
PRE_ROUND = [("Ben", "Emil"), ("Dora", "Anna"), ("Finn", "Cleo")]
# Pieces out with seat 1 first, three games a table (the example's table).
RESULTS = {
    ("Ben", "Emil"): ["3 1", "1 3", "3 2"],
    ("Dora", "Anna"): ["1 3", "3 1", "2 3"],
    ("Finn", "Cleo"): ["3 0", "3 0", "0 3"],
}
SCORES = {"Finn": 24.0, "Ben": 20.0, "Anna": 20.0, "Emil": 16.0, "Dora": 16.0, "Cleo": 12.0}
ORDER = ["Finn", "Ben", "Anna", "Emil", "Dora", "Cleo"]
ROUND_2 = [("Finn", "Ben"), ("Anna", "Emil"), ("Dora", "Cleo")]
# Round 2 level everywhere, the pre-round not counting: round 3 by the pre-round's order.
ROUND_3 = [("Finn", "Anna"), ("Ben", "Dora"), ("Emil", "Cleo")]
# "Example: the same six at random, draw 2026".
DRAWN = [("Anna", "Finn"), ("Dora", "Cleo"), ("Ben", "Emil")]


@pytest.fixture
def organiser():
    user = UserFactory(username="td")
    club = ClubFactory(name="Kiel", slug="kiel")
    club.organisers.add(user)
    return user


def six(organiser, **settings: object) -> Tournament:
    club = Club.objects.get(slug="kiel")
    tournament = TournamentFactory(club=club, slug="cup", name="Cup", **settings)
    tournament.directors.add(organiser)
    for name, rating in SIX:
        entry_add(tournament=tournament, name=name, rating=rating, by=BY)
    return tournament


def tables_of(tournament: Tournament, number: int) -> list[tuple[str, ...]]:
    """The round's tables by number, each its players by seat position."""
    seats: dict[int, list[str]] = {}
    for table, name in (
        Seat.objects.filter(round__tournament=tournament, round__number=number, table__is_bye=False)
        .order_by("table__number", "position")
        .values_list("table__number", "entry__player__name")
    ):
        seats.setdefault(table, []).append(name)
    return [tuple(seats[n]) for n in sorted(seats)]


def pairs(tables: list[tuple[str, ...]]) -> list[set[str]]:
    """Tables as sets: after round 1 who moves first also balances the first moves."""
    return [set(t) for t in tables]


def games_of(tournament: Tournament, number: int) -> list[tuple[tuple[str, ...], list[Game]]]:
    out = []
    for table in Round.objects.get(tournament=tournament, number=number).tables.order_by("number"):
        names = tuple(
            table.seats.order_by("position").values_list("entry__player__name", flat=True)
        )
        out.append((names, list(table.games.order_by("number"))))
    return out


def play_pre_round(tournament: Tournament) -> None:
    """The example's results, through the service (the page and API tests enter theirs
    through the page and the API)."""
    round_ = Round.objects.get(tournament=tournament, number=1)
    round_publish(round=round_, by=BY)
    for names, games in games_of(tournament, 1):
        for game, text in zip(games, RESULTS[names], strict=True):
            game_record_out(game=game, out=[int(n) for n in text.split()], by=BY)
    round_close(round=round_, by=BY)


def scores(tournament: Tournament) -> dict[str, float]:
    return {row.name: row.score for row in tournament_standings(tournament=tournament).rows}


# --- the pages -------------------------------------------------------------------------


def settings_form(tournament: Tournament, **changes: object) -> dict[str, object]:
    form: dict[str, object] = {
        "club": tournament.club_id,
        "name": tournament.name,
        "game": tournament.game,
        "kind": tournament.kind,
        "date": "",
        "rounds_planned": 5,
        "policy": tournament.policy,
        "games_per_turn_2": 3,
        "games_per_turn_3": 2,
        "factor_2": "2",
        "factor_3": "3",
        "target": 3,
        "bye_score": "",
        "absence_score": "0",
    }
    form.update(changes)
    return {k: v for k, v in form.items() if v is not None}


def test_the_settings_page_offers_both_settings_with_their_help_and_saves_them(organiser):
    tournament = six(organiser)
    page = Client()
    page.force_login(organiser)
    html = page.get("/t/cup/manage/settings/").content.decode()
    assert '<select name="pre_round"' in html and '<select name="pre_round_counts"' in html
    assert "its result gives the order for the rounds after it" in html
    assert 'value="random"' in html and "only give the order" in html
    response = page.post(
        "/t/cup/manage/settings/",
        settings_form(tournament, pre_round="random", pre_round_counts="False"),
    )
    assert response.status_code == 302, response.context["form"].errors
    tournament.refresh_from_db()
    assert (tournament.pre_round, tournament.pre_round_counts) == ("random", False)
    # A post without them (an older page, a script) keeps both.
    assert page.post("/t/cup/manage/settings/", settings_form(tournament)).status_code == 302
    tournament.refresh_from_db()
    assert (tournament.pre_round, tournament.pre_round_counts) == ("random", False)
    # A club evening has none: the form names the field.
    refused = page.post(
        "/t/cup/manage/settings/",
        settings_form(tournament, kind="evening", pre_round="random"),
    )
    assert refused.status_code == 200
    assert "only a Swiss tournament begins with a pre-round" in str(
        refused.context["form"].errors["pre_round"]
    )


def test_the_pages_pair_the_documented_pre_round_by_rating_and_round_2_by_its_result(organiser):
    tournament = six(organiser)
    page = Client()
    page.force_login(organiser)
    saved = page.post("/t/cup/manage/settings/", settings_form(tournament, pre_round="rating"))
    assert saved.status_code == 302, saved.context["form"].errors
    run = page.get("/t/cup/manage/").content.decode()
    assert "Pair the pre-round" in run
    assert page.post("/t/cup/manage/rounds/pair/").status_code == 302
    assert tables_of(tournament, 1) == PRE_ROUND
    assert "Pre-round (round 1):" in page.get("/t/cup/manage/").content.decode()
    round_page = page.get("/t/cup/rounds/1/").content.decode()
    assert "<h1>Pre-round (round 1)" in round_page
    assert "This is the pre-round, paired by rating" in round_page
    assert "Its scores count toward the standings." in round_page
    page.post(reverse("round-action", args=["cup", 1, "publish"]))
    for names, games in games_of(tournament, 1):
        for game, text in zip(games, RESULTS[names], strict=True):
            url = reverse("round-result-save", args=["cup", 1, game.pk])
            assert page.post(url, {"out": text, "version": game.version}).status_code == 302
    assert page.post(reverse("round-action", args=["cup", 1, "close"])).status_code == 302
    assert Round.objects.get(tournament=tournament, number=1).status == "closed"
    assert scores(tournament) == SCORES
    round_page = page.get("/t/cup/rounds/1/").content.decode()
    order = re.search(r'<ol class="pre-round-order"[^>]*>(.*?)</ol>', round_page, re.S)[1]
    assert re.findall(r"<li>([^<]*)</li>", order) == [
        f"{name}, {SCORES[name]:g} points" for name in ORDER
    ]
    detail = page.get("/t/cup/").content.decode()
    assert ">Pre-round</a>" in detail
    assert page.post("/t/cup/manage/rounds/pair/").status_code == 302
    assert pairs(tables_of(tournament, 2)) == pairs(ROUND_2)
    assert "Round 2 (turn)" in page.get("/t/cup/rounds/2/").content.decode()


def test_the_pages_show_a_draw_that_replays_to_its_tables(organiser):
    tournament = six(organiser, pre_round="random")
    page = Client()
    page.force_login(organiser)
    page.post("/t/cup/manage/rounds/pair/")
    record = AuditEntry.objects.get(tournament=tournament, action="pair").after["pre_round"]
    assert record["by"] == "random" and 0 <= record["draw"] < 1_000_000
    entrants = [Entrant(str(e.pk), e.seed, e.rating) for e in tournament.entries.all()]
    assert record["order"] == drawn_order(entrants, record["draw"])
    names = dict(tournament.entries.values_list("pk", "player__name"))
    order = [names[int(pk)] for pk in record["order"]]
    assert tables_of(tournament, 1) == [tuple(order[i : i + 2]) for i in range(0, 6, 2)]
    round_page = page.get("/t/cup/rounds/1/").content.decode()
    assert f"paired at random by draw number {record['draw']}" in round_page


def test_the_run_page_takes_the_organisers_draw_number_and_seats_the_documented_draw(organiser):
    tournament = six(organiser, pre_round="random")
    page = Client()
    page.force_login(organiser)
    run = page.get("/t/cup/manage/").content.decode()
    assert 'name="draw"' in run and "Draw number (optional)" in run
    page.post("/t/cup/manage/rounds/pair/", {"draw": " 2026 "})
    assert tables_of(tournament, 1) == DRAWN
    record = AuditEntry.objects.get(tournament=tournament, action="pair").after["pre_round"]
    assert record["draw"] == 2026
    # Paired: the field is gone with the button it belonged to.
    assert 'name="draw"' not in page.get("/t/cup/manage/").content.decode()


@pytest.mark.parametrize("typed", ["two", "-1", "1000000000", "１２"])
def test_the_run_page_refuses_a_draw_that_is_no_number_and_pairs_nothing(organiser, typed):
    tournament = six(organiser, pre_round="random")
    page = Client()
    page.force_login(organiser)
    answer = page.post("/t/cup/manage/rounds/pair/", {"draw": typed}, follow=True)
    assert "a draw is a whole number from 0 to 999999999" in answer.content.decode()
    assert not tournament.rounds.exists()


def test_a_pre_round_by_rating_offers_no_draw_field(organiser):
    six(organiser, pre_round="rating")
    page = Client()
    page.force_login(organiser)
    assert 'name="draw"' not in page.get("/t/cup/manage/").content.decode()


def test_the_wall_list_projectors_and_sheets_call_round_1_the_pre_round(organiser):
    tournament = six(organiser, pre_round="rating")
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    page = Client()
    page.force_login(organiser)
    assert "Pre-round: find your table" in page.get("/t/cup/rounds/1/wall/").content.decode()
    assert "Pre-round: tables" in page.get("/t/cup/projector/").content.decode()
    sheets = page.get("/t/cup/rounds/1/sheets/").content.decode()
    assert "Pre-round: pairings" in sheets and "Round 1" not in sheets
    assert "Pre-round</a>" in page.get("/t/cup/").content.decode()


# --- the API ---------------------------------------------------------------------------


@pytest.fixture
def api(organiser) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(organiser)
    return client


def api_cup(api: APIClient, **settings: object) -> str:
    created = api.post(
        "/api/v1/tournaments/",
        {"club": "kiel", "name": "Cup", "kind": "swiss", **settings},
        format="json",
    )
    assert created.status_code == 201, created.json()
    for name, rating in SIX:
        added = api.post(
            "/api/v1/tournaments/cup/entries/", {"name": name, "rating": rating}, format="json"
        )
        assert added.status_code == 201, added.json()
    return "/api/v1/tournaments/cup"


def api_tables(api: APIClient, base: str, number: int) -> list[dict]:
    return [t for t in api.get(f"{base}/rounds/{number}/tables/").json() if not t["is_bye"]]


def names_of(tables: list[dict]) -> list[tuple[str, ...]]:
    return [tuple(seat["player"] for seat in t["seats"]) for t in tables]


def test_the_api_pairs_the_documented_pre_round_and_gives_its_order(api):
    base = api_cup(api, pre_round="rating")
    assert api.get(base + "/").json()["pre_round"] == "rating"
    assert api.get(base + "/").json()["pre_round_counts"] is True
    paired = api.post(f"{base}/rounds/", {}, format="json")
    assert paired.status_code == 201, paired.json()
    assert paired.json()["pre_round"] == {
        "by": "rating",
        "draw": None,
        "counts": True,
        "order": None,
    }
    tables = api_tables(api, base, 1)
    assert names_of(tables) == PRE_ROUND
    assert api.post(f"{base}/rounds/1/publish/").status_code == 200
    for table in tables:
        for game, text in zip(table["games"], RESULTS[names_of([table])[0]], strict=True):
            body = {"out": [int(n) for n in text.split()], "version": game["version"]}
            assert api.put(f"/api/v1/games/{game['id']}/", body, format="json").status_code == 200
    assert api.post(f"{base}/rounds/1/close/", {}, format="json").status_code == 200
    order = api.get(f"{base}/rounds/1/").json()["pre_round"]["order"]
    assert [(row["place"], row["player"], row["score"]) for row in order] == [
        (i, name, SCORES[name]) for i, name in enumerate(ORDER, start=1)
    ]
    assert api.get(f"{base}/rounds/").json()["results"][0]["pre_round"]["order"] == order
    standings = api.get(f"{base}/standings/").json()["rows"]
    assert {row["player"]: row["score"] for row in standings} == SCORES
    assert api.post(f"{base}/rounds/", {}, format="json").status_code == 201
    assert pairs(names_of(api_tables(api, base, 2))) == pairs(ROUND_2)
    assert api.get(f"{base}/rounds/2/").json()["pre_round"] is None


def test_the_api_takes_the_organisers_draw_and_the_documented_draw_seats_its_tables(api):
    base = api_cup(api, pre_round="random")
    paired = api.post(f"{base}/rounds/", {"draw": 2026}, format="json")
    assert paired.status_code == 201, paired.json()
    assert paired.json()["pre_round"]["draw"] == 2026
    assert names_of(api_tables(api, base, 1)) == DRAWN
    # Pairing again draws afresh, or by the number given; the audit keeps each.
    again = api.post(f"{base}/rounds/1/repair/", {"draw": 7}, format="json")
    assert again.status_code == 200 and again.json()["pre_round"]["draw"] == 7
    tournament = Tournament.objects.get(slug="cup")
    names = dict(tournament.entries.values_list("pk", "player__name"))
    seven = [names[int(pk)] for pk in drawn_order(entrants_of(tournament), 7)]
    assert names_of(api_tables(api, base, 1)) == [tuple(seven[i : i + 2]) for i in (0, 2, 4)]
    draws = [
        a.after["pre_round"]["draw"]
        for a in AuditEntry.objects.filter(
            tournament=tournament, action__in=["pair", "re-pair"]
        ).order_by("at", "id")
    ]
    assert draws == [2026, 7]


def entrants_of(tournament: Tournament) -> list[Entrant]:
    return [Entrant(str(e.pk), e.seed, e.rating) for e in tournament.entries.order_by("seed")]


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"draw": -1}, "range"),
        ({"draw": 10**9}, "range"),
        ({"draw": "two"}, "not a number"),
    ],
)
def test_the_api_refuses_a_draw_out_of_range_naming_the_field(api, body, why):
    base = api_cup(api, pre_round="random")
    refused = api.post(f"{base}/rounds/", body, format="json")
    assert refused.status_code == 400, why
    assert refused.json()["error"]["field"] == "draw"
    assert not Round.objects.filter(tournament__slug="cup").exists()


def test_a_draw_for_a_pre_round_by_rating_or_a_later_round_is_refused_naming_it(api):
    base = api_cup(api, pre_round="rating")
    refused = api.post(f"{base}/rounds/", {"draw": 5}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "draw"
    assert not Round.objects.filter(tournament__slug="cup").exists()


@pytest.mark.parametrize("kind", ["round_robin", "evening", "teams"])
def test_every_other_kind_refuses_a_pre_round_naming_the_field(api, organiser, kind):
    refused = api.post(
        "/api/v1/tournaments/",
        {"club": "kiel", "name": "League", "kind": kind, "pre_round": "rating"},
        format="json",
    )
    assert refused.status_code == 400, refused.json()
    assert refused.json()["error"]["field"] == "pre_round"
    assert not Tournament.objects.filter(name="League").exists()
    club = Club.objects.get(slug="kiel")
    with pytest.raises(ServiceError) as caught:
        tournament_create(
            club=club, name="League", kind=kind, pre_round="random", by=Actor.director(organiser)
        )
    assert caught.value.field == "pre_round"


def test_an_unknown_pre_round_is_refused_naming_the_field(api, organiser):
    base = api_cup(api)
    refused = api.patch(base + "/", {"pre_round": "coin"}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "pre_round"
    with pytest.raises(ServiceError) as caught:
        tournament_update(
            tournament=Tournament.objects.get(slug="cup"),
            pre_round="coin",
            by=Actor.director(organiser),
        )
    assert caught.value.field == "pre_round"


@pytest.mark.parametrize(
    "change", [{"pre_round": "random"}, {"pre_round": ""}, {"pre_round_counts": False}]
)
def test_both_settings_are_fixed_once_round_1_is_paired(api, organiser, change):
    base = api_cup(api, pre_round="rating")
    api.post(f"{base}/rounds/", {}, format="json")
    refused = api.patch(base + "/", {**change, "recompute": True}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["field"] == next(iter(change))
    tournament = Tournament.objects.get(slug="cup")
    assert (tournament.pre_round, tournament.pre_round_counts) == ("rating", True)
    with pytest.raises(ConflictError):
        tournament_update(tournament=tournament, by=Actor.director(organiser), **change)


# --- a pre-round that does not count --------------------------------------------------


def test_a_pre_round_that_does_not_count_leaves_the_standings_and_crosstable(organiser):
    tournament = six(organiser, pre_round="rating", pre_round_counts=False)
    round_pair_next(tournament=tournament, by=BY)
    play_pre_round(tournament)
    standings = tournament_standings(tournament=tournament)
    # Everyone ranked, on 0, none with a game counted; the order still comes from it.
    assert {r.name: (r.score, r.games, r.rounds) for r in standings.rows} == {
        name: (0.0, 0, 0) for name, _rating in SIX
    }
    assert standings.not_ranked == ()
    assert all(
        cell is None or not cell.played
        for line in tournament_crosstable(tournament=tournament).lines
        for cell in line.cells
    )
    round_2 = round_pair_next(tournament=tournament, by=BY)
    assert pairs(tables_of(tournament, 2)) == pairs(ROUND_2)
    round_publish(round=round_2, by=BY)
    # The turn ends before anyone plays: 0:0 unfinished, 18 points each, all level.
    round_close(round=round_2, by=BY, force=True)
    assert scores(tournament) == {name: 18.0 for name, _rating in SIX}
    crosstable = tournament_crosstable(tournament=tournament)
    met = {
        (line.standing.name, other.standing.name)
        for line in crosstable.lines
        for other, cell in zip(crosstable.lines, line.cells, strict=True)
        if cell is not None and cell.played
    }
    assert met == {pair for t in ROUND_2 for pair in (t, t[::-1])}
    # Level scores: the pre-round's order decides, and its meetings are no rematch.
    round_pair_next(tournament=tournament, by=BY)
    assert pairs(tables_of(tournament, 3)) == pairs(ROUND_3)


def test_the_pages_say_the_pre_round_does_not_count(organiser):
    tournament = six(organiser, pre_round="rating", pre_round_counts=False)
    round_pair_next(tournament=tournament, by=BY)
    play_pre_round(tournament)
    page = Client()
    assert (
        "The pre-round (round 1) does not count" in page.get("/t/cup/standings/").content.decode()
    )
    csv = page.get("/t/cup/standings/?format=csv").content.decode()
    assert all(line.split(",")[2] == "0.0" for line in csv.splitlines()[1:])
    assert (
        "Its scores do not count toward the standings"
        in page.get("/t/cup/rounds/1/").content.decode()
    )


def test_a_pre_round_that_counts_is_in_the_standings(organiser):
    tournament = six(organiser, pre_round="rating")
    round_pair_next(tournament=tournament, by=BY)
    play_pre_round(tournament)
    assert scores(tournament) == SCORES


# --- the pairing editor ranks as the pairing does --------------------------------------


def test_the_editor_finds_nothing_against_the_book_in_a_pre_round_as_paired(organiser):
    """Five players whose ratings run against their seeds: by rating the 3-player table
    goes to the three lowest rated, P03, P02 and P01. Ranked by the seeds instead, the
    editor would call that table higher than the book's (P03–P04–P05)."""
    club = Club.objects.get(slug="kiel")
    tournament = TournamentFactory(club=club, slug="five", pre_round="rating")
    for i in range(1, 6):
        entry_add(tournament=tournament, name=f"P{i:02d}", rating=1000 + 100 * i, by=BY)
    round_ = round_pair_next(tournament=tournament, by=BY)
    assert tables_of(tournament, 1) == [("P05", "P04"), ("P03", "P02", "P01")]
    assert round_edit_preview(round=round_, moves=[]).current == []


# --- export and import -----------------------------------------------------------------


def test_the_export_carries_both_settings_and_an_import_keeps_the_order(organiser):
    tournament = six(organiser, pre_round="random", pre_round_counts=False)
    round_pair_next(tournament=tournament, by=BY, draw=2026)
    play_pre_round_any(tournament)
    document = tournament_export_document(tournament=tournament)
    assert document["tournament"]["pre_round"] == "random"
    assert document["tournament"]["pre_round_counts"] is False
    document["tournament"]["slug"] = "cup-copy"
    other = ClubFactory(slug="elsewhere")
    other.organisers.add(organiser)
    copy = tournament_import_document(document=document, club=other, by=Actor.director(organiser))
    assert (copy.pre_round, copy.pre_round_counts) == ("random", False)
    assert scores(copy) == scores(tournament)
    round_pair_next(tournament=copy, by=BY)
    round_pair_next(tournament=tournament, by=BY)
    assert tables_of(copy, 2) == tables_of(tournament, 2)


def play_pre_round_any(tournament: Tournament) -> None:
    """Seat 1 wins each game 3:1 (any pairing)."""
    round_ = Round.objects.get(tournament=tournament, number=1)
    round_publish(round=round_, by=BY)
    for _names, games in games_of(tournament, 1):
        for game in games:
            game_record_out(game=game, out=[3, 1], by=BY)
    round_close(round=round_, by=BY)


def test_an_older_document_without_the_settings_imports_without_a_pre_round(organiser):
    tournament = six(organiser)
    document = tournament_export_document(tournament=tournament)
    del document["tournament"]["pre_round"], document["tournament"]["pre_round_counts"]
    document["tournament"]["slug"] = "old"
    copy = tournament_import_document(
        document=document, by=Actor.director(organiser), players_by_name=True
    )
    assert (copy.pre_round, copy.pre_round_counts) == ("", True)


def test_an_import_of_a_league_with_a_pre_round_is_refused_naming_it(organiser):
    tournament = six(organiser)
    document = tournament_export_document(tournament=tournament)
    document["tournament"].update(slug="bad", kind="round_robin", pre_round="rating")
    with pytest.raises(ServiceError) as caught:
        tournament_import_document(document=document, by=Actor.director(organiser))
    assert "tournament.pre_round" in caught.value.message
    assert not Tournament.objects.filter(slug="bad").exists()
