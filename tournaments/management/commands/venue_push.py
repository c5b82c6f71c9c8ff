"""Publish a venue's events to the club's site (docs/venue.md): link the club once, then
push what the site has not acknowledged, once or in a loop beside the venue's server."""

from __future__ import annotations

import signal
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.core.actor import Actor
from tournaments.core.errors import ServiceError
from tournaments.link.services import event_publish, pushes_due, site_link_set
from tournaments.models import Club, SiteLink


class Command(BaseCommand):
    help = "Push this venue's events to the club's site (once, or --loop)."
    # Started again and again by the organiser or a loop: the system checks (2 s of CPU)
    # belong to the server's start, not to each push.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--club", help="the club's slug (to link it, or publish its events)")
        parser.add_argument("--site", help="the club's site, e.g. https://club.example.org")
        parser.add_argument("--token", help="the token made on the club's site (agv_…)")
        parser.add_argument(
            "--publish-all",
            action="store_true",
            help="publish every event of the linked club(s) from now on",
        )
        parser.add_argument("--loop", action="store_true", help="push again every --every s")
        parser.add_argument("--every", type=float, default=5.0)

    def handle(self, *args: Any, **options: Any) -> None:
        by = Actor.command()
        if options["site"] or options["token"]:
            club = Club.objects.filter(slug=options["club"] or "").first()
            if club is None or not (options["site"] and options["token"]):
                raise CommandError("--club, --site and --token together link a club")
            try:
                site_link_set(club=club, site_url=options["site"], token=options["token"], by=by)
            except ServiceError as exc:
                raise CommandError(f"{exc.field}: {exc.message}") from None
            self.stdout.write(f"{club.slug} is linked to {options['site']}")
        if options["publish_all"]:
            links = SiteLink.objects.select_related("club")
            if options["club"]:
                links = links.filter(club__slug=options["club"])
            for link in links:
                for tournament in link.club.tournaments.all():
                    event_publish(tournament=tournament, by=by)
        stopping = []
        signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
        while True:
            for slug, outcome in pushes_due(by=by):
                rounds = f" rounds {list(outcome.rounds)}" if outcome.rounds else ""
                self.stdout.write(f"{slug}: {outcome.state}{rounds} {outcome.message}".rstrip())
            self.stdout.flush()
            if not options["loop"] or stopping:
                return
            time.sleep(options["every"])
            if stopping:
                return
