"""The site's pages as the page-wide tests visit them (every page in production, every
page in German): one list, so that a page added to one is visited by both."""

from __future__ import annotations

from django.urls import reverse

from tournaments.models import Club, Entry, Player, Tournament


def site_pages(club: Club) -> list[str]:
    return [
        reverse("home"),
        reverse("login"),
        reverse("ratings:leaderboard"),
        reverse("ratings:club-leaderboard", args=[club.slug]),
        reverse("tournament-create"),
        reverse("tournament-import"),
        reverse("club-detail", args=[club.slug]),
        reverse("club-statistics", args=[club.slug]),
    ]


def player_pages(player: Player) -> list[str]:
    """The one player page, as it opens and with another system's games chosen (the
    address /ratings/players/<id>/ of old only redirects here)."""
    page = reverse("player-detail", args=[player.pk])
    return [page, page + "?system=elo&game=pentagame"]


def tournament_pages(tournament: Tournament, entry: Entry) -> list[str]:
    slug = tournament.slug
    return [
        reverse("tournament-detail", args=[slug]),
        reverse("tournament-standings", args=[slug]),
        reverse("projector", args=[slug]),
        reverse("wall-projector", args=[slug]),
        reverse("entry-detail", args=[slug, entry.pk]),
        reverse("tournament-manage", args=[slug]),
        reverse("tournament-edit", args=[slug]),
        reverse("tournament-crosstable", args=[slug]),
        reverse("tournament-statistics", args=[slug]),
    ]


def round_pages(tournament: Tournament, number: int) -> list[str]:
    args = [tournament.slug, number]
    return [
        reverse("round-detail", args=args),
        reverse("round-detail", args=args) + "?print",
        reverse("round-results", args=args),
        reverse("round-sheets", args=args),
        reverse("round-wall", args=args),
        reverse("round-open-tables", args=args),
    ]
