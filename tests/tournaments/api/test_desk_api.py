"""The desk's API additions: re-admit and check in an entry, reopen a closed round and
take back a published one; refusals are 409 with a message and change nothing."""

from __future__ import annotations

import pytest

from tournaments.core.actor import Actor
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.models import Entry, Game, Round
from tournaments.results.services.results import game_record_out

pytestmark = pytest.mark.django_db
BASE = "/api/v1/tournaments/cup"


def test_readmit_and_check_in(director):
    entry = Entry.objects.get(tournament__slug="cup", seed=2)
    director.post(f"{BASE}/entries/{entry.pk}/withdraw/")
    response = director.post(f"{BASE}/entries/{entry.pk}/readmit/")
    assert response.status_code == 200 and response.json()["status"] == "active"
    response = director.post(f"{BASE}/entries/{entry.pk}/check-in/", {"present": True})
    assert response.status_code == 200 and response.json()["checked_in"] is True
    response = director.post(f"{BASE}/entries/{entry.pk}/check-in/", {"present": "maybe"})
    assert response.status_code == 400


def test_reopen_and_unpublish(director):
    tournament = Entry.objects.get(tournament__slug="cup", seed=1).tournament
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    assert director.post(f"{BASE}/rounds/1/unpublish/").json()["status"] == "paired"
    round_publish(round=round_, by=Actor.command())
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 0], by=Actor.command())
    response = director.post(f"{BASE}/rounds/1/unpublish/")
    assert response.status_code == 409 and "stays published" in response.json()["error"]["message"]
    round_close(round=round_, by=Actor.command())
    response = director.post(f"{BASE}/rounds/1/reopen/")
    assert response.status_code == 200 and response.json()["status"] == "published"
    response = director.post(f"{BASE}/rounds/1/reopen/")
    assert response.status_code == 409
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PUBLISHED
