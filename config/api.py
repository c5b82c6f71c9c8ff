"""/api/v1/: the REST API's routes."""

from django.http import HttpRequest, JsonResponse
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.routers import DefaultRouter
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from config.login import TokenSerializer
from ratings.api import LeaderboardView, PlayerRatingHistoryView
from tournaments.api import desk, results, seasons, standings, webhooks
from tournaments.api.replay import ReplayView
from tournaments.api.schema import ApiSchema
from tournaments.core.json_errors import error_response


class TokenView(ObtainAuthToken):
    """Exchange a username and password for a token (throttled: scope "login")."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"
    serializer_class = TokenSerializer
    # ObtainAuthToken brings its own parsers; ours bound the JSON depth (config/parsers.py).
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    schema = ApiSchema()


@csrf_exempt
def not_found(request: HttpRequest) -> JsonResponse:
    """Any other path under /api/v1/ (a slug with a space, an id that is no number...):
    a JSON 404 like the views', not the site's HTML page."""
    return error_response("Not found.", status=404)


# No format suffixes: a slug such as "config.api" would otherwise be read as the slug
# "config" in the browsable API's HTML, an answer the schema does not document.
class Router(DefaultRouter):
    include_format_suffixes = False


router = Router()
router.register("clubs", desk.ClubViewSet, basename="club")
router.register("players", desk.PlayerViewSet, basename="player")
router.register("tournaments", desk.TournamentViewSet, basename="tournament")
router.register("games", results.GameViewSet, basename="game")

scoped = Router(trailing_slash=True)
scoped.include_root_view = False
scoped.register("entries", desk.EntryViewSet, basename="entry")
scoped.register("rounds", desk.RoundViewSet, basename="round")
scoped.register("teams", desk.TeamViewSet, basename="team")
scoped.register("forbidden-pairs", desk.ForbiddenPairViewSet, basename="forbidden-pair")
scoped.register("submissions", results.SubmissionViewSet, basename="submission")

club_scoped = Router(trailing_slash=True)
club_scoped.include_root_view = False
club_scoped.register("seasons", seasons.SeasonViewSet, basename="season")
club_scoped.register("webhooks", webhooks.WebhookViewSet, basename="webhook")

urlpatterns = [
    path("", include(router.urls)),
    path("tournaments/<slug:slug>/", include(scoped.urls)),
    path("clubs/<slug:club_slug>/", include(club_scoped.urls)),
    path("tournaments/<slug:slug>/standings/", standings.StandingsView.as_view(), name="standings"),
    path("report/<str:token>/games/<int:game_id>/", results.ReportView.as_view(), name="report"),
    path(
        "report/<str:token>/games/<int:game_id>/plies/",
        results.PlyView.as_view(),
        name="report-plies",
    ),
    path(
        "report/<str:token>/games/<int:game_id>/confirm/",
        results.ConfirmView.as_view(),
        name="report-confirm",
    ),
    path(
        "report/<str:token>/games/<int:game_id>/timer/",
        results.TimerView.as_view(),
        name="report-timer",
    ),
    path("report/<str:token>/night/", results.NightView.as_view(), name="report-night"),
    path(
        "tournaments/<slug:slug>/rounds/<int:number>/night/",
        results.RoundNightView.as_view(),
        name="round-night",
    ),
    path(
        "tournaments/<slug:slug>/notices/<int:notice_id>/undo/",
        results.NoticeUndoView.as_view(),
        name="notice-undo",
    ),
    path(
        "tournaments/<slug:slug>/seats/<int:seat_id>/seen/",
        results.SeatSeenView.as_view(),
        name="seat-seen",
    ),
    path(
        "tournaments/<slug:slug>/seats/<int:seat_id>/forfeit/",
        results.SeatForfeitView.as_view(),
        name="seat-forfeit",
    ),
    path("rules/replay/", ReplayView.as_view(), name="rules-replay"),
    path("ratings/", LeaderboardView.as_view(), name="leaderboard"),
    path(
        "players/<int:player_id>/ratings/", PlayerRatingHistoryView.as_view(), name="player-ratings"
    ),
    path("auth/token/", TokenView.as_view(), name="token"),
    # Last: paths ending in a slash that nothing above took. The schema and its docs
    # page are routed next to this module in config/urls.py and must stay reachable;
    # a path without its slash still gets the usual redirect (APPEND_SLASH).
    re_path(r"^(?!schema/|docs/)[\s\S]*/$", not_found),
]
