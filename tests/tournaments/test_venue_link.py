"""The push from a venue to the club's site (docs/venue.md), through its service and its
door: incremental (only the parts the site has not acknowledged), idempotent (a push
repeated or cut in the middle changes nothing twice), one writer at a time (an event
taken over on the site is refused to the venue), tokens scoped to one club.

Both sides share this test's database, so the venue's event and the site's copy have
different slugs: the push of the venue's event `night` names it `night-site`."""

from __future__ import annotations

import copy
import gzip
import json
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from tests.factories import ClubFactory, PlayerFactory, UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.core.permissions import written_elsewhere
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.link import services
from tournaments.link.documents import ROUNDS_PER_PUSH, push_body
from tournaments.link.selectors import venue_token_for
from tournaments.link.services import (
    OutOfStepError,
    TakenOverError,
    event_hand_back,
    event_push_apply,
    event_take_over,
    venue_token_create,
    venue_token_revoke,
)
from tournaments.models import (
    Entry,
    Game,
    Player,
    Ply,
    ResultSubmission,
    Round,
    SiteLink,
    Tournament,
    VenueEvent,
)
from tournaments.results.services.results import game_record_out
from tournaments.transfer.services import tournament_export_document

pytestmark = pytest.mark.django_db
BY = Actor.command()


@pytest.fixture
def organiser():
    user = UserFactory(username="org")
    ClubFactory(name="Kiel", slug="kiel").organisers.add(user)
    return user


@pytest.fixture
def token(organiser):
    club = organiser.organised_clubs.get()
    row, secret = venue_token_create(club=club, name="laptop", by=Actor.director(organiser))
    row.secret = secret
    return row


def play_round(tournament: Tournament, close: bool = True) -> Round:
    round_ = round_pair_next(tournament=tournament, by=BY)
    round_publish(round=round_, by=BY)
    for game in Game.objects.filter(table__round=round_).select_related("table"):
        game_record_out(game=game, out=[3, 1, 0][: game.table.seats.count()], by=BY)
    if close:
        round_close(round=round_, by=BY)
    return round_


def venue_night(organiser, rounds: int = 2, slug: str = "night") -> Tournament:
    club = organiser.organised_clubs.get()
    # Made in a club of its own, then moved: the factory names every event's players
    # P01, P02 … and a club has each name once.
    tournament = tournament_with_players(
        6,
        club=ClubFactory(),
        slug=slug,
        published=True,
        rounds_planned=max(5, rounds + 1),
    )
    Tournament.objects.filter(pk=tournament.pk).update(club=club)
    tournament.club = club
    into_club(tournament)
    for _ in range(rounds):
        play_round(tournament)
    return Tournament.objects.get(pk=tournament.pk)  # as stored: the export reads it so


def into_club(tournament: Tournament) -> None:
    """The event's players are the club's (an event prepared on the site, or the venue's
    copy of the club's list): the club's player of the same name where it has one."""
    for entry in tournament.entries.select_related("player"):
        same = Player.objects.filter(club=tournament.club, name=entry.player.name).first()
        if same is None:
            Player.objects.filter(pk=entry.player_id).update(club=tournament.club)
        else:
            Entry.objects.filter(pk=entry.pk).update(player=same)


def as_site(document: dict[str, Any]) -> dict[str, Any]:
    document = copy.deepcopy(document)
    document["tournament"]["slug"] = "night-site"
    return document


def push_once(tournament: Tournament, acked: dict[str, Any], token) -> dict[str, Any] | None:
    body, _numbers, _left = push_body(
        as_site(tournament_export_document(tournament=tournament)), acked
    )
    if body is None:
        return None
    return event_push_apply(token=token, payload=body, by=BY)


def push_all(tournament: Tournament, token, acked: dict[str, Any] | None = None) -> dict:
    acked = acked or {}
    for _ in range(20):
        answer = push_once(tournament, acked, token)
        if answer is None:
            return acked
        acked = answer["digests"]
    raise AssertionError("the push never came up to date")


def same_event(venue: Tournament, site: Tournament) -> None:
    """The site's copy is the venue's event: every round, table, seat, game, record and
    submission, the entries and settings (the audit aside: the site adds its own line)."""
    a, b = (json.loads(json.dumps(tournament_export_document(tournament=t))) for t in (venue, site))
    for doc in (a, b):
        doc["tournament"].pop("slug")
        doc.pop("audit")
    assert a == b


def counts() -> tuple[int, ...]:
    return (
        Tournament.objects.count(),
        Round.objects.count(),
        Game.objects.count(),
        ResultSubmission.objects.count(),
        Ply.objects.count(),
    )


def test_a_first_push_creates_the_event_on_the_site_run_at_the_venue(organiser, token):
    venue = venue_night(organiser)
    push_all(venue, token)
    site = Tournament.objects.get(slug="night-site")
    same_event(venue, site)
    assert written_elsewhere(site) == "venue"
    assert VenueEvent.objects.get(tournament=site).token == token
    # The players are the club's own, matched by name, not made twice.
    assert set(site.entries.values_list("player_id", flat=True)) == set(
        venue.entries.values_list("player_id", flat=True)
    )


def test_the_same_push_twice_changes_nothing_the_second_time(organiser, token):
    venue = venue_night(organiser)
    body, _, _ = push_body(as_site(tournament_export_document(tournament=venue)), {})
    first = event_push_apply(token=token, payload=body, by=BY)
    before = counts()
    version = Tournament.objects.get(slug="night-site").standings_version
    again = event_push_apply(token=token, payload=copy.deepcopy(body), by=BY)
    assert again["applied"] == {"head": False, "rounds": []}
    assert again["digests"] == first["digests"]
    assert counts() == before
    assert Tournament.objects.get(slug="night-site").standings_version == version


def test_a_new_round_at_the_venue_sends_only_that_round_in_full(organiser, token):
    venue = venue_night(organiser, rounds=2)
    acked = push_all(venue, token)
    play_round(venue)
    body, numbers, _ = push_body(as_site(tournament_export_document(tournament=venue)), acked)
    assert body is not None
    assert numbers == [3]
    assert [r["number"] for r in body["rounds"]] == [3]
    assert set(body["digests"]["rounds"]) == {"1", "2", "3"}
    answer = event_push_apply(token=token, payload=body, by=BY)
    assert answer["applied"]["rounds"] == [3]
    same_event(venue, Tournament.objects.get(slug="night-site"))


def test_a_result_changed_at_the_venue_replaces_its_round_on_the_site(organiser, token):
    venue = venue_night(organiser, rounds=1)
    acked = push_all(venue, token)
    round_ = play_round(venue, close=False)
    acked = push_all(venue, token, acked)
    game = Game.objects.filter(table__round=round_, table__is_bye=False).first()
    n = game.table.seats.count()
    game_record_out(game=game, out=[0, 3, 1][:n], by=BY)
    round_close(round=round_, by=BY)
    push_all(venue, token, acked)
    same_event(venue, Tournament.objects.get(slug="night-site"))


def test_a_push_refused_in_the_middle_changes_nothing(organiser, token):
    venue = venue_night(organiser, rounds=1)
    acked = push_all(venue, token)
    play_round(venue)
    play_round(venue)
    body, _, _ = push_body(as_site(tournament_export_document(tournament=venue)), acked)
    # The last round's first game is broken: the rounds before it were replayed in the
    # same transaction and must go with it.
    broken = copy.deepcopy(body)
    broken["rounds"][-1]["tables"][0]["games"][0]["out"] = [99, 99]
    before = counts()
    held = VenueEvent.objects.get(tournament__slug="night-site").digests
    with pytest.raises(ServiceError) as refused:
        event_push_apply(token=token, payload=broken, by=BY)
    assert "rounds[" in refused.value.message
    assert counts() == before
    assert VenueEvent.objects.get(tournament__slug="night-site").digests == held
    # The same push whole goes through afterwards.
    event_push_apply(token=token, payload=body, by=BY)
    same_event(venue, Tournament.objects.get(slug="night-site"))


def test_a_round_counted_on_but_not_held_is_out_of_step_and_answered_with_the_sites_digests(
    organiser, token
):
    venue = venue_night(organiser, rounds=2)
    acked = push_all(venue, token)
    play_round(venue)
    # The venue believes the site holds round 3 (a lost answer, say): it does not.
    body, _, _ = push_body(as_site(tournament_export_document(tournament=venue)), {})
    body["rounds"] = [r for r in body["rounds"] if r["number"] != 3]
    with pytest.raises(OutOfStepError) as out:
        event_push_apply(token=token, payload=body, by=BY)
    assert out.value.digests == acked
    # The venue starts again from the site's digests and comes up to date.
    push_all(venue, token, out.value.digests)
    same_event(venue, Tournament.objects.get(slug="night-site"))


def test_a_long_evening_goes_in_several_pushes_of_a_few_rounds(organiser, token):
    venue = venue_night(organiser, rounds=ROUNDS_PER_PUSH + 1)
    body, numbers, _ = push_body(as_site(tournament_export_document(tournament=venue)), {})
    assert numbers == list(range(1, ROUNDS_PER_PUSH + 1))
    # A first push must bring the event whole: the site has nothing to keep.
    with pytest.raises(OutOfStepError):
        event_push_apply(
            token=token,
            payload={
                **body,
                "digests": {
                    **body["digests"],
                    "rounds": {**body["digests"]["rounds"], str(ROUNDS_PER_PUSH + 1): "0" * 64},
                },
            },
            by=BY,
        )
    answer = event_push_apply(token=token, payload=body, by=BY)
    assert answer["applied"]["rounds"] == numbers
    push_all(venue, token, answer["digests"])
    same_event(venue, Tournament.objects.get(slug="night-site"))


def test_an_event_taken_over_on_the_site_is_refused_to_the_venue_until_handed_back(
    organiser, token
):
    venue = venue_night(organiser, rounds=1)
    acked = push_all(venue, token)
    site = Tournament.objects.get(slug="night-site")
    event_take_over(tournament=site, by=Actor.director(organiser))
    assert written_elsewhere(site) is None
    play_round(venue)
    body, _, _ = push_body(as_site(tournament_export_document(tournament=venue)), acked)
    with pytest.raises(TakenOverError):
        event_push_apply(token=token, payload=body, by=BY)
    assert site.rounds.count() == 1
    event_hand_back(tournament=site, by=Actor.director(organiser))
    # Handed back, the site holds no digests: everything is compared again.
    push_all(venue, token, {})
    same_event(venue, site)


def test_a_token_publishes_its_own_clubs_events_only_and_not_once_revoked(organiser, token):
    other = ClubFactory(name="Bonn", slug="bonn")
    document = as_site(tournament_export_document(tournament=venue_night(organiser, rounds=1)))
    document["club"]["slug"] = other.slug
    body, _, _ = push_body(document, {})
    with pytest.raises(PermissionDenied):
        event_push_apply(token=token, payload=body, by=BY)
    assert venue_token_for(token.secret) == token
    venue_token_revoke(token=token, by=Actor.director(organiser))
    assert venue_token_for(token.secret) is None
    with pytest.raises(PermissionDenied):
        venue_token_create(club=other, name="x", by=Actor.director(organiser))


def test_a_venues_player_is_the_clubs_player_of_that_name_without_regard_to_case_and_spacing(
    organiser, token
):
    club = organiser.organised_clubs.get()
    anna = PlayerFactory(club=club, name="Anna Meyer")
    venue = venue_night(organiser, rounds=1)
    document = as_site(tournament_export_document(tournament=venue))
    document["entries"][0]["player"] = "  anna   MEYER "
    body, _, _ = push_body(document, {})
    event_push_apply(token=token, payload=body, by=BY)
    site = Tournament.objects.get(slug="night-site")
    assert site.entries.get(seed=1).player == anna


def test_two_players_of_that_name_are_a_choice_for_the_organiser_not_a_guess(organiser, token):
    club = organiser.organised_clubs.get()
    PlayerFactory(club=club, name="Anna Meyer")
    PlayerFactory(club=club, name="anna meyer")
    venue = venue_night(organiser, rounds=1)
    document = as_site(tournament_export_document(tournament=venue))
    document["entries"][0]["player"] = "Anna Meyer"
    body, _, _ = push_body(document, {})
    before = counts()
    with pytest.raises(ServiceError) as refused:
        event_push_apply(token=token, payload=body, by=BY)
    assert refused.value.field == "entries[0].player"
    assert counts() == before


def post(client: Client, body: Any, secret: str | None, *, zipped: bool = False) -> Any:
    raw = json.dumps(body).encode()
    headers: dict[str, str] = {}
    if secret is not None:
        headers["Authorization"] = f"Bearer {secret}"
    if zipped:
        raw = gzip.compress(raw)
        headers["Content-Encoding"] = "gzip"
    return client.post(
        "/api/v1/venue/push/", data=raw, content_type="application/json", headers=headers
    )


def test_the_push_door_takes_a_gzip_body_with_a_token_and_answers_the_digests(organiser, token):
    venue = venue_night(organiser, rounds=1)
    body, _, _ = push_body(as_site(tournament_export_document(tournament=venue)), {})
    answer = post(Client(), body, token.secret, zipped=True)
    assert answer.status_code == 200, answer.content
    assert answer.json()["digests"] == body["digests"]


@pytest.mark.parametrize(
    ("body", "secret", "status", "code"),
    [
        ({}, None, 401, "not_authenticated"),
        ({}, "agv_not-a-token", 401, "not_authenticated"),
        ({"format": "agon-push"}, "TOKEN", 400, "invalid"),
        ("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "TOKEN", 400, "invalid"),
    ],
)
def test_the_push_door_refuses_bad_input_with_a_4xx_in_the_one_error_shape(
    organiser, token, body, secret, status, code
):
    before = counts()
    client = Client()
    if isinstance(body, str):
        answer = client.post(
            "/api/v1/venue/push/",
            data=body,
            content_type="application/json",
            headers={"Authorization": f"Bearer {token.secret}"},
        )
    else:
        answer = post(client, body, token.secret if secret == "TOKEN" else secret)
    assert answer.status_code == status
    assert answer.json()["error"]["code"] == code
    assert counts() == before


def test_the_push_door_answers_out_of_step_with_the_sites_digests(organiser, token):
    venue = venue_night(organiser, rounds=2)
    acked = push_all(venue, token)
    play_round(venue)
    body, _, _ = push_body(as_site(tournament_export_document(tournament=venue)), {})
    body["rounds"] = [r for r in body["rounds"] if r["number"] != 3]
    answer = post(Client(), body, token.secret)
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "out_of_step"
    assert answer.json()["digests"] == acked


def test_the_site_refuses_edits_to_an_event_run_at_a_venue_at_every_door(organiser, token):
    venue = venue_night(organiser, rounds=1)
    round_ = play_round(venue, close=False)
    push_all(venue, token)
    site = Tournament.objects.get(slug="night-site")
    game = Game.objects.filter(
        table__round__tournament=site, table__round__number=round_.number, table__is_bye=False
    ).first()
    before = counts()
    # The one result path: a player's phone, a director's entry, a script.
    with pytest.raises(ServiceError) as refused:
        game_record_out(game=game, out=[0, 3, 1][: game.table.seats.count()], by=BY)
    assert "venue" in refused.value.message
    client = Client()
    client.force_login(organiser)
    # The run page's actions: back to the run page with the reason, nothing done.
    answer = client.post(f"/t/{site.slug}/manage/rounds/pair/")
    assert answer.status_code == 302
    # The API: a 409 in the one error shape.
    api = client.patch(
        f"/api/v1/games/{game.pk}/",
        data={"out": [0, 3, 1][: game.table.seats.count()], "version": game.version},
        content_type="application/json",
    )
    assert api.status_code == 409, api.content
    settings = client.patch(
        f"/api/v1/tournaments/{site.slug}/",
        data={"name": "Renamed"},
        content_type="application/json",
    )
    assert settings.status_code == 409, settings.content
    assert settings.json()["error"]["field"] == "tournament"
    assert counts() == before
    assert Tournament.objects.get(pk=site.pk).name == venue.name
    # Taken over, the site writes again; the venue's event is untouched by it.
    event_take_over(tournament=site, by=Actor.director(organiser))
    game_record_out(game=game, out=[0, 3, 1][: game.table.seats.count()], correction=True, by=BY)
    assert Game.objects.get(pk=game.pk).out_list(game.table.seats.count())[:2] == [0, 3]


def test_the_club_page_makes_a_token_shown_once_and_revokes_it(organiser):
    client = Client()
    client.force_login(organiser)
    made = client.post("/clubs/kiel/venue-tokens/", {"name": "Laptop 1"})
    assert made.status_code == 200
    assert made["Cache-Control"] == "no-store"
    secret = made.context["secret"]
    assert secret.startswith("agv_")
    token = venue_token_for(secret)
    assert token is not None and token.name == "Laptop 1"
    listed = client.get("/clubs/kiel/venue-tokens/")
    assert secret not in listed.content.decode()
    assert token.prefix in listed.content.decode()
    client.post(f"/clubs/kiel/venue-tokens/{token.pk}/revoke/")
    assert venue_token_for(secret) is None


def test_only_the_clubs_organisers_see_or_make_its_tokens(organiser, settings):
    settings.VENUE = True
    client = Client()
    client.force_login(UserFactory(username="visitor"))
    assert client.get("/clubs/kiel/venue-tokens/").status_code == 403
    assert client.post("/clubs/kiel/venue-tokens/", {"name": "x"}).status_code == 403
    assert client.post("/clubs/kiel/site-link/", {"site_url": "https://x.org"}).status_code == 403
    assert not organiser.organised_clubs.get().venue_tokens.exists()


def test_the_venues_link_form_names_the_field_at_fault_and_saves_nothing(organiser, settings):
    settings.VENUE = True
    client = Client()
    client.force_login(organiser)
    page = client.post(
        "/clubs/kiel/site-link/", {"site_url": "ftp://club.example", "token": "agv_x"}, follow=True
    )
    assert "https://" in page.content.decode()
    assert not SiteLink.objects.exists()
    for address in ("http://club.example", "https://club.example/?x=", "https://u:p@club.example"):
        client.post("/clubs/kiel/site-link/", {"site_url": address, "token": "agv_x"})
        assert not SiteLink.objects.exists(), address
    page = client.post(
        "/clubs/kiel/site-link/", {"site_url": "https://club.example/", "token": "agv_abc"}
    )
    assert page.status_code == 302
    assert SiteLink.objects.get().site_url == "https://club.example"


def test_the_club_site_itself_makes_no_link_to_another_address(organiser, settings):
    """Only the venue's laptop links to a site: the club's site never sends requests to
    an address its organisers type (it would reach its own network)."""
    settings.VENUE = False
    client = Client()
    client.force_login(organiser)
    answer = client.post(
        "/clubs/kiel/site-link/", {"site_url": "https://10.0.0.5", "token": "agv_abc"}
    )
    assert answer.status_code == 404
    assert not SiteLink.objects.exists()


def test_the_event_page_takes_over_and_hands_back_an_event_run_at_a_venue(organiser, token):
    venue = venue_night(organiser, rounds=1)
    push_all(venue, token)
    site = Tournament.objects.get(slug="night-site")
    client = Client()
    client.force_login(organiser)
    line = client.get(f"/t/{site.slug}/manage/link/line/")
    assert "read-only" in line.content.decode()
    client.post(f"/t/{site.slug}/manage/link/", {"action": "take_over"})
    assert written_elsewhere(site) is None
    client.post(f"/t/{site.slug}/manage/link/", {"action": "hand_back"})
    assert written_elsewhere(site) == "venue"
    assert client.post(f"/t/{site.slug}/manage/link/", {"action": "nonsense"}).status_code == 302


def test_a_token_whose_maker_no_longer_organises_the_club_is_refused(organiser, token):
    venue = venue_night(organiser, rounds=1)
    body, _, _ = push_body(as_site(tournament_export_document(tournament=venue)), {})
    organiser.organised_clubs.get().organisers.remove(organiser)
    before = counts()
    answer = post(Client(), body, token.secret)
    assert answer.status_code == 403
    assert "no longer organises" in answer.json()["error"]["message"]
    assert counts() == before


def test_an_event_prepared_on_the_site_and_run_at_the_venue_is_published_back_into_it(
    organiser, token
):
    """Prepared at home (entries, settings), taken to the venue as its export, played
    there: its first push hands the site's event to the venue, with its players."""
    prepared = venue_night(organiser, rounds=0, slug="night-site")
    document = tournament_export_document(tournament=prepared)
    # At the venue: the same event under its own slug (this test's one database).
    venue = venue_night(organiser, rounds=0)
    assert [e["player"] for e in document["entries"]] == [
        e.player.name for e in venue.entries.order_by("seed")
    ]
    play_round(venue)
    push_all(venue, token)
    site = Tournament.objects.get(pk=prepared.pk)
    assert written_elsewhere(site) == "venue"
    same_event(venue, site)


def test_an_event_already_played_on_the_site_is_not_taken_by_a_venue(organiser, token):
    venue_night(organiser, rounds=1, slug="night-site")
    venue = venue_night(organiser, rounds=1)
    body, _, _ = push_body(as_site(tournament_export_document(tournament=venue)), {})
    with pytest.raises(ServiceError) as refused:
        event_push_apply(token=token, payload=body, by=BY)
    assert "run on this site" in refused.value.message


def test_a_venue_that_reseeds_after_the_first_push_moves_the_seeds_on_the_site(organiser, token):
    venue = venue_night(organiser, rounds=0)
    acked = push_all(venue, token)
    # Re-seeded at the venue before round 1: the first two players change places.
    first, second = venue.entries.order_by("seed")[:2]
    Entry.objects.filter(pk=first.pk).update(seed=100)
    Entry.objects.filter(pk=second.pk).update(seed=1)
    Entry.objects.filter(pk=first.pk).update(seed=2)
    play_round(venue)
    push_all(venue, token, acked)
    site = Tournament.objects.get(slug="night-site")
    same_event(venue, site)
    assert site.entries.get(seed=1).player_id == second.player_id


def test_a_player_renamed_on_the_site_keeps_her_entry_at_the_next_push(organiser, token):
    venue = venue_night(organiser, rounds=1)
    acked = push_all(venue, token)
    site = Tournament.objects.get(slug="night-site")
    entry = site.entries.get(seed=1)
    Player.objects.filter(pk=entry.player_id).update(name="Anna Meyer-Schulz")
    play_round(venue)
    push_all(venue, token, acked)
    assert site.entries.get(seed=1).pk == entry.pk
    assert site.rounds.count() == 2


class SiteInProcess:
    """The club's site answering the venue's push in this process (this test's one
    database: the event arrives as `night-site`)."""

    def __init__(self, token) -> None:
        self.token = token

    def __call__(self, link, body):
        body = copy.deepcopy(body)
        body["head"]["tournament"]["slug"] = "night-site"
        try:
            return 200, event_push_apply(token=self.token, payload=body, by=BY)
        except TakenOverError as exc:
            return 409, {"error": {"code": "taken_over", "message": exc.message}}
        except OutOfStepError as exc:
            return 409, {"error": {"code": "out_of_step"}, "digests": exc.digests}


def test_a_hand_back_on_the_site_reaches_the_venue_through_its_push(organiser, token, monkeypatch):
    monkeypatch.setattr(services, "_send", SiteInProcess(token))
    monkeypatch.setattr(services, "PROBE_SECONDS", 0)
    venue = venue_night(organiser, rounds=1)
    services.site_link_set(
        club=venue.club, site_url="https://club.example", token=token.secret, by=BY
    )
    services.event_publish(tournament=venue, by=BY)
    assert services.event_push(tournament=venue, by=BY).state in ("sent", "up_to_date")
    site = Tournament.objects.get(slug="night-site")
    event_take_over(tournament=site, by=Actor.director(organiser))
    assert services.event_push(tournament=venue, by=BY).state == "handed_over"
    # Read-only at the venue now.
    game = Game.objects.filter(table__round__tournament=venue, table__is_bye=False).first()
    with pytest.raises(ServiceError):
        game_record_out(
            game=game, out=[0, 3, 1][: game.table.seats.count()], correction=True, by=BY
        )
    event_hand_back(tournament=site, by=Actor.director(organiser))
    services.event_push(tournament=venue, by=BY)
    assert written_elsewhere(venue) is None
    play_round(venue)
    services.pushes_due(by=BY)
    same_event(venue, site)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=12,
)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, (*path, i))
    return found


@examples(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_push_damaged_anywhere_is_a_clear_refusal_that_changes_nothing(organiser, token, data):
    """Any part of a valid push replaced by any JSON value: the service answers with a
    refusal (ServiceError, PermissionDenied) or applies it; never another exception, and
    a refusal changes nothing."""
    venue = Tournament.objects.filter(slug="night").first() or venue_night(organiser, rounds=1)
    body, _, _ = push_body(as_site(tournament_export_document(tournament=venue)), {})
    body = json.loads(json.dumps(body))
    path = data.draw(st.sampled_from(_paths(body)[1:]))
    target = body
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = data.draw(JSON)
    before = counts()
    try:
        with transaction.atomic():
            event_push_apply(token=token, payload=body, by=BY)
            transaction.set_rollback(True)
    except (ServiceError, PermissionDenied):
        assert counts() == before
