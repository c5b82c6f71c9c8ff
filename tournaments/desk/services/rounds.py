"""Pairing, publishing, re-pairing and closing rounds (the book's turns)."""

from __future__ import annotations

import secrets
from collections import defaultdict
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import signals
from tournaments.core.actor import Actor, require_actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.core.freshness import standings_changed
from tournaments.core.permissions import lock_round, lock_tournament
from tournaments.desk.selectors.pre_round import entrants, has_pre_round, pairing_seeds
from tournaments.desk.services.evenings import evening_tables
from tournaments.desk.services.pairing_edit import swap_check
from tournaments.desk.services.seating import table_games, unpublished_round
from tournaments.desk.services.teams import team_pairing, write_team_tables
from tournaments.models import (
    Entry,
    ForbiddenPair,
    Game,
    ResultSubmission,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.pairing import (
    Meeting,
    Pairing,
    PairingError,
    PairingPlayer,
    pair_round_or_fallback,
)
from tournaments.pairing import Table as PairingTable
from tournaments.pairing.league import LeagueSchedule, league_schedule
from tournaments.pairing.pre_round import DRAW_LIMIT, drawn_order, ranks, rating_order
from tournaments.results.selectors.rounds import FORCEABLE, open_tables_text, round_open_reasons
from tournaments.standings.selectors.standings import tournament_scores


def check_policy(tournament: Tournament) -> None:
    """A game played only by two cannot seat a 3-player table."""
    sizes = tournament.ruleset.table_sizes
    if 3 not in sizes and tournament.policy != Tournament.Policy.PAIRS_BYE:
        raise ServiceError(
            _("%(title)s is played at tables of %(sizes)s: choose '2-player tables and a bye'")
            % {
                "title": tournament.ruleset.title,
                "sizes": " or ".join(map(str, sizes)),
            },
            field="policy",
        )


def _pairable(tournament: Tournament, number: int) -> list[Entry]:
    """Who plays round ``number``: entered by then, not withdrawn, no announced bye or
    absence for it; at a club evening only those checked in at the door, and at a
    tournament too once check-in is used (anyone checked in)."""
    entries = tournament.entries.select_related("player").exclude(status=Entry.Status.WITHDRAWN)
    entries = entries.filter(joined_round__lte=number).exclude(skips__round_number=number)
    if (
        tournament.kind == Tournament.Kind.EVENING
        or tournament.entries.filter(checked_in=True).exists()
    ):
        entries = entries.filter(checked_in=True)
    return list(entries.order_by("seed"))


def _history(tournament: Tournament) -> tuple[list[Meeting], set[int], set[int], dict[int, int]]:
    """Earlier meetings, who had a 3-player table or a bye, and first moves per entry."""
    seats = Seat.objects.filter(round__tournament=tournament).values_list(
        "table_id", "entry_id", "position", "round__number", "table__is_bye"
    )
    tables: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    had_bye: set[int] = set()
    for table_id, entry_id, position, number, is_bye in seats:
        if is_bye:
            had_bye.add(entry_id)
        else:
            tables[table_id].append((entry_id, position, number))
    met: list[Meeting] = []
    had_triple: set[int] = set()
    position_entry: dict[tuple[int, int], int] = {}
    for table_id, rows in tables.items():
        for i, (a, pos_a, number) in enumerate(rows):
            position_entry[(table_id, pos_a)] = a
            for b, _pos_b, _number_b in rows[i + 1 :]:
                met.append(Meeting(str(a), str(b), number))
            if len(rows) == 3:
                had_triple.add(a)
    starts: dict[int, int] = defaultdict(int)
    firsts = Game.objects.filter(table__round__tournament=tournament).values_list(
        "table_id", "first_position"
    )
    for table_id, first in firsts:
        if len(tables.get(table_id, ())) == 2:
            starts[position_entry[(table_id, first)]] += 1
    return met, had_triple, had_bye, starts


def _league_schedule(tournament: Tournament, number: int, by: Actor) -> LeagueSchedule:
    """The league's fixed schedule. Made when round 1 is paired (again when round 1 is
    re-paired, as nobody has seen it yet) from the entries then, in seed order, and
    stored; every later round reads it back. A double league is chosen by planning at
    least twice the rounds of one cycle; the rounds planned then follow the schedule."""
    stored = tournament.league_schedule
    if number > 1 and stored is not None:
        try:
            return LeagueSchedule.from_json(stored)
        except ValueError:
            raise ServiceError(_("the stored league schedule is damaged"), field="kind") from None
    if number == 1:
        entries = _pairable(tournament, 1)
    else:
        # No stored schedule after round 1 (a league imported mid-way: the export does
        # not carry it): the schedule depends only on the seed order of the players at
        # the start, so it is made again from them, withdrawn since or not.
        entries = [
            e
            for e in tournament.entries.select_related("player").order_by("seed")
            if e.joined_round <= 1
            and not (e.status == Entry.Status.WITHDRAWN and not e.withdrawn_after_round)
        ]
    if len(entries) < 2:
        raise ServiceError(
            _("a league needs at least two players; %(count)s can play") % {"count": len(entries)}
        )
    players = [str(e.pk) for e in entries]
    policy = tournament.policy
    single = league_schedule(players, policy)  # type: ignore[arg-type]
    cycles = 2 if tournament.rounds_planned >= 2 * len(single.rounds) else 1
    schedule = single if cycles == 1 else league_schedule(players, policy, 2)  # type: ignore[arg-type]
    tournament.league_schedule = schedule.as_json()
    tournament.rounds_planned = len(schedule.rounds)
    tournament.save(update_fields=["league_schedule", "rounds_planned"])
    audit_record(
        tournament=tournament,
        by=by,
        action="league schedule",
        target=f"{len(schedule.rounds)} rounds, {cycles} cycle(s)",
        after=schedule.as_json(),
    )
    return schedule


def _league_round(tournament: Tournament, number: int, by: Actor) -> tuple[Pairing, list[str]]:
    """Round ``number`` of the fixed schedule, without the players withdrawn since: a
    table left with one player gives her the bye; a 3-player table left with two plays
    as a 2-player table."""
    schedule = _league_schedule(tournament, number, by)
    if number > len(schedule.rounds):
        raise ServiceError(
            _("the league has %(count)s rounds") % {"count": len(schedule.rounds)}, field="round"
        )
    playing = {str(e.pk) for e in _pairable(tournament, number)}
    planned = schedule.rounds[number - 1]
    tables: list[PairingTable] = []
    byes = [p for p in planned.byes if p in playing]
    for seats in planned.tables:
        present = tuple(p for p in seats if p in playing)
        if len(present) >= 2:
            tables.append(PairingTable(present))
        elif present:
            byes.append(present[0])
    pairing = Pairing(tables=tuple(tables), bye=byes[0] if byes else None)
    return pairing, byes


# The site draws a six-digit number, easy to read out and to replay (docs/pairing.md).
SITE_DRAWS = 1_000_000


def _draw_refused() -> ServiceError:
    return ServiceError(
        _("a draw is a whole number from 0 to %(limit)s") % {"limit": DRAW_LIMIT - 1},
        field="draw",
    )


def _draw_number(draw: int | str | None) -> int | None:
    """A draw as the API sends it (a number) or as the run page's field holds it (text;
    empty lets the site draw one)."""
    if not isinstance(draw, str):
        return draw
    text = draw.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()):
        raise _draw_refused()
    return int(text)


def _order(
    tournament: Tournament, number: int, typed: int | str | None
) -> tuple[dict[int, int] | None, dict[str, Any] | None]:
    """The seeds a Swiss round is paired by after the score, and what the audit keeps of
    a pre-round (docs/pairing.md, "Pre-round"). Its round 1 is paired by rating or by a
    draw: ``typed`` if the organiser brings one, else one drawn here (never from Python's
    shared generator), kept with the order so anyone can replay it. Later rounds follow
    its result (selectors/pre_round.py); None: the entries' own seeds."""
    draw = _draw_number(typed)
    if draw is not None and not (
        has_pre_round(tournament)
        and number == 1
        and tournament.pre_round == Tournament.PreRound.RANDOM
    ):
        raise ServiceError(
            _("a draw is only for round 1 of a pre-round paired at random"), field="draw"
        )
    if draw is not None and not (
        isinstance(draw, int) and not isinstance(draw, bool) and 0 <= draw < DRAW_LIMIT
    ):
        raise _draw_refused()
    if not has_pre_round(tournament):
        return None, None
    if number > 1:
        return pairing_seeds(tournament, number, {}), None
    rows = entrants(tournament)
    if tournament.pre_round == Tournament.PreRound.RANDOM:
        drawn = secrets.randbelow(SITE_DRAWS) if draw is None else draw
        order = drawn_order(rows, drawn)
        record: dict[str, Any] = {"by": "random", "draw": drawn, "order": order}
    else:
        order = rating_order(rows)
        record = {"by": "rating", "draw": None, "order": order}
    return {int(k): v for k, v in ranks(order).items()}, record


def _compute_pairing(
    tournament: Tournament, number: int, seeds: dict[int, int] | None = None
) -> Pairing:
    if tournament.is_team_event:
        return team_pairing(tournament, number)
    entries = _pairable(tournament, number)
    if len(entries) < 2:
        raise ServiceError(
            _("round %(number)s needs at least two players; %(count)s can play")
            % {"number": number, "count": len(entries)}
        )
    met, had_triple, had_bye, starts = _history(tournament)
    if tournament.kind == Tournament.Kind.EVENING:
        return evening_tables(tournament=tournament, entries=entries, starts=starts)
    scores = tournament_scores(tournament=tournament)
    players = [
        PairingPlayer(
            id=str(e.pk),
            # First round by seed: everyone has 0 points, so the seed decides (or the
            # pre-round's order, ``seeds``).
            score=scores.get(e.pk, 0.0),
            seed=e.seed if seeds is None else seeds.get(e.pk, len(seeds) + e.seed),
            starts=starts.get(e.pk, 0),
        )
        for e in entries
    ]
    forbidden = [
        (str(a), str(b))
        for a, b in ForbiddenPair.objects.filter(tournament=tournament).values_list(
            "first_id", "second_id"
        )
    ]
    try:
        return pair_round_or_fallback(
            players,
            met=met,
            forbidden=forbidden,
            had_triple=[str(e) for e in had_triple],
            had_bye=[str(e) for e in had_bye],
            policy=tournament.policy,  # type: ignore[arg-type]
            method=tournament.pairing_method,  # type: ignore[arg-type]
        )
    except PairingError as exc:
        raise ServiceError(
            _("no valid pairing for round %(number)s: %(exc)s") % {"number": number, "exc": exc}
        ) from None


def _write_tables(
    tournament: Tournament,
    round_: Round,
    pairing: Pairing,
    links: dict[tuple[int, frozenset[int]], dict[int, str]] | None = None,
    byes: list[str] | None = None,
) -> None:
    """Create the tables of a pairing. ``links`` holds, per (table number, its players),
    the players' report links from before a re-pairing: a player whose table did not
    change keeps theirs, so the printed score sheets stay valid. ``byes`` replaces the
    pairing's one bye when a league round has several (opponents withdrawn)."""
    if tournament.is_team_event:
        write_team_tables(tournament, round_, pairing, links)
        return
    links = links or {}
    seats: list[Seat] = []
    games: list[Game] = []
    if byes is None:
        byes = [] if pairing.bye is None else [pairing.bye]
    # All tables in one insert (their keys come back), not one per table: pairing a big
    # field costs the same number of queries as a small one.
    tables = Table.objects.bulk_create(
        [Table(round=round_, number=n) for n in range(1, len(pairing.tables) + 1)]
        + [
            Table(round=round_, number=len(pairing.tables) + i, is_bye=True)
            for i in range(1, len(byes) + 1)
        ]
    )
    for table, table_seats in zip(tables, pairing.tables, strict=False):
        n = len(table_seats.seats)
        kept = links.get((table.number, frozenset(int(e) for e in table_seats.seats)), {})
        for position, entry_id in enumerate(table_seats.seats, start=1):
            seat = Seat(table=table, round=round_, entry_id=int(entry_id), position=position)
            if int(entry_id) in kept:
                seat.report_token = kept[int(entry_id)]
            seats.append(seat)
        games.extend(table_games(tournament, table, n))
    for table, bye in zip(tables[len(pairing.tables) :], byes, strict=True):
        seats.append(Seat(table=table, round=round_, entry_id=int(bye), position=1))
    Seat.objects.bulk_create(seats)
    Game.objects.bulk_create(games)


def round_pair_next(*, tournament: Tournament, by: Actor, draw: int | str | None = None) -> Round:
    """Pair the next round. Two organisers pressing the button at once get one round:
    the tournament row is locked, and the unique round number is the last guard.
    ``draw``: the number of a pre-round's draw, for round 1 paired at random (or the
    run page's field as typed)."""
    require_actor(by)
    try:
        with transaction.atomic():
            tournament = lock_tournament(pk=tournament.pk)
            if tournament.status == Tournament.Status.FINISHED:
                if tournament.kind == Tournament.Kind.EVENING:
                    raise ConflictError(_("the evening is closed; reopen it first"))
                # A ServiceError (400) as before the finished check: the API keeps its code.
                raise ServiceError(
                    _("all %(count)s rounds have been played; add rounds first")
                    % {"count": tournament.rounds_planned}
                )
            last = tournament.rounds.order_by("-number").first()
            if last is not None and last.status != Round.Status.CLOSED:
                raise ConflictError(
                    _("round %(number)s is not closed yet") % {"number": last.number}
                )
            number = 1 if last is None else last.number + 1
            if tournament.kind != Tournament.Kind.EVENING and number > tournament.rounds_planned:
                raise ServiceError(
                    _("all %(rounds_planned)s rounds have been played")
                    % {"rounds_planned": tournament.rounds_planned}
                )
            check_policy(tournament)
            byes: list[str] | None = None
            seeds, pre_round = _order(tournament, number, draw)
            if tournament.kind == Tournament.Kind.ROUND_ROBIN:
                pairing, byes = _league_round(tournament, number, by)
            else:
                pairing = _compute_pairing(tournament, number, seeds)
            round_ = Round.objects.create(tournament=tournament, number=number)
            _write_tables(tournament, round_, pairing, byes=byes)
            if tournament.status == Tournament.Status.DRAFT:
                tournament.status = Tournament.Status.RUNNING
                tournament.save(update_fields=["status"])
            audit_record(
                tournament=tournament,
                by=by,
                action="pair",
                target=f"round {number}",
                after=_paired(pairing, byes, pre_round),
            )
            standings_changed(tournament=tournament)
    except IntegrityError:
        raise ConflictError(_("this round was just paired by someone else; reload")) from None
    return round_


def _paired(
    pairing: Pairing, byes: list[str] | None, pre_round: dict[str, Any] | None
) -> dict[str, Any]:
    """What the audit keeps of a pairing: the engine's tables, a league round's byes, a
    pre-round's order (and draw)."""
    return {
        **pairing.as_json(),
        **({"byes": byes} if byes else {}),
        **({"pre_round": pre_round} if pre_round else {}),
    }


def round_repair(*, round: Round, by: Actor, draw: int | str | None = None) -> Round:  # noqa: A002
    """Throw away an unpublished round's tables and pair it again (a pre-round paired
    at random is drawn afresh, or by ``draw``)."""
    require_actor(by)
    with transaction.atomic():
        round_ = unpublished_round(round)
        tournament = round_.tournament
        links: dict[tuple[int, frozenset[int]], dict[int, str]] = defaultdict(dict)
        players: dict[int, set[int]] = defaultdict(set)
        old = list(
            Seat.objects.filter(round=round_).values_list(
                "table__number", "entry_id", "report_token"
            )
        )
        for table_number, entry_id, _token in old:
            players[table_number].add(entry_id)
        for table_number, entry_id, token in old:
            links[(table_number, frozenset(players[table_number]))][entry_id] = token
        round_.tables.all().delete()
        # Pair as if this round did not exist yet.
        number = round_.number
        round_.delete()
        round_ = Round.objects.create(tournament=tournament, number=number)
        byes: list[str] | None = None
        seeds, pre_round = _order(tournament, number, draw)
        if tournament.kind == Tournament.Kind.ROUND_ROBIN:
            # Round 1 makes the schedule afresh (entries may have changed); later
            # rounds are the schedule's, less whoever withdrew meanwhile.
            pairing, byes = _league_round(tournament, number, by)
        else:
            pairing = _compute_pairing(tournament, number, seeds)
        _write_tables(tournament, round_, pairing, links, byes)
        # The pairing as proposed, as for "pair": the editor marks what differs from it.
        audit_record(
            tournament=tournament,
            by=by,
            action="re-pair",
            target=f"round {number}",
            after=_paired(pairing, byes, pre_round),
        )
        standings_changed(tournament=tournament)
    return round_


def _no_seat(entry: Entry, round_: Round) -> str:
    return _("%(name)s has no seat in round %(number)s") % {
        "name": entry.player.name,
        "number": round_.number,
    }


def round_swap_seats(
    *,
    round: Round,  # noqa: A002
    first: Entry,
    second: Entry,
    override_reason: str = "",
    by: Actor,
) -> None:
    """The organiser's manual swap before publishing: two players change tables. Like
    the pairing editor's moves (services/pairing_edit.py), a swap that creates a rematch,
    a forbidden pair or a large score gap needs ``override_reason``."""
    require_actor(by)
    with transaction.atomic():
        round_ = unpublished_round(round)
        if round_.tournament.is_team_event:
            # Partners sit opposite each other (seats 1+3, 2+4): one player alone
            # cannot change tables.
            raise ServiceError(
                _("in a 2 vs 2 team event the teams keep their seats; pair again"),
                field="first",
            )
        seats = Seat.objects.select_for_update().filter(round=round_)
        a = seats.filter(entry=first).first()
        b = seats.filter(entry=second).first()
        # A withdrawn (or late) player has no seat in this round: nothing to swap.
        if a is None:
            raise ServiceError(_no_seat(first, round_), field="first")
        if b is None:
            raise ServiceError(_no_seat(second, round_), field="second")
        if a.table_id == b.table_id:
            raise ServiceError(_("both players sit at the same table already"), field="second")
        if first.status == Entry.Status.WITHDRAWN or second.status == Entry.Status.WITHDRAWN:
            name = "first" if first.status == Entry.Status.WITHDRAWN else "second"
            raise ServiceError(
                _("%(name)s has withdrawn; pair the round again to leave her out")
                % {"name": (first if name == "first" else second).player.name},
                field=name,
            )
        warnings, reason = swap_check(
            round=round_, first=first, second=second, override_reason=override_reason
        )
        a_table, a_pos, b_table, b_pos = a.table_id, a.position, b.table_id, b.position
        # Delete and re-create: (round, entry) and (table, position) are unique.
        a.delete()
        b.delete()
        # Both changed tables: new seats, new links (the old sheets name them elsewhere).
        Seat.objects.create(round=round_, entry=first, table_id=b_table, position=b_pos)
        Seat.objects.create(round=round_, entry=second, table_id=a_table, position=a_pos)
        audit_record(
            tournament=round_.tournament,
            by=by,
            action="swap",
            target=f"round {round_.number}",
            # The two names first, as before; warnings overridden and the reason after.
            after=[first.player.name, second.player.name]
            + ([{"warnings": warnings, "override_reason": reason}] if warnings else []),
        )
        standings_changed(tournament=round_.tournament_id)


def round_publish(*, round: Round, by: Actor) -> Round:  # noqa: A002
    require_actor(by)
    with transaction.atomic():
        round_ = unpublished_round(round)
        round_.status = Round.Status.PUBLISHED
        round_.published_at = timezone.now()
        round_.save(update_fields=["status", "published_at"])
        standings_changed(tournament=round_.tournament_id)
        signals.round_published.send(sender=Round, round_id=round_.pk, by=by)
    return round_


def round_unpublish(*, round: Round, by: Actor) -> Round:  # noqa: A002
    """Take back a published round nobody has played on yet (no result, no report): it
    is paired again, to be checked, re-paired or swapped before publishing anew."""
    require_actor(by)
    with transaction.atomic():
        lock_tournament(pk=round.tournament_id)
        round_ = Round.objects.select_for_update().filter(pk=round.pk).first()
        if round_ is None:
            raise ConflictError(_("this round was deleted meanwhile; reload"), field="round")
        if round_.status != Round.Status.PUBLISHED:
            raise ConflictError(
                _("round %(number)s is not published") % {"number": round_.number}, field="round"
            )
        played = Game.objects.filter(table__round=round_).exclude(status=Game.Status.PENDING)
        reported = ResultSubmission.objects.filter(game__table__round=round_)
        if played.exists() or reported.exists():
            raise ConflictError(
                _("results of round %(number)s have been entered or reported; it stays published")
                % {"number": round_.number},
                field="round",
            )
        round_.status = Round.Status.PAIRED
        round_.published_at = None
        round_.save(update_fields=["status", "published_at"])
        audit_record(
            tournament=round_.tournament,
            by=by,
            action="unpublish round",
            target=f"round {round_.number}",
        )
        standings_changed(tournament=round_.tournament_id)
    return round_


def round_reopen(*, round: Round, by: Actor) -> Round:  # noqa: A002
    """Reopen the last closed round while the next one is not paired: its results can be
    entered and changed again, and it is closed again afterwards. A finished tournament
    runs again; the round's rating is taken back until it closes again (the ratings hear
    of it through tournaments/signals.py). A closed evening is reopened first."""
    require_actor(by)
    with transaction.atomic():
        tournament = lock_tournament(pk=round.tournament_id)
        round_ = Round.objects.select_for_update().filter(pk=round.pk).first()
        if round_ is None:
            raise ConflictError(_("this round was deleted meanwhile; reload"), field="round")
        if round_.status != Round.Status.CLOSED:
            raise ConflictError(
                _("round %(number)s is not closed") % {"number": round_.number}, field="round"
            )
        last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
        if last != round_.number:
            raise ConflictError(
                _("round %(number)s is paired already: only the last round can be reopened")
                % {"number": last},
                field="round",
            )
        evening = tournament.kind == Tournament.Kind.EVENING
        if evening and tournament.status == Tournament.Status.FINISHED:
            raise ConflictError(_("the evening is closed; reopen the evening first"), field="round")
        round_.status = Round.Status.PUBLISHED
        round_.closed_at = None
        round_.save(update_fields=["status", "closed_at"])
        if tournament.status == Tournament.Status.FINISHED:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        audit_record(tournament=tournament, by=by, action="reopen", target=f"round {round_.number}")
        standings_changed(tournament=tournament)
        if not evening:
            # An evening's rounds are rated with the evening (services/evenings.py).
            signals.history_reopened.send(sender=Round, round_id=round_.pk, by=by)
    return round_


def round_close(*, round: Round, by: Actor, force: bool = False) -> Round:  # noqa: A002
    """Close a round; every game must have a result unless ``force`` (the turn ended and
    unplayed games count as unfinished 0:0, an even result; docs/scoring.md). Queues the
    ratings job once committed."""
    require_actor(by)
    with transaction.atomic():
        round_ = lock_round(pk=round.pk)
        if round_.status == Round.Status.CLOSED:
            return round_
        if round_.status != Round.Status.PUBLISHED:
            raise ConflictError(
                _("round %(number)s must be published before it is closed")
                % {"number": round_.number}
            )
        # A voided decider counts nowhere (services/deciders.py): it keeps nothing open.
        games = Game.objects.filter(table__round=round_, voided=False).select_related("table")
        # A game in progress is no result either; forced, it scores as unplayed.
        missing = games.filter(status__in=Game.WITHOUT_RESULT)
        # A decider not played yet: forced, the match stays shared (docs/scoring.md).
        deciders = missing.filter(decider=True)
        if deciders.exists() and not missing.filter(decider=False).exists() and not force:
            tables = sorted({g.table.number for g in deciders})
            raise ServiceError(
                _(
                    "the decider at table(s) %(tables)s has no result yet; enter it, or "
                    "close anyway and the match stays shared"
                )
                % {"tables": ", ".join(map(str, tables))},
                field="round",
            )
        if missing.exists() and not force:
            tables = sorted({g.table.number for g in missing})
            raise ServiceError(
                _("results missing at table(s) %(tables)s")
                % {"tables": ", ".join(map(str, tables))},
                field="round",
            )
        # What else keeps it open, in the words of the open-tables page (one selector):
        # decisions still the organiser's (a report awaiting confirmation, a dispute, an
        # entry kept from offline, a refused ply flagged), which force does not bury.
        still_open = {
            table: [r for r in reasons if not (force and r.reason in FORCEABLE)]
            for table, reasons in round_open_reasons(round_=round_).items()
        }
        still_open = {table: reasons for table, reasons in still_open.items() if reasons}
        if still_open:
            raise ServiceError(
                _(
                    "round %(number)s stays open: %(tables)s; these await your decision on "
                    "the open-tables page or the results screen"
                )
                % {"number": round_.number, "tables": open_tables_text(still_open)},
                field="round",
            )
        round_.status = Round.Status.CLOSED
        round_.closed_at = timezone.now()
        round_.save(update_fields=["status", "closed_at"])
        tournament = round_.tournament
        if (
            tournament.kind != Tournament.Kind.EVENING
            and round_.number >= tournament.rounds_planned
        ):
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
        audit_record(tournament=tournament, by=by, action="close", target=f"round {round_.number}")
        standings_changed(tournament=tournament)
        if tournament.kind != Tournament.Kind.EVENING:
            # An evening is rated as one period when it closes (services/evenings.py).
            signals.round_closed.send(sender=Round, round_id=round_.pk, by=by)
        signals.round_ended.send(sender=Round, round_id=round_.pk, by=by)
    return round_
