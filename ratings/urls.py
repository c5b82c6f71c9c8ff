from django.urls import path

from . import views

app_name = "ratings"
urlpatterns = [
    path("jobs/ping/", views.job_ping, name="job-ping"),
    path("jobs/<int:pk>/", views.job_detail, name="job-detail"),
]
