from django.urls import path

from . import views, views_desk, views_editor, views_live, views_manage, views_print, views_teams

urlpatterns = [
    path("new/", views_manage.tournament_create, name="tournament-create"),
    path("import/", views_manage.tournament_import, name="tournament-import"),
    path("<slug:slug>/", views.tournament_detail, name="tournament-detail"),
    path("<slug:slug>/standings/", views.tournament_standings_view, name="tournament-standings"),
    path("<slug:slug>/teams/", views_teams.team_standings_view, name="team-standings"),
    path("<slug:slug>/crosstable/", views.tournament_crosstable_view, name="tournament-crosstable"),
    path(
        "<slug:slug>/crosstable.csv",
        views.tournament_crosstable_csv,
        name="tournament-crosstable-csv",
    ),
    path("<slug:slug>/projector/", views_live.projector, name="projector"),
    path("<slug:slug>/projector/data.json", views_live.projector_data, name="projector-data"),
    path("<slug:slug>/export.json", views.tournament_export, name="tournament-export"),
    path("<slug:slug>/rounds/<int:number>/", views.round_detail, name="round-detail"),
    path("<slug:slug>/rounds/<int:number>/sheets/", views_print.round_sheets, name="round-sheets"),
    path("<slug:slug>/players/<int:entry_id>/", views.entry_detail, name="entry-detail"),
    path("<slug:slug>/manage/", views_manage.tournament_manage, name="tournament-manage"),
    path("<slug:slug>/manage/settings/", views_manage.tournament_edit, name="tournament-edit"),
    path("<slug:slug>/manage/entries/paste/", views_desk.entries_paste, name="entries-paste"),
    path("<slug:slug>/manage/entries/late/", views_desk.entry_add_late, name="entry-add-late"),
    path("<slug:slug>/manage/teams/paste/", views_teams.teams_paste, name="teams-paste"),
    path("<slug:slug>/manage/teams/form/", views_teams.team_form, name="team-form"),
    path("<slug:slug>/manage/teams/<int:team_id>/edit/", views_teams.team_edit, name="team-edit"),
    path(
        "<slug:slug>/manage/teams/<int:team_id>/withdraw/",
        views_teams.team_withdraw,
        name="team-withdraw",
    ),
    path(
        "<slug:slug>/manage/teams/<int:team_id>/readmit/",
        views_teams.team_readmit,
        name="team-readmit",
    ),
    path(
        "<slug:slug>/manage/teams/<int:team_id>/dissolve/",
        views_teams.team_dissolve,
        name="team-dissolve",
    ),
    path("<slug:slug>/manage/check-in/", views_desk.check_in, name="check-in"),
    path(
        "<slug:slug>/manage/check-in/everyone/",
        views_desk.entries_check_in_all,
        name="check-in-everyone",
    ),
    path("<slug:slug>/manage/rounds/add/", views_desk.rounds_add, name="rounds-add"),
    path(
        "<slug:slug>/manage/reopen-evening/", views_desk.evening_reopen_view, name="evening-reopen"
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/edit/",
        views_desk.entry_edit,
        name="entry-edit",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/delete/",
        views_desk.entry_delete,
        name="entry-delete",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/readmit/",
        views_desk.entry_readmit,
        name="entry-readmit",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/skip/",
        views_desk.entry_skip,
        name="entry-skip",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/skip/<int:number>/undo/",
        views_desk.entry_unskip,
        name="entry-unskip",
    ),
    path("<slug:slug>/manage/entries/reseed/", views_manage.entries_reseed, name="entries-reseed"),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/withdraw/",
        views_desk.entry_withdraw,
        name="entry-withdraw",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/check-in/",
        views_desk.entry_check_in,
        name="entry-check-in",
    ),
    path("<slug:slug>/manage/forbidden/", views_manage.forbidden_add, name="forbidden-add"),
    path("<slug:slug>/manage/rounds/pair/", views_manage.round_pair, name="round-pair"),
    path(
        "<slug:slug>/manage/rounds/<int:number>/results/",
        views_manage.round_results,
        name="round-results",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/results/<int:game_id>/",
        views_manage.round_result_save,
        name="round-result-save",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/results/accept/<int:submission_id>/",
        views_manage.round_result_accept,
        name="round-result-accept",
    ),
    path(
        "<slug:slug>/manage/submissions/<int:submission_id>/accept/",
        views_manage.submission_accept,
        name="submission-accept",
    ),
    # These two before the round actions too (their <action> would swallow them).
    path(
        "<slug:slug>/manage/rounds/<int:number>/reopen/",
        views_desk.round_reopen,
        name="round-reopen",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/unpublish/",
        views_desk.round_unpublish,
        name="round-unpublish",
    ),
    # The pairing editor, before the round actions too.
    path(
        "<slug:slug>/manage/rounds/<int:number>/edit/",
        views_editor.round_edit,
        name="round-edit",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/edit/check/",
        views_editor.round_edit_check,
        name="round-edit-check",
    ),
    # Before the round actions, whose <action> would otherwise swallow "open".
    path(
        "<slug:slug>/manage/rounds/<int:number>/open/",
        views_print.open_tables,
        name="round-open-tables",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/<str:action>/",
        views_manage.round_action,
        name="round-action",
    ),
    path(
        "<slug:slug>/manage/close-evening/", views_manage.evening_close_view, name="evening-close"
    ),
]
