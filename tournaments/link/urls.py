"""The link's doors (docs/venue.md)."""

from django.urls import path

from tournaments.link.views import pages, push

urlpatterns = [
    path("api/v1/venue/push/", push.push, name="venue-push"),
    path("clubs/<slug:club_slug>/venue-tokens/", pages.venue_tokens, name="venue-tokens"),
    path(
        "clubs/<slug:club_slug>/venue-tokens/<int:token_id>/revoke/",
        pages.venue_token_revoke,
        name="venue-token-revoke",
    ),
    path("clubs/<slug:club_slug>/site-link/", pages.site_link, name="site-link"),
    path("t/<slug:slug>/manage/link/", pages.event_link_page, name="event-link"),
    path("t/<slug:slug>/manage/link/line/", pages.event_link_line, name="event-link-line"),
]
