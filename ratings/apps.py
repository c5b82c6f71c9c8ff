from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"

    def ready(self) -> None:
        # Listens to tournaments/signals.py; tournaments never import the ratings.
        from . import receivers

        receivers.connect()
