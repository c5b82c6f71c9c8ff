"""The replay page of Pantarei, Pentamid Twist, Pent-Up and PentaCosmos: a tournament of
each game, a random legal game recorded through the results service, the page at
several plies; who may see it; Pentagame games go to their own board page."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import UserFactory, tournament_with_players
from tournaments.demo import random_record
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game, Round
from tournaments.results.services.results import Actor, game_record_moves

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()

pytestmark = pytest.mark.django_db

# game, players, pairing policy (one table of that size)
GAMES = [
    ("pantarei", 2, "pairs+bye"),
    ("pentamid_twist", 2, "pairs+bye"),
    ("pent_up", 3, "pairs+triple"),
    ("pentacosmos", 3, "pairs+triple"),
]


def recorded_game(name: str, players: int, policy: str, publish: bool = True) -> Game:
    tournament = tournament_with_players(players, game=name, policy=policy)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    if publish:
        round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_, table__is_bye=False).first()
    assert game is not None
    if not publish:
        return game  # results are entered once the round is published
    moves, setup = random_record(name, game.table.seats.count(), seed=7)
    if name == "pentacosmos":
        moves = moves[:120]  # a game well into phase II keeps the test quick
    return game_record_moves(by=DIRECTOR, game=game, moves=moves, setup=setup)


def view_url(game: Game, ply: object = None) -> str:
    url = reverse("games:view", args=[game.pk])
    return url if ply is None else f"{url}?ply={ply}"


def svg_of(html: str) -> str:
    match = re.search(r"<svg class=\"fb-svg.*?</svg>", html, re.S)
    assert match, "no board picture on the page"
    return match.group(0)


@pytest.mark.parametrize(("name", "players", "policy"), GAMES)
def test_the_page_draws_the_position_at_several_plies(client, name, players, policy):
    game = recorded_game(name, players, policy)
    n = len(game.moves)
    assert n > 4
    for ply in (0, 1, n // 2, n):
        response = client.get(view_url(game, ply))
        assert response.status_code == 200
        html = response.content.decode()
        svg = svg_of(html)
        assert 'viewBox="' in svg
        if ply or name != "pent_up":  # Pent-Up starts with an empty table
            assert "data-thing=" in svg
        # Coordinates are written with a decimal point whatever the language.
        assert re.search(r'viewBox="-?\d+(\.\d+)? -?\d+(\.\d+)? \d+(\.\d+)? \d+(\.\d+)?"', svg)
        assert f"{ply} / {n}" in html
        # The notation list links every ply; the current one is marked.
        assert html.count('href="?ply=') >= n
        if ply:
            assert f'<a href="?ply={ply}#fb-board" aria-current="step">' in html
            assert game.moves[ply - 1] in html
    first = client.get(view_url(game, 0)).content.decode()
    assert "The start, before the first move" in first
    assert 'aria-label="One move forward"' in first and 'rel="next"' in first
    assert 'aria-disabled="true"' in first  # no way back from the start


@pytest.mark.parametrize(("name", "players", "policy"), GAMES)
def test_the_default_is_the_last_position_and_a_bad_ply_is_clamped(client, name, players, policy):
    game = recorded_game(name, players, policy)
    n = len(game.moves)
    last = client.get(view_url(game)).content.decode()
    assert f"{n} / {n}" in last
    for wanted, shown in (("-3", 0), (str(n + 50), n), ("abc", n)):
        html = client.get(view_url(game, wanted)).content.decode()
        assert f"{shown} / {n}" in html


def test_the_page_names_whose_turn_and_the_players(client):
    game = recorded_game("pantarei", 2, "pairs+bye")
    html = client.get(view_url(game, 0)).content.decode()
    assert "to move" in html
    assert "P01" in html and "P02" in html


def test_a_finished_pent_up_game_shows_its_result(client):
    game = recorded_game("pent_up", 3, "pairs+triple")
    assert game.status == Game.Status.FINISHED
    html = client.get(view_url(game)).content.decode()
    assert re.search(r"class=\"fb-outcome\">[^<]*(wins?|draw)", html)


def test_an_unpublished_round_is_hidden_from_anonymous_visitors(client):
    game = recorded_game("pentamid_twist", 2, "pairs+bye", publish=False)
    assert game.table.round.status == Round.Status.PAIRED
    assert client.get(view_url(game)).status_code == 404


def test_an_unpublished_tournament_is_hidden_except_from_its_directors(client):
    game = recorded_game("pent_up", 3, "pairs+triple")
    tournament = game.table.round.tournament
    tournament.published = False
    tournament.save()
    assert client.get(view_url(game)).status_code == 404
    director = UserFactory()
    tournament.directors.add(director)
    client.force_login(director)
    assert client.get(view_url(game)).status_code == 200


def test_a_pentagame_game_goes_to_its_own_board_page(client):
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).first()
    response = client.get(view_url(game))
    assert response.status_code == 302
    assert response["Location"] == reverse("games:replay", args=[game.pk])


def test_an_unknown_game_is_404(client):
    assert client.get(reverse("games:view", args=[999999])).status_code == 404


def test_the_svg_is_written_with_decimal_points_in_german(client):
    game = recorded_game("pentacosmos", 3, "pairs+triple")
    html = client.get(view_url(game, 10), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    svg = svg_of(html)
    assert not re.search(r'(?:cx|x|r|viewBox)="[^"]*\d,\d', svg)
