"""The tournaments' pages under /t/, each concern's routes from its own urls.py. The
addresses are the same as before the split; the order matters only where a literal
segment would otherwise be taken for a tournament's slug ("import/", "new/")."""

from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.transfer.urls")),
    path("", include("tournaments.results.urls")),
    path("", include("tournaments.standings.urls")),
    path("", include("tournaments.desk.urls")),
]
