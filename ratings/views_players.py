"""A player's one page (/players/<id>/): results by tournament, rating history in every
rating system with the per-game changes of the chosen one, and head-to-head records
against everyone they met. /ratings/players/<id>/ of old redirects here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from games import rulesets
from ratings.models import SYSTEM_CHOICES
from ratings.selectors import (
    events_of,
    is_provisional,
    player_game_changes,
    player_history,
    rating_chart,
)
from tournaments.core.visibility import tournaments_visible_to
from tournaments.desk.selectors.players import Record, head_to_head, player_shared_games
from tournaments.models import GAMES, Entry, Player, Tournament
from tournaments.standings.selectors.standings import StandingRow, tournament_standings


def visible_tournaments(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tournament]:
    """Published tournaments, and those the user runs (staff see all)."""
    return tournaments_visible_to(user)


@dataclass
class TournamentResult:
    entry: Entry
    row: StandingRow | None
    rounds_closed: int
    players: int


@dataclass
class NamedRecord:
    name: str
    record: Record


SYSTEMS = dict(SYSTEM_CHOICES)


def chosen_system(request: HttpRequest, player: Player) -> str:
    """The system whose games the page lists: ``?system=``, else the club's, else
    Glicko-2. An unknown name is ignored: the page is the player's either way."""
    asked = request.GET.get("system", "")
    if asked in SYSTEMS:
        return asked
    club_system = player.club.rating_system if player.club else ""
    return club_system if club_system in SYSTEMS else "glicko2"


@require_GET
def player_ratings_redirect(request: HttpRequest, player_id: int) -> HttpResponse:
    """The ratings page of old is the player page now: old links and bookmarks land on
    the same system's section, with their query."""
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    query = request.GET.urlencode()
    url = reverse("player-detail", args=[player.pk]) + (f"?{query}" if query else "")
    return HttpResponsePermanentRedirect(f"{url}#rating-{chosen_system(request, player)}")


@require_GET
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    tournaments = visible_tournaments(request.user)
    entries = (
        Entry.objects.filter(player=player, tournament__in=tournaments)
        .select_related("tournament__club")
        .order_by("-tournament__date", "-tournament__created_at")
    )
    results = []
    for entry in entries:
        standings = tournament_standings(tournament=entry.tournament)
        row = next((r for r in standings.rows if r.entry_id == entry.pk), None)
        results.append(TournamentResult(entry, row, standings.rounds_closed, len(standings.rows)))

    games, names = player_shared_games(player_id=player.pk, tournaments=tournaments)
    # One table per game of the family: their results are not comparable, never summed.
    titles = dict(GAMES)
    by_game: list[dict[str, Any]] = []
    for key in titles:
        played = [g for g in games if g.game == key]
        if played:
            records = [
                NamedRecord(names.get(r.opponent, "?"), r) for r in head_to_head(player.pk, played)
            ]
            by_game.append(
                {
                    "game": key,
                    "title": titles[key],
                    "ruleset": rulesets.get(key),
                    "records": records,
                }
            )
    results_by_game = [
        {"game": key, "title": title, "results": rows}
        for key, title in titles.items()
        if (rows := [r for r in results if r.entry.tournament.game == key])
    ]

    ratings: list[dict[str, Any]] = []
    # Each game of the family has its own ratings; the page shows one game at a time.
    game = request.GET.get("game", rulesets.DEFAULT)
    if game not in dict(GAMES):
        game = rulesets.DEFAULT
    current = {r.system: r for r in player.ratings.filter(game=game)}
    chosen = chosen_system(request, player)
    # One query per system and one for the chosen system's games: a fixed number.
    for system, label in SYSTEM_CHOICES:
        history = player_history(player_id=player.pk, system=system, game=game)
        rating = current.get(system)
        # The chosen system keeps its section, unrated too, when a link asked for it.
        if rating is None and not history and not (system == chosen and "system" in request.GET):
            continue
        values = ([history[0].before] + [h.after for h in history]) if history else []
        ratings.append(
            {
                "system": system,
                "label": label,
                "current": rating,
                "provisional": is_provisional(rating) if rating else True,
                "history": history,
                "chart": rating_chart(history),
                "events": events_of(history),
                "low": min(values) if values else None,
                "high": max(values) if values else None,
                "chosen": system == chosen,
                "changes": (
                    list(player_game_changes(player_id=player.pk, system=system, game=game))
                    if system == chosen
                    else []
                ),
            }
        )
    return render(
        request,
        "tournaments/player.html",
        {
            "player": player,
            "results": results,
            "records_by_game": by_game,
            "results_by_game": results_by_game,
            "games_played": len(games),
            "ratings": ratings,
            "game": game,
            "games": dict(GAMES),  # the game links iterate its items
            "system": chosen,
        },
    )
