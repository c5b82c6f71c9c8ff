from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    verbose_name = "Tournaments and club evenings"
    name = "tournaments"
