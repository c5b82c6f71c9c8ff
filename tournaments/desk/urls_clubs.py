"""A club's own pages: its seasons and its statistics (issue 26)."""

from django.urls import path

from tournaments.desk.views import calendar, clubs
from tournaments.standings.views import statistics

urlpatterns = [
    path("<slug:club_slug>/", clubs.club_detail, name="club-detail"),
    path("<slug:club_slug>/calendar.ics", calendar.club_calendar_feed, name="club-calendar"),
    path("<slug:club_slug>/statistics/", statistics.club_statistics_view, name="club-statistics"),
    path("<slug:club_slug>/seasons/new/", clubs.season_create, name="season-create"),
    path(
        "<slug:club_slug>/seasons/<slug:season_slug>/statistics/",
        statistics.season_statistics_view,
        name="season-statistics",
    ),
    path(
        "<slug:club_slug>/seasons/<slug:season_slug>/calendar.ics",
        calendar.season_calendar_feed,
        name="season-calendar",
    ),
    path(
        "<slug:club_slug>/seasons/<slug:season_slug>/",
        clubs.season_detail,
        name="season-detail",
    ),
    path(
        "<slug:club_slug>/seasons/<slug:season_slug>/settings/",
        clubs.season_edit,
        name="season-edit",
    ),
    path(
        "<slug:club_slug>/seasons/<slug:season_slug>/players/<int:player_id>/",
        clubs.season_player,
        name="season-player",
    ),
]
