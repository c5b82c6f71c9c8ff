"""A club's webhooks (docs/league.md, "Webhooks"), under /clubs/<club>/webhooks/."""

from django.urls import path

from tournaments.webhooks import views

urlpatterns = [
    path("<slug:club_slug>/webhooks/new/", views.webhook_create, name="webhook-create"),
    path(
        "<slug:club_slug>/webhooks/<int:endpoint_id>/test/",
        views.webhook_test,
        name="webhook-test",
    ),
    path(
        "<slug:club_slug>/webhooks/<int:endpoint_id>/active/",
        views.webhook_active,
        name="webhook-active",
    ),
    path(
        "<slug:club_slug>/webhooks/<int:endpoint_id>/delete/",
        views.webhook_delete,
        name="webhook-delete",
    ),
]
