from django.urls import path

from . import views

app_name = "ratings"
urlpatterns = [
    path("", views.leaderboard_view, name="leaderboard"),
    path("clubs/<slug:club_slug>/", views.leaderboard_view, name="club-leaderboard"),
    path("players/<int:player_id>/", views.player_view, name="player"),
    path("jobs/ping/", views.job_ping, name="job-ping"),
    path("jobs/<int:pk>/", views.job_detail, name="job-detail"),
]
