"""The results' pages under /t/<slug>/: the results screen, a round's open tables,
the accept and confirm actions."""

from django.urls import path

from tournaments.results.views import results

urlpatterns = [
    path(
        "<slug:slug>/manage/rounds/<int:number>/results/",
        results.round_results,
        name="round-results",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/results/<int:game_id>/",
        results.round_result_save,
        name="round-result-save",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/results/<int:game_id>/clear-flag/",
        results.round_result_clear_flag,
        name="round-result-clear-flag",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/results/accept/<int:submission_id>/",
        results.round_result_accept,
        name="round-result-accept",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/results/set-aside/<int:submission_id>/",
        results.round_result_set_aside,
        name="round-result-set-aside",
    ),
    path(
        "<slug:slug>/manage/submissions/<int:submission_id>/accept/",
        results.submission_accept,
        name="submission-accept",
    ),
]
