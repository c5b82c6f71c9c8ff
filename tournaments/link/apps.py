from django.apps import AppConfig


class LinkConfig(AppConfig):
    """A concern of the tournaments app (docs/architecture.md): the link between a venue
    and the club's site (docs/venue.md). No models: those stay in the tournaments app."""

    name = "tournaments.link"
    label = "tournaments_link"
