"""A provisional rating on the club's list (issue 42, "Why" 7): a player new after 3
games, provisional at 1672, stood first above everyone established. As lichess does, a
provisional rating is marked with "?" after it and left out of the ranking: the ranked
players first, numbered, then the provisional ones, unnumbered; `?all=1` shows everyone
in one order of rating (still marked)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from ratings.models import PlayerRating
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    club = ClubFactory(slug="riverside", rating_system="glicko2")
    now = timezone.now() - timedelta(days=1)
    for name, rating, deviation, games in [
        ("Anna Established", 1610, 60, 40),
        ("Cleo New", 1672, 210, 3),
        ("Bert Established", 1550, 70, 25),
    ]:
        PlayerRating.objects.create(
            player=PlayerFactory(club=club, name=name),
            game="pentagame",
            system="glicko2",
            rating=rating,
            deviation=deviation,
            games=games,
            last_played=now,
        )
    return club


def rows(html: str) -> list[str]:
    """The list's rows as text: rank, name, rating."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    out = []
    for row in re.findall(r"<tr>(.*?)</tr>", body, flags=re.S):
        cells = [
            re.sub(r"<[^>]+>", "", c).split()
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, flags=re.S)
        ]
        out.append(
            " ".join([" ".join(cells[0]) or "-", " ".join(cells[1][:2]), " ".join(cells[3])])
        )
    return out


def test_a_provisional_rating_is_listed_after_the_ranked_ones_marked_with_a_question_mark(
    club, client
):
    page = client.get("/ratings/clubs/riverside/")
    assert page.status_code == 200
    assert rows(page.content.decode()) == [
        "1 Anna Established 1610",
        "2 Bert Established 1550",
        "- Cleo New 1672?",
    ]


def test_all_in_one_order_on_request_still_marked(club, client):
    page = client.get("/ratings/clubs/riverside/?all=1")
    assert rows(page.content.decode()) == [
        "1 Cleo New 1672?",
        "2 Anna Established 1610",
        "3 Bert Established 1550",
    ]
