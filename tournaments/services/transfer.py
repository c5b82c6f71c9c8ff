"""A whole tournament as one JSON document, and back: move it between installations
without loss (entries, seeds, rounds, tables, seats, games, move records)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_date, parse_datetime

from tournaments.models import (
    Club,
    Entry,
    ForbiddenPair,
    Game,
    Player,
    ResultSubmission,
    Round,
    Seat,
    Table,
    Tournament,
)

from .actor import Actor, require_actor
from .audit import audit_record
from .errors import ServiceError

FORMAT = "agon-tournament"
VERSION = 1
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
DECIMALS = {"factor_2", "factor_3", "bye_score", "absence_score"}


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return value


def tournament_export_document(*, tournament: Tournament) -> dict[str, Any]:
    entries = list(tournament.entries.select_related("player").order_by("seed"))
    key = {e.pk: f"e{e.seed}" for e in entries}
    seats_by_table: dict[int, list[str]] = {}
    for table_id, entry_id in (
        Seat.objects.filter(round__tournament=tournament)
        .order_by("table_id", "position")
        .values_list("table_id", "entry_id")
    ):
        seats_by_table.setdefault(table_id, []).append(key[entry_id])
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
            }
            for e in entries
        ],
        "forbidden": [
            [key[f.first_id], key[f.second_id], f.reason]
            for f in ForbiddenPair.objects.filter(tournament=tournament)
        ],
        "rounds": rounds,
    }


def tournament_import_document(*, document: Any, by: Actor) -> Tournament:
    """Create the tournament a document describes, all or nothing."""
    require_actor(by)
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ServiceError("not an Agon tournament document", field="document")
    if document.get("version") != VERSION:
        raise ServiceError(f"unsupported document version {document.get('version')!r}")
    try:
        with transaction.atomic():
            tournament = _import(document, by)
            if by.user is not None:
                tournament.directors.add(by.user)
            audit_record(tournament=tournament, by=by, action="import", target=tournament.name)
            return tournament
    except ServiceError:
        raise
    except IntegrityError as exc:
        raise ServiceError(f"the document contradicts itself or this site: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise ServiceError(f"the document is incomplete or malformed: {exc!r}") from None


def _import(document: dict[str, Any], by: Actor) -> Tournament:
    club_data = document["club"]
    club, created = Club.objects.get_or_create(
        slug=club_data["slug"],
        defaults={"name": club_data["name"], "city": club_data.get("city", "")},
    )
    from tournaments.permissions import can_organise

    # A club new to this site is created with the tournament; an existing one is only
    # imported into by its organisers.
    if not created and not can_organise(by.permission_user, club):
        raise ServiceError(
            f"you do not organise {club.name}; only its organisers import into it",
            field="document",
        )
    data = document["tournament"]
    if Tournament.objects.filter(slug=data["slug"]).exists():
        raise ServiceError(f"a tournament {data['slug']!r} exists already on this site")
    fields = {f: data[f] for f in SETTINGS}
    for f in DECIMALS:
        if fields[f] is not None:
            fields[f] = Decimal(str(fields[f]))
    tournament = Tournament.objects.create(
        club=club,
        date=parse_date(data["date"]) if data.get("date") else None,
        created_by=by.audit_user,
        **fields,
    )
    entries: dict[str, Entry] = {}
    for row in document["entries"]:
        player, _ = Player.objects.get_or_create(club=club, name=row["player"])
        entries[row["key"]] = Entry.objects.create(
            tournament=tournament,
            player=player,
            seed=row["seed"],
            status=row["status"],
            rating=row["rating"],
            checked_in=row["checked_in"],
            joined_round=row["joined_round"],
            withdrawn_after_round=row["withdrawn_after_round"],
        )
    for first, second, reason in document.get("forbidden", []):
        ForbiddenPair.objects.create(
            tournament=tournament, first=entries[first], second=entries[second], reason=reason
        )
    for round_data in document["rounds"]:
        round_ = Round.objects.create(
            tournament=tournament,
            number=round_data["number"],
            status=round_data["status"],
            published_at=parse_datetime(round_data["published_at"] or ""),
            closed_at=parse_datetime(round_data["closed_at"] or ""),
        )
        for table_data in round_data["tables"]:
            table = Table.objects.create(
                round=round_, number=table_data["number"], is_bye=table_data["is_bye"]
            )
            Seat.objects.bulk_create(
                Seat(table=table, round=round_, entry=entries[key], position=i)
                for i, key in enumerate(table_data["seats"], start=1)
            )
            for game in table_data["games"]:
                out = list(game["out"]) + [None] * (4 - len(game["out"]))
                created = Game.objects.create(
                    table=table,
                    number=game["number"],
                    first_position=game["first_position"],
                    direction=game["direction"],
                    status=game["status"],
                    target=game["target"],
                    out_1=out[0],
                    out_2=out[1],
                    out_3=out[2],
                    out_4=out[3],
                    colours_out=game["colours_out"],
                    moves=game["moves"],
                )
                if game["status"] != Game.Status.PENDING:
                    # The imported result is the importing director's entry.
                    ResultSubmission.objects.create(
                        game=created,
                        by_user=by.audit_user,
                        state=ResultSubmission.State.ENTERED,
                        status=game["status"],
                        out=list(game["out"]),
                        moves=game["moves"],
                        colours_out=game["colours_out"],
                    )
    return tournament
