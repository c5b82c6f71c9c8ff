"""The organiser's team desk as services: teams formed from players already entered, a
pasted list of teams (every bad line named, nothing entered), renaming, withdrawing and
re-admitting, dissolving before the first round; each refusal names its field."""

from __future__ import annotations

import pytest

from tests.factories import EntryFactory, TournamentFactory
from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.desk.services.entries import PasteError, entry_add, entry_delete
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.teams import (
    team_add,
    team_dissolve,
    team_form,
    team_readmit,
    team_rename,
    team_withdraw,
    teams_paste,
)
from tournaments.models import AuditEntry, Entry, Game, Team, Tournament
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.django_db
BY = Actor.command()


@pytest.fixture
def event() -> Tournament:
    return TournamentFactory(kind=Tournament.Kind.TEAMS, slug="pairs", rounds_planned=3)


def actions(tournament: Tournament) -> list[str]:
    return list(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))


def entered(tournament: Tournament, *names: str) -> list[Entry]:
    return [entry_add(tournament=tournament, name=n, by=BY) for n in names]


def test_a_team_is_formed_from_two_entered_players_and_audited(event):
    ann, bea = entered(event, "Ann", "Bea")
    team = team_form(tournament=event, name=" Stars ", first=ann, second=bea, by=BY)
    assert (team.name, team.first_id, team.second_id, team.seed) == ("Stars", ann.pk, bea.pk, 1)
    assert "enter team" in actions(event)


@pytest.mark.parametrize(
    ("setup", "field"),
    [
        ("same", "second"),
        ("other_tournament", "first"),
        ("in_team", "first"),
        ("withdrawn", "second"),
        ("no_entry", "first"),
    ],
)
def test_forming_a_team_refuses_bad_players_naming_the_field(event, setup, field):
    ann, bea, cid, dan = entered(event, "Ann", "Bea", "Cid", "Dan")
    first, second = ann, bea
    if setup == "same":
        second = ann
    elif setup == "other_tournament":
        first = EntryFactory()
    elif setup == "in_team":
        team_form(tournament=event, name="Moons", first=ann, second=cid, by=BY)
    elif setup == "withdrawn":
        bea.status = Entry.Status.WITHDRAWN
        bea.save()
    elif setup == "no_entry":
        first = Entry(pk=2**40)
    with pytest.raises(ServiceError) as refused:
        team_form(tournament=event, name="Stars", first=first, second=second, by=BY)
    assert refused.value.field == field
    assert not Team.objects.filter(name="Stars").exists()


def test_forming_a_team_refuses_a_taken_or_empty_name(event):
    ann, bea, cid, dan = entered(event, "Ann", "Bea", "Cid", "Dan")
    team_form(tournament=event, name="Stars", first=ann, second=bea, by=BY)
    for name in ("Stars", "   ", "x" * 500):
        with pytest.raises(ServiceError) as refused:
            team_form(tournament=event, name=name, first=cid, second=dan, by=BY)
        assert refused.value.field == "name"
    assert event.teams.count() == 1


def test_a_team_is_refused_outside_a_team_event():
    swiss = TournamentFactory()
    ann, bea = entered(swiss, "Ann", "Bea")
    with pytest.raises(ServiceError) as refused:
        team_form(tournament=swiss, name="Stars", first=ann, second=bea, by=BY)
    assert refused.value.field == "kind"
    with pytest.raises(ServiceError):
        teams_paste(tournament=swiss, text="Ann + Bea", by=BY)


def test_a_pasted_list_enters_teams_named_or_not_and_reuses_free_players(event):
    (ann,) = entered(event, "Ann")
    teams = teams_paste(
        tournament=event,
        text="Ann + Bea, 1500\n\nMoons: Cid  +  Dan Dorn\n",
        by=BY,
    )
    assert [t.name for t in teams] == ["Ann + Bea", "Moons"]
    assert teams[0].first_id == ann.pk  # already entered and free: joins as she is
    assert teams[0].second.rating == 1500
    assert teams[1].second.player.name == "Dan Dorn"
    assert event.entries.count() == 4


def test_a_pasted_list_with_bad_lines_names_each_in_order_and_enters_nothing(event):
    team_add(tournament=event, name="Stars", players=["Ann", "Bea"], by=BY)
    text = "\n".join(
        [
            "Cid + Dan",  # 1 fine
            "Eve",  # 2 no partner
            "Fay + Fay",  # 3 twice the same
            "Gus, abc + Hal",  # 4 bad rating
            "Ann + Ida",  # 5 Ann plays for Stars
            "Stars: Jo + Kim",  # 6 name taken
            "Cid + Lea",  # 7 Cid on line 1 too
            "Mo + Ned + Oz",  # 8 three players
        ]
    )
    with pytest.raises(PasteError) as refused:
        teams_paste(tournament=event, text=text, by=BY)
    assert refused.value.field == "teams"
    assert [p.split(":")[0] for p in refused.value.problems] == [
        f"line {n}" for n in (2, 3, 4, 5, 6, 7, 8)
    ]
    assert event.teams.count() == 1
    assert event.entries.count() == 2


def test_an_empty_pasted_list_is_refused(event):
    with pytest.raises(ServiceError) as refused:
        teams_paste(tournament=event, text=" \n\n", by=BY)
    assert refused.value.field == "teams"


def test_a_team_is_renamed_audited_and_a_taken_name_refused(event):
    stars = team_add(tournament=event, name="Stars", players=["Ann", "Bea"], by=BY)
    team_add(tournament=event, name="Moons", players=["Cid", "Dan"], by=BY)
    renamed = team_rename(team=stars, name="Suns", by=BY)
    assert Team.objects.get(pk=stars.pk).name == renamed.name == "Suns"
    assert "rename team" in actions(event)
    for name in ("Moons", "", "y" * 121):
        with pytest.raises(ServiceError) as refused:
            team_rename(team=stars, name=name, by=BY)
        assert refused.value.field == "name"
    assert Team.objects.get(pk=stars.pk).name == "Suns"


def test_a_withdrawn_team_is_readmitted_with_both_players(event):
    stars = team_add(tournament=event, name="Stars", players=["Ann", "Bea"], by=BY)
    team_withdraw(team=stars, by=BY)
    assert {stars.first.status, stars.second.status} == {Entry.Status.WITHDRAWN}
    team_readmit(team=stars, by=BY)
    statuses = set(Entry.objects.filter(team_as_first=stars).values_list("status", flat=True))
    statuses |= set(Entry.objects.filter(team_as_second=stars).values_list("status", flat=True))
    assert statuses == {Entry.Status.ACTIVE}
    assert actions(event).count("re-admit") == 2


def _play_round(event: Tournament) -> None:
    round_ = round_pair_next(tournament=event, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 1, 2, 1], by=BY)
    round_close(round=round_, by=BY)


def test_a_team_is_dissolved_before_its_first_round_and_its_players_stay(event):
    stars = team_add(tournament=event, name="Stars", players=["Ann", "Bea"], by=BY)
    team_dissolve(team=stars, by=BY)
    assert not event.teams.exists()
    assert sorted(event.entries.values_list("player__name", flat=True)) == ["Ann", "Bea"]
    assert "dissolve team" in actions(event)
    with pytest.raises(ConflictError) as refused:
        team_dissolve(team=stars, by=BY)
    assert refused.value.field == "team"


def test_a_team_that_has_played_is_not_dissolved(event):
    stars = team_add(tournament=event, name="Stars", players=["Ann", "Bea"], by=BY)
    team_add(tournament=event, name="Moons", players=["Cid", "Dan"], by=BY)
    _play_round(event)
    with pytest.raises(ConflictError) as refused:
        team_dissolve(team=stars, by=BY)
    assert refused.value.field == "team"
    assert "round 1" in refused.value.message
    assert event.teams.count() == 2


def test_deleting_a_teams_player_is_refused_rather_than_dropping_the_team(event):
    stars = team_add(tournament=event, name="Stars", players=["Ann", "Bea"], by=BY)
    with pytest.raises(ConflictError) as refused:
        entry_delete(entry=stars.first, by=BY)
    assert refused.value.field == "entry"
    assert event.teams.count() == 1


def test_no_team_is_entered_once_the_event_is_finished(event):
    ann, bea = entered(event, "Ann", "Bea")
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(ConflictError) as refused:
        team_form(tournament=event, name="Stars", first=ann, second=bea, by=BY)
    assert refused.value.field == "tournament"
    with pytest.raises(ConflictError):
        teams_paste(tournament=event, text="Ann + Bea", by=BY)
    assert not event.teams.exists()
