"""The one question the tournaments ask the layer above: a new entry's starting rating,
through the interface tournaments/starting_ratings.py that the ratings app provides in
its ready() (tournaments never import the ratings); without a provider entries start
unrated."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import pytest

from ratings import selectors
from ratings.models import PlayerRating
from tests.factories import tournament_with_players
from tournaments import starting_ratings
from tournaments.desk.services.entries import entries_paste, entries_reseed_by_rating, entry_add
from tournaments.results.services.results import Actor

BY = Actor.command()


@pytest.fixture
def no_provider() -> Iterator[None]:
    """As if no ratings app were installed; the ratings' provider is put back after."""
    previous = starting_ratings.register(None)
    try:
        yield
    finally:
        starting_ratings.register(previous)


class Asked:
    """A provider beside the ratings' one: records each question, answers with theirs."""

    def __init__(self) -> None:
        self.questions: list[dict[str, object]] = []

    def __call__(self, *, player_ids: Sequence[int], game: str, system: str) -> Mapping[int, int]:
        self.questions.append({"player_ids": player_ids, "game": game, "system": system})
        return selectors.starting_ratings(player_ids=player_ids, game=game, system=system)


def test_the_ratings_app_registers_its_provider_when_it_is_ready():
    registered = starting_ratings.register(None)
    starting_ratings.register(registered)
    assert registered is selectors.starting_ratings


def test_without_a_provider_nobody_is_rated(no_provider):
    assert starting_ratings.provide(player_ids=[1, 2], game="pentagame", system="glicko2") == {}


def test_a_provider_gets_plain_data_and_its_answer_is_returned_as_it_is(no_provider):
    def fixed(*, player_ids: Sequence[int], game: str, system: str) -> Mapping[int, int]:
        assert (list(player_ids), game, system) == ([1, 2], "pantarei", "elo")
        return {2: 1480}

    starting_ratings.register(fixed)
    assert starting_ratings.provide(player_ids=(1, 2), game="pantarei", system="elo") == {2: 1480}


@pytest.mark.django_db
def test_a_new_entry_starts_with_the_rating_the_ratings_app_provides():
    tournament = tournament_with_players(0)
    anna = entry_add(tournament=tournament, name="Anna", by=BY).player
    PlayerRating.objects.create(player=anna, game="pentagame", system="glicko2", rating=1612.4)
    # Another game of the family, or another system, is not the tournament's rating.
    PlayerRating.objects.create(player=anna, game="pantarei", system="glicko2", rating=1900)
    PlayerRating.objects.create(player=anna, game="pentagame", system="elo", rating=1300)
    evening = tournament_with_players(0, club=tournament.club, kind="evening", slug="evening")
    asked = Asked()
    previous = starting_ratings.register(asked)
    try:
        again = entry_add(tournament=evening, name="Anna", by=BY)
    finally:
        starting_ratings.register(previous)
    assert again.rating == 1612
    assert asked.questions == [
        {"player_ids": [anna.pk], "game": "pentagame", "system": evening.club.rating_system}
    ]


@pytest.mark.django_db
def test_without_a_provider_a_rated_player_enters_unrated_and_seeding_keeps_the_order(
    no_provider,
):
    tournament = tournament_with_players(0)
    entries_paste(tournament=tournament, text="Anna\nBert", by=BY)
    bert = tournament.entries.get(player__name="Bert").player
    PlayerRating.objects.create(player=bert, game="pentagame", system="glicko2", rating=1700)
    evening = tournament_with_players(0, club=tournament.club, kind="evening", slug="evening")
    assert entry_add(tournament=evening, name="Bert", by=BY).rating is None
    assert entries_reseed_by_rating(tournament=tournament, by=BY) == 2
    seeded = list(tournament.entries.order_by("seed").values_list("player__name", "rating"))
    assert seeded == [("Anna", None), ("Bert", None)]
