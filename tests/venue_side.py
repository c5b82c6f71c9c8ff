"""The venue's side of the two-site tests (tests/tournaments/test_two_sites.py), run in a
process of its own on its own SQLite file, as the organiser's laptop runs it:

    python -m tests.venue_side setup --club kiel --slug night --players 9
    python -m tests.venue_side round --slug night --seed 1

Every write goes through the services, as the venue's pages make it. The same seeds
play the same evening on any venue."""

from __future__ import annotations

import argparse
import os

import django


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.contrib.auth import get_user_model

    from tournaments.core.actor import Actor
    from tournaments.demo import random_record
    from tournaments.desk.services.clubs import club_create
    from tournaments.desk.services.entries import entry_add
    from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
    from tournaments.desk.services.tournaments import tournament_create
    from tournaments.models import Club, Game, Tournament
    from tournaments.results.services.results import game_record_moves

    parser = argparse.ArgumentParser()
    parser.add_argument("action", choices=["setup", "round"])
    parser.add_argument("--club", default="kiel")
    parser.add_argument("--slug", default="night")
    parser.add_argument("--players", type=int, default=9)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    user, _ = get_user_model().objects.get_or_create(
        username="venue-organiser", defaults={"is_staff": True}
    )
    by = Actor.director(user)
    if args.action == "setup":
        club = Club.objects.filter(slug=args.club).first() or club_create(
            name=args.club.title(), slug=args.club, by=by
        )
        club.organisers.add(user)
        tournament = tournament_create(
            club=club,
            name="Evening at the venue",
            slug=args.slug,
            rounds_planned=args.rounds,
            published=True,
            by=by,
        )
        for i in range(args.players):
            entry_add(tournament=tournament, name=f"Player {i + 1:02d}", by=by)
        return
    tournament = Tournament.objects.get(slug=args.slug)
    round_ = round_pair_next(tournament=tournament, by=by)
    round_publish(round=round_, by=by)
    games = Game.objects.filter(table__round=round_, table__is_bye=False).select_related("table")
    for i, game in enumerate(games.order_by("table__number", "number")):
        moves, setup = random_record(
            tournament.game, game.table.seats.count(), args.seed * 1000 + i
        )
        game_record_moves(game=game, moves=moves, finished=True, setup=setup, by=by)
    round_close(round=round_, by=by)


if __name__ == "__main__":
    main()
