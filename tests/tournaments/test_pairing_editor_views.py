"""The pairing editor on the organiser's round page: plain form posts (no JavaScript),
the live check's answer (the warnings box, an htmx fragment), and hostile input that
must be a 4xx changing nothing."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.factories import UserFactory, tournament_with_players
from tournaments.desk.services.entries import entry_withdraw
from tournaments.desk.services.rounds import round_pair_next, round_publish
from tournaments.desk.services.tournaments import tournament_update
from tournaments.models import AuditEntry, Seat, Tournament
from tournaments.results.services.results import Actor

pytestmark = pytest.mark.django_db
BY = Actor.command()
EDIT = "/t/cup/manage/rounds/1/edit/"
CHECK = "/t/cup/manage/rounds/1/edit/check/"


@pytest.fixture
def cup() -> Tournament:
    t = tournament_with_players(5, slug="cup", name="Cup")
    round_pair_next(tournament=t, by=BY)  # tables P01+P02, P03+P04+P05
    return t


@pytest.fixture
def page(cup) -> Client:
    user = UserFactory(username="td")
    cup.directors.add(user)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def pk(t: Tournament, seed: int) -> int:
    return t.entries.get(seed=seed).pk


def seats() -> list[tuple[int, int, int]]:
    return list(Seat.objects.order_by("entry_id").values_list("entry_id", "table_id", "position"))


def test_the_round_page_offers_each_seated_player_a_move_but_not_the_withdrawn(cup, page):
    entry_withdraw(entry=cup.entries.get(seed=5), by=BY)
    html = page.get("/t/cup/manage/").content.decode()
    assert 'id="editor"' in html and f'name="to_{pk(cup, 1)}"' in html
    assert f'name="to_{pk(cup, 5)}"' not in html
    # The swap lists leave the withdrawn player out as well.
    swap = html.split('id="swap-first"')[1].split("</select>")[0]
    assert f'<option value="{pk(cup, 1)}">' in swap
    assert f'<option value="{pk(cup, 5)}">' not in swap


def test_a_move_without_warnings_is_saved_by_a_plain_form(cup, page):
    # Paired by closest scores: the book's rule for the 3-player table is not checked,
    # and in five players every other 3-player table breaks it.
    director = UserFactory()
    cup.directors.add(director)
    tournament_update(tournament=cup, by=Actor.director(director), pairing_method="closest")
    response = page.post(EDIT, {f"to_{pk(cup, 5)}": "1", f"to_{pk(cup, 1)}": "1"})
    assert response.status_code == 302
    table_1 = set(Seat.objects.filter(table__number=1).values_list("entry_id", flat=True))
    assert table_1 == {pk(cup, 1), pk(cup, 2), pk(cup, 5)}
    assert AuditEntry.objects.filter(action="pairing edit").count() == 1


def test_a_move_with_a_warning_shows_it_and_asks_for_the_reason(cup, page):
    before = seats()
    response = page.post(EDIT, {f"to_{pk(cup, 5)}": "bye"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "a bye for P05" in html and 'required aria-invalid="true"' in html
    # The choice made is kept in the form shown again.
    assert '<option value="bye" selected>' in html
    assert seats() == before
    response = page.post(EDIT, {f"to_{pk(cup, 5)}": "bye", "override_reason": "leaves at 9"})
    assert response.status_code == 302
    audit = AuditEntry.objects.get(action="pairing edit")
    assert audit.after["override_reason"] == "leaves at 9"
    assert audit.after["byes"] == ["P05"]


def test_the_split_button_splits_a_table_of_three(cup, page):
    response = page.post(EDIT, {"split": "2", "override_reason": "time"})
    assert response.status_code == 302
    assert Seat.objects.filter(table__is_bye=True).count() == 1


def created(html: str) -> str:
    """The warnings box's "This change creates:" list, or "" while it is hidden."""
    block = html.split("<div data-created", 1)[1].split("</div>", 1)[0]
    return "" if block.startswith(" hidden") else block


def check(page: Client, data: dict[str, str]):
    return page.post(CHECK, data, HTTP_HX_REQUEST="true")


def test_the_live_check_returns_the_warnings_the_change_creates(cup, page):
    response = check(page, {f"to_{pk(cup, 5)}": "bye"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.startswith('<div id="editor-warnings" class="editor-warnings pending"')
    assert "a bye for P05" in created(html)
    # The page is told the reason is now required (htmx triggers the event), and which
    # rows the draft changes from the pairing as proposed: P05 to the bye, and the two
    # left at her table.
    changed = [pk(cup, 3), pk(cup, 4), pk(cup, 5)]
    assert json.loads(response["HX-Trigger"]) == {
        "agon:editor-check": {"reasonRequired": True, "changed": changed}
    }
    unchanged = check(page, {f"to_{pk(cup, 5)}": "2"})
    assert created(unchanged.content.decode()) == ""
    assert json.loads(unchanged["HX-Trigger"])["agon:editor-check"]["reasonRequired"] is False
    # A typed place cleared to type another is no move yet.
    assert created(check(page, {f"to_{pk(cup, 5)}": ""}).content.decode()) == ""
    refused = check(page, {f"to_{pk(cup, 1)}": "2"})
    assert refused.status_code == 400 and "table of 4" in refused.content.decode()


def test_the_live_check_of_a_round_published_meanwhile_sends_the_page_back(cup, page):
    round_publish(round=cup.rounds.get(number=1), by=BY)
    response = check(page, {f"to_{pk(cup, 5)}": "bye"})
    assert response["HX-Redirect"] == "/t/cup/manage/#editor"


@pytest.mark.parametrize(
    ("data", "urls"),
    [
        ({"to_abc": "1"}, (EDIT, CHECK)),
        ({"to_999999": "1"}, (EDIT, CHECK)),
        ({"to_{one}": "7"}, (EDIT, CHECK)),
        ({"to_{one}": "-1"}, (EDIT, CHECK)),
        ({"to_{one}": "99999999999999999999"}, (EDIT, CHECK)),
        ({"to_{one}": "table"}, (EDIT, CHECK)),
        ({"to_{one}": "\x00"}, (EDIT, CHECK)),
        ({"to_{one}": "2"}, (EDIT, CHECK)),  # a table of 4
        ({"split": "1"}, (EDIT,)),  # a table of two
        ({"split": "x"}, (EDIT,)),
        ({"split": "99999999999"}, (EDIT,)),
        ({"to_{one}": "bye", "override_reason": "   "}, (EDIT,)),  # a warning, no reason
    ],
)
def test_hostile_editor_posts_are_4xx_and_change_nothing(cup, page, data, urls):
    data = {k.replace("{one}", str(pk(cup, 1))): v for k, v in data.items()}
    before = seats()
    for url in urls:
        response = page.post(url, data, HTTP_HX_REQUEST="true")
        assert 400 <= response.status_code < 500, (url, response.content[:300])
    assert seats() == before


def test_others_may_not_edit(cup):
    stranger = Client(raise_request_exception=False)
    stranger.force_login(UserFactory(username="nobody"))
    before = seats()
    assert stranger.post(EDIT, {f"to_{pk(cup, 5)}": "1"}).status_code == 403
    assert stranger.post(CHECK, {f"to_{pk(cup, 5)}": "1"}).status_code == 403
    assert seats() == before


def test_an_edit_of_a_round_published_meanwhile_is_a_409_with_the_message(cup, page):
    from tournaments.desk.services.rounds import round_publish

    round_publish(round=cup.rounds.get(), by=BY)
    before = seats()
    response = page.post(EDIT, {f"to_{pk(cup, 5)}": "1"})
    assert response.status_code == 409
    assert "round 1 is already published" in response.content.decode()
    assert seats() == before


def test_a_big_round_types_the_place_from_one_list_of_suggestions_instead_of_a_drop_down_each():
    """60 players: 30 tables. A drop-down per player would repeat all 32 places 60 times
    (at 500 players, 125,000 options); each player gets a typed field instead, with one
    shared list, and the typed places are read like the chosen ones."""
    big = tournament_with_players(60, slug="big", name="Big")
    round_pair_next(tournament=big, by=BY)
    user = UserFactory(username="big-td")
    big.directors.add(user)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    html = client.get("/t/big/manage/").content.decode()
    first, last = big.entries.get(seed=1), big.entries.get(seed=60)
    assert f'<input name="to_{first.pk}" id="move-{first.pk}" value="1"' in html
    assert '<select name="to_' not in html
    assert html.count('<datalist id="editor-places">') == 1
    assert html.count('<option value="bye">') == 1  # in the shared list only

    edit = "/t/big/manage/rounds/1/edit/"
    last_table = Seat.objects.get(entry=last).table.number
    # A typed word that is no place names the player and changes nothing.
    before = seats()
    refused = client.post(edit, {f"to_{first.pk}": "somewhere"})
    assert refused.status_code == 400 and "P01" in refused.content.decode()
    assert seats() == before
    # "New", in any case, is the new table; the two movers sit there together.
    moved = client.post(
        edit,
        {f"to_{first.pk}": " New ", f"to_{last.pk}": "NEW", "override_reason": "a test"},
    )
    assert moved.status_code == 302
    assert Seat.objects.get(entry=first).table_id == Seat.objects.get(entry=last).table_id
    assert Seat.objects.get(entry=last).table.number != last_table


def test_in_german_the_typed_place_may_be_spielfrei_or_neu():
    big = tournament_with_players(60, slug="big", name="Big")
    round_pair_next(tournament=big, by=BY)
    user = UserFactory(username="big-td")
    big.directors.add(user)
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(user)
    html = client.get("/t/big/manage/").content.decode()
    assert "„spielfrei“ oder „neu“" in html
    one = big.entries.get(seed=1)
    response = client.post(
        "/t/big/manage/rounds/1/edit/",
        {f"to_{one.pk}": "Spielfrei", "override_reason": "geht früher"},
    )
    assert response.status_code == 302
    assert Seat.objects.get(entry=one).table.is_bye
