"""A 9-player Swiss over three rounds in Chromium, by clicks and keys only: the organiser
logs in, creates the tournament and pastes the players; round 1 at three 3-player
tables; before round 2 a late entry with points for the missed round and a withdrawal
through its confirmation page; in round 2 a player reports through their seat link, an
opponent disputes it and the organiser settles it on the results screen; round 2 is
closed, reopened, one result changed and closed again; round 3 is paired, a pairing is
edited before publishing, played and closed. After every closed round the standings
page shows the pure core's standings for the results stored, and no page or request of
the whole evening was answered with a server error."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from tests.browser.standings_check import assert_page_shows_core_standings
from tests.factories import ClubFactory, UserFactory
from tournaments.models import AuditEntry, Entry, Game, ResultSubmission, Round, Seat, Tournament

pytestmark = pytest.mark.browser

PLAYERS = [
    ("Anna", 1700),
    ("Bert", 1650),
    ("Cleo", 1600),
    ("Dora", 1550),
    ("Emil", 1500),
    ("Frida", 1450),
    ("Gustav", 1400),
    ("Hanna", 1350),
    ("Ida", 1300),
]
LATE = ("Jonas", 1480)
LATE_POINTS = "7.5"  # the organiser's choice for the round Jonas missed
WITHDRAWN = "Emil"
PASSWORD = "secret-pass-123"
# Loaded machine: a page with a ratings job behind its form may take its time.
SLOW = 60


def page_text(browser: Any) -> str:
    # One script call: an element found just before a redirect belongs to the old page.
    return str(browser.execute_script("return document.body ? document.body.innerText : ''"))


def active_id(browser: Any) -> str:
    return str(browser.execute_script("return document.activeElement && document.activeElement.id"))


def keys(browser: Any, text: str) -> None:
    ActionChains(browser).send_keys(text).perform()


def load_by(browser: Any, wait: Callable[..., Any], element: Any, expect: str) -> None:
    """Click `element` (a link or a form's button) and wait for the next page: not an
    error page, saying `expect`, with no message of a refusal. The old document is
    marked so that its own text never counts as the new page's."""
    browser.execute_script("window.agonOldPage = true;")
    element.click()
    wait(
        lambda b: b.execute_script(
            "return !window.agonOldPage && document.readyState === 'complete';"
        ),
        timeout=SLOW,
    )
    text = page_text(browser)
    assert "Server Error" not in text and browser.title != "503", text[:300]
    assert expect in text, text[:1000]
    refused = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".messages li.error")]
    assert refused == [], refused


def button(wait: Callable[..., Any], text: str, within: str = "") -> Any:
    return wait(lambda b: b.find_element(By.XPATH, f"{within}//button[normalize-space()={text!r}]"))


def link(wait: Callable[..., Any], text: str) -> Any:
    return wait(lambda b: b.find_element(By.XPATH, f"//a[normalize-space()={text!r}]"))


def result_for(round_number: int, table: int, game: int) -> list[int]:
    """A different legal result per game at a 3-player table: one seat with 3 pieces
    out, the others 0 to 2."""
    out = [(round_number * table + game + i) % 3 for i in range(3)]
    out[(round_number + table + game) % 3] = 3
    return out


def games_of(round_: Round) -> list[Game]:
    return list(
        Game.objects.filter(table__round=round_)
        .select_related("table")
        .order_by("table__number", "number")
    )


def wait_round_in(
    browser: Any, wait: Callable[..., Any], total: int, done: int | None = None
) -> None:
    """The results screen counts every game in (or ``done`` of them) and has no save
    under way."""
    progress = f"{total if done is None else done} of {total} games in"
    wait(
        lambda b: b.execute_script(
            "return document.querySelector('#round-progress [role=status]').textContent.trim() === arguments[0]"
            " && !document.querySelector('tr.result-row[data-busy]');",
            progress,
        ),
        timeout=SLOW,
    )
    assert not browser.find_elements(By.CSS_SELECTOR, "tr.result-row[data-invalid]")


def type_results(
    browser: Any, wait: Callable[..., Any], games: list[Game], results: dict[int, str]
) -> None:
    """On the results screen, which starts in the first game without a result: each
    game's pieces out typed and Enter, which saves it and moves to the next one."""
    wait(lambda b: "results-live" in b.find_element(By.TAG_NAME, "body").get_attribute("class"))
    for game in games:
        wait(lambda b, game=game: active_id(b) == f"out-{game.pk}")
        keys(browser, results[game.pk] + Keys.ENTER)


def typed_text(out: list[int], finished: bool = True) -> str:
    return "".join(map(str, out)) + ("" if finished else "u")


def open_results(browser: Any, wait: Callable[..., Any], number: int) -> None:
    load_by(browser, wait, link(wait, "Enter results"), f"Results of round {number}")


def back_to_manage(browser: Any, wait: Callable[..., Any], name: str) -> None:
    """The results screen's heading links to the organiser's page."""
    load_by(browser, wait, link(wait, name), "Round (turn)")


def close_round(browser: Any, wait: Callable[..., Any], number: int) -> None:
    load_by(browser, wait, button(wait, f"Close round {number}"), f"Round {number} closed")


def check_standings(
    browser: Any, wait: Callable[..., Any], live_server: Any, t: Tournament, closed: int
) -> Any:
    browser.get(f"{live_server.url}/t/{t.slug}/standings/")
    wait(lambda b: f"after {closed} closed round" in page_text(b).lower())
    return assert_page_shows_core_standings(browser, t)


def report_links(browser: Any, table_number: int) -> dict[str, str]:
    """The seat links the organiser's page holds beside each name of a published table
    (in its "QR / link" disclosure), by name."""
    pairs = browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(c =>"
        " [c.previousElementSibling.innerText.trim(),"
        " c.querySelector('a.report-url').getAttribute('href')]);",
        f"#round tr#table-{table_number} .report-link",
    )
    return {name: url for name, url in pairs}


def test_a_nine_player_swiss_over_three_rounds_by_clicks_and_keys(
    browser, wait, live_server, server_log, artefacts
):
    organiser = UserFactory(username="orga", password=PASSWORD)
    club = ClubFactory(name="Pentagon Club")
    club.organisers.add(organiser)

    # The organiser logs in on the login page.
    browser.get(f"{live_server.url}/")
    load_by(browser, wait, link(wait, "Log in"), "Log in")
    browser.find_element(By.NAME, "username").send_keys("orga")
    browser.find_element(By.NAME, "password").send_keys(PASSWORD + Keys.ENTER)
    wait(lambda b: "Log out orga" in page_text(b), timeout=SLOW)

    # A new Swiss of three rounds at 3-player tables.
    load_by(browser, wait, link(wait, "New tournament or club evening"), "New tournament")
    Select(browser.find_element(By.NAME, "club")).select_by_visible_text("Pentagon Club")
    browser.find_element(By.NAME, "name").send_keys("Swiss Nine")
    Select(browser.find_element(By.NAME, "kind")).select_by_value(Tournament.Kind.SWISS)
    rounds = browser.find_element(By.NAME, "rounds_planned")
    rounds.send_keys(Keys.CONTROL, "a")
    rounds.send_keys("3")
    Select(browser.find_element(By.NAME, "policy")).select_by_value(
        Tournament.Policy.PREFER_TRIPLES
    )
    published = browser.find_element(By.NAME, "published")
    if not published.is_selected():
        published.click()
    load_by(browser, wait, button(wait, "Save"), "Swiss Nine created; now enter the players.")
    t = Tournament.objects.get(name="Swiss Nine")
    assert (t.kind, t.rounds_planned, t.policy) == ("swiss", 3, Tournament.Policy.PREFER_TRIPLES)
    assert t.club == club and t.published

    # Nine players pasted.
    box = wait(lambda b: b.find_element(By.NAME, "players"))
    box.send_keys("\n".join(f"{name}, {rating}" for name, rating in PLAYERS))
    load_by(browser, wait, button(wait, "Enter"), "9 players entered.")
    assert t.entries.count() == 9

    # Round 1: three 3-player tables, published, results typed on the results screen.
    load_by(browser, wait, button(wait, "Pair the next round"), "The next round is paired.")
    load_by(browser, wait, button(wait, "Publish round 1"), "Round 1 published.")
    round1 = Round.objects.get(tournament=t, number=1)
    sizes = [table.seats.count() for table in round1.tables.order_by("number")]
    assert sizes == [3, 3, 3] and not round1.tables.filter(is_bye=True).exists()
    shown_tables = browser.find_elements(By.CSS_SELECTOR, "#round table.pairings tbody tr")
    assert len(shown_tables) == 3
    open_results(browser, wait, 1)
    games1 = games_of(round1)
    assert len(games1) == 6  # two games per 3-player table
    typed = {g.pk: result_for(1, g.table.number, g.number) for g in games1}
    type_results(browser, wait, games1, {pk: typed_text(out) for pk, out in typed.items()})
    wait_round_in(browser, wait, 6)
    for game in games1:
        game.refresh_from_db()
        assert game.out_list(3) == typed[game.pk] and game.confirmed
    back_to_manage(browser, wait, "Swiss Nine")
    close_round(browser, wait, 1)
    check_standings(browser, wait, live_server, t, closed=1)

    # Before round 2: a late entry with points for the round missed, and a withdrawal
    # (its confirmation page first).
    browser.get(f"{live_server.url}/t/{t.slug}/manage/")
    late = wait(lambda b: b.find_element(By.ID, "late"))
    late.find_element(By.NAME, "name").send_keys(LATE[0])
    late.find_element(By.NAME, "rating").send_keys(str(LATE[1]))
    late.find_element(By.NAME, "missed_round_score").send_keys(LATE_POINTS)
    load_by(
        browser, wait, button(wait, "Enter late", within="//form[@id='late']"), "Jonas entered."
    )
    jonas = Entry.objects.get(tournament=t, player__name=LATE[0])
    assert (jonas.status, jonas.joined_round, str(jonas.missed_round_score)) == (
        "late",
        2,
        "7.50",
    )
    withdraw = wait(
        lambda b: b.find_element(
            By.XPATH,
            f"//tr[th/a[normalize-space()={WITHDRAWN!r}]]//a[starts-with(normalize-space(), 'Withdraw')]",
        )
    )
    load_by(browser, wait, withdraw, f"Withdraw {WITHDRAWN}?")
    assert Entry.objects.get(tournament=t, player__name=WITHDRAWN).status == "active"
    load_by(
        browser,
        wait,
        button(wait, f"Yes, withdraw {WITHDRAWN}"),
        f"{WITHDRAWN} withdrawn; they will not be paired again.",
    )
    emil = Entry.objects.get(tournament=t, player__name=WITHDRAWN)
    assert (emil.status, emil.withdrawn_after_round) == ("withdrawn", 1)

    # Round 2: nine players again (Jonas in, Emil out), three 3-player tables.
    load_by(browser, wait, button(wait, "Pair the next round"), "The next round is paired.")
    load_by(browser, wait, button(wait, "Publish round 2"), "Round 2 published.")
    round2 = Round.objects.get(tournament=t, number=2)
    seated2 = set(Seat.objects.filter(round=round2).values_list("entry__player__name", flat=True))
    assert seated2 == {name for name, _ in PLAYERS} - {WITHDRAWN} | {LATE[0]}
    assert [table.seats.count() for table in round2.tables.order_by("number")] == [3, 3, 3]
    games2 = games_of(round2)
    disputed = games2[0]  # table 1, game 1
    first, second, third = disputed.table.seats.select_related("entry__player").order_by("position")
    reporter, disputer = first.entry.player.name, second.entry.player.name
    links = report_links(browser, 1)
    assert set(links) == {s.entry.player.name for s in (first, second, third)}

    # The players at table 1 use their own links (their phones: not logged in).
    organiser_cookies = [
        {"name": c["name"], "value": c["value"], "path": "/"} for c in browser.get_cookies()
    ]
    browser.delete_all_cookies()
    reported, claimed = [3, 1, 0], [1, 3, 0]
    browser.get(links[reporter])
    form = wait(lambda b: b.find_element(By.ID, f"game-{disputed.pk}"))
    for position, value in enumerate(reported, start=1):
        form.find_element(By.ID, f"out-{disputed.pk}-{position}").send_keys(str(value))
    load_by(
        browser,
        wait,
        form.find_element(By.XPATH, ".//button[normalize-space()='Report']"),
        "Table 1, game 1: result reported; an opponent must confirm it.",
    )
    assert "awaiting confirmation" in browser.find_element(By.ID, f"game-{disputed.pk}").text
    browser.get(links[disputer])
    form = wait(lambda b: b.find_element(By.ID, f"game-{disputed.pk}"))
    assert re.search(r"seat \d reported 3 : 1 : 0 — confirm, or report what you saw", form.text)
    assert browser.find_elements(By.CSS_SELECTOR, "form.confirm-form")  # could confirm; disputes
    for position, value in enumerate(claimed, start=1):
        field = form.find_element(By.ID, f"out-{disputed.pk}-{position}")
        # Her own fields are empty: the opponent's report stands beside them, not in them.
        assert field.get_attribute("value") == ""
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(str(value))
    load_by(
        browser,
        wait,
        form.find_element(By.XPATH, ".//button[normalize-space()='Report']"),
        "Table 1, game 1: your report differs from your opponent's; the organiser decides.",
    )
    assert "the organiser decides" in browser.find_element(By.ID, f"game-{disputed.pk}").text
    disputed.refresh_from_db()
    assert disputed.status == Game.Status.PENDING and not disputed.confirmed
    assert sorted(
        ResultSubmission.objects.filter(game=disputed).values_list("state", flat=True)
    ) == ["disputed", "disputed"]
    browser.delete_all_cookies()
    for cookie in organiser_cookies:
        browser.add_cookie(cookie)

    # The organiser sees the dispute on the results screen and decides for the second
    # report with one click, without a page load.
    browser.get(f"{live_server.url}/t/{t.slug}/manage/")
    open_results(browser, wait, 2)
    wait(lambda b: "results-live" in b.find_element(By.TAG_NAME, "body").get_attribute("class"))
    row = browser.find_element(By.ID, f"game-{disputed.pk}")
    assert "is-disputed" in row.get_attribute("class")
    assert "disputed: the organiser decides" in row.text
    assert f"{reporter}: 3:1:0" in row.text and f"{disputer}: 1:3:0" in row.text
    browser.execute_script("window.agonNoReload = 'still here';")
    row.find_element(
        By.XPATH, f'.//button[normalize-space()="Accept {disputer}\'s result"]'
    ).click()
    wait(
        lambda b: b.execute_script(
            "const row = document.getElementById(arguments[0]);"
            "return row && row.classList.contains('is-in')"
            " && row.querySelector('td.state').innerText.includes('1:3:0');",
            f"game-{disputed.pk}",
        ),
        timeout=SLOW,
    )
    assert browser.execute_script("return window.agonNoReload") == "still here"
    disputed.refresh_from_db()
    assert disputed.confirmed and disputed.out_list(3) == claimed
    # The other five games by keys; the screen starts in the first game without a result.
    browser.refresh()
    rest = games2[1:]
    typed = {g.pk: result_for(2, g.table.number, g.number) for g in rest}
    type_results(browser, wait, rest, {pk: typed_text(out) for pk, out in typed.items()})
    wait_round_in(browser, wait, 6)
    back_to_manage(browser, wait, "Swiss Nine")
    close_round(browser, wait, 2)
    check_standings(browser, wait, live_server, t, closed=2)

    # Round 2 reopened, one result changed, closed again.
    browser.get(f"{live_server.url}/t/{t.slug}/manage/")
    load_by(browser, wait, button(wait, "Reopen round 2"), "Round 2 reopened")
    assert Round.objects.get(pk=round2.pk).status == Round.Status.PUBLISHED
    # While it is open again, the standings count round 1 only.
    check_standings(browser, wait, live_server, t, closed=1)
    browser.get(f"{live_server.url}/t/{t.slug}/manage/")
    open_results(browser, wait, 2)
    wait(lambda b: "results-live" in b.find_element(By.TAG_NAME, "body").get_attribute("class"))
    changed = games2[3]  # table 2, game 2
    changed.refresh_from_db()
    before = changed.out_list(3)
    after = [before[1], before[2], before[0]]  # the same pieces, another seat wins
    assert after != before
    field = browser.find_element(By.ID, f"out-{changed.pk}")
    field.click()
    ActionChains(browser).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
    keys(browser, typed_text(after) + Keys.ENTER)
    wait(
        lambda b: b.execute_script(
            "const row = document.getElementById(arguments[0]);"
            "return row && !row.dataset.busy"
            " && row.querySelector('td.state').innerText.includes(arguments[1]);",
            f"game-{changed.pk}",
            ":".join(map(str, after)),
        ),
        timeout=SLOW,
    )
    wait_round_in(browser, wait, 6)
    changed.refresh_from_db()
    assert changed.out_list(3) == after and changed.confirmed
    back_to_manage(browser, wait, "Swiss Nine")
    close_round(browser, wait, 2)
    check_standings(browser, wait, live_server, t, closed=2)

    # Round 3: paired, one pairing edited before publishing, played, closed.
    browser.get(f"{live_server.url}/t/{t.slug}/manage/")
    load_by(browser, wait, button(wait, "Pair the next round"), "The next round is paired.")
    round3 = Round.objects.get(tournament=t, number=3)
    tables3 = list(round3.tables.order_by("number"))
    assert [table.seats.count() for table in tables3] == [3, 3, 3]
    mover = tables3[0].seats.select_related("entry__player").get(position=1).entry
    other = tables3[1].seats.select_related("entry__player").get(position=1).entry
    # The pairing editor: both players change tables in one save. A reason is given
    # in case the change warns (a rematch, a score gap: the live warnings themselves are
    # tested in test_pairing_editor.py), so the save never waits on the live check.
    Select(wait(lambda b: b.find_element(By.ID, f"move-{mover.pk}"))).select_by_value("2")
    Select(browser.find_element(By.ID, f"move-{other.pk}")).select_by_value("1")
    browser.find_element(By.ID, "override-reason").send_keys("they asked to sit elsewhere")
    load_by(
        browser,
        wait,
        browser.find_element(By.XPATH, "//button[normalize-space()='Save the changes']"),
        "The pairing of round 3 is changed.",
    )
    moved = {
        s.entry_id: s.table.number
        for s in Seat.objects.filter(round=round3).select_related("table")
    }
    assert (moved[mover.pk], moved[other.pk]) == (2, 1)
    assert [table.seats.count() for table in round3.tables.order_by("number")] == [3, 3, 3]
    assert AuditEntry.objects.filter(tournament=t, action="pairing edit").exists()
    load_by(browser, wait, button(wait, "Publish round 3"), "Round 3 published.")
    open_results(browser, wait, 3)
    games3 = games_of(round3)
    typed = {g.pk: result_for(3, g.table.number, g.number) for g in games3}
    texts = {pk: typed_text(out) for pk, out in typed.items()}
    # The last game's turn ended unfinished: its pieces out so far count.
    unfinished = games3[-1]
    typed[unfinished.pk] = [2, 1, 0]
    texts[unfinished.pk] = typed_text(typed[unfinished.pk], finished=False)
    type_results(browser, wait, games3, texts)
    wait_round_in(browser, wait, 6)
    unfinished.refresh_from_db()
    assert unfinished.status == Game.Status.UNFINISHED and unfinished.out_list(3) == [2, 1, 0]
    back_to_manage(browser, wait, "Swiss Nine")
    close_round(browser, wait, 3)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED

    # The final standings: the pure core's, the withdrawal and the late entry marked.
    core = check_standings(browser, wait, live_server, t, closed=3)
    assert len(core) == 10
    played = {row.name: row.rounds for row in core}
    assert played[WITHDRAWN] == 1 and played[LATE[0]] == 2
    assert all(n == 3 for name, n in played.items() if name not in (WITHDRAWN, LATE[0]))
    text = page_text(browser)
    assert f"{WITHDRAWN} (withdrawn)" in text and "entered in round 2" in text
    assert "late in round" not in text
    browser.save_screenshot(str(artefacts / "swiss-nine-standings.png"))

    # The crosstable and the late entrant's own page, one click each, agree.
    load_by(browser, wait, link(wait, "crosstable"), "Crosstable")
    crossed = browser.execute_script(
        "return [...document.querySelectorAll('table.crosstable tbody tr')].map(r =>"
        " [r.querySelector('th a').innerText.trim(),"
        " r.cells[r.cells.length - 1].innerText.trim(),"
        " r.cells[r.cells.length - 2].innerText.trim()])"
    )
    assert {name: int(rank) for name, rank, _ in crossed} == {r.name: r.rank for r in core}
    scores = {name: float(score) for name, _, score in crossed}
    assert all(abs(scores[r.name] - r.score) < 0.05 + 1e-9 for r in core)
    load_by(browser, wait, link(wait, LATE[0]), "Seed 10 · late entry")
    jonas_row = next(r for r in core if r.name == LATE[0])
    match = re.search(r"Rank (\d+) with ([\d.]+) points \(2 rounds, 4 games", page_text(browser))
    assert match and int(match[1]) == jonas_row.rank
    assert abs(float(match[2]) - jonas_row.score) < 0.05 + 1e-9

    # Nothing the server answered all evening was an error page.
    assert len(server_log.answers) > 50
    server_log.assert_no_errors()
