"""The organiser's long lists (a 500-player field's entries, 250 tables, 750 result rows)
rendered in Python: the same HTML as a template loop would give, at a fraction of the
cost, because a template spends its time resolving variables, reversing URLs and
translating per row. URLs are reversed once per page with placeholder ids; strings use
the same messages as the templates did, so the translations still apply."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django import template
from django.middleware.csrf import get_token
from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import ResultSubmission
from tournaments.models_team import TEAM_TARGET

register = template.Library()

# Placeholder ids a URL is reversed with once; each row puts its own in their place.
_IDS = ("987654321", "987654322")


def url_pattern(name: str, *args: Any) -> Callable[..., str]:
    """reverse(name, args) as a function of the trailing integer arguments, reversing only
    once: ``url_pattern("entry-edit", slug)(entry_id)``."""
    count = sum(1 for a in args if a is None)
    filled = list(args)
    placeholders = iter(_IDS)
    for i, a in enumerate(filled):
        if a is None:
            filled[i] = int(next(placeholders))
    text = reverse(name, args=filled)
    head, *rest = text.split(_IDS[0])
    if count == 1:
        (tail,) = rest
        return lambda a: f"{head}{a}{tail}"
    middle, tail = rest[0].split(_IDS[1])
    return lambda a, b: f"{head}{a}{middle}{b}{tail}"


def csrf_input(context: template.Context) -> str:
    """One CSRF field for every form of the page (one masked token is as good as many)."""
    token = context.get("csrf_token")
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(str(token))}">'


def in_progress_text(plies: int) -> str:
    """A game in progress, where a page shows a game's state: no result yet."""
    return _("in progress, ply %(ply)s") % {"ply": plies}


def flags_html(live: Mapping[str, Any], clear: str) -> str:
    """The plies another device sent that were refused (a table's flag), with the
    organiser's button that clears it; empty when there are none."""
    flagged = "".join(
        '<div class="flag" role="note">'
        + escape(
            (
                _("Flagged: %(who)s sent %(move)s for ply %(ply)s, but the record has %(recorded)s")
                if c["recorded"]
                # A ply typed without signal that came after the game was decided.
                else _("Flagged: %(who)s sent %(move)s for ply %(ply)s after the game was decided")
            )
            % {
                "who": _("seat %(seat)s") % {"seat": c["by"]} if c["by"] else _("a director"),
                "move": c["move"],
                "ply": c["ply"],
                "recorded": c["recorded"],
            }
        )
        + "</div>"
        for c in live["flagged"]
    )
    return flagged + clear if flagged else ""


def live_html(game: Any, seats: Iterable[Any], *, flags: bool = False, clear: str = "") -> str:
    """A game being played as the pages show it: ply, whose move it is, a small live
    board (drawn by agon/live_tables.js from the state it carries, and again from each
    state the socket brings) and, for the organiser (``flags``), plies another device
    sent that were refused. The one renderer of it (round page, results screen)."""
    text = escape(in_progress_text(game.moves))
    live = game.live
    if live is None:
        return f'<span class="muted">{text}</span>'
    mover = next((s.name for s in seats if s.position == live["to_move"]), None)
    if mover is not None:
        text += " · " + escape(_("%(name)s to move") % {"name": mover})
    if live["clock"]:
        # The egg timer: agon/live_tables.js counts it down (tickClocks).
        clock = live["clock"]
        paused = ' data-clock-paused="1"' if clock.get("paused") else ""
        text += (
            f' · <span class="clock" data-clock-deadline="{escape(clock["deadline"] or "")}"'
            f"{paused}></span>"
        )
    flagged = flags_html(live, clear) if flags else ""
    state = escape(json.dumps(live, separators=(",", ":")))
    return (
        f'<span class="live-game" data-live-game="{game.id}" data-live-state="{state}">'
        f'<span class="muted live-text">{text}</span>{flagged}'
        '<figure class="pg pg-mini" aria-hidden="true"></figure></span>'
    )


def _hidden(name: str) -> str:
    return f'<span class="visually-hidden"> {name}</span>'


def decider_heading(game: Any, table: Any) -> str:
    """A decider as the pages name it, escaped: "Decider (seat 2 starts)"."""
    return (
        escape(_("Decider"))
        + " ("
        + escape(_("seat %(seat)s starts") % {"seat": game.first_position})
        + ")"
    )


def match_sentence(table: Any) -> str:
    """The match's result at a 3-player table where the tournament plays deciders
    (selectors/rounds.MatchResult) as plain text; empty while a game of the match has
    no result that counts. The one wording of it, for the round page, the results
    screen, a player's link and the projector."""
    match = table.match
    if match is None:
        return ""
    names = [table.name_at(p) for p in match.leaders]
    if match.winner is not None and match.by_decider:
        return _("Match won by %(name)s in the decider") % {"name": table.name_at(match.winner)}
    if match.winner is not None:
        return _("Match won by %(name)s") % {"name": table.name_at(match.winner)}
    if match.pending:
        return _("Match tied at the top: %(names)s play the decider") % {"names": " – ".join(names)}
    return _("Match shared by %(names)s") % {"names": ", ".join(names)}


def match_text(table: Any) -> str:
    """match_sentence as HTML, escaped."""
    text = match_sentence(table)
    return f'<strong class="match-result">{escape(text)}</strong>' if text else ""


@register.simple_tag(takes_context=True)
def entry_rows(context: template.Context, entries: Iterable[Any]) -> SafeString:
    """The manage page's players table body: one row per entry with its actions (edit,
    withdraw or re-admit, delete; an announced skip's undo beside it). Announcing a skip
    is the list's one form below the table, not a form per row. A read-only page (a
    finished tournament, a closed evening: views.run_page.manage_context) shows the rows
    without actions."""
    tournament = context["tournament"]
    announced = context["skips"]  # views_manage.manage_context: entry id -> (round, bye)
    read_only = bool(context.get("read_only"))
    slug = tournament.slug
    csrf = csrf_input(context)
    player_url = url_pattern("player-detail", None)
    unskip_url = url_pattern("entry-unskip", slug, None, None)
    edit_url = url_pattern("entry-edit", slug, None)
    readmit_url = url_pattern("entry-readmit", slug, None)
    withdraw_url = url_pattern("entry-withdraw", slug, None)
    delete_url = url_pattern("entry-delete", slug, None)
    t_edit, t_readmit, t_withdraw = _("Edit"), _("Re-admit"), _("Withdraw")
    t_undo, t_delete = _("undo"), _("Delete")
    t_checked = _("checked in")
    labels: dict[str, str] = {}  # each status translated once, not once per player
    out = []
    for entry in entries:
        pk = entry.pk
        name = escape(entry.player.name)
        hidden = _hidden(name)
        if entry.status not in labels:
            labels[entry.status] = escape(_(entry.get_status_display()))
        status = labels[entry.status]
        if entry.status == "late":
            status += " (" + escape(_("from round %(number)s") % {"number": entry.joined_round})
            if entry.missed_round_score is not None:
                status += ", " + escape(
                    _("%(points)s per missed round") % {"points": entry.missed_round_score}
                )
            status += ")"
        if entry.status == "withdrawn":
            status += (
                " ("
                + escape(_("after round %(number)s") % {"number": entry.withdrawn_after_round})
                + ")"
            )
        skips = []
        for number, bye in announced.get(pk, ()):
            what = (
                _("bye requested for round %(number)s") if bye else _("skips round %(number)s")
            ) % {"number": number}
            if read_only:
                skips.append(f'<span class="muted">{escape(what)}</span> ')
                continue
            skips.append(
                f'<form method="post" action="{unskip_url(pk, number)}" '
                f'class="inline">{csrf}<span class="muted">{escape(what)}</span> '
                f"<button>{t_undo}{hidden}</button></form>"
            )
        rating = "" if entry.rating is None else entry.rating
        here = f'✓<span class="visually-hidden"> {t_checked}</span>' if entry.checked_in else ""
        row = (
            f'\n    <tr id="entry-{pk}"><td class="num">{entry.seed}</td><th scope="row">'
            f'<a href="{player_url(entry.player_id)}">{name}</a></th><td class="num">{rating}'
            f"</td><td>{status}\n      {''.join(skips)}</td>\n      <td>{here}</td>"
        )
        if read_only:
            out.append(row + "</tr>")
            continue
        if entry.status == "withdrawn":
            actions = (
                f'<form method="post" action="{readmit_url(pk)}" class="inline">{csrf}'
                f"<button>{t_readmit}{hidden}</button></form>"
            )
        else:
            actions = f'<a href="{withdraw_url(pk)}">{t_withdraw}{hidden}</a>'
        delete = "" if entry.played else f' · <a href="{delete_url(pk)}">{t_delete}{hidden}</a>'
        out.append(
            f'{row}\n      <td class="row-actions"><a href="{edit_url(pk)}">{t_edit}{hidden}</a>'
            f" · {actions}{delete}</td></tr>"
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


@register.simple_tag
def skip_options(entries: Iterable[Any], chosen: Any = None) -> SafeString:
    """The players who can still announce a skip (not withdrawn), for the list's one
    form; ``chosen``: the entry a refused form had chosen."""
    chosen = str(chosen or "")
    options = ['<option value="">---------</option>']
    for entry in entries:
        if entry.status == "withdrawn":
            continue
        pk = str(entry.pk)
        mark = " selected" if pk == chosen else ""
        options.append(f'<option value="{pk}"{mark}>{escape(entry.player.name)}</option>')
    return mark_safe("\n".join(options))  # noqa: S308 - names escaped


def _player_options(players: Iterable[tuple[int, str]]) -> SafeString:
    """A players drop-down's options from (entry id, name), as the forms'
    ModelChoiceField gives them; rendered once and reused by each drop-down of the page."""
    options = ['<option value="" selected>---------</option>']
    options.extend(f'<option value="{pk}">{escape(name)}</option>' for pk, name in players)
    return mark_safe("\n".join(options))  # noqa: S308 - names escaped


@register.simple_tag
def entry_options(entries: Iterable[Any]) -> SafeString:
    """The entered players, for the "never seat together" drop-downs."""
    return _player_options((entry.pk, entry.player.name) for entry in entries)


class ReportLinks:
    """Each seat's private report link on the organiser's run page, as a short control
    beside the player's name rather than the link printed out (it wrapped at 1,366 px and
    was cut off on a phone): a "Copy link" button (agon/copy_link.js shows it; it does
    nothing without JavaScript) and a "QR / link" disclosure holding the link itself, so
    it stays reachable without JavaScript, and its QR code (views.print.seat_report_qr,
    an image fetched only when the disclosure opens) to show a player on the screen."""

    def __init__(self, tournament: Any, request: Any) -> None:
        # Escaped once: escaping a message before its escaped name or token is put in
        # gives the same text as escaping it afterwards.
        prefix = request.scheme + "://" + request.get_host()
        self.report = escape(prefix + reverse("seat-report", args=["TOKEN"]))
        self.qr = escape(reverse("seat-report-qr", args=[tournament.slug, "TOKEN"]))
        self.t_copy = escape(_("Copy link"))
        self.t_open = escape(_("QR / link"))
        self.t_whose = escape(_("%(name)s's report link"))
        self.t_qr = escape(_("QR code of %(name)s's report link"))

    def control(self, seat: Any) -> str:
        token = escape(seat.report_token)
        url = self.report.replace("TOKEN", token)
        name = {"name": escape(seat.name)}
        whose = self.t_whose % name
        return (
            f' <span class="report-link"><button type="button" class="copy-link" '
            f'data-copy-link hidden>{self.t_copy}<span class="visually-hidden">: {whose}'
            f"</span></button> <details><summary>{self.t_open}"
            f'<span class="visually-hidden">: {whose}</span></summary><span '
            f'class="report-link-panel"><img src="{self.qr.replace("TOKEN", token)}" '
            f'alt="{self.t_qr % name}" loading="lazy" width="160" height="160"> '
            f'<a href="{url}" class="report-url">{url}</a></span></details></span>'
        )


@register.simple_tag(takes_context=True)
def table_rows(
    context: template.Context, tables: Iterable[Any], show_links: bool = False
) -> SafeString:
    """A round's tables, one row each (tournaments/_tables.html): players in seat order,
    the games, the round scores; with ``show_links`` (the organiser's run page) each
    seat's report link as a short control beside the name (ReportLinks); a table given
    its explanation (``why``: desk/rows.attach_why) shows it behind a "why?". The one
    renderer of these rows, public and organiser pages alike; in Python, as a big Swiss
    has 250 tables."""
    tournament, request = context["tournament"], context["request"]
    entry_url = url_pattern("entry-detail", tournament.slug, None)
    replay_url = url_pattern("games:view", None)
    link = ReportLinks(tournament, request) if show_links else None
    t_unfinished = f' <span class="muted">{escape(_("unfinished"))}</span>'
    t_awaiting = f' <span class="muted">{escape(_("awaiting confirmation"))}</span>'
    t_colours = escape(_("colours out (section 22)"))
    t_replay = escape(_("replay"))
    t_watch = escape(_("watch live"))
    t_disputed = f'<span class="muted">{escape(_("disputed: the organiser decides"))}</span>'
    t_voided = escape(_("void: the match is no longer tied at the top"))
    tables = list(tables)
    row_class = "" if link is None else ' class="with-links"'
    with_chances = _with_chances(tables)
    # The headings again on each cell, short: a phone shows each table as a card
    # (site.css), with no room for the long ones.
    t_chances = escape(_("Chance"))
    t_table, t_players = escape(_("Table")), escape(_("Players"))
    t_games, t_score = escape(_("Games")), escape(_("Round score"))
    t_game, t_starts = _("Game %(number)s"), _("seat %(seat)s starts")
    t_why = escape(_("why?"))
    directions: dict[str, str] = {}  # each translated once, not once per game
    out = []
    for table in tables:
        seats = table.seats
        if link is None:
            names = "<br>".join(
                f'{s.position}. <a href="{entry_url(s.entry_id)}">{escape(s.name)}</a>'
                for s in seats
            )
        else:
            # With the report links each seat takes more than a line on a phone, and the
            # round scores of the column beside would no longer meet their names: there
            # each seat's line carries its own score (site.css shows one or the other).
            names = "".join(
                f'<div class="seat-line">{s.position}. <a href="{entry_url(s.entry_id)}">'
                f"{escape(s.name)}</a>"
                + (
                    ""
                    if s.round_score is None
                    else f' <span class="seat-score"><span class="visually-hidden">{t_score}: '
                    f"</span>{floatformat(s.round_score, '-1')}</span>"
                )
                + ("" if table.is_bye else link.control(s))
                + "</div>"
                for s in seats
            )
        games = []
        for game in table.games:
            if game.decider:
                # The two leaders' game (sections 3 and 18): named, with its players.
                players = escape(" – ".join(table.name_at(p) for p in game.positions))
                text = f'<div class="decider">{decider_heading(game, table)}, {players}:\n        '
                if game.voided:
                    text += f'<span class="muted">{t_voided}</span></div>'
                    games.append(text)
                    continue
            else:
                if len(seats) == 3:
                    if game.direction not in directions:
                        directions[game.direction] = escape(_(game.direction))
                    how = directions[game.direction]
                else:
                    how = escape(t_starts % {"seat": game.first_position})
                text = f"<div>{escape(t_game % {'number': game.number})} ({how}):\n        "
            if game.played:
                text += ":".join("" if o is None else str(o) for o in game.out)
                if game.status == "unfinished":
                    text += t_unfinished
                if not game.confirmed:
                    text += t_awaiting
                text += "".join(
                    f' <abbr title="{t_colours}">{escape(letter)}</abbr>'
                    for letter in game.letters
                    if letter
                )
                if game.moves:
                    text += f' <a href="{replay_url(game.id)}">{t_replay}</a>'
            elif game.disputed:
                text += t_disputed
            elif game.in_progress:
                text += live_html(game, seats)
                text += f' <a href="{replay_url(game.id)}">{t_watch}</a>'
            else:
                text += '<span class="muted">—</span>'
            games.append(text + "</div>")
        match = match_text(table)
        if match:
            games.append(f"<div>{match}</div>")
        scores = "<br>".join(
            "—" if s.round_score is None else str(floatformat(s.round_score, "-1")) for s in seats
        )
        chance_cell = ""
        if with_chances:
            # A forecast, not a score: its own column, and only while the table has no
            # score yet (a played table's chances would read as its result).
            played = any(s.round_score is not None for s in seats)
            chances = "<br>".join(
                "—" if played or s.chance is None else f"{round(s.chance * 100)} %" for s in seats
            )
            chance_cell = (
                f'\n      <td class="num muted chances{" played" if played else ""}" '
                f'data-label="{t_chances}">{chances}</td>'
            )
        # The table's explanation (desk/rows.attach_why, on the public round page):
        # opened without JavaScript, under its players.
        why = getattr(table, "why", ())
        if why:
            names += (
                f'<details class="why no-print"><summary>{t_why}<span class="visually-hidden"> '
                f"({t_table} {escape(_('bye') if table.is_bye else table.number)})</span>"
                "</summary><ul>"
                + "".join(f"<li>{escape(text)}</li>" for text in why)
                + "</ul></details>"
            )
        number = escape(_("bye")) if table.is_bye else table.number
        out.append(
            f'\n    <tr id="table-{table.number}"{row_class}>\n      <th scope="row" class="num" '
            f'data-label="{t_table}">{number}</th>\n      <td data-label="{t_players}">'
            f'{names}</td>\n      <td data-label="{t_games}">{"".join(games)}</td>\n'
            f'      <td class="num" data-label="{t_score}">{scores}</td>{chance_cell}\n'
            "    </tr>"
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


def _with_chances(tables: Iterable[Any]) -> bool:
    """Whether any seat of a table still to be played has a chance to show (the public
    round page attaches them before play: ratings' attach_win_chances)."""
    return any(
        getattr(s, "chance", None) is not None and s.round_score is None
        for table in tables
        for s in table.seats
    )


@register.simple_tag
def match_result(table: Any) -> SafeString:
    """The match's result at a table (match_text), for the templates."""
    return mark_safe(match_text(table))  # noqa: S308 - match_text escapes


@register.simple_tag
def tables_with_chances(tables: Iterable[Any]) -> bool:
    """The round's tables show a column of chances (tournaments/_tables.html)."""
    return _with_chances(tables)


@dataclass(frozen=True)
class Refusal:
    """A save the results screen refused, shown on its game's row: the message next to
    the field at fault (``at``: ``out``, ``moves`` or ``colours_<seat>``) and what was
    typed kept in the fields. A conflict (the game changed on another device meanwhile)
    keeps the ``version`` typed against, so that leaving the field again cannot overwrite
    the other result unseen, and offers a button to show it."""

    message: str
    at: str = "out"
    typed: Mapping[str, str] = field(default_factory=dict)
    version: int | None = None


class EntryHints:
    """What a results screen's pieces-out field takes at a table of n seats, from the
    ruleset (games/rulesets.py): its range and an example."""

    def __init__(self, tournament: Any) -> None:
        self.ruleset = tournament.ruleset
        self.target = tournament.target if self.ruleset.target_is_setting else self.ruleset.target
        self.team_event = bool(tournament.is_team_event)

    def team(self, seats: int) -> bool:
        return self.team_event and seats == 4

    def range(self, seats: int, team: bool) -> str:
        most = self.ruleset.seat_most(self.target, team=team)
        if team:
            return _("0–%(most)s each, a team at most %(team)s") % {
                "most": most,
                "team": self.ruleset.team_most(TEAM_TARGET),
            }
        return f"0–{most}"

    def example(self, seats: int, team: bool) -> str:
        return self.ruleset.example_entry(seats, self.target, team=team)


class ResultRows:
    """The results screen's rows (one per game, tournaments/results.html): the URLs
    reversed and the fixed texts translated once for all rows of a page."""

    def __init__(self, tournament: Any, round_: Any, csrf: str, correcting: bool = False) -> None:
        slug, number = tournament.slug, round_.number
        ruleset = tournament.ruleset
        self.colour_letters = ruleset.has_colour_letters  # colours out (section 22)
        self.board_page = ruleset.has_board_page  # "record on the board"
        # 3-player matches tied at the top add a decider (services/deciders.py): each
        # 3-player table has a group of rows for it, which a save answers out of band.
        self.deciders = bool(tournament.decider)
        # A closed club evening's results stay as closed until it is reopened (the
        # services refuse any change): its rows show them without fields or buttons.
        self.read_only = tournament.kind == "evening" and tournament.status == "finished"
        if round_.status == "closed" and not self.read_only:
            # A closed round is read-only too, until the organiser corrects it
            # deliberately: then every form of its rows says so (services/results.py).
            self.read_only = not correcting
            if correcting:
                csrf += '<input type="hidden" name="correction" value="1">'
        self.csrf = csrf
        # Hints and placeholders by table size, from the ruleset (a 2 vs 2 table: 0–5 a
        # player, a team at most 6).
        self.hints = EntryHints(tournament)
        self.save_url = url_pattern("round-result-save", slug, number, None)
        self.accept_url = url_pattern("round-result-accept", slug, number, None)
        self.clear_url = url_pattern("round-result-clear-flag", slug, number, None)
        self.set_aside_url = url_pattern("round-result-set-aside", slug, number, None)
        self.record_url = url_pattern("games:record", None)
        self.accept = _("Accept %(name)s's result")
        # A queued (offline) entry kept for the organiser (docs/offline.md).
        self.held = _("Kept for you: %(name)s sent %(out)s from offline")
        self.held_reasons = dict(ResultSubmission.HeldReason.choices)
        self.pieces = _("Pieces out, table %(table)s, game %(number)s")
        self.directions: dict[str, str] = {}  # each translated once, not once per row
        self.t = {
            key: escape(text)
            for key, text in {
                "unfinished": _("unfinished"),
                "disputed": _("disputed: the organiser decides"),
                "awaiting": _("awaiting confirmation"),
                "more": _("more"),
                "colours": _("colours out (first, second, …)"),
                "colours_title": _("w b r y g, in the order they went out"),
                "paste": _("or paste the move record"),
                "save": _("Save"),
                "record": _("record on the board"),
                "director": _("director"),
                "show_current": _("Show the current result"),
                "clear_flag": _("Seen: clear the flag"),
                "set_aside": _("Set aside: keep the result"),
                "voided": _("void: the match is no longer tied at the top"),
            }.items()
        }

    def row(self, table: Any, game: Any, refused: Refusal | None = None) -> str:
        """One game's row; the one renderer of it, for the page and for a save's answer
        (htmx posts the row's field on change and swaps the row in, tournaments/results.html)."""
        t, gid, seats = self.t, game.id, table.seats
        csrf = self.csrf
        save = self.save_url(gid)
        typed = refused.typed if refused else {}
        version = game.version
        if refused is not None and refused.version is not None:
            version = refused.version

        def invalid(name: str) -> str:
            return ' aria-invalid="true"' if refused is not None and refused.at == name else ""

        if game.decider:
            # The two leaders' game: only they play it, in seat order.
            seats = [s for s in seats if s.position in game.positions]
        n = len(seats)
        team = self.hints.team(n) and not game.decider
        if team:
            # Partners sit opposite: seats 1+3 against 2+4 (section 3).
            names = escape(
                _("%(first)s + %(third)s against %(second)s + %(fourth)s")
                % {
                    "first": seats[0].name,
                    "second": seats[1].name,
                    "third": seats[2].name,
                    "fourth": seats[3].name,
                }
            )
        else:
            names = escape(" – ".join(s.name for s in seats))
        note = getattr(table, "night_note", "")
        if note and game.number == 1:
            # Late or missing players beside their table (desk/services/night.py).
            names += f'<br><strong class="night-note">{escape(note)}</strong>'
        if game.voided:
            return self.voided_row(table, game, names)
        if self.read_only:
            return self.read_only_row(table, game, names, refused)
        held = game.held
        if held:
            css = " is-disputed"
        elif game.counted:
            css = " is-in"
        elif game.disputed:
            css = " is-disputed"
        elif game.played:
            css = " is-awaiting"
        elif game.in_progress:
            css = " is-in-progress"
        else:
            css = ""
        number_id = f' id="table-{table.number}"' if game.number == 1 else ""
        direction = ""
        number = str(game.number)
        if game.decider:
            number = decider_heading(game, table)
        elif n == 3:
            if game.direction not in self.directions:
                self.directions[game.direction] = escape(_(game.direction))
            direction = f' <span class="muted">({self.directions[game.direction]})</span>'
        if game.decider:
            label = escape(_("Pieces out, table %(table)s, decider") % {"table": table.number})
        else:
            label = escape(self.pieces % {"table": table.number, "number": game.number})
        comma_names = escape(", ".join(s.name for s in seats))
        entry = escape(typed.get("out", game.entry_text))
        placeholder, hint = self.hints.example(n, team), escape(self.hints.range(n, team))
        clear = self.clear_url(gid)
        clear_form = (
            f'<form method="post" action="{clear}" hx-post="{clear}" class="inline">'
            f'{csrf}<button type="submit">{t["clear_flag"]}</button></form>'
        )
        if game.counted:
            out = ":".join("" if o is None else str(o) for o in game.out)
            state = f'<span class="ok">{out}'
            state += f" {t['unfinished']}</span>" if game.status == "unfinished" else "</span>"
        elif game.disputed:
            state = f"<strong>{t['disputed']}</strong>"
        elif game.played:
            state = f'<span class="muted">{t["awaiting"]}</span>'
        elif game.in_progress:
            state = live_html(game, seats, flags=True, clear=clear_form)
        else:
            state = '<span class="muted">—</span>'
        if not game.in_progress and game.live is not None:
            # Plies that arrived after the game was decided (docs/offline.md).
            state += flags_html(game.live, clear_form)
        reports = []
        for report in game.open_reports:
            who = report.by_seat.entry.player.name
            accept = self.accept_url(report.id)
            unfinished = (
                f' <span class="muted">{t["unfinished"]}</span>'
                if report.status == "unfinished"
                else ""
            )
            reports.append(
                f'<div class="report">{escape(who)}: {_join(report.out)}{unfinished}\n'
                f'      <form method="post" action="{accept}" hx-post="{accept}" '
                f'class="inline accept-form">{csrf}<input type="hidden" name="version" '
                f'value="{version}"><button type="submit">'
                f"{escape(self.accept % {'name': who})}"
                "</button></form></div>"
            )
        for entry_ in held:
            reports.append(self.held_line(entry_, version))
        colours = ""
        if self.colour_letters:
            colours = (
                f"<fieldset><legend>{t['colours']}</legend>"
                + "".join(
                    f'<label for="colours-{gid}-{s.position}">{escape(s.name)}</label> '
                    f'<input id="colours-{gid}-{s.position}" name="colours_{s.position}" '
                    f'form="result-{gid}" maxlength="9" size="5" placeholder="rw" '
                    f"{_value(typed.get(f'colours_{s.position}', ''))}"
                    f'{invalid(f"colours_{s.position}")} title="{t["colours_title"]}"> '
                    for s in seats
                )
                + "</fieldset>"
            )
        plies = ""
        if game.moves:
            plies = " (" + escape(_plies(game.moves)) + ")"
        record = f'<a href="{self.record_url(gid)}">{t["record"]}</a>' if self.board_page else ""
        trail = self.trail(game.trail) if game.trail else ""
        error = alert = row_state = ""
        if refused is not None:
            row_state, alert = " data-invalid", ' role="alert"'
            error = escape(refused.message)
            if refused.version is not None:
                error += (
                    f' <button type="button" class="show-current" hx-get="{save}">'
                    f"{t['show_current']}</button>"
                )
        opened = " open" if refused is not None and refused.at != "out" else ""
        return (
            f'\n<tr id="game-{gid}" class="result-row{css}" data-live-region '
            f'data-live-version="{game.version}" data-game="{gid}"{row_state}>\n'
            f'  <th scope="row" class="num"{number_id}>{table.number}</th>\n'
            f"  <td>{names}</td>\n"
            f'  <td class="{"decider" if game.decider else "num"}">{number}{direction}</td>\n'
            f'  <td class="entry">\n'
            f'    <form id="result-{gid}" method="post" action="{save}" hx-post="{save}" '
            f'class="result-row-form">{csrf}<input type="hidden" name="version" '
            f'value="{version}"></form>\n'
            f'    <label for="out-{gid}" class="visually-hidden">{label} ({comma_names})</label>\n'
            f'    <input id="out-{gid}" name="out" form="result-{gid}" class="pieces-out" '
            f'value="{entry}" hx-post="{save}" hx-trigger="change" data-seats="{n}" '
            f'inputmode="numeric" autocomplete="off" spellcheck="false" size="7" '
            f'placeholder="{placeholder}" title="{hint}" '
            f'aria-describedby="error-{gid}"{invalid("out")}>\n'
            f'    <span id="error-{gid}" class="row-error" data-error{alert}>{error}</span>\n'
            f"  </td>\n"
            f'  <td class="state">{state}\n    {"".join(reports)}\n  </td>\n'
            f'  <td class="more">\n    <details{opened}><summary>{t["more"]}</summary>\n'
            f"      {colours}\n"
            f'      <label for="moves-{gid}">{t["paste"]}{plies}</label><br>'
            f'<textarea id="moves-{gid}" name="moves" form="result-{gid}" rows="2" cols="40" '
            f'placeholder="W-W1B, B-B1R, ..."{invalid("moves")}>'
            f"{escape(typed.get('moves', ''))}</textarea><br>\n"
            f'      <button type="submit" form="result-{gid}">{t["save"]}</button>\n'
            f"      {record}\n      {trail}\n    </details>\n  </td>\n</tr>"
        )

    def _held_who(self, held: Any) -> str:
        if held.by_seat:
            return held.by_seat.entry.player.name
        return _("director") + (f" {held.by_user}" if held.by_user else "")

    def held_text(self, held: Any) -> str:
        """Who sent what from offline and why it was kept, without the buttons."""
        reason = escape(self.held_reasons.get(held.held_reason, ""))
        out = ":".join(str(v) for v in held.out)
        text = escape(self.held % {"name": self._held_who(held), "out": out})
        if held.status == "unfinished":
            text += f" {self.t['unfinished']}"
        return f'<div class="report held">{text} <span class="muted">({reason})</span></div>'

    def held_line(self, held: Any, version: int) -> str:
        """A held entry in its row's state cell: who sent what, why it was kept, the
        button that makes it the result and the one that sets it aside."""
        who = self._held_who(held)
        accept, aside = self.accept_url(held.id), self.set_aside_url(held.id)
        return (
            f"{self.held_text(held).removesuffix('</div>')}\n"
            f'      <form method="post" action="{accept}" hx-post="{accept}" '
            f'class="inline accept-form">{self.csrf}<input type="hidden" name="version" '
            f'value="{version}"><button type="submit">'
            f"{escape(self.accept % {'name': who})}"
            "</button></form>\n"
            f'      <form method="post" action="{aside}" hx-post="{aside}" '
            f'class="inline accept-form">{self.csrf}<button type="submit">'
            f"{self.t['set_aside']}</button></form></div>"
        )

    def read_only_row(
        self, table: Any, game: Any, names: str, refused: Refusal | None = None
    ) -> str:
        """A game of a closed evening (or round): its result and trail, nothing to type or press
        (a save sent anyway, from a page loaded before, is answered with its refusal)."""
        out = _join("" if o is None else o for o in game.out) if game.counted else "—"
        if game.counted and game.status == "unfinished":
            out += f" {self.t['unfinished']}"
        trail = self.trail(game.trail) if game.trail else ""
        more = f"<details><summary>{self.t['more']}</summary>{trail}</details>" if trail else ""
        number = decider_heading(game, table) if game.decider else str(game.number)
        number_id = f' id="table-{table.number}"' if game.number == 1 else ""
        error = '<span class="muted">—</span>'
        if game.held:
            # Kept from an offline queue: seen here, decided once correcting.
            error = "".join(self.held_text(held) for held in game.held)
        if refused is not None:
            error = f'<span class="row-error" role="alert">{escape(refused.message)}</span>'
        return (
            f'\n<tr id="game-{game.id}" class="result-row is-read-only" data-live-region '
            f'data-live-version="{game.version}" data-game="{game.id}">\n'
            f'  <th scope="row" class="num"{number_id}>{table.number}</th>\n'
            f"  <td>{names}</td>\n"
            f'  <td class="num">{number}</td>\n'
            f'  <td class="entry">{out}</td>\n'
            f'  <td class="state">{error}</td>\n'
            f'  <td class="more">{more}</td>\n</tr>'
        )

    def voided_row(self, table: Any, game: Any, names: str) -> str:
        """A decider whose match is no longer tied at the top: its result and trail
        stay to be seen; nothing is typed into it (the services refuse it)."""
        out = _join("" if o is None else o for o in game.out) if game.played else "—"
        trail = self.trail(game.trail) if game.trail else ""
        more = f"<details><summary>{self.t['more']}</summary>{trail}</details>" if trail else ""
        return (
            f'\n<tr id="game-{game.id}" class="result-row is-voided" data-live-region '
            f'data-live-version="{game.version}" data-game="{game.id}">\n'
            f'  <th scope="row" class="num">{table.number}</th>\n'
            f"  <td>{names}</td>\n"
            f'  <td class="num">{decider_heading(game, table)}</td>\n'
            f'  <td class="entry"><s>{out}</s></td>\n'
            f'  <td class="state"><span class="muted">{self.t["voided"]}</span></td>\n'
            f'  <td class="more">{more}</td>\n</tr>'
        )

    def table(self, table: Any) -> str:
        """A table's rows: its games of the turn, then (where the tournament plays
        deciders) the group holding its decider and the match's result."""
        games = "".join(self.row(table, game) for game in table.games if not game.decider)
        return f"\n<tbody>{games}\n</tbody>{self.match_rows(table)}"

    def match_rows(self, table: Any, *, oob: bool = False) -> str:
        """A 3-player table's decider rows and its match's result, as one group of rows
        a save answers out of band (``oob``): a result that ties the match at the top
        brings the decider in, one that unties it takes it away (services/deciders.py).
        Empty where the tournament plays no deciders."""
        deciders = [g for g in table.games if g.decider]
        if not deciders and not (self.deciders and len(table.seats) == 3):
            return ""
        rows = "".join(self.row(table, game) for game in deciders) + self.match_line(table)
        swap = ' hx-swap-oob="true"' if oob else ""
        return (
            f'\n<tbody id="match-{table.id}" class="match-rows" data-live-region{swap}>'
            f"{rows}\n</tbody>"
        )

    def match_line(self, table: Any, *, oob: bool = False) -> str:
        """The match's result as a row of the table's group (empty before it has one)."""
        match = match_text(table)
        if not match:
            return ""
        swap = ' hx-swap-oob="true"' if oob else ""
        return (
            f'\n<tr id="match-line-{table.id}" class="match-line"{swap}><th scope="row" '
            f'class="num">{table.number}</th><td colspan="2">{match}</td><td colspan="3"></td></tr>'
        )

    def trail(self, submissions: list[Any]) -> str:
        """Who submitted what, when: the same lines as the player's result page shows."""
        count = len(submissions)
        head = ngettext("%(counter)s submission", "%(counter)s submissions", count) % {
            "counter": count
        }
        items = []
        for s in submissions:
            if s.by_seat:
                who = (
                    escape(s.by_seat.entry.player.name)
                    + " ("
                    + escape(_("seat %(seat)s") % {"seat": s.by_seat.position})
                    + ")"
                )
            else:
                who = self.t["director"] + (f" {escape(s.by_user)}" if s.by_user else "")
            text = f"{date_filter(template_localtime(s.created_at), 'H:i')} · {who}: {_join(s.out)}"
            if s.status == "unfinished":
                text += f" {self.t['unfinished']}"
            if s.moves:
                text += " (" + escape(_plies(len(s.moves))) + ")"
            text += f" — <strong>{escape(s.get_state_display())}</strong>"
            if s.decided_by_seat:
                text += f" ({escape(s.decided_by_seat.entry.player.name)})"
            elif s.decided_by_user:
                text += f" ({escape(s.decided_by_user)})"
            items.append(f"\n        <li>{text}</li>")
        return f'<div class="trail"><p>{escape(head)}</p><ol>{"".join(items)}</ol></div>'


def _value(text: str) -> str:
    return f' value="{escape(text)}"' if text else ""


def _join(values: Iterable[Any]) -> str:
    return escape(":".join(str(v) for v in values))


def _plies(count: int) -> str:
    return ngettext("%(counter)s ply recorded", "%(counter)s plies recorded", count) % {
        "counter": count
    }


def result_row(
    request: Any,
    tournament: Any,
    round_: Any,
    table: Any,
    game: Any,
    refused: Refusal | None = None,
    *,
    correcting: bool = False,
) -> SafeString:
    """One row of the results screen, as a save answers it (an htmx fragment)."""
    csrf = f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(get_token(request))}">'
    row = ResultRows(tournament, round_, csrf, correcting).row(table, game, refused)
    return mark_safe(row)  # noqa: S308 - every value in the row is escaped


def result_match_rows(
    request: Any, tournament: Any, round_: Any, table: Any, game: Any, *, correcting: bool = False
) -> SafeString:
    """What a save at a 3-player table changes beside its own row, swapped in out of
    band: for a game of the match, the table's decider rows and match result (the save
    may have added or taken away the decider); for the decider, whose row the save
    answers itself, the match result. Empty where the tournament plays no deciders."""
    csrf = f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(get_token(request))}">'
    rows = ResultRows(tournament, round_, csrf, correcting)
    html = rows.match_line(table, oob=True) if game.decider else rows.match_rows(table, oob=True)
    return mark_safe(html)  # noqa: S308 - every value in the rows is escaped


@register.simple_tag(takes_context=True)
def result_rows(context: template.Context, tables: Iterable[Any]) -> SafeString:
    """Every game row of the results screen."""
    rows = ResultRows(
        context["tournament"],
        context["round"],
        csrf_input(context),
        context.get("correcting", False),
    )
    html = "".join(rows.table(table) for table in tables)
    return mark_safe(html)  # noqa: S308 - every value in the rows is escaped


@register.simple_tag
def seat_options(seats: Iterable[tuple[int, str]]) -> SafeString:
    """The seated players as (entry id, name), for the swap's two drop-downs."""
    return _player_options(seats)


@register.simple_tag
def editor_rows(editor: Any) -> SafeString:
    """The pairing editor's rows: each seated player with her "move to" control, a
    drop-down of the places while they are few, else a typed field suggesting them from
    the page's one list (views_editor.Editor.typed)."""
    t_bye = escape(_("bye"))
    typed = (
        '<input name="to_{id}" id="move-{id}" value="{choice}" data-current="{table}" '
        'list="editor-places" size="6" autocomplete="off" aria-describedby="editor-hint">'
    )
    # The drop-down's options once per page; each row marks its own choice.
    plain = {
        v: f'<option value="{escape(v)}">{escape(label)}</option>' for v, label in editor.options
    }
    every = "".join(plain.values())

    def field(row: Any) -> str:
        if editor.typed:
            return typed.format(id=row.entry_id, choice=escape(row.choice), table=row.table)
        mine = plain.get(row.choice, "")
        options = every.replace(mine, mine.replace('">', '" selected>', 1), 1) if mine else every
        return (
            f'<select name="to_{row.entry_id}" id="move-{row.entry_id}" '
            f'data-current="{row.table}">{options}</select>'
        )

    # A row whose place differs from the pairing as proposed says so in words, not by its
    # colour alone, with what the pairing proposed; the live check marks a draft's rows
    # the same way (agon/pairing_editor.js shows or hides the mark).
    t_changed = escape(_("changed"))
    changed_class = ' class="changed"'

    def mark(row: Any) -> str:
        proposed = f' <span class="muted">{escape(row.proposed)}</span>' if row.proposed else ""
        hidden = "" if row.changed else " hidden"
        return (
            f' <span class="changed-mark" data-changed-mark{hidden}>'
            f'<span class="badge">{t_changed}</span>{proposed}</span>'
        )

    out = [
        f'\n      <tr data-entry="{row.entry_id}"{changed_class if row.changed else ""}>'
        f'<td class="num">{t_bye if row.is_bye else row.table}</td>'
        f'<td class="num">{row.position}</td><th scope="row"><label '
        f'for="move-{row.entry_id}">{escape(row.name)}</label>{mark(row)}</th>'
        f"<td>{field(row)}</td></tr>"
        for row in editor.rows
    ]
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped
