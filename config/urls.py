from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponseRedirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.login import AdminLoginForm, LoginForm
from ratings import views_players as rating_views_players
from tournaments.desk.views import night as night_views
from tournaments.desk.views import public as tournament_views
from tournaments.results.views import offline as offline_views
from tournaments.results.views import results as tournament_results

admin.site.login_form = AdminLoginForm


def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """Browsers ask for /favicon.ico on pages that name no icon (the admin's, the API
    docs', a JSON answer): the site's icon. Not permanent: its static name carries a
    hash that changes with the file."""
    return HttpResponseRedirect(static("agon/favicon.svg"))


urlpatterns = [
    path("", tournament_views.home, name="home"),
    path("healthz", tournament_views.healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    # At the root: a service worker's scope is the folder it is served from (issue 25).
    path("sw.js", offline_views.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline_views.manifest, name="manifest"),
    path(
        "accounts/login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("t/", include("tournaments.urls")),
    path("clubs/", include("tournaments.webhooks.urls")),
    path("clubs/", include("tournaments.desk.urls_clubs")),
    # A player's own link (their seat's token); the table-wide link of old is retired.
    path("report/<str:token>/", tournament_results.seat_report, name="seat-report"),
    # Her night from the same link: leaving, skipping the next round, late (docs/results.md).
    path("report/<str:token>/night/", night_views.seat_night, name="seat-night"),
    path("players/<int:player_id>/", rating_views_players.player_detail, name="player-detail"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("ratings/", include("ratings.urls")),
    path("games/", include("tournaments.results.urls_games")),
    # Before the API: its last route answers every other address under /api/v1/.
    path("", include("tournaments.link.urls")),
    path("api/v1/", include(("config.api", "api"), namespace="api")),
    path("api/v1/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its script as a file (the Content-Security-Policy allows no
    # inline script); Swagger UI's page still carries one inline <style>, allowed here only.
    path(
        "api/v1/docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(
            SpectacularSwaggerSplitView.as_view(url_name="schema")
        ),
        name="api-docs",
    ),
]

# Refusals are pages of the site that say why (JSON for JSON clients): config/errors.py.
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.unavailable.server_error"
