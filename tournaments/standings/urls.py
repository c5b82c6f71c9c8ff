"""The standings' pages under /t/<slug>/: standings, crosstable, statistics."""

from django.urls import path

from tournaments.standings.views import standings, statistics

urlpatterns = [
    path(
        "<slug:slug>/standings/", standings.tournament_standings_view, name="tournament-standings"
    ),
    path(
        "<slug:slug>/statistics/",
        statistics.tournament_statistics_view,
        name="tournament-statistics",
    ),
    path(
        "<slug:slug>/crosstable/",
        standings.tournament_crosstable_view,
        name="tournament-crosstable",
    ),
    path(
        "<slug:slug>/crosstable.csv",
        standings.tournament_crosstable_csv,
        name="tournament-crosstable-csv",
    ),
]
