from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    """A concern of the tournaments app (docs/architecture.md, docs/league.md
    "Webhooks"): a club's endpoints, their outbox and delivery log. No models: those stay
    in the tournaments app (tournaments/models_webhooks.py)."""

    name = "tournaments.webhooks"
    label = "tournaments_webhooks"

    def ready(self) -> None:
        # The events come as tournaments/signals.py's news (the ratings' one too, sent
        # down by the ratings app). tasks: registered in every process, web ones included,
        # so a delivery the services queue by the task's name runs in-process where tasks
        # are eager.
        from . import receivers, tasks  # noqa: F401

        receivers.connect()
