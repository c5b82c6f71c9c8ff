from django.urls import path

from tournaments.results.views import board as views
from tournaments.results.views.batch import batch_view
from tournaments.results.views.family import family_view

app_name = "games"

urlpatterns = [
    path("position/", views.position, name="position"),
    # The offline queue's plies, many in one request (views/batch.py, docs/offline.md).
    path("batch/", batch_view, name="batch"),
    path("<int:pk>/", views.replay_view, name="replay"),
    path("<int:pk>/record/", views.record_view, name="record"),
    path("<int:pk>/state/", views.state_view, name="state"),
    path("<int:pk>/view/", family_view, name="view"),
    path("<int:pk>/record/<str:token>/", views.record_view, name="record-token"),
]
