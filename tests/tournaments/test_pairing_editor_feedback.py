"""What the pairing editor tells the organiser about a change (issue 27, item 9): a
player her table-mates left alone gets the bye, and says so; a 3-player table or bye the
book's rule gives to others is "not the book's rule", with the reason; the rows whose
place differs from the pairing as proposed are marked, with what it proposed."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.selectors.proposal import round_proposal
from tournaments.desk.services.pairing_edit import (
    PairingWarningsError,
    round_edit_preview,
    round_seats_rearrange,
)
from tournaments.desk.services.rounds import (
    round_close,
    round_pair_next,
    round_publish,
    round_repair,
)
from tournaments.desk.services.tournaments import tournament_update
from tournaments.models import AuditEntry, Entry, Game, Round, Tournament
from tournaments.results.services.results import Actor, game_record_out

pytestmark = pytest.mark.django_db
BY = Actor.command()

# Round 2 of seven players after seat 1 won every game of round 1 (P01-P02, P03-P04,
# P05-P06-P07): P01, P03, P05 36 points; P06, P07 9; P02, P04 0. The book pairs
# P05-P01, P06-P03 and its 3-player table in the lowest groups: P07-P02-P04.
GROUP = (
    "not the book's rule (the 3-player table goes to the lowest score group, section 21): "
    "P01 (36 points) is in a higher group than P07 (9 points)"
)


@pytest.fixture
def cup() -> Tournament:
    t = tournament_with_players(7, slug="cup", name="Cup", rounds_planned=3)
    first = round_pair_next(tournament=t, by=BY)
    round_publish(round=first, by=BY)
    for game in Game.objects.filter(table__round=first).select_related("table"):
        n = game.table.seats.count()
        game_record_out(by=BY, game=game, out=[3] + [0] * (n - 1))
    round_close(round=first, by=BY)
    round_pair_next(tournament=t, by=BY)
    return t


def second(t: Tournament) -> Round:
    return t.rounds.get(number=2)


def entry(t: Tournament, name: str) -> Entry:
    return t.entries.select_related("player").get(player__name=name)


def tables(round_: Round) -> list[list[str]]:
    return [
        [s.entry.player.name for s in table.seats.order_by("position").select_related("entry")]
        for table in round_.tables.order_by("number")
    ]


def test_the_round_is_the_one_the_book_pairs(cup):
    assert tables(second(cup)) == [["P05", "P01"], ["P06", "P03"], ["P07", "P02", "P04"]]
    assert round_edit_preview(round=second(cup), moves=[]).current == [
        "P03 and P06 are 27 points apart"
    ]


def test_moving_the_leader_to_the_3_player_table_is_not_the_books_rule_with_the_groups(cup):
    round_ = second(cup)
    moves = [(entry(cup, "P01"), 3), (entry(cup, "P07"), 1)]
    preview = round_edit_preview(round=round_, moves=moves)
    assert GROUP in preview.created
    # P01 and P02 met in round 1: a rematch is not the book's rule either.
    assert (
        "not the book's rule (each player meets one she has not yet played, section 21): "
        "P01 and P02 met already in round 1"
    ) in preview.created
    with pytest.raises(PairingWarningsError) as refused:
        round_seats_rearrange(round=round_, moves=moves, by=BY)
    assert GROUP in refused.value.warnings
    round_seats_rearrange(round=round_, moves=moves, override_reason="P01 asked", by=BY)
    assert GROUP in AuditEntry.objects.get(action="pairing edit").after["warnings"]
    # Saved, the pairing's own warnings say so too (no reason asked again).
    assert GROUP in round_edit_preview(round=round_, moves=[]).current


def test_moving_a_player_away_says_her_partner_is_left_alone_and_gets_the_bye(cup):
    check = round_edit_preview(round=second(cup), moves=[(entry(cup, "P01"), 2)])
    assert check.created[0] == "P05 is left alone at table 1 and would get the bye"
    assert "a bye for P05: the policy is '2-player tables, one 3-player table when odd'" in (
        check.created
    )
    assert GROUP in check.created  # P01's new 3-player table is above the book's
    names = dict(cup.entries.values_list("pk", "player__name"))
    assert sorted(names[e] for e in check.changed) == ["P01", "P03", "P05", "P06"]
    assert {names[e]: sorted(names[m] for m in check.proposed[e]) for e in check.changed} == {
        "P01": ["P05"],
        "P05": ["P01"],
        "P06": ["P03"],
        "P03": ["P06"],
    }


def rows(html: str) -> dict[str, tuple[bool, bool, str]]:
    """The editor's rows: name -> (the row's class "changed", its mark shown, its text)."""
    out = {}
    for row in re.findall(r"<tr data-entry=.*?</tr>", html, re.S):
        name = re.search(r'<label for="move-\d+">([^<]+)</label>', row)[1]
        mark = re.search(r"data-changed-mark( hidden)?>(.*?)</th>", row, re.S)
        text = " ".join(re.sub(r"<[^>]+>", " ", mark[2]).split())
        out[name] = (' class="changed"' in row, mark[1] is None, text)
    return out


def test_the_editor_marks_the_rows_that_differ_from_the_proposal_with_what_it_proposed(cup):
    user = UserFactory()
    cup.directors.add(user)
    page = Client()
    page.force_login(user)
    before = rows(page.get("/t/cup/manage/").content.decode())
    assert len(before) == 7
    assert not any(changed or shown for changed, shown, _text in before.values()), before
    round_seats_rearrange(
        round=second(cup), moves=[(entry(cup, "P01"), 2)], override_reason="late", by=BY
    )
    after = rows(page.get("/t/cup/manage/").content.decode())
    assert after == {
        "P01": (True, True, "changed proposed: with P05"),
        "P03": (True, True, "changed proposed: with P06"),
        "P06": (True, True, "changed proposed: with P03"),
        "P05": (True, True, "changed proposed: with P01"),
        "P07": (False, False, "changed"),
        "P02": (False, False, "changed"),
        "P04": (False, False, "changed"),
    }


def test_a_re_paired_round_keeps_the_proposal_the_editor_compares_with(cup):
    round_ = round_repair(round=second(cup), by=BY)
    proposal = round_proposal(round_=round_)
    assert proposal is not None
    names = dict(cup.entries.values_list("pk", "player__name"))
    assert [sorted(names[int(p)] for p in t) for t in proposal.tables] == [
        ["P01", "P05"],
        ["P03", "P06"],
        ["P02", "P04", "P07"],
    ]
    assert round_edit_preview(round=round_, moves=[(entry(cup, "P01"), 2)]).changed


def test_an_audit_naming_other_entries_marks_nothing(cup):
    # An imported tournament's audit keeps the other site's entry ids.
    AuditEntry.objects.filter(action="pair", target="round 2").update(
        after={"tables": [["90001", "90002"]], "bye": None}
    )
    check = round_edit_preview(round=second(cup), moves=[(entry(cup, "P01"), 2)])
    assert check.changed == [] and check.proposed == {}


def test_a_round_paired_by_closest_scores_gets_no_book_warnings(cup):
    director = UserFactory()
    cup.directors.add(director)
    tournament_update(tournament=cup, by=Actor.director(director), pairing_method="closest")
    cup.refresh_from_db()
    moves = [(entry(cup, "P01"), 3), (entry(cup, "P07"), 1)]
    created = round_edit_preview(round=second(cup), moves=moves).created
    assert "P01 and P02 met already in round 1" in created
    assert not [w for w in created if "book" in w]
