from django.urls import path

from . import views, views_players

app_name = "ratings"
urlpatterns = [
    path("", views.leaderboard_view, name="leaderboard"),
    path("clubs/<slug:club_slug>/", views.leaderboard_view, name="club-leaderboard"),
    # The one player page is /players/<id>/; this address of old redirects there.
    path("players/<int:player_id>/", views_players.player_ratings_redirect, name="player"),
    path("jobs/ping/", views.job_ping, name="job-ping"),
    path("jobs/<int:pk>/", views.job_detail, name="job-detail"),
]
