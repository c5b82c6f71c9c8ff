from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self) -> None:
        # Listens to tournaments/signals.py, and answers the one question the tournaments
        # ask (tournaments/starting_ratings.py); tournaments never import the ratings.
        from tournaments import starting_ratings

        # tasks: registered here in every process, web ones included, so a job the
        # services queue by the task's name runs in-process where tasks are eager.
        from . import receivers, selectors, tasks  # noqa: F401

        receivers.connect()
        starting_ratings.register(selectors.starting_ratings)
