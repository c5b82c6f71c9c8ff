"""Players manage their own night (issue 46, part 3; docs/results.md): leaving after
this round, skipping the next, late for the table, each from the seat's own link with
its actor, audited and undone by the organiser; no-shows offered as forfeits or
forfeited by the sweep, through the one result path, by the server's clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory, tournament_with_players
from tournaments.core.actor import Actor
from tournaments.core.errors import ConflictError
from tournaments.desk.services.night import (
    notice_undo,
    seat_late,
    seat_leave_after_round,
    seat_seen,
    seat_skip_next_round,
)
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.tournaments import tournament_update
from tournaments.models import (
    AuditEntry,
    Entry,
    Game,
    Ply,
    ResultSubmission,
    Round,
    Seat,
    SeatNotice,
    Skip,
)
from tournaments.results.selectors.night import round_night
from tournaments.results.services.no_show import no_show_sweep, seat_forfeit
from tournaments.results.services.result_path import ResultEntry, game_result_record

BY = Actor.command()


def _night(players: int = 4, **settings: object) -> tuple[Round, list[Seat]]:
    tournament = tournament_with_players(players, rounds_planned=3, **settings)
    round_ = round_publish(round=round_pair_next(tournament=tournament, by=BY), by=BY)
    seats = list(
        Seat.objects.filter(round=round_, table__is_bye=False)
        .select_related("table__round__tournament", "entry__player")
        .order_by("table__number", "position")
    )
    return round_, seats


def _at(round_: Round, minutes: int):
    published = Round.objects.get(pk=round_.pk).published_at
    return published + timedelta(minutes=minutes)


def _report(seat: Seat) -> None:
    game = Game.objects.filter(table=seat.table).order_by("number").first()
    game_result_record(
        game=game,
        entry=ResultEntry(out=[3, 1]),
        version=game.version,
        by=Actor.player(seat),
    )


@pytest.mark.django_db
def test_leaving_after_this_round_withdraws_after_it_audited_as_the_seat_and_undo_readmits():
    round_, seats = _night()
    anna = seats[0]
    notice = seat_leave_after_round(seat=anna, by=Actor.player(anna))
    entry = Entry.objects.get(pk=anna.entry_id)
    assert (entry.status, entry.withdrawn_after_round) == (Entry.Status.WITHDRAWN, 1)
    assert notice.kind == SeatNotice.Kind.LEAVING and notice.at <= timezone.now()
    withdraw = AuditEntry.objects.get(action="withdraw", target=anna.entry.player.name)
    assert withdraw.actor.startswith("seat ") and withdraw.user is None
    # Twice is once.
    assert seat_leave_after_round(seat=anna, by=Actor.player(anna)).pk == notice.pk
    organiser = Actor.director(UserFactory())
    notice_undo(notice=notice, by=organiser)
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE and entry.withdrawn_after_round is None
    assert AuditEntry.objects.filter(action="undo", target=anna.entry.player.name).exists()
    assert not round_night(round_=round_).announced


@pytest.mark.django_db
def test_skip_the_next_round_is_the_desks_skip_and_the_organisers_undo_takes_it_back():
    round_, seats = _night()
    ben = seats[1]
    notice = seat_skip_next_round(seat=ben, by=Actor.player(ben))
    assert notice.round_number == 2
    assert Skip.objects.filter(entry=ben.entry, round_number=2, bye=False).exists()
    assert AuditEntry.objects.filter(action="skips round", target=ben.entry.player.name).exists()
    assert [n.pk for _s, n in round_night(round_=round_).announced] == [notice.pk]
    notice_undo(notice=notice, by=Actor.director(UserFactory()))
    assert not Skip.objects.filter(entry=ben.entry).exists()
    with pytest.raises(ConflictError):
        notice_undo(notice=notice, by=Actor.director(UserFactory()))


@pytest.mark.django_db
def test_late_is_flagged_with_the_servers_time_and_cleared_when_the_player_is_seen():
    round_, seats = _night()
    anna, ben = seats[0], seats[1]
    before = timezone.now()
    notice = seat_late(seat=anna, by=Actor.player(anna))
    assert before <= notice.at <= timezone.now()
    assert AuditEntry.objects.filter(action="late", target=anna.entry.player.name).exists()
    assert [s.seat.pk for s in round_night(round_=round_).late] == [anna.pk]
    # Seen by a ply her link sent: the flag is gone.
    game = Game.objects.filter(table=anna.table).first()
    Ply.objects.create(
        game=game, number=1, move="x", key="k1", by_position=anna.position, at=timezone.now()
    )
    assert round_night(round_=round_).late == []
    # Another seat: seen by her report; a third: by the organiser's check.
    seat_late(seat=ben, by=Actor.player(ben))
    seat_seen(seat=ben, by=Actor.director(UserFactory()))
    assert round_night(round_=round_).late == []
    assert SeatNotice.objects.get(seat=ben, kind="late").cleared_at is not None


@pytest.mark.django_db
def test_the_late_flag_is_undone_by_the_organiser_with_one_key():
    round_, seats = _night()
    notice = seat_late(seat=seats[2], by=Actor.player(seats[2]))
    notice_undo(notice=notice, by=Actor.director(UserFactory()))
    assert round_night(round_=round_).late == []


@pytest.mark.django_db
@pytest.mark.parametrize("service", [seat_late, seat_leave_after_round, seat_skip_next_round])
def test_a_seats_link_cannot_act_for_another_seat(service):
    _round, seats = _night()
    with pytest.raises(PermissionDenied):
        service(seat=seats[1], by=Actor.player(seats[0]))
    assert not SeatNotice.objects.exists()
    assert not Skip.objects.exists()
    assert not Entry.objects.filter(status=Entry.Status.WITHDRAWN).exists()


@pytest.mark.django_db
def test_a_player_cannot_undo_check_or_forfeit():
    _round, seats = _night()
    notice = seat_late(seat=seats[0], by=Actor.player(seats[0]))
    with pytest.raises(PermissionDenied):
        notice_undo(notice=notice, by=Actor.player(seats[0]))
    with pytest.raises(PermissionDenied):
        seat_seen(seat=seats[0], by=Actor.player(seats[0]))
    with pytest.raises(Exception, match="organiser"):
        seat_forfeit(seat=seats[1], by=Actor.player(seats[0]))


@pytest.mark.django_db
@pytest.mark.parametrize("choice", ["late", "skip", "leave"])
def test_a_closed_round_refuses_each_choice_with_409_and_changes_nothing(client, choice):
    round_, seats = _night()
    round_close(round=round_, by=BY, force=True)
    response = client.post(reverse("seat-night", args=[seats[0].report_token]), {"choice": choice})
    assert response.status_code == 409
    assert "round 1 is closed" in response.content.decode()
    assert not SeatNotice.objects.exists() and not Skip.objects.exists()
    assert Entry.objects.get(pk=seats[0].entry_id).status == Entry.Status.ACTIVE


@pytest.mark.django_db
def test_the_three_choices_from_the_players_link(client):
    round_, seats = _night()
    url = reverse("seat-report", args=[seats[0].report_token])
    page = client.get(url).content.decode()
    assert "I&#x27;m late, table 1 please wait" in page or "I'm late, table 1 please wait" in page
    night = reverse("seat-night", args=[seats[0].report_token])
    for choice in ("late", "skip", "leave"):
        assert client.post(night, {"choice": choice}).status_code == 302
    assert set(SeatNotice.objects.values_list("kind", flat=True)) == {
        "late",
        "skip",
        "leaving",
    }
    assert client.post(night, {"choice": "sing"}).status_code == 400
    page = client.get(url).content.decode()
    assert "You skip round 2." in page and "You leave after round 1." in page


@pytest.mark.django_db
def test_the_organisers_keys_need_a_director(client):
    round_, seats = _night()
    notice = seat_late(seat=seats[0], by=Actor.player(seats[0]))
    slug = round_.tournament.slug
    client.force_login(UserFactory())
    for url in (
        reverse("night-undo", args=[slug, notice.pk]),
        reverse("night-seen", args=[slug, seats[0].pk]),
        reverse("night-forfeit", args=[slug, seats[1].pk]),
    ):
        assert client.post(url).status_code == 403
    assert SeatNotice.objects.get(pk=notice.pk).cleared_at is None


@pytest.mark.django_db
def test_the_run_page_shows_late_and_undoes_it_with_one_key(client):
    round_, seats = _night()
    seat_late(seat=seats[0], by=Actor.player(seats[0]))
    user = UserFactory()
    round_.tournament.directors.add(user)
    client.force_login(user)
    page = client.get(reverse("tournament-manage", args=[round_.tournament.slug])).content.decode()
    assert "late, asked the table to wait at" in page
    results = client.get(reverse("round-results", args=[round_.tournament.slug, 1]))
    assert "late since" in results.content.decode()
    notice = SeatNotice.objects.get(kind="late")
    response = client.post(reverse("night-undo", args=[round_.tournament.slug, notice.pk]))
    assert response.status_code == 302
    assert round_night(round_=round_).late == []


@pytest.mark.django_db
def test_a_no_show_is_offered_after_the_events_minutes_by_the_server_clock():
    round_, seats = _night(no_show_minutes=10)
    anna, ben = seats[0], seats[1]  # table 1
    seat_seen(seat=anna, by=BY)
    assert round_night(round_=round_, now=_at(round_, 9)).no_shows == []
    offered = round_night(round_=round_, now=_at(round_, 11)).no_shows
    # Ben, whose table-mate was seen; table 2, where nobody was, may play on paper.
    assert [s.seat.pk for s in offered] == [ben.pk]


@pytest.mark.django_db
def test_no_event_minutes_no_offer_and_a_late_seat_is_no_no_show():
    round_, seats = _night()
    seat_seen(seat=seats[0], by=BY)
    assert round_night(round_=round_, now=_at(round_, 600)).no_shows == []
    user = UserFactory()
    round_.tournament.directors.add(user)
    tournament_update(tournament=round_.tournament, by=Actor.director(user), no_show_minutes=5)
    round_.refresh_from_db()
    seat_late(seat=seats[1], by=Actor.player(seats[1]))
    assert round_night(round_=round_, now=_at(round_, 60)).no_shows == []


@pytest.mark.django_db
def test_the_organisers_forfeit_goes_through_the_one_result_path():
    round_, seats = _night(no_show_minutes=10)
    anna, ben = seats[0], seats[1]
    _report(anna)  # Anna reported game 1 from her link: seen
    with pytest.raises(ConflictError):
        seat_forfeit(seat=ben, by=BY, now=_at(round_, 5))
    # Anna's report made her table played: nothing to forfeit there.
    assert round_night(round_=round_, now=_at(round_, 11)).no_shows == []


@pytest.mark.django_db
def test_the_sweep_forfeits_a_no_show_once_and_never_a_seat_seen_by_a_ply():
    round_, seats = _night(no_show_minutes=10, no_show_forfeit=True)
    anna, ben, cleo, dora = seats
    seat_seen(seat=anna, by=BY)  # table 1: Anna here, Ben missing
    game = Game.objects.filter(table=cleo.table).first()
    # Table 2: only Cleo's device sent a ply, and the egg timer took Dora's turn.
    Ply.objects.create(
        game=game, number=1, move="x", key="c", by_position=cleo.position, at=timezone.now()
    )
    Ply.objects.create(
        game=game,
        number=2,
        move="",
        key="d",
        by_position=dora.position,
        at=timezone.now(),
        timed_out=True,
    )
    Game.objects.filter(pk=game.pk).update(status=Game.Status.IN_PROGRESS, out_1=0, out_2=0)
    now = _at(round_, 11)
    assert no_show_sweep(by=BY, now=now) == 1
    assert no_show_sweep(by=BY, now=now) == 0  # idempotent
    games = list(Game.objects.filter(table=ben.table).order_by("number"))
    assert games and all(g.status == Game.Status.FINISHED for g in games)
    absent = ben.position - 1
    assert all(g.out_list(2)[absent] == 0 and g.out_list(2)[1 - absent] == 3 for g in games)
    assert ResultSubmission.objects.filter(
        game__in=games, state=ResultSubmission.State.ENTERED
    ).count() == len(games)
    assert AuditEntry.objects.filter(action="forfeit").count() == 1
    assert not SeatNotice.objects.filter(seat__in=[cleo, dora], kind="forfeit").exists()


@pytest.mark.django_db
def test_the_sweep_leaves_events_that_only_offer_alone():
    round_, seats = _night(no_show_minutes=10)
    seat_seen(seat=seats[0], by=BY)
    assert no_show_sweep(by=BY, now=_at(round_, 30)) == 0
    assert not Game.objects.exclude(status=Game.Status.PENDING).exists()


@pytest.mark.django_db
def test_the_forfeit_key_on_the_run_page(client):
    round_, seats = _night(no_show_minutes=10)
    seat_seen(seat=seats[0], by=BY)
    Round.objects.filter(pk=round_.pk).update(published_at=timezone.now() - timedelta(minutes=11))
    user = UserFactory()
    round_.tournament.directors.add(user)
    client.force_login(user)
    slug = round_.tournament.slug
    page = client.get(reverse("tournament-manage", args=[slug])).content.decode()
    assert "not seen: a no-show" in page
    response = client.post(reverse("night-forfeit", args=[slug, seats[1].pk]), {"round": "1"})
    assert response.status_code == 302 and response["Location"].endswith("/results/#night")
    assert SeatNotice.objects.filter(seat=seats[1], kind="forfeit").exists()
    # Again: nothing more, no error.
    client.post(reverse("night-forfeit", args=[slug, seats[1].pk]))
    assert AuditEntry.objects.filter(action="forfeit").count() == 1
    # A seat that is no no-show is refused with a 409 and nothing written.
    refused = client.post(reverse("night-forfeit", args=[slug, seats[2].pk]))
    assert refused.status_code == 409


@pytest.mark.django_db
def test_the_no_show_settings_through_the_api(client):
    round_, _seats = _night()
    user = UserFactory()
    round_.tournament.directors.add(user)
    client.force_login(user)
    url = f"/api/v1/tournaments/{round_.tournament.slug}/"
    response = client.patch(
        url, {"no_show_minutes": 15, "no_show_forfeit": True}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    assert (response.json()["no_show_minutes"], response.json()["no_show_forfeit"]) == (15, True)
    bad = client.patch(url, {"no_show_minutes": 0}, content_type="application/json")
    assert bad.status_code == 400


@pytest.mark.django_db
def test_the_no_show_settings_in_the_events_settings_form(client):
    round_, _seats = _night()
    user = UserFactory()
    round_.tournament.directors.add(user)
    client.force_login(user)
    page = client.get(reverse("tournament-edit", args=[round_.tournament.slug])).content.decode()
    assert 'name="no_show_minutes"' in page and 'name="no_show_forfeit"' in page
    assert "No-show after (minutes from the round&#x27;s start)" in page


@pytest.mark.django_db
def test_a_no_show_at_a_three_player_table_loses_every_game_to_the_two_present():
    round_, seats = _night(players=3, no_show_minutes=10)
    assert len(seats) == 3 and len({s.table_id for s in seats}) == 1
    seat_seen(seat=seats[0], by=BY)
    seat_seen(seat=seats[2], by=BY)
    notice = seat_forfeit(seat=seats[1], by=Actor.director(UserFactory()), now=_at(round_, 10))
    assert notice is not None
    games = list(Game.objects.filter(table=seats[0].table, decider=False))
    assert games and all(g.out_list(3) == [3, 0, 3] for g in games)
    assert all(g.status == Game.Status.FINISHED and g.confirmed for g in games)


@pytest.mark.django_db
def test_the_results_screens_poll_sees_a_player_say_she_is_late(client):
    round_, seats = _night()
    user = UserFactory()
    round_.tournament.directors.add(user)
    client.force_login(user)
    url = reverse("round-results", args=[round_.tournament.slug, 1])
    poll = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TRIGGER": "live-poll"}
    etag = client.get(url, **poll)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag, **poll).status_code == 304
    seat_late(seat=seats[2], by=Actor.player(seats[2]))
    again = client.get(url, HTTP_IF_NONE_MATCH=etag, **poll)
    assert again.status_code == 200 and "late since" in again.content.decode()


@pytest.mark.django_db
def test_beats_task_forfeits_by_the_servers_clock_and_twice_is_once():
    from tournaments.tasks import no_show_sweep_task

    round_, seats = _night(no_show_minutes=10, no_show_forfeit=True)
    seat_seen(seat=seats[0], by=BY)
    assert no_show_sweep_task() == 0  # 10 minutes have not passed on the server's clock
    Round.objects.filter(pk=round_.pk).update(published_at=timezone.now() - timedelta(minutes=11))
    assert no_show_sweep_task() == 1
    assert no_show_sweep_task() == 0
    assert SeatNotice.objects.get(kind="forfeit").seat_id == seats[1].pk


@pytest.mark.django_db
def test_the_players_night_through_the_api(client):
    round_, seats = _night()
    url = f"/api/v1/report/{seats[0].report_token}/night/"
    answer = client.post(url, {"choice": "late"}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["kind"] == "late" and answer.json()["round_number"] is None
    skip = client.post(url, {"choice": "skip"}, content_type="application/json").json()
    assert skip["round_number"] == 2
    bad = client.post(url, {"choice": "sing"}, content_type="application/json")
    assert bad.status_code == 400
    assert (
        client.post(
            "/api/v1/report/nobody/night/", {"choice": "late"}, content_type="application/json"
        ).status_code
        == 404
    )
    round_close(round=round_, by=BY, force=True)
    closed = client.post(url, {"choice": "leave"}, content_type="application/json")
    assert closed.status_code == 409 and closed.json()["error"]["field"] == "round"
    assert not SeatNotice.objects.filter(kind="leaving").exists()


@pytest.mark.django_db
def test_the_organisers_night_through_the_api(client):
    round_, seats = _night(no_show_minutes=10)
    slug = round_.tournament.slug
    late = seat_late(seat=seats[2], by=Actor.player(seats[2]))
    seat_skip_next_round(seat=seats[3], by=Actor.player(seats[3]))
    user = UserFactory()
    round_.tournament.directors.add(user)
    night_url = f"/api/v1/tournaments/{slug}/rounds/1/night/"
    client.force_login(UserFactory())
    assert client.get(night_url).status_code in (403, 404)
    assert client.post(f"/api/v1/tournaments/{slug}/seats/{seats[0].pk}/seen/").status_code == 403
    client.force_login(user)
    night = client.get(night_url).json()
    assert [s["name"] for s in night["late"]] == [seats[2].entry.player.name]
    assert [n["kind"] for n in night["announced"]] == ["skip"]
    assert night["no_shows"] == []
    seen = client.post(f"/api/v1/tournaments/{slug}/seats/{seats[0].pk}/seen/")
    assert seen.status_code == 200 and seen.json()["kind"] == "seen"
    undo = client.post(f"/api/v1/tournaments/{slug}/notices/{late.pk}/undo/")
    assert undo.status_code == 200 and undo.json()["cleared_at"]
    Round.objects.filter(pk=round_.pk).update(published_at=timezone.now() - timedelta(minutes=11))
    assert [s["seat"] for s in client.get(night_url).json()["no_shows"]] == [seats[1].pk]
    forfeit = f"/api/v1/tournaments/{slug}/seats/{seats[1].pk}/forfeit/"
    assert client.post(forfeit).json() == {"forfeited": True}
    assert client.post(forfeit).json() == {"forfeited": False}
    refused = client.post(f"/api/v1/tournaments/{slug}/seats/{seats[3].pk}/forfeit/")
    assert refused.status_code == 409
