"""The new-tournament form (issue 42, "Why" 10): 22 fields in one column, no default
club for an organiser of one club and no default date. The club is chosen for her when
she organises exactly one, the date is today, and the fields come in named groups."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import ClubFactory, UserFactory
from tournaments.desk.forms import TournamentForm
from tournaments.models import Club

pytestmark = pytest.mark.django_db


def test_one_club_is_the_default_and_today_the_date():
    club = ClubFactory()
    form = TournamentForm(clubs=Club.objects.filter(pk=club.pk))
    assert form["club"].value() == club.pk
    assert form["date"].value() == timezone.localdate()


def test_with_two_clubs_she_chooses():
    ClubFactory()
    ClubFactory()
    form = TournamentForm(clubs=Club.objects.all())
    assert form["club"].value() is None


def test_the_page_groups_the_fields_and_preselects_the_club(client):
    club = ClubFactory(name="Riverside")
    user = UserFactory()
    club.organisers.add(user)
    client.force_login(user)
    page = client.get("/t/new/").content.decode()
    assert page.count("<fieldset") >= 4
    assert "<details" in page
    assert f'<option value="{club.pk}" selected>' in page
    assert f'value="{timezone.localdate().isoformat()}"' in page
