"""English and German through Django's i18n, switchable per user; and the accessibility
basics every page keeps (lang, skip link, labelled fields, captioned tables)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.factories import ClubFactory, UserFactory, tournament_with_players
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.models import Game
from tournaments.results.services.results import Actor, game_record_out

ROOT = Path(settings.BASE_DIR)
PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
# Results entered as a director's own script would: final at once.
DIRECTOR = Actor.command()


def test_the_settings_offer_english_and_german():
    assert dict(settings.LANGUAGES) == {"en": "English", "de": "Deutsch"}
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE
    assert ROOT / "locale" in [Path(p) for p in settings.LOCALE_PATHS]


def test_the_compiled_catalogue_is_in_the_tree_and_uses_the_books_words():
    assert PO.exists() and PO.with_suffix(".mo").exists()
    with translation.override("de"):
        assert translation.gettext("Standings") == "Rangliste"
        assert translation.gettext("Table") == "Tisch"
        assert translation.gettext("Game") == "Partie"
        assert translation.gettext("Player") == "Spieler"
        # The book's turn is a Runde; a Zug is a move (docs/glossary.md).
        assert translation.gettext("Round (turn)") == "Runde"
        assert translation.gettext("Moves") == "Züge"


def test_every_message_has_a_german_translation():
    untranslated = []
    entry: dict[str, str] = {}
    key = ""
    for line in [*PO.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry.get("msgid") and not all(
                v for k, v in entry.items() if k.startswith("msgstr")
            ):
                untranslated.append(entry["msgid"])
            entry = {}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[key] += line[1:-1]
        else:
            key, _, value = line.partition(" ")
            entry[key] = value[1:-1]
    assert untranslated == []


def test_every_template_outside_the_board_is_marked_for_translation():
    unmarked = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "templates").rglob("*.html")
        if "games" not in path.parts and "i18n" not in path.read_text(encoding="utf-8")
    ]
    assert unmarked == []


@pytest.mark.django_db
def test_the_browser_language_is_followed(client):
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content.decode()
    assert '<html lang="de">' in page and "Turniere und Spieleabende" in page
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en">' in page and "Tournaments and club evenings" in page


@pytest.mark.django_db
def test_a_users_choice_is_kept_in_the_language_cookie_across_logins(client):
    user = UserFactory(username="anna")
    client.force_login(user)
    response = client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert response.status_code == 302
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "de" and int(cookie["max-age"]) >= 30 * 24 * 3600
    tournament = tournament_with_players(2)
    page = client.get(reverse("tournament-detail", args=[tournament.slug])).content.decode()
    assert '<html lang="de">' in page and "Rangliste" in page and "<h2>Runden</h2>" in page
    client.post(reverse("logout"))  # the site's own logout, as a browser would
    client.force_login(user)
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="de">' in page
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert '<html lang="en">' in client.get(reverse("home")).content.decode()


class _Audit(HTMLParser):
    """Collects what the accessibility checks need from a page."""

    def __init__(self) -> None:
        super().__init__()
        self.label_for: set[str] = set()
        self.fields: list[tuple[dict[str, str | None], int]] = []
        self.depth_label = 0
        self.tables: list[dict[str, object]] = []
        self.th_without_scope = 0
        self.skip_link = False
        self.main = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "label":
            self.depth_label += 1
            if a.get("for"):
                self.label_for.add(a["for"] or "")
        elif tag in {"input", "select", "textarea"}:
            if a.get("type") not in {"hidden", "submit", "button"}:
                self.fields.append((a, self.depth_label))
        elif tag == "table":
            self.tables.append({"labelled": bool(a.get("aria-labelledby")), "caption": False})
        elif tag == "caption" and self.tables:
            self.tables[-1]["caption"] = True
        elif tag == "th" and "scope" not in a:
            self.th_without_scope += 1
        elif tag == "a" and a.get("href") == "#main":
            self.skip_link = True
        elif tag == "main" and a.get("id") == "main":
            self.main = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self.depth_label -= 1

    def unlabelled(self) -> list[str]:
        return [
            str(a.get("name"))
            for a, inside in self.fields
            if not inside and a.get("id") not in self.label_for and not a.get("aria-label")
        ]


@pytest.fixture
def running(client):
    user = UserFactory(username="org")
    club = ClubFactory(name="Berlin", slug="berlin")
    club.organisers.add(user)
    tournament = tournament_with_players(5, club=club)
    round_ = round_pair_next(tournament=tournament, by=Actor.command())
    round_publish(round=round_, by=Actor.command())
    game = Game.objects.filter(table__round=round_).first()
    game_record_out(
        by=DIRECTOR, game=game, out=[3, 1] if game.table.seats.count() == 2 else [3, 1, 2]
    )
    return user, tournament, round_


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "de"])
def test_pages_are_labelled_captioned_and_skippable(client, running, language):
    user, tournament, round_ = running
    table = round_.tables.exclude(is_bye=True).first()
    player = tournament.entries.first().player
    public = [
        reverse("home"),
        reverse("tournament-detail", args=[tournament.slug]),
        reverse("tournament-standings", args=[tournament.slug]),
        reverse("round-detail", args=[tournament.slug, 1]),
        reverse("round-wall", args=[tournament.slug, 1]),
        reverse("seat-report", args=[table.seats.first().report_token]),
        reverse("player-detail", args=[player.pk]),
        reverse("ratings:leaderboard"),
        reverse("login"),
    ]
    organiser = [
        reverse("tournament-manage", args=[tournament.slug]),
        reverse("round-results", args=[tournament.slug, 1]),
        reverse("round-sheets", args=[tournament.slug, 1]),
        reverse("round-open-tables", args=[tournament.slug, 1]),
    ]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for i, url in enumerate(public + organiser):
        if i == len(public):
            client.force_login(user)
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert f'<html lang="{language}">' in html, url
        audit = _Audit()
        audit.feed(html)
        assert audit.skip_link and audit.main, url
        assert audit.unlabelled() == [], url
        assert all(t["caption"] or t["labelled"] for t in audit.tables), url
        assert audit.th_without_scope == 0, url


@pytest.mark.django_db
def test_organiser_messages_follow_the_language(client):
    from tests.factories import UserFactory, tournament_with_players
    from tournaments.desk.services.rounds import round_pair_next

    user = UserFactory(username="de-org")
    tournament = tournament_with_players(2)
    tournament.directors.add(user)
    round_pair_next(tournament=tournament, by=Actor.command())
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    response = client.post(
        reverse("round-action", args=[tournament.slug, 1, "publish"]), follow=True
    )
    assert "Runde 1 veröffentlicht." in response.content.decode()
