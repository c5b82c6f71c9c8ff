"""A whole tournament as one JSON document, and back: move it between installations
without loss (entries, seeds, rounds, tables, seats, games, move records and their
setups, every result submission, the audit log).

An import is a write like any other: the document is checked against its schema
(tournaments/transfer/documents.py) before anything is written, the importer must
organise the club it goes into, players are created there or mapped explicitly, and
every result is replayed through the result services (and so the rules engines). It is
all or nothing; its closed rounds are then rated like rounds closed here."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import signals
from tournaments.core.actor import Actor, require_actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ServiceError
from tournaments.core.freshness import standings_changed
from tournaments.core.permissions import can_organise
from tournaments.desk.services.clubs import player_create
from tournaments.desk.services.tournaments import check_game_settings, check_pre_round
from tournaments.models import (
    AuditEntry,
    Club,
    Entry,
    ForbiddenPair,
    Game,
    Player,
    ResultSubmission,
    Round,
    Seat,
    Skip,
    Table,
    Tournament,
)
from tournaments.models_team import Team
from tournaments.results.services.deciders import check_decider_settings, table_deciders_in_step
from tournaments.results.services.results import (
    game_confirm,
    game_record_moves,
    game_record_out,
    result_accept,
)
from tournaments.transfer.documents import TournamentImportDocument, error_lines

FORMAT = "agon-tournament"
# 2 added setups, submissions and the audit log; 1 still imports. Settings added since
# (the pre-round's two) are optional, with the defaults an older document meant.
VERSION = 2
SETTINGS = [
    "name",
    "slug",
    "game",
    "kind",
    "status",
    "published",
    *Tournament.PLAY_SETTINGS,
    "tiebreaks",
]
DECIMALS = {"factor_2", "factor_3", "bye_score", "absence_score", "late_score"}


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return value


def tournament_export_document(*, tournament: Tournament) -> dict[str, Any]:
    entries = list(
        tournament.entries.select_related("player").prefetch_related("skips").order_by("seed")
    )
    key = {e.pk: f"e{e.seed}" for e in entries}
    seats_by_table: dict[int, list[str]] = {}
    for table_id, entry_id in (
        Seat.objects.filter(round__tournament=tournament)
        .order_by("table_id", "position")
        .values_list("table_id", "entry_id")
    ):
        seats_by_table.setdefault(table_id, []).append(key[entry_id])
    submissions_by_game: dict[int, list[dict[str, Any]]] = {}
    for sub in (
        ResultSubmission.objects.filter(game__table__round__tournament=tournament)
        # Held entries (offline, kept for the organiser, docs/offline.md) never counted:
        # they are the organiser's inbox on this site, not the game's history.
        .exclude(state=ResultSubmission.State.HELD)
        .select_related("by_seat", "decided_by_seat")
        .order_by("created_at", "pk")
    ):
        submissions_by_game.setdefault(sub.game_id, []).append(
            {
                "seat": sub.by_seat.position if sub.by_seat else None,
                "state": sub.state,
                "decided_by": sub.decided_by_seat.position if sub.decided_by_seat else None,
                "status": sub.status,
                "out": list(sub.out),
                "moves": list(sub.moves),
                "colours_out": dict(sub.colours_out),
                "setup": dict(sub.setup),
            }
        )
    games_by_table: dict[int, list[dict[str, Any]]] = {}
    for game in Game.objects.filter(table__round__tournament=tournament).order_by("number"):
        n = len(seats_by_table.get(game.table_id, []))
        games_by_table.setdefault(game.table_id, []).append(
            {
                "number": game.number,
                "first_position": game.first_position,
                "direction": game.direction,
                "status": game.status,
                "target": game.target,
                "out": game.out_list(n),
                "colours_out": game.colours_out,
                "moves": game.moves,
                "setup": game.setup,
                "submissions": submissions_by_game.get(game.pk, []),
                "version": game.version,
                "decider": game.decider,
                "leaders": None if game.leaders is None else list(game.leaders),
                "voided": game.voided,
            }
        )
    rounds = []
    for round_ in tournament.rounds.order_by("number").prefetch_related("tables"):
        rounds.append(
            {
                "number": round_.number,
                "status": round_.status,
                "published_at": _plain(round_.published_at),
                "closed_at": _plain(round_.closed_at),
                "tables": [
                    {
                        "number": t.number,
                        "is_bye": t.is_bye,
                        "seats": seats_by_table.get(t.pk, []),
                        "games": games_by_table.get(t.pk, []),
                    }
                    for t in sorted(round_.tables.all(), key=lambda t: t.number)
                ],
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {
            "name": tournament.club.name,
            "slug": tournament.club.slug,
            "city": tournament.club.city,
        },
        "tournament": {
            **{f: _plain(getattr(tournament, f)) for f in SETTINGS},
            "date": _plain(tournament.date),
        },
        "entries": [
            {
                "key": key[e.pk],
                "player": e.player.name,
                "seed": e.seed,
                "status": e.status,
                "rating": e.rating,
                "checked_in": e.checked_in,
                "joined_round": e.joined_round,
                "withdrawn_after_round": e.withdrawn_after_round,
                "missed_round_score": _plain(e.missed_round_score),
                "skips": [{"round": k.round_number, "bye": k.bye} for k in e.skips.all()],
            }
            for e in entries
        ],
        "forbidden": [
            [key[f.first_id], key[f.second_id], f.reason]
            for f in ForbiddenPair.objects.filter(tournament=tournament)
        ],
        # A 2 vs 2 event's teams: two entries each, by their keys.
        "teams": [
            {"name": t.name, "seed": t.seed, "first": key[t.first_id], "second": key[t.second_id]}
            for t in Team.objects.filter(tournament=tournament).order_by("seed")
        ],
        "rounds": rounds,
        "audit": [
            {
                "user": a.user.get_username() if a.user else None,
                "actor": a.actor,
                "action": a.action,
                "target": a.target,
                "before": a.before,
                "after": a.after,
                "at": _plain(a.at),
            }
            for a in tournament.audit.select_related("user").order_by("at", "pk")
        ],
    }


def tournament_import_document(
    *,
    document: Any,
    by: Actor,
    club: Club | None = None,
    players: Mapping[str, int] | None = None,
    players_by_name: bool = False,
) -> Tournament:
    """Create the tournament a document describes in ``club`` (by default the club of
    the document's slug), all or nothing. ``players`` maps entry keys to players of that
    club; with ``players_by_name`` the club's players of the same names are used; any
    other entry gets a new player, and a name the club already has is refused."""
    require_actor(by)
    if by.user is None or not by.user.is_authenticated:
        raise PermissionDenied("only club organisers import tournaments")
    schema = TournamentImportDocument(data=document)
    if not schema.is_valid():
        lines = error_lines(schema.errors)
        more = f" (and {len(lines) - 3} more)" if len(lines) > 3 else ""
        raise ServiceError("; ".join(lines[:3]) + more, field="document")
    data: dict[str, Any] = schema.validated_data
    if club is None:
        club = Club.objects.filter(slug=data["club"]["slug"]).first()
        if club is None:
            # An import never creates a club: the organiser chooses one of theirs.
            raise ServiceError(
                _("there is no club %(club)s here; choose the club to import into")
                % {"club": repr(data["club"]["slug"])},
                field="club",
            )
    if not can_organise(by.user, club):
        raise PermissionDenied(
            f"you do not organise {club.name}; only its organisers import into it"
        )
    try:
        with transaction.atomic():
            tournament = document_tournament_import(
                data=data,
                club=club,
                by=by,
                players=dict(players or {}),
                players_by_name=players_by_name,
            )
    except (IntegrityError, DataError) as exc:
        raise ServiceError(
            _("the document contradicts itself or this site: %(exc)s") % {"exc": exc}
        ) from None
    return tournament


def _import_teams(
    tournament: Tournament, rows: list[dict[str, Any]], entries: dict[str, Entry]
) -> None:
    """The teams of a 2 vs 2 event, before its results are replayed (a team table's
    result is checked against its teams)."""
    if rows and not tournament.is_team_event:
        raise ServiceError(_("teams: only a 2 vs 2 team event has teams"), field="teams")
    used: set[str] = set()
    names: set[str] = set()
    seeds: set[int] = set()
    for i, row in enumerate(rows):
        first, second = row["first"], row["second"]
        if first not in entries or second not in entries or first == second:
            raise ServiceError(
                _("teams[%(i)s]: two different entry keys") % {"i": i}, field="teams"
            )
        if first in used or second in used:
            raise ServiceError(
                _("teams[%(i)s]: a player is in one team only") % {"i": i}, field="teams"
            )
        if row["name"].casefold() in names or row["seed"] in seeds:
            raise ServiceError(
                _("teams[%(i)s]: team names and seeds are distinct") % {"i": i}, field="teams"
            )
        used |= {first, second}
        names.add(row["name"].casefold())
        seeds.add(row["seed"])
        Team.objects.create(
            tournament=tournament,
            name=row["name"],
            seed=row["seed"],
            first=entries[first],
            second=entries[second],
        )


def document_player_for(
    *,
    row: dict[str, Any],
    index: int,
    club: Club,
    players: dict[str, int],
    by_name: bool,
    by: Actor,
) -> Player:
    path = f"entries[{index}].player"
    if row["key"] in players:
        player = Player.objects.filter(pk=players[row["key"]], club=club).first()
        if player is None:
            raise ServiceError(
                _("%(path)s: the chosen player is not one of %(name)s's")
                % {"path": path, "name": club.name},
                field=path,
            )
        return player
    # The same name without regard to case and spacing (a venue's "anna  meyer" is the
    # site's "Anna Meyer"); two such players are a choice for the organiser, never a guess.
    same = list(Player.objects.filter(club=club, name__iexact=" ".join(row["player"].split()))[:2])
    if len(same) > 1:
        raise ServiceError(
            _("%(path)s: %(name)s has two players called %(player)s; map the entry to one")
            % {"path": path, "name": club.name, "player": repr(same[0].name)},
            field=path,
        )
    existing = same[0] if same else None
    if existing is not None:
        if by_name:
            return existing
        raise ServiceError(
            _(
                "%(path)s: %(name)s has a player %(existing)s already; map the entry to a player or reuse the club's players by name"
            )
            % {"path": path, "name": club.name, "existing": repr(existing.name)},
            field=path,
        )
    try:
        return player_create(name=row["player"], club=club, by=by)
    except ServiceError as exc:
        raise ServiceError(f"{path}: {exc.message}", field=path) from None


def _replay(
    game: Game, data: dict[str, Any], seats: dict[int, Seat], director: Actor, path: str
) -> None:
    """Every submission of the game through the result services, in order; the states
    they end in must be the document's."""
    submissions = data.get("submissions")
    if submissions is None:  # version 1: the result as the importing director's entry
        submissions = []
        if data["status"] != Game.Status.PENDING:
            submissions = [
                {
                    "seat": None,
                    "state": ResultSubmission.State.ENTERED,
                    "decided_by": None,
                    "status": data["status"],
                    "out": data["out"],
                    "moves": data["moves"],
                    "colours_out": data["colours_out"],
                    "setup": data.get("setup", {}),
                }
            ]
    accepted: list[tuple[str, Any]] = []
    for i, sub in enumerate(submissions):
        here = f"{path}.submissions[{i}]"
        try:
            seat = seats.get(sub["seat"]) if sub["seat"] is not None else None
            if sub["seat"] is not None and seat is None:
                raise ServiceError(
                    _("no seat %(seat)s at this table") % {"seat": sub["seat"]}, field="seat"
                )
            actor = Actor.player(seat) if seat is not None else director
            # A record in progress stays one (None: the record says); else as given.
            finished = (
                None
                if sub["status"] == Game.Status.IN_PROGRESS
                else sub["status"] == Game.Status.FINISHED
            )
            if sub["moves"]:
                game_record_moves(
                    game=game, moves=sub["moves"], finished=finished, setup=sub["setup"], by=actor
                )
            else:
                game_record_out(
                    game=game,
                    out=sub["out"],
                    finished=finished,
                    colours_out={k: "".join(v) for k, v in sub["colours_out"].items()},
                    by=actor,
                )
            # Confirmed by a click of another seat's player, not by their agreeing report.
            if (
                sub["state"] == ResultSubmission.State.CONFIRMED
                and sub["decided_by"]
                and not any(s["seat"] == sub["decided_by"] for s in submissions[i + 1 :])
            ):
                confirmer = seats.get(sub["decided_by"])
                if confirmer is None:
                    raise ServiceError(_("no such seat"), field="decided_by")
                game_confirm(game=game, by=Actor.player(confirmer))
            if (
                sub["state"] == ResultSubmission.State.CONFIRMED
                and sub["seat"] is not None
                and not sub["decided_by"]
            ):
                # A report the organiser accepted: accepted once the reports it settled
                # are replayed too.
                accepted.append((here, game.submissions.order_by("-pk").first()))
        except ServiceError as exc:
            raise ServiceError(f"{here}.{exc.field or 'out'}: {exc.message}", field=here) from None
    for here, submission in accepted:
        try:
            result_accept(submission=submission, by=director)
        except ServiceError as exc:
            raise ServiceError(f"{here}.state: {exc.message}", field=here) from None
    states = list(game.submissions.order_by("created_at", "pk").values_list("state", "out"))
    if [(s["state"], s["out"]) for s in submissions] != [(st, list(out)) for st, out in states]:
        raise ServiceError(
            _("%(path)s.submissions: the results do not replay to the states the document gives")
            % {"path": path},
            field=f"{path}.submissions",
        )
    game.refresh_from_db()
    if game.status != data["status"] or (
        data["status"] != Game.Status.PENDING and game.out_list(len(seats)) != data["out"]
    ):
        raise ServiceError(
            _("%(path)s.out: the game's result is not the one its submissions give")
            % {"path": path},
            field=f"{path}.out",
        )


def document_tournament_import(
    *,
    data: dict[str, Any],
    club: Club,
    by: Actor,
    players: dict[str, int],
    players_by_name: bool,
) -> Tournament:
    """The tournament of a checked document, inside the caller's transaction (the
    import above, and the first push of an event run at a venue: tournaments/link)."""
    by_name = players_by_name
    settings = data["tournament"]
    if Tournament.objects.filter(slug=settings["slug"]).exists():
        raise ServiceError(
            _("tournament.slug: a tournament %(slug)s exists already on this site")
            % {"slug": repr(settings["slug"])},
            field="tournament.slug",
        )
    tournament = Tournament(club=club, created_by=by.user, **settings)
    try:
        check_game_settings(tournament.game, tournament.policy)
        check_pre_round(tournament)
        check_decider_settings(tournament)
    except ServiceError as exc:
        raise ServiceError(f"tournament.{exc.field}: {exc.message}", field="tournament") from None
    # The document's deciders are replayed as it gives them, not added by the results
    # replayed before them; they are checked against those results below.
    deciders = tournament.decider
    tournament.decider = False
    tournament.save()
    if by.user is not None:
        tournament.directors.add(by.user)
    entries: dict[str, Entry] = {}
    for i, row in enumerate(data["entries"]):
        player = document_player_for(
            row=row, index=i, club=club, players=players, by_name=by_name, by=by
        )
        fields = {k: v for k, v in row.items() if k not in ("key", "player", "skips")}
        entries[row["key"]] = Entry.objects.create(tournament=tournament, player=player, **fields)
        Skip.objects.bulk_create(
            Skip(entry=entries[row["key"]], round_number=k["round"], bye=k["bye"])
            for k in row.get("skips", [])
        )
    for i, (first, second, reason) in enumerate(data["forbidden"]):
        if first not in entries or second not in entries or first == second:
            raise ServiceError(
                _("forbidden[%(i)s]: two different entry keys") % {"i": i}, field="forbidden"
            )
        ForbiddenPair.objects.create(
            tournament=tournament, first=entries[first], second=entries[second], reason=reason
        )
    _import_teams(tournament, data.get("teams", []), entries)
    closed: list[Round] = []
    for r, round_data in enumerate(data["rounds"]):
        round_ = document_round_import(
            tournament=tournament,
            round_data=round_data,
            index=r,
            entries=entries,
            deciders=deciders,
            by=by,
        )
        if round_.status == Round.Status.CLOSED:
            closed.append(round_)
    if deciders:
        Tournament.objects.filter(pk=tournament.pk).update(decider=True)
        tournament.decider = True
    document_audit_replace(tournament=tournament, rows=data["audit"], by=by)
    audit_record(tournament=tournament, by=by, action="import", target=tournament.name)
    standings_changed(tournament=tournament)
    # Rated like rounds closed here (the listeners queue their jobs on commit).
    if tournament.kind == Tournament.Kind.EVENING:
        if tournament.status == Tournament.Status.FINISHED:
            signals.evening_closed.send(sender=Tournament, tournament_id=tournament.pk, by=by)
    else:
        for round_ in closed:
            signals.round_closed.send(sender=Round, round_id=round_.pk, by=by)
    return tournament


def document_audit_replace(
    *, tournament: Tournament, rows: list[dict[str, Any]], by: Actor
) -> None:
    """The log a document brings, in place of the one the site had of the event (the
    replay's own entries). Who acted elsewhere is no user of this site: the name is kept
    as text, never matched to a local user of the same name."""
    require_actor(by)
    AuditEntry.objects.filter(tournament=tournament).delete()
    for row in rows:
        entry = AuditEntry.objects.create(
            tournament=tournament,
            actor=row.get("actor") or row.get("user") or "",
            action=row["action"],
            target=row["target"],
            before=row["before"],
            after=row["after"],
        )
        AuditEntry.objects.filter(pk=entry.pk).update(at=row["at"])


def document_round_import(
    *,
    tournament: Tournament,
    round_data: dict[str, Any],
    index: int,
    entries: Mapping[str, Entry],
    deciders: bool,
    by: Actor,
) -> Round:
    """One round of a checked document (its tables, seats and games, every result
    replayed through the result services), inside the caller's transaction: the import
    and the venue's push (tournaments/link) share it. Errors name the field path."""
    r = index
    status = round_data["status"]
    # Results are replayed into a published round; it is closed afterwards.
    round_ = Round.objects.create(
        tournament=tournament,
        number=round_data["number"],
        status=Round.Status.PAIRED if status == Round.Status.PAIRED else Round.Status.PUBLISHED,
        published_at=round_data["published_at"],
    )
    seen: set[str] = set()
    for t, table_data in enumerate(round_data["tables"]):
        path = f"rounds[{r}].tables[{t}]"
        table = Table.objects.create(
            round=round_, number=table_data["number"], is_bye=table_data["is_bye"]
        )
        seats: dict[int, Seat] = {}
        for i, key in enumerate(table_data["seats"], start=1):
            if key not in entries or key in seen:
                raise ServiceError(
                    _("%(path)s.seats[%(index)s]: no entry %(key)s, or seated twice")
                    % {"path": path, "index": i - 1, "key": repr(key)},
                    field=f"{path}.seats",
                )
            seen.add(key)
            seats[i] = Seat.objects.create(
                table=table, round=round_, entry=entries[key], position=i
            )
        for g, game_data in enumerate(table_data["games"]):
            if game_data["first_position"] > max(len(seats), 1):
                raise ServiceError(
                    _("%(path)s.games[%(g)s].first_position: no such seat")
                    % {"path": path, "g": g},
                    field=f"{path}.games[{g}].first_position",
                )
            leaders = game_data.get("leaders")
            if leaders is not None and (len(seats) != 3 or table_data["is_bye"]):
                raise ServiceError(
                    _("%(path)s.games[%(g)s].leaders: a decider is played at a 3-player table")
                    % {"path": path, "g": g},
                    field=f"{path}.games[{g}].leaders",
                )
            game = Game.objects.create(
                table=table,
                number=game_data["number"],
                first_position=game_data["first_position"],
                direction=game_data["direction"],
                target=game_data["target"],
                decider=leaders is not None,
                leader_a=leaders[0] if leaders else None,
                leader_b=leaders[1] if leaders else None,
            )
            _replay(game, game_data, seats, by, f"{path}.games[{g}]")
            if "version" in game_data or game_data.get("voided"):
                # The replay counted its own writes; the version is the document's.
                Game.objects.filter(pk=game.pk).update(
                    version=game_data.get("version", game.version),
                    voided=bool(game_data.get("voided")),
                )
        if not table_deciders_in_step(tournament=tournament, table=table, enabled=deciders):
            raise ServiceError(
                _(
                    "%(path)s.games: the deciders do not follow from the results (a "
                    "3-player match tied at the top by two has one decider of those two)"
                )
                % {"path": path},
                field=f"{path}.games",
            )
    if status == Round.Status.CLOSED:
        Round.objects.filter(pk=round_.pk).update(
            status=Round.Status.CLOSED, closed_at=round_data["closed_at"] or timezone.now()
        )
        round_.status = Round.Status.CLOSED
    return round_
