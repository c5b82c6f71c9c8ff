"""Every page in German: rendered with the demo data in English and in German, no text
of the German page may be an English sentence that the English page shows too (a
string someone forgot to mark or to translate). Names and notation are allowed."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.urls import reverse

from games import rulesets
from tests.factories import UserFactory
from tests.pages import player_pages, round_pages, site_pages, tournament_pages
from tournaments.core.actor import Actor
from tournaments.demo import CLUB, EVENING, SWISS, demo_load
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.teams import team_add
from tournaments.models import Club, Game, Player, Season, Seat, Tournament
from tournaments.results.services.results import game_record_out

# Attributes a reader hears or sees as text.
TEXT_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "aria-roledescription"}
# The same in both languages on purpose: the paste forms' example names.
ALLOWED = {"Anna, 1620 Bert Cleo, 1500", "Anna Adler + Ben Berg Stars: Cleo, 1500 + Dora"}
TEAMS = "pairs-2026"
SENTENCE = re.compile(r"[^\W\d_]{2,}\W+[^\W\d_]{2,}")
URL = re.compile(r"https?://\S+")


class _Texts(HTMLParser):
    """Text nodes and spoken attribute values, outside <script> and <style> and outside
    parts marked lang="en" (the family games' position descriptions, which their pure
    rules cores write in English only; the page says so to screen readers)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip = 0
        self._english: list[list[object]] = []  # [tag, depth] of open lang="en" parts

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._english and self._english[-1][0] == tag:
            self._english[-1][1] = int(str(self._english[-1][1])) + 1
        elif tag != "html" and dict(attrs).get("lang") == "en":
            self._english.append([tag, 1])
        if tag in {"script", "style"}:
            self._skip += 1
        if self._english:
            return
        for name, value in attrs:
            if name in TEXT_ATTRIBUTES and value:
                self.texts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"}:
            self._skip -= 1
        if self._english and self._english[-1][0] == tag:
            self._english[-1][1] = int(str(self._english[-1][1])) - 1
            if self._english[-1][1] == 0:
                self._english.pop()

    def handle_data(self, data: str) -> None:
        if not self._skip and not self._english:
            self.texts.append(data)


def sentences(html: str, names: list[str]) -> set[str]:
    """The texts of a page that still read as words once the names (players,
    tournaments, clubs, games) and links are taken out."""
    parser = _Texts()
    parser.feed(html)
    found = set()
    for text in parser.texts:
        text = " ".join(text.split())
        rest = URL.sub(" ", text)
        for name in names:
            rest = rest.replace(name, " ")
        if text not in ALLOWED and SENTENCE.search(rest):
            found.add(text)
    return found


def names() -> list[str]:
    found = {"Agon", *(title for _, title in rulesets.choices())}
    found |= set(Player.objects.values_list("name", flat=True))
    found |= set(Tournament.objects.values_list("name", flat=True))
    found |= set(Season.objects.values_list("name", flat=True))
    for name, city in Club.objects.values_list("name", "city"):
        found |= {name, city}
    # Longest first: "Pent-Up afternoon" goes before "Pent-Up".
    return sorted(found - {""}, key=len, reverse=True)


def pages() -> list[str]:
    """Every page the demo data can show: public, player and organiser pages."""
    swiss = Tournament.objects.get(slug=SWISS)
    evening = Tournament.objects.get(slug=EVENING)
    club = Club.objects.get(slug="pentagame-club-hamburg")
    player = Player.objects.get(name="Jan Suchanek")
    urls: list[str] = [
        *site_pages(club),
        reverse("season-create", args=[club.slug]),
        *player_pages(player),
    ]
    for season in Season.objects.filter(club=club):
        urls += [
            reverse("season-detail", args=[club.slug, season.slug]),
            reverse("season-detail", args=[club.slug, season.slug]) + "?projector",
            reverse("season-edit", args=[club.slug, season.slug]),
            reverse("season-statistics", args=[club.slug, season.slug]),
            reverse("season-player", args=[club.slug, season.slug, player.pk]),
        ]
    for tournament in Tournament.objects.all():
        slug = tournament.slug
        entry = tournament.entries.order_by("seed").first()
        urls += tournament_pages(tournament, entry)
        team = tournament.teams.order_by("seed").first()
        if team is not None:
            urls += [
                reverse("team-standings", args=[slug]),
                reverse("team-edit", args=[slug, team.pk]),
                reverse("team-withdraw", args=[slug, team.pk]),
                reverse("team-dissolve", args=[slug, team.pk]),
            ]
        for round_ in tournament.rounds.all():
            urls += round_pages(tournament, round_.number)
        game = Game.objects.filter(table__round__tournament=tournament).exclude(moves=[]).first()
        if game is not None:
            if tournament.game != "pentagame":
                urls.append(reverse("games:view", args=[game.pk]))
            else:
                urls += [
                    reverse("games:replay", args=[game.pk]),
                    reverse("games:record", args=[game.pk]),
                ]
    open_round = swiss.rounds.order_by("-number").first()
    seat = Seat.objects.filter(table__round=open_round, table__is_bye=False).first()
    urls.append(reverse("seat-report", args=[seat.report_token]))
    urls.append(
        reverse("games:record-token", args=[seat.table.games.first().pk, seat.report_token])
    )
    assert evening.rounds.exists()
    return urls


@pytest.fixture
def demo(db):
    organiser = UserFactory(username="organiser", is_staff=True)  # the demo's staff account
    demo_load(organiser=organiser)
    _team_event(organiser)
    return organiser


def _team_event(organiser) -> None:
    """A 2 vs 2 event with a round played, for the team pages (the demo has none)."""
    from tournaments.desk.services.tournaments import tournament_create

    by = Actor.director(organiser)
    event = tournament_create(
        club=Club.objects.get(slug=CLUB),
        name="Pairs 2026",
        slug=TEAMS,
        kind=Tournament.Kind.TEAMS,
        rounds_planned=2,
        published=True,
        by=by,
    )
    players = Player.objects.filter(club__slug=CLUB).order_by("name")[:8]
    for i in range(4):
        first, second = players[2 * i].name, players[2 * i + 1].name
        team_add(tournament=event, name=f"Team {i + 1}", players=[first, second], by=by)
    round_ = round_pair_next(tournament=event, by=by)
    round_publish(round=round_, by=by)
    for game in Game.objects.filter(table__round=round_):
        game_record_out(game=game, out=[3, 1, 2, 1], by=by)
    round_close(round=round_, by=by)
    round_publish(round=round_pair_next(tournament=event, by=by), by=by)


@pytest.mark.django_db
def test_no_page_shows_an_english_sentence_in_german(client, demo):
    client.force_login(demo)
    known = names()
    leftovers: dict[str, set[str]] = {}
    for url in pages():
        rendered = {}
        for language in ("en", "de"):
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            rendered[language] = sentences(response.content.decode(), known)
        left = rendered["de"] & rendered["en"]
        if left:
            leftovers[url] = left
    report = "\n".join(f"{url}: {sorted(left)}" for url, left in leftovers.items())
    assert not leftovers, report
