"""The desk's pages under /t/: creating and running an event, its players, rounds,
pairing editor, teams, public round and player pages, the projector, print and the
wall list."""

from django.urls import path

from tournaments.desk.views import desk, editor, night, print, public, run, teams, wall
from tournaments.desk.views import projector as live

urlpatterns = [
    path("new/", run.tournament_create, name="tournament-create"),
    path("<slug:slug>/", public.tournament_detail, name="tournament-detail"),
    path("<slug:slug>/teams/", teams.team_standings_view, name="team-standings"),
    path("<slug:slug>/projector/", live.projector, name="projector"),
    path("<slug:slug>/projector/data.json", live.projector_data, name="projector-data"),
    path("<slug:slug>/rounds/<int:number>/", public.round_detail, name="round-detail"),
    path("<slug:slug>/rounds/<int:number>/sheets/", print.round_sheets, name="round-sheets"),
    # The wall list: players A–Z with table and seat, printable and on the projector.
    path("<slug:slug>/rounds/<int:number>/wall/", wall.round_wall, name="round-wall"),
    path("<slug:slug>/wall/", wall.wall_projector, name="wall-projector"),
    path("<slug:slug>/players/<int:entry_id>/", public.entry_detail, name="entry-detail"),
    path("<slug:slug>/manage/", run.tournament_manage, name="tournament-manage"),
    path("<slug:slug>/manage/settings/", run.tournament_edit, name="tournament-edit"),
    path("<slug:slug>/manage/entries/paste/", desk.entries_paste, name="entries-paste"),
    path("<slug:slug>/manage/entries/late/", desk.entry_add_late, name="entry-add-late"),
    path("<slug:slug>/manage/teams/paste/", teams.teams_paste, name="teams-paste"),
    path("<slug:slug>/manage/teams/form/", teams.team_form, name="team-form"),
    path("<slug:slug>/manage/teams/<int:team_id>/edit/", teams.team_edit, name="team-edit"),
    path(
        "<slug:slug>/manage/teams/<int:team_id>/withdraw/",
        teams.team_withdraw,
        name="team-withdraw",
    ),
    path(
        "<slug:slug>/manage/teams/<int:team_id>/readmit/",
        teams.team_readmit,
        name="team-readmit",
    ),
    path(
        "<slug:slug>/manage/teams/<int:team_id>/dissolve/",
        teams.team_dissolve,
        name="team-dissolve",
    ),
    path("<slug:slug>/manage/check-in/", desk.check_in, name="check-in"),
    path(
        "<slug:slug>/manage/check-in/everyone/",
        desk.entries_check_in_all,
        name="check-in-everyone",
    ),
    path("<slug:slug>/manage/rounds/add/", desk.rounds_add, name="rounds-add"),
    path("<slug:slug>/manage/reopen-evening/", desk.evening_reopen_view, name="evening-reopen"),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/edit/",
        desk.entry_edit,
        name="entry-edit",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/delete/",
        desk.entry_delete,
        name="entry-delete",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/readmit/",
        desk.entry_readmit,
        name="entry-readmit",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/skip/",
        desk.entry_skip,
        name="entry-skip",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/skip/<int:number>/undo/",
        desk.entry_unskip,
        name="entry-unskip",
    ),
    path("<slug:slug>/manage/entries/reseed/", run.entries_reseed, name="entries-reseed"),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/withdraw/",
        desk.entry_withdraw,
        name="entry-withdraw",
    ),
    path(
        "<slug:slug>/manage/entries/<int:entry_id>/check-in/",
        desk.entry_check_in,
        name="entry-check-in",
    ),
    path("<slug:slug>/manage/forbidden/", run.forbidden_add, name="forbidden-add"),
    path("<slug:slug>/manage/rounds/pair/", run.round_pair, name="round-pair"),
    # These two before the round actions too (their <action> would swallow them).
    path(
        "<slug:slug>/manage/rounds/<int:number>/reopen/",
        desk.round_reopen,
        name="round-reopen",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/unpublish/",
        desk.round_unpublish,
        name="round-unpublish",
    ),
    # The pairing editor, before the round actions too.
    path(
        "<slug:slug>/manage/rounds/<int:number>/edit/",
        editor.round_edit,
        name="round-edit",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/edit/check/",
        editor.round_edit_check,
        name="round-edit-check",
    ),
    # Before the round actions, whose <action> would otherwise swallow "open".
    path(
        "<slug:slug>/manage/rounds/<int:number>/open/",
        print.open_tables,
        name="round-open-tables",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/<str:action>/",
        run.round_action,
        name="round-action",
    ),
    path("<slug:slug>/manage/close-evening/", run.evening_close_view, name="evening-close"),
    path(
        "<slug:slug>/manage/report-links/<str:token>/qr.svg",
        print.seat_report_qr,
        name="seat-report-qr",
    ),
    path("<slug:slug>/manage/entries/skip/", desk.entries_skip, name="entries-skip"),
    # Players' notices of their own night, the organiser's keys (docs/results.md).
    path(
        "<slug:slug>/manage/notices/<int:notice_id>/undo/",
        night.night_undo,
        name="night-undo",
    ),
    path("<slug:slug>/manage/seats/<int:seat_id>/seen/", night.night_seen, name="night-seen"),
    path(
        "<slug:slug>/manage/seats/<int:seat_id>/forfeit/",
        night.night_forfeit,
        name="night-forfeit",
    ),
]
