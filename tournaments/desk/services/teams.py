"""2 vs 2 team events: entering teams, pairing teams, seating their tables.

Section 21 on the '2 vs. 2' setup: "four players constitute just two parties, so a match
(of two games, one clockwise, one anti-clockwise) can be done in maybe 2h40min". The
Swiss pairing ranks and pairs teams as it pairs players (one pairing unit per team,
2-unit tables and a bye when the number of teams is odd); a table then seats team A's
players in seats 1+3 and team B's in 2+4, as the engine's team variant does.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.db import models, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from games import rulesets
from tournaments.core.actor import Actor, require_actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.core.freshness import standings_changed
from tournaments.core.permissions import lock_tournament
from tournaments.desk.services.entries import (
    NAME_MAX,
    PASTED_NUMBER,
    SEPARATORS,
    PasteError,
    entry_add,
    entry_readmit,
    entry_withdraw,
    name_problem,
    open_for_entries,
    pasted_line_problem,
    rating_problem,
)
from tournaments.models import (
    Entry,
    ForbiddenPair,
    Game,
    Round,
    Seat,
    Table,
    Team,
    Tournament,
)
from tournaments.pairing import Meeting, Pairing, PairingError, PairingPlayer, pair_round
from tournaments.standings.selectors.teams import team_scores

# The two games of a team match (section 21): one clockwise from seat 1, one
# anti-clockwise from seat 2. Seats alternate teams either way (1 2 3 4 and 2 1 4 3), so
# the engine's seats 1+3 are always one team; every player has each opponent once
# after her and once before her, and each team moves first once.
TEAM_MATCH = ((1, Game.Direction.CLOCKWISE), (2, Game.Direction.WIDDERSHINS))


def check_team_event(tournament: Tournament) -> None:
    if not tournament.is_team_event:
        raise ServiceError(_("this tournament is not a 2 vs 2 team event"), field="kind")


def check_team_settings(*, kind: str, game: str) -> None:
    """The team variant is Pentagame's (section 3); other games have none."""
    if kind == Tournament.Kind.TEAMS and not rulesets.get(game).has_team_variant:
        raise ServiceError(_("2 vs 2 team events are played in Pentagame"), field="kind")


def team_add(
    *,
    tournament: Tournament,
    name: str,
    players: Sequence[str],
    ratings: Sequence[int | None] | None = None,
    by: Actor,
) -> Team:
    """Enter a team of two players (found in the club or created there, as single
    entries are). After round 1 is paired the team is a late one, from the next round."""
    require_actor(by)
    check_team_event(tournament)
    name = " ".join(str(name).split())
    if not name:
        raise ServiceError(_("a team needs a name"), field="name")
    if len(name) > NAME_MAX:
        raise ServiceError(
            _("a name has at most %(count)d characters") % {"count": NAME_MAX}, field="name"
        )
    names = [" ".join(str(p).split()) for p in players]
    if len(names) != 2 or not all(names):
        raise ServiceError(_("a team is two players: give two names"), field="players")
    if names[0].casefold() == names[1].casefold():
        raise ServiceError(_("a team is two different players"), field="players")
    given = list(ratings) if ratings is not None else [None, None]
    if len(given) != 2:
        raise ServiceError(_("give a rating for each of the two players"), field="ratings")
    with transaction.atomic():
        tournament = lock_tournament(pk=tournament.pk)
        open_for_entries(tournament)
        if tournament.teams.filter(name=name).exists():
            raise ServiceError(
                _("a team named %(name)s is already entered") % {"name": name}, field="name"
            )
        try:
            first, second = (
                entry_add(tournament=tournament, name=n, rating=r, by=by)
                for n, r in zip(names, given, strict=True)
            )
        except ServiceError as exc:
            raise ServiceError(exc.message, field="players") from None
        top = tournament.teams.aggregate(top=Max("seed"))["top"]
        team = Team.objects.create(
            tournament=tournament, name=name, seed=(top or 0) + 1, first=first, second=second
        )
        audit_record(tournament=tournament, by=by, action="enter team", target=name, after=names)
        standings_changed(tournament=tournament)
    return team


def team_withdraw(*, team: Team, by: Actor) -> Team:
    """Withdraw a team: both its players (a team is never paired without both)."""
    require_actor(by)
    with transaction.atomic():
        for entry in (team.first, team.second):
            entry_withdraw(entry=entry, by=by)
        team.refresh_from_db()
    return team


def team_readmit(*, team: Team, by: Actor) -> Team:
    """Undo a team's withdrawal: both players are paired again from the next round."""
    require_actor(by)
    with transaction.atomic():
        for entry in (team.first, team.second):
            entry_readmit(entry=entry, by=by)
        team.refresh_from_db()
    return team


def _team_name(name: object, field: str = "name") -> str:
    name = " ".join(str(name).split())
    if not name:
        raise ServiceError(_("a team needs a name"), field=field)
    if len(name) > NAME_MAX:
        raise ServiceError(
            _("a name has at most %(count)d characters") % {"count": NAME_MAX}, field=field
        )
    return name


def _locked_team(team: Team) -> Team:
    locked = (
        # The team only: its entries and players are read (a plain FOR UPDATE would lock
        # every joined row too; issue 41).
        Team.objects.select_for_update(of=("self",))
        .select_related("first__player", "second__player")
        .filter(pk=team.pk)
        .first()
    )
    if locked is None:
        raise ConflictError(_("this team was dissolved meanwhile; reload"), field="team")
    return locked


def _in_team(entry: Entry) -> bool:
    return Team.objects.filter(models.Q(first=entry) | models.Q(second=entry)).exists()


def _create(tournament: Tournament, name: str, first: Entry, second: Entry, by: Actor) -> Team:
    """The team of two entries (inside the caller's transaction, tournament locked)."""
    if tournament.teams.filter(name=name).exists():
        raise ServiceError(
            _("a team named %(name)s is already entered") % {"name": name}, field="name"
        )
    top = tournament.teams.aggregate(top=Max("seed"))["top"]
    team = Team.objects.create(
        tournament=tournament, name=name, seed=(top or 0) + 1, first=first, second=second
    )
    audit_record(
        tournament=tournament,
        by=by,
        action="enter team",
        target=name,
        after=[first.player.name, second.player.name],
    )
    standings_changed(tournament=tournament)
    return team


def team_form(*, tournament: Tournament, name: str, first: Entry, second: Entry, by: Actor) -> Team:
    """Make a team of two players already entered (and in no team yet)."""
    require_actor(by)
    check_team_event(tournament)
    name = _team_name(name)
    with transaction.atomic():
        tournament = lock_tournament(pk=tournament.pk)
        open_for_entries(tournament)
        chosen = []
        for field, entry in (("first", first), ("second", second)):
            locked = (
                # The entry only, not its joined player (issue 41).
                Entry.objects.select_for_update(of=("self",))
                .select_related("player")
                .filter(pk=getattr(entry, "pk", None), tournament=tournament)
                .first()
            )
            if locked is None:
                raise ServiceError(_("choose a player entered here"), field=field)
            if locked.status == Entry.Status.WITHDRAWN:
                raise ConflictError(
                    _("%(name)s is withdrawn; re-admit them first") % {"name": locked.player.name},
                    field=field,
                )
            if _in_team(locked):
                raise ConflictError(
                    _("%(name)s is in a team already") % {"name": locked.player.name},
                    field=field,
                )
            if locked.seats.exists():
                # Only a team is paired here; a seat means a game already played alone.
                raise ConflictError(
                    _("%(name)s has played already") % {"name": locked.player.name},
                    field=field,
                )
            chosen.append(locked)
        if chosen[0].pk == chosen[1].pk:
            raise ServiceError(_("a team is two different players"), field="second")
        return _create(tournament, name, chosen[0], chosen[1], by)


def team_rename(*, team: Team, name: str, by: Actor) -> Team:
    require_actor(by)
    name = _team_name(name)
    with transaction.atomic():
        tournament = lock_tournament(pk=team.tournament_id)
        locked = _locked_team(team)
        if name == locked.name:
            return locked
        if tournament.teams.filter(name=name).exclude(pk=locked.pk).exists():
            raise ServiceError(
                _("a team named %(name)s is already entered") % {"name": name}, field="name"
            )
        before = locked.name
        locked.name = name
        locked.save(update_fields=["name"])
        audit_record(tournament=tournament, by=by, action="rename team", target=name, before=before)
        standings_changed(tournament=tournament)
    return locked


def team_dissolve(*, team: Team, by: Actor) -> None:
    """Undo a team before its first round (a wrong pairing of partners): the two players
    stay entered, free to form other teams (or to be deleted). A team that has played
    is withdrawn instead: its games are history."""
    require_actor(by)
    with transaction.atomic():
        tournament = lock_tournament(pk=team.tournament_id)
        open_for_entries(tournament)
        locked = _locked_team(team)
        first = (
            Seat.objects.filter(entry_id__in=[locked.first_id, locked.second_id])
            .order_by("round__number")
            .values_list("round__number", flat=True)
            .first()
        )
        if first is not None:
            raise ConflictError(
                _("%(name)s has played in round %(round)s; withdraw the team instead")
                % {"name": locked.name, "round": first},
                field="team",
            )
        audit_record(
            tournament=tournament,
            by=by,
            action="dissolve team",
            target=locked.name,
            before=[locked.first.player.name, locked.second.player.name],
        )
        locked.delete()
        standings_changed(tournament=tournament)


# A pasted team: `Anna Adler + Ben Berg`, optionally named (`Stars: Anna + Ben`) and
# with ratings as in a list of players (`Anna Adler, 1620 + Ben Berg`).
_PLUS = "+"


def _paste_player(part: str) -> tuple[str, int | None, str | None]:
    pieces = SEPARATORS.split(part)
    name = " ".join(pieces[0].split())
    if len(pieces) > 2:
        return name, None, _("one name and at most one rating per player")
    rating: int | None = None
    if len(pieces) == 2 and pieces[1].strip():
        raw = pieces[1].strip()
        if not PASTED_NUMBER.fullmatch(raw):
            return name, None, _("rating must be a number")
        rating = int(raw)
        problem = rating_problem(rating)
        if problem:
            return name, None, problem
    return name, rating, name_problem(name)


def _parse_teams(
    text: str,
) -> tuple[list[tuple[int, str, list[tuple[str, int | None]]]], list[tuple[int, str]]]:
    """The lines of a pasted list of teams as (line number, team name, players), and a
    problem for each bad line, as for a pasted list of players."""
    rows: list[tuple[int, str, list[tuple[str, int | None]]]] = []
    problems: list[tuple[int, str]] = []
    players_seen: dict[str, int] = {}
    names_seen: dict[str, int] = {}
    for number, line in enumerate(str(text).splitlines(), start=1):
        if not line.strip():
            continue
        label, colon, rest = line.partition(":")
        team_name, body = (" ".join(label.split()), rest) if colon else ("", line)
        problem: str | None = None
        parts = body.split(_PLUS)
        players: list[tuple[str, int | None]] = []
        if len(parts) != 2:
            problem = _("a team is two players joined by +, e.g. Anna Adler + Ben Berg")
        else:
            for part in parts:
                name, rating, part_problem = _paste_player(part)
                problem = problem or part_problem
                players.append((name, rating))
        if problem is None and players[0][0].casefold() == players[1][0].casefold():
            problem = _("a team is two different players")
        if problem is None and colon and not team_name:
            problem = _("a team needs a name")
        if problem is None:
            team_name = team_name or f"{players[0][0]} + {players[1][0]}"
            if len(team_name) > NAME_MAX:
                problem = _("a name has at most %(count)d characters") % {"count": NAME_MAX}
        if problem is None and team_name.casefold() in names_seen:
            problem = _("%(name)s appears twice (line %(line)s too)") % {
                "name": team_name,
                "line": names_seen[team_name.casefold()],
            }
        for name, _rating in players if problem is None else []:
            if name.casefold() in players_seen:
                problem = _("%(name)s appears twice (line %(line)s too)") % {
                    "name": name,
                    "line": players_seen[name.casefold()],
                }
                break
        if problem is not None:
            problems.append((number, pasted_line_problem(number, line.strip(), problem)))
            continue
        names_seen[team_name.casefold()] = number
        for name, _rating in players:
            players_seen[name.casefold()] = number
        rows.append((number, team_name, players))
    return rows, problems


def teams_paste(*, tournament: Tournament, text: str, by: Actor) -> list[Team]:
    """Enter a pasted list of teams, one per line. A player already entered and in no
    team joins as she is; anyone else is entered as for a pasted list of players. All or
    nothing: every bad line is named (PasteError, field ``teams``) and nothing changes."""
    require_actor(by)
    check_team_event(tournament)
    rows, problems = _parse_teams(text)
    if not rows and not problems:
        raise ServiceError(_("the list is empty"), field="teams")
    with transaction.atomic():
        tournament = lock_tournament(pk=tournament.pk)
        open_for_entries(tournament)
        entries = {e.player.name.casefold(): e for e in tournament.entries.select_related("player")}
        teamed = {e for t in tournament.teams.all() for e in (t.first_id, t.second_id)}
        team_names = {n.casefold() for n in tournament.teams.values_list("name", flat=True)}
        for number, team_name, players in rows:
            problem: str | None = None
            if team_name.casefold() in team_names:
                problem = _("a team named %(name)s is already entered") % {"name": team_name}
            for name, _rating in players:
                entry = entries.get(name.casefold())
                if problem is None and entry is not None:
                    if entry.pk in teamed:
                        problem = _("%(name)s is in a team already") % {"name": name}
                    elif entry.status == Entry.Status.WITHDRAWN:
                        problem = _("%(name)s is withdrawn; re-admit them first") % {"name": name}
            if problem is not None:
                problems.append((number, pasted_line_problem(number, team_name, problem)))
        if problems:
            problems.sort(key=lambda p: p[0])
            raise PasteError([message for _number, message in problems], field="teams")
        teams = []
        try:
            for _number, team_name, players in rows:
                first, second = (
                    entries.get(name.casefold())
                    or entry_add(tournament=tournament, name=name, rating=rating, by=by)
                    for name, rating in players
                )
                teams.append(_create(tournament, team_name, first, second, by))
        except ServiceError as exc:
            raise ServiceError(exc.message, field="teams") from None
    return teams


def team_of_entries(tournament: Tournament) -> dict[int, Team]:
    """Each entry's team."""
    teams: dict[int, Team] = {}
    for team in tournament.teams.select_related("first__player", "second__player"):
        teams[team.first_id] = team
        teams[team.second_id] = team
    return teams


def _pairable_teams(tournament: Tournament, number: int) -> list[Team]:
    """Teams whose two players both still play and have entered by this round."""
    teams = tournament.teams.select_related("first", "second").order_by("seed")
    return [
        t
        for t in teams
        if all(
            e.status != Entry.Status.WITHDRAWN and e.joined_round <= number
            for e in (t.first, t.second)
        )
    ]


def _team_history(tournament: Tournament) -> tuple[list[Meeting], set[int]]:
    """Earlier meetings of teams (two teams at one table) and the teams that had a bye."""
    team_of = {e: t.pk for e, t in team_of_entries(tournament).items()}
    rows = Seat.objects.filter(round__tournament=tournament).values_list(
        "table_id", "entry_id", "round__number", "table__is_bye"
    )
    tables: dict[int, set[int]] = defaultdict(set)
    numbers: dict[int, int] = {}
    had_bye: set[int] = set()
    for table_id, entry_id, number, is_bye in rows:
        team = team_of.get(entry_id)
        if team is None:
            continue
        if is_bye:
            had_bye.add(team)
        else:
            tables[table_id].add(team)
            numbers[table_id] = number
    met = [
        Meeting(str(a), str(b), numbers[table_id])
        for table_id, teams in tables.items()
        for a, b in [sorted(teams)]
        if len(teams) == 2
    ]
    return met, had_bye


def team_pairing(tournament: Tournament, number: int) -> Pairing:
    """Pair the teams with the Swiss engine: each team is one pairing unit, ranked by its
    score so far (then its seed); a table is two teams, an odd team out has the bye."""
    teams = _pairable_teams(tournament, number)
    if len(teams) < 2:
        raise ServiceError(
            _("round %(number)d needs at least two teams; %(count)d can play")
            % {"number": number, "count": len(teams)}
        )
    met, had_bye = _team_history(tournament)
    scores = team_scores(tournament=tournament)
    units = [PairingPlayer(id=str(t.pk), score=scores.get(t.pk, 0.0), seed=t.seed) for t in teams]
    # Two players the organiser never seats together keep their teams apart.
    team_of = {e: t.pk for e, t in team_of_entries(tournament).items()}
    forbidden = {
        (str(team_of[a]), str(team_of[b]))
        for a, b in ForbiddenPair.objects.filter(tournament=tournament).values_list(
            "first_id", "second_id"
        )
        if a in team_of and b in team_of and team_of[a] != team_of[b]
    }
    try:
        return pair_round(
            units,
            met=met,
            forbidden=sorted(forbidden),
            had_bye=[str(t) for t in had_bye],
            policy="pairs+bye",
        )
    except PairingError as exc:
        raise ServiceError(
            _("no valid pairing for round %(number)d: %(reason)s")
            % {"number": number, "reason": exc}
        ) from None


def write_team_tables(
    tournament: Tournament,
    round_: Round,
    pairing: Pairing,
    links: dict[tuple[int, frozenset[int]], dict[int, str]] | None = None,
) -> None:
    """Seat the paired teams: team A (the first of the pairing's table) in seats 1+3,
    team B in 2+4, and the two games of the match. A team's bye is a table of its two
    players without games. ``links`` keeps report links as in rounds._write_tables."""
    links = links or {}
    teams = {str(t.pk): t for t in tournament.teams.all()}
    seats: list[Seat] = []
    games: list[Game] = []

    def seat_table(number: int, entries: list[int], is_bye: bool = False) -> Table:
        table = Table.objects.create(round=round_, number=number, is_bye=is_bye)
        kept = links.get((number, frozenset(entries)), {})
        for position, entry_id in enumerate(entries, start=1):
            seat = Seat(table=table, round=round_, entry_id=entry_id, position=position)
            if entry_id in kept:
                seat.report_token = kept[entry_id]
            seats.append(seat)
        return table

    number = 0
    for paired in pairing.tables:
        number += 1
        a, b = (teams[t] for t in paired.seats)
        table = seat_table(number, [a.first_id, b.first_id, a.second_id, b.second_id])
        for g, (first, direction) in enumerate(TEAM_MATCH, start=1):
            games.append(
                Game(
                    table=table,
                    number=g,
                    first_position=first,
                    direction=direction,
                    target=tournament.sheet_target,
                )
            )
    if pairing.bye is not None:
        team = teams[pairing.bye]
        seat_table(number + 1, [team.first_id, team.second_id], is_bye=True)
    Seat.objects.bulk_create(seats)
    Game.objects.bulk_create(games)
