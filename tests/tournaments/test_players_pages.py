"""A player's page: results by tournament, rating history, head-to-head records."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import tournament_with_players
from tournaments.desk.selectors.players import SharedGame, head_to_head
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Game, Player
from tournaments.results.services.results import Actor, game_record_out

# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()


def test_head_to_head_counts_wins_draws_losses_and_the_dropped_score_balance():
    games = [
        SharedGame((1, 2), (3, 1)),  # win 5:1
        SharedGame((2, 1), (3, 3)),  # draw 3:3, seats swapped
        SharedGame((1, 2), (0, 3)),  # loss 0:6
        SharedGame((1, 2, 3), (3, 1, 2)),  # 3 players: beats both
        SharedGame((4, 5), (3, 0)),  # without player 1: ignored
    ]
    records = {r.opponent: r for r in head_to_head(1, games)}
    assert set(records) == {2, 3}
    two = records[2]
    assert (two.games, two.wins, two.draws, two.losses) == (4, 2, 1, 1)
    # Dropped scores: 5:1, 3:3, 0:6, and at the 3-player table
    # (3 pieces missing) 3 + (3 - 0) / 2 = 4.5 against 1 + (3 - 2) / 2 = 1.5.
    assert two.scored == pytest.approx(5 + 3 + 0 + 4.5)
    assert two.conceded == pytest.approx(1 + 3 + 6 + 1.5)
    assert two.balance == pytest.approx(two.scored - two.conceded)
    three = records[3]
    assert (three.games, three.wins, three.draws, three.losses) == (1, 1, 0, 0)
    assert head_to_head(1, games)[0].opponent == 2  # most games first
    assert head_to_head(9, games) == []


@pytest.mark.django_db
def test_the_player_page_shows_results_ratings_and_head_to_head(
    client, django_capture_on_commit_callbacks
):
    tournament = tournament_with_players(2)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    for game in Game.objects.filter(table__round=round_).order_by("number"):
        game_record_out(by=DIRECTOR, game=game, out=[3, 1] if game.number != 2 else [2, 3])
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round=round_, by=Actor.command())
    p1 = Player.objects.get(name="P01")
    page = client.get(reverse("player-detail", args=[p1.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert tournament.name in html and "1 of 2" in html  # rank 1 of 2 players
    assert "Head to head" in html and "P02" in html
    p2 = Player.objects.get(name="P02")
    assert reverse("player-detail", args=[p2.pk]) in html
    # Two wins and a loss against P02; dropped score 5+2+5 : 1+4+1.
    assert "12 : 6" in html and "+6" in html
    # The rating job ran (in-process) once the round closed: a chart per system.
    assert html.count('class="rating-chart"') == 3


@pytest.mark.django_db
def test_unpublished_tournaments_stay_off_a_players_page(client):
    hidden = tournament_with_players(2, published=False, name="Secret Cup")
    round_ = round_pair_next(tournament=hidden, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).first()
    game_record_out(by=DIRECTOR, game=game, out=[3, 0])
    player = hidden.entries.first().player
    html = client.get(reverse("player-detail", args=[player.pk])).content.decode()
    assert "Secret Cup" not in html and "No games with a result yet." in html
    assert client.get(reverse("player-detail", args=[999999])).status_code == 404


@pytest.mark.django_db
def test_entry_and_standings_pages_link_to_the_player_page(client):
    tournament = tournament_with_players(2)
    entry = tournament.entries.first()
    html = client.get(reverse("entry-detail", args=[tournament.slug, entry.pk])).content.decode()
    assert reverse("player-detail", args=[entry.player_id]) in html
