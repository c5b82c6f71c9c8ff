"""The link's doors (docs/venue.md)."""

from django.urls import path

from tournaments.link.views import push

urlpatterns = [
    path("api/v1/venue/push/", push.push, name="venue-push"),
]
