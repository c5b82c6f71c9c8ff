from django.apps import AppConfig


class DeskConfig(AppConfig):
    """A concern of the tournaments app (docs/architecture.md): an app of its own so that
    its templates, static files and template tags sit beside its code. No models: those
    stay in the tournaments app."""

    name = "tournaments.desk"
    label = "tournaments_desk"
