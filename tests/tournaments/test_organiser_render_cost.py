"""The organiser's manage page and results screen reverse the same number of URLs and
render the same number of templates for a field of 6 as for one of 20: their long lists
(entries, tables, result rows, the players' drop-downs) cost no template include or URL
reversal per row (a 500-player Swiss renders them within the bench's 150 ms)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.test.signals import template_rendered
from django.urls import reverse
from django.urls.resolvers import URLResolver

from tests.tournaments.test_organiser_queries import after_round_1, organiser  # noqa: F401
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Round, Tournament
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.django_db


def render_cost(client, url: str) -> tuple[int, int, str]:
    """(URL reversals, templates rendered, the page) of one GET."""
    templates: list[str] = []

    def count(sender, template, **kwargs):
        templates.append(template.name)

    template_rendered.connect(count)
    original = URLResolver._reverse_with_prefix
    try:
        with mock.patch.object(
            URLResolver, "_reverse_with_prefix", autospec=True, side_effect=original
        ) as reversing:
            response = client.get(url)
    finally:
        template_rendered.disconnect(count)
    assert response.status_code == 200
    return reversing.call_count, len(templates), response.content.decode()


def in_round_2(organiser, players: int) -> Tournament:  # noqa: F811
    tournament = after_round_1(organiser, players)
    round_publish(
        round=round_pair_next(tournament=tournament, by=Actor.command()), by=Actor.command()
    )
    return tournament


def test_the_manage_page_and_results_screen_cost_no_include_or_url_reversal_per_row(
    client,
    organiser,  # noqa: F811
):
    client.force_login(organiser)
    few, many = in_round_2(organiser, 6), in_round_2(organiser, 20)
    costs = {}
    for tournament in (few, many):
        slug = tournament.slug
        manage = render_cost(client, reverse("tournament-manage", args=[slug]))
        results = render_cost(client, reverse("round-results", args=[slug, 2]))
        costs[tournament.pk] = (manage[:2], results[:2])
        # Every player and every game is on the pages all the same.
        for entry in tournament.entries.all():
            assert f'id="entry-{entry.pk}"' in manage[2]
            assert f'<option value="{entry.pk}">' in manage[2]
        round_ = Round.objects.get(tournament=tournament, number=2)
        for game_id in round_.tables.values_list("games__id", flat=True):
            assert f'id="game-{game_id}"' in results[2]
    assert costs[many.pk] == costs[few.pk]
