from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self) -> None:
        # Listens to tournaments/signals.py, and answers the one question the tournaments
        # ask (tournaments/starting_ratings.py); tournaments never import the ratings.
        from tournaments import starting_ratings

        from . import receivers, selectors

        receivers.connect()
        starting_ratings.register(selectors.starting_ratings)
