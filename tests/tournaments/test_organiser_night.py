"""The smaller defects of the organiser's night: ratings taken from the club's records
instead of blank or 0, seeding by rating that says what it did, a printable pairing
sheet without private links, the player page keeping each game of the family apart,
the colour letters explained, and the German of forms, notes and service messages."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from ratings.models import PlayerRating
from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.core.errors import ServiceError
from tournaments.desk.selectors.players import SharedGame, head_to_head
from tournaments.desk.services.entries import entries_paste, entries_reseed_by_rating, entry_add
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Entry
from tournaments.results.services.results import Actor
from tournaments.standings.selectors.standings import StandingRow, tournament_standings

BY = Actor.command()


def _rated(player, rating: float, system: str = "glicko2") -> None:
    PlayerRating.objects.create(player=player, game="pentagame", system=system, rating=rating)


@pytest.mark.django_db
def test_a_rated_club_member_entered_without_a_rating_keeps_their_rating():
    tournament = tournament_with_players(0)
    anna = entry_add(tournament=tournament, name="Anna", by=BY)
    _rated(anna.player, 1612.4)
    evening = tournament_with_players(0, club=tournament.club, kind="evening", slug="evening")
    again = entry_add(tournament=evening, name="Anna", by=BY)
    assert again.rating == 1612
    # A typed rating still wins, and nobody unrated is given 0.
    assert entry_add(tournament=evening, name="Bert", rating=1400, by=BY).rating == 1400
    assert entry_add(tournament=evening, name="Cleo", by=BY).rating is None


@pytest.mark.django_db
def test_seeding_by_rating_fills_blank_ratings_and_counts_the_unrated():
    tournament = tournament_with_players(0)
    entries_paste(tournament=tournament, text="Anna\nBert\nCleo", by=BY)
    entries = {e.player.name: e for e in tournament.entries.select_related("player")}
    _rated(entries["Bert"].player, 1700)
    _rated(entries["Cleo"].player, 1500)
    unrated = entries_reseed_by_rating(tournament=tournament, by=BY)
    assert unrated == 1
    seeded = list(tournament.entries.order_by("seed").values_list("player__name", "rating"))
    assert seeded == [("Bert", 1700), ("Cleo", 1500), ("Anna", None)]


@pytest.mark.django_db
def test_seeding_without_any_rating_says_so_instead_of_claiming_success(client):
    user = UserFactory()
    tournament = tournament_with_players(0)
    tournament.directors.add(user)
    entries_paste(tournament=tournament, text="Anna\nBert", by=BY)
    client.force_login(user)
    response = client.post(reverse("entries-reseed", args=[tournament.slug]), follow=True)
    page = response.content.decode()
    assert "No player has a rating yet" in page
    assert "Seeds now follow the ratings." not in page


@pytest.mark.django_db
def test_the_printable_pairing_sheet_carries_no_private_report_link(client):
    user = UserFactory()
    tournament = tournament_with_players(4)
    tournament.directors.add(user)
    round_publish(round=round_pair_next(tournament=tournament, by=BY), by=BY)
    client.force_login(user)
    page = client.get(reverse("round-detail", args=[tournament.slug, 1]) + "?print").content
    assert b"/report/" not in page
    # The organiser's own screen still lists them.
    manage = client.get(reverse("tournament-manage", args=[tournament.slug])).content
    assert b"/report/" in manage


@pytest.mark.django_db
def test_the_round_page_says_what_the_colour_letters_are(client):
    tournament = tournament_with_players(4)
    round_publish(round=round_pair_next(tournament=tournament, by=BY), by=BY)
    page = client.get(reverse("round-detail", args=[tournament.slug, 1])).content.decode()
    assert "Letters after a result (A–Z) name the colours" in page


def test_head_to_head_of_another_game_uses_its_own_points_not_pieces_out():
    # PentaCosmos results are points (40 beats 10), far above Pentagame's target of 3:
    # counted as pieces out they gave a win a nonsense dropped score.
    won = SharedGame(players=(1, 2), out=(40, 10), target=3, game="pentacosmos")
    lost = SharedGame(players=(1, 2), out=(5, 30), target=3, game="pentacosmos")
    (record,) = head_to_head(1, [won, lost, lost, lost])
    assert (record.wins, record.losses) == (1, 3)
    assert record.balance < 0


def test_standings_notes_are_codes_said_in_the_readers_language():
    # A late entrant's missed rounds are one note, when she entered (issue 27, item 7).
    marks = (("late", 1), ("late", 2), ("absent", 3))
    row = StandingRow(1, 1, "Anna", 0, 0, 0, 0, 0, (), marks=marks)
    with translation.override("en"):
        assert row.notes == "entered in round 3, absent in round 3"
    with translation.override("de"):
        assert row.notes == "dabei ab Runde 3, abwesend in Runde 3"


@pytest.mark.django_db
def test_a_service_error_is_said_in_german():
    tournament = tournament_with_players(0)
    with translation.override("de"), pytest.raises(ServiceError) as error:
        entries_paste(tournament=tournament, text="   ", by=BY)
    assert error.value.message == "die Liste ist leer"


@pytest.mark.django_db
def test_the_new_tournament_form_is_german_down_to_its_choices_and_help(client):
    user = UserFactory()
    ClubFactory().organisers.add(user)
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    page = client.get(reverse("tournament-create")).content.decode()
    assert "Schweizer-System-Turnier" in page and "Swiss tournament" not in page
    assert "Veröffentlichte Turniere sind für alle sichtbar." in page
    assert "Zeitfaktor, 2er-Tisch" in page


@pytest.mark.django_db
def test_the_rating_tie_break_of_an_unrated_player_is_shown_as_a_dash_not_0(client):
    tournament = tournament_with_players(2, tiebreaks=["rating"])
    rated = tournament.entries.order_by("seed").first()
    Entry.objects.filter(pk=rated.pk).update(rating=1550)
    rows = {r.entry_id: r for r in tournament_standings(tournament=tournament).rows}
    assert [r.shown for r in rows.values()] == [
        (1550.0,) if e == rated.pk else (None,) for e in rows
    ]
    page = client.get(reverse("tournament-standings", args=[tournament.slug])).content.decode()
    assert '<span title="no rating">—</span>' in page
    assert "1550" in page
