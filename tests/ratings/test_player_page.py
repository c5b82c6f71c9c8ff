"""A player has one page, /players/<id>/ (issue 43, point 6): it shows what the ratings
page of old showed (the chosen system's rating change per game, the choice by ?system=
and ?game=), and /ratings/players/<id>/ answers a permanent redirect to it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.selectors import player_game_changes
from tests.factories import tournament_with_players
from tests.ratings.test_rating_jobs import play
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(django_capture_on_commit_callbacks) -> Player:
    cup = tournament_with_players(5, slug="cup", name="Cup", published=True)
    play(cup, 2, django_capture_on_commit_callbacks)
    return Player.objects.get(name="P01")


def test_the_ratings_address_of_old_redirects_permanently_keeping_system_and_game(client, rated):
    old = reverse("ratings:player", args=[rated.pk])
    page = client.get(f"{old}?system=elo&game=pentagame")
    assert page.status_code == 301
    assert page["Location"] == f"/players/{rated.pk}/?system=elo&game=pentagame#rating-elo"
    # Without a query: the club's system's section.
    club_system = rated.club.rating_system
    page = client.get(old)
    assert page.status_code == 301
    assert page["Location"] == f"/players/{rated.pk}/#rating-{club_system}"
    assert client.get(reverse("ratings:player", args=[999999])).status_code == 404


def test_the_one_page_lists_the_chosen_systems_rating_change_per_game(client, rated):
    page = client.get(f"/players/{rated.pk}/?system=elo&game=pentagame").content.decode()
    changes = list(player_game_changes(player_id=rated.pk, system="elo", game="pentagame"))
    assert changes
    assert page.count("Rating change per game</h4>") == 1
    assert 'id="changes-elo"' in page
    section = page.split('id="changes-elo"', 1)[1].split("</table>", 1)[0]
    assert section.count(" → ") == len(changes)  # a row per game
    for change in changes:
        assert f"{round(change.before)} → {round(change.after)}" in section
    assert section.count('scope="rowgroup"') == 1  # the one event, named once
    # The other systems link to their own games on the same page; nothing links to the
    # ratings address of old.
    for other in ("glicko2", "openskill"):
        assert f'href="?system={other}&amp;game=pentagame#rating-{other}"' in page
    assert "/ratings/players/" not in page
    # Unknown names fall back: the club's system is chosen.
    club_system = rated.club.rating_system
    page = client.get(f"/players/{rated.pk}/?system=nope").content.decode()
    assert f'id="changes-{club_system}"' in page


def _queries(client, url: str) -> int:
    client.get(url)  # the standings' cache filled first: it is not the page's own cost
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_page_asks_a_fixed_number_of_queries_whichever_system_is_chosen(
    client, rated, django_capture_on_commit_callbacks
):
    queries = ("", "?system=glicko2", "?system=openskill", "?system=elo&game=pentagame")
    counts = [_queries(client, f"/players/{rated.pk}/{query}") for query in queries]
    assert len(set(counts)) == 1, counts
    # More games, more rows of changes and history: not more queries.
    play(rated.entries.get().tournament, 1, django_capture_on_commit_callbacks)
    assert _queries(client, f"/players/{rated.pk}/?system=elo") == counts[0]
