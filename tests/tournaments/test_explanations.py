"""A round's explanations and the standings' tie-break explanations through the site
(issue 46, part 2; docs/pairing.md "Explanations", docs/standings.md "Tie-break
explanations"): the API's fields, the pages, the editor's warnings told, and the
selector's fixed number of queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.rows import why_json
from tournaments.desk.selectors.explanations import round_why
from tournaments.desk.services.pairing_edit import round_edit_preview, round_seats_rearrange
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Round, Seat, Tournament
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.django_db
COMMAND = Actor.command()


def play(tournament: Tournament, rounds: int, *, close_last: bool = True) -> Round:
    """Pair, publish and play ``rounds`` rounds (seat 1 wins 3:1, at three seats 3:1:2)."""
    round_ = None
    for i in range(rounds):
        round_ = round_pair_next(tournament=tournament, by=COMMAND)
        round_publish(round=round_, by=COMMAND)
        for game in Game.objects.filter(table__round=round_).select_related("table"):
            game_record_out(by=COMMAND, game=game, out=[3, 1, 2][: game.table.seats.count()])
        if close_last or i < rounds - 1:
            round_close(round=round_, by=COMMAND)
    return round_


def test_the_api_explains_each_table_of_a_published_round():
    tournament = tournament_with_players(7, rounds_planned=3, published=True)
    play(tournament, 1)
    second = round_pair_next(tournament=tournament, by=COMMAND)
    round_publish(round=second, by=COMMAND)
    url = f"/api/v1/tournaments/{tournament.slug}/rounds/2/explanations/"
    body = APIClient().get(url).json()
    assert body["method"] == "book" and body["policy"] == "pairs+triple"
    tables = body["tables"]
    numbers = sorted(second.tables.values_list("number", flat=True))
    assert [t["table"] for t in tables] == numbers
    seated = {
        s.entry_id: s.table.number
        for s in Seat.objects.filter(round=second).select_related("table")
    }
    for table in tables:
        assert {p["player"] for p in table["players"]} == {
            str(e) for e, n in seated.items() if n == table["table"]
        }
        assert table["texts"][0].startswith("Score groups:")
        for p in table["players"]:
            assert set(p) == {"player", "score", "rank", "group"}
    # Seven players: one 3-player table, the book's own (no warning against it).
    (triple,) = [t for t in tables if len(t["players"]) == 3]
    assert triple["special"]["why"] == "book" and triple["special"]["size"] == 3
    assert any("an odd number, so one table seats three" in text for text in triple["texts"])
    assert not [w for t in tables for w in t["warnings"] if w["kind"].startswith("special")]
    # The score groups: the scores after round 1, the top first.
    assert [g["score"] for g in body["groups"]] == sorted(
        (g["score"] for g in body["groups"]), reverse=True
    )
    assert sum(g["players"] for g in body["groups"]) == 7


def test_an_unpublished_round_is_explained_to_its_director_only():
    tournament = tournament_with_players(4, rounds_planned=2, published=True)
    round_pair_next(tournament=tournament, by=COMMAND)
    url = f"/api/v1/tournaments/{tournament.slug}/rounds/1/explanations/"
    assert APIClient().get(url).status_code == 404
    director = UserFactory()
    tournament.directors.add(director)
    client = APIClient()
    client.force_authenticate(director)
    assert client.get(url).status_code == 200


def test_a_club_evening_is_not_explained():
    tournament = tournament_with_players(4, kind=Tournament.Kind.EVENING, published=True)
    entries = tournament.entries.all()
    entries.update(checked_in=True)
    round_ = round_pair_next(tournament=tournament, by=COMMAND)
    round_publish(round=round_, by=COMMAND)
    assert round_why(round_) is None
    url = f"/api/v1/tournaments/{tournament.slug}/rounds/1/explanations/"
    response = APIClient().get(url)
    assert response.status_code == 404
    assert "model" not in response.content.decode().lower()


def test_every_warning_of_the_editor_is_told_by_the_explanations():
    # Round 2 paired, then changed by hand into a rematch of round 1: the editor's own
    # warnings for the round as it stands are each told at a table.
    tournament = tournament_with_players(6, rounds_planned=3, published=True)
    first = play(tournament, 1)
    second = round_pair_next(tournament=tournament, by=COMMAND)
    seat = Seat.objects.filter(round=first, table__number=1).select_related("entry")
    a, b = (s.entry for s in seat.order_by("position"))
    b_table = Seat.objects.get(round=second, entry=b).table.number
    round_seats_rearrange(
        round=second, moves=[(a, b_table)], override_reason="they asked", by=COMMAND
    )
    editor = round_edit_preview(round=second, moves=[]).current
    assert editor, "the hand-made rematch is a warning of the editor"
    why = round_why(second)
    told = [text for table in why_json(why)["tables"] for text in table["texts"]]
    for warning in editor:
        assert any(warning in text for text in told), warning
    # ... and the explanations tell no warning of their own.
    notes = [t for t in told if t.startswith("The pairing's check notes:")]
    assert len(notes) == sum(len(t.warnings) for t in why.explanation.tables) and {
        n.removeprefix("The pairing's check notes: ").rstrip(".") for n in notes
    } <= set(editor)


def test_the_selector_reads_a_fixed_number_of_queries():
    counts = []
    for n in (5, 23):
        tournament = tournament_with_players(n, rounds_planned=3)
        round_ = play(tournament, 3, close_last=False)
        with CaptureQueriesContext(connection) as queries:
            why = round_why(Round.objects.select_related("tournament").get(pk=round_.pk))
        assert why is not None and sum(len(t.players) for t in why.explanation.tables) == n
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_round_page_opens_a_why_and_the_players_page_her_tables():
    tournament = tournament_with_players(5, rounds_planned=3, published=True)
    round_ = play(tournament, 2, close_last=False)
    page = APIClient().get(reverse("round-detail", args=[tournament.slug, 2])).content.decode()
    tables = round_.tables.count()
    assert page.count('<details class="why no-print"><summary>why?') == tables
    assert "Score groups:" in page
    entry = Seat.objects.filter(round=round_).first().entry
    page = APIClient().get(reverse("entry-detail", args=[tournament.slug, entry.pk]))
    text = page.content.decode()
    assert "Why this table in round 2?" in text
    assert "Score groups:" in text


def test_the_standings_api_says_what_separates_each_row():
    tournament = tournament_with_players(4, rounds_planned=2, published=True)
    play(tournament, 1)
    body = APIClient().get(f"/api/v1/tournaments/{tournament.slug}/standings/").json()
    rows = body["rows"]
    assert body["tiebreak_keys"][0] == "opponents"
    assert rows[0]["separated"]["above"] is None
    assert rows[-1]["separated"]["below"] is None
    for upper, lower in zip(rows, rows[1:], strict=False):
        found = upper["separated"]["below"]
        assert found == lower["separated"]["above"] or found["player"] == lower["player"]
        assert found["player"] == lower["player"]
        if found["by"] == "score":
            assert found["gap"] == pytest.approx(upper["score"] - lower["score"])
        elif found["by"] is None:
            assert upper["rank"] == lower["rank"]
        else:
            i = body["tiebreak_keys"].index(found["by"])
            assert upper["score"] == lower["score"]
            assert found["gap"] == pytest.approx(upper["tiebreaks"][i] - lower["tiebreaks"][i])
    # Two 2-player tables, seat 1 winning 3:1: the winners level on points, as the losers.
    assert rows[0]["score"] == rows[1]["score"]
    assert rows[0]["separated"]["below"]["by"] != "score"
    page = APIClient().get(reverse("tournament-standings", args=[tournament.slug])).content.decode()
    assert 'class="tiebreak-note"' in page
