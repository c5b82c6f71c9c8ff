"""The organiser's pairing editor for a round before publishing (docs/pairing.md, "Editing
a pairing by hand"): move a player to another table, to the bye or to a new table, build
a table from chosen players, split a table.

Every edit is checked on the whole new layout: a table the game cannot be played at is
refused; a rematch, a forbidden pair, a table size outside the policy, a large score gap,
a 3-player table or bye the book's rule gives to others, or a player left alone that the
edit creates is a warning (``tournaments.pairing.warnings.edit_warnings``), and the edit
is refused unless the organiser gives a reason, which the audit entry keeps with the
warnings. After an edit a table left with one
player gives her the bye, empty tables disappear, the tables are numbered 1, 2, ... (byes
last), and a table whose players changed is seated by the engine's rule again (whoever
started fewer 2-player games moves first, then the higher-ranked).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.core.actor import Actor, require_actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ServiceError
from tournaments.core.freshness import standings_changed
from tournaments.desk.selectors.pre_round import pairing_seeds
from tournaments.desk.selectors.proposal import round_proposal
from tournaments.desk.services.seating import table_games, unpublished_round
from tournaments.models import Entry, ForbiddenPair, Game, Round, Seat, Table, Tournament
from tournaments.pairing import Meeting, PairingPlayer, seat_order
from tournaments.pairing.criteria import rank_players
from tournaments.pairing.warnings import (
    FORBIDDEN,
    LEFT_ALONE,
    REMATCH,
    SCORE_GAP,
    SPECIAL_AGAIN,
    SPECIAL_GROUP,
    SPECIAL_RANK,
    PairingWarning,
    ProposedLayout,
    RoundRules,
    book_rule,
    changed_players,
    edit_warnings,
    places,
)
from tournaments.scoring import ScoringSettings
from tournaments.standings.selectors.standings import scoring_settings, tournament_scores

# Where a player goes: a table number, the bye (None) or the one new table of this edit.
NEW_TABLE: Literal["new"] = "new"
Target = int | Literal["new"] | None

# The table sizes a tournament can score (scoring.py knows games per turn and time
# factors for 2 and 3 players only).
SCORED_SIZES = (2, 3)


class PairingWarningsError(ServiceError):
    """The edit creates warnings and no reason to override them was given."""

    def __init__(self, message: str, *, warnings: list[str]) -> None:
        super().__init__(message, field="override_reason")
        self.warnings = warnings


@dataclass
class _TableState:
    """A table of the round while an edit is worked out; ``id`` None for a new one."""

    id: int | None
    is_bye: bool
    seats: list[int]
    changed: bool = False
    positions: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class EditCheck:
    """An edit's outcome before it is saved: the warnings of the layout as saved, of the
    layout after the edit, and those the edit creates (as texts for people). ``changed``:
    the players (entry ids) whose place after the edit differs from the pairing as
    proposed, in table order; ``proposed``: for each of them her table-mates in it (an
    empty list: the bye). Both empty when the round's proposal is not known."""

    current: list[str]
    after: list[str]
    created: list[str]
    changed: list[int] = field(default_factory=list)
    proposed: dict[int, list[int]] = field(default_factory=dict)


def _gap_limit(settings: ScoringSettings) -> float:
    """One even turn at a 2-player table (18 with the book's settings: 3 games x 3 points
    x 2): players further apart than a whole round's even score are not in the same
    score group any more, which Swiss pairing keeps together."""
    return settings.even_round_score(2)


@dataclass(frozen=True)
class _History:
    met: list[Meeting]
    forbidden: list[tuple[str, str]]
    scores: dict[str, float]
    starts: dict[int, int]
    seeds: dict[int, int]
    names: dict[int, str]
    policy: str
    playable: tuple[int, ...]
    gap_limit: float
    rules: RoundRules


def _history(round_: Round) -> _History:
    tournament = round_.tournament
    rows = Seat.objects.filter(
        round__tournament=tournament, round__number__lte=round_.number
    ).values_list("table_id", "entry_id", "position", "round__number", "table__is_bye")
    tables: dict[int, list[tuple[int, int, int]]] = {}
    had_bye: dict[str, list[int]] = {}
    field_ids: list[int] = []  # everyone of this round, the book's field
    for table_id, entry_id, position, number, is_bye in rows:
        if number == round_.number:
            field_ids.append(entry_id)
        elif is_bye:
            had_bye.setdefault(str(entry_id), []).append(number)
        else:
            tables.setdefault(table_id, []).append((entry_id, position, number))
    met: list[Meeting] = []
    had_triple: dict[str, list[int]] = {}
    for seats in tables.values():
        for i, (a, _pos, number) in enumerate(seats):
            if len(seats) == 3:
                had_triple.setdefault(str(a), []).append(number)
            for b, _p, _n in seats[i + 1 :]:
                met.append(Meeting(str(a), str(b), number))
    starts: dict[int, int] = {}
    firsts = Game.objects.filter(
        table__round__tournament=tournament, table__round__number__lt=round_.number
    ).values_list("table_id", "first_position")
    for table_id, first in firsts:
        seats = tables.get(table_id, [])
        if len(seats) == 2:
            for entry_id, position, _n in seats:
                if position == first:
                    starts[entry_id] = starts.get(entry_id, 0) + 1
    forbidden = [
        (str(a), str(b))
        for a, b in ForbiddenPair.objects.filter(tournament=tournament).values_list(
            "first_id", "second_id"
        )
    ]
    entries = list(tournament.entries.values_list("pk", "seed", "player__name"))
    settings = scoring_settings(tournament)
    scores = {str(k): v for k, v in tournament_scores(tournament=tournament).items()}
    # The seeds the round was paired by: a pre-round's order where there is one.
    seeds = pairing_seeds(tournament, round_.number, {pk: seed for pk, seed, _name in entries})
    policy = tournament.policy
    playable = tuple(s for s in SCORED_SIZES if s in tournament.ruleset.table_sizes)
    book = None
    # The book's rule is the Swiss pairing's (a league follows its schedule, a club
    # evening its own tables, a tournament paired by closest scores that method).
    if (
        tournament.kind == Tournament.Kind.SWISS
        and tournament.pairing_method == Tournament.PairingMethod.BOOK
    ):
        book = book_rule(
            [
                PairingPlayer(
                    id=str(e),
                    score=scores.get(str(e), 0.0),
                    seed=seeds.get(e, 0),
                    starts=starts.get(e, 0),
                )
                for e in field_ids
            ],
            met=met,
            forbidden=forbidden,
            had_triple=had_triple,
            had_bye=had_bye,
            policy=policy,  # type: ignore[arg-type]
        )
    gap_limit = _gap_limit(settings)
    return _History(
        met=met,
        forbidden=forbidden,
        scores=scores,
        starts=starts,
        seeds=seeds,
        names={pk: name for pk, _seed, name in entries},
        policy=policy,
        playable=playable,
        gap_limit=gap_limit,
        rules=RoundRules(
            met=met,
            forbidden=forbidden,
            scores=scores,
            policy=policy,  # type: ignore[arg-type]
            playable=playable,
            gap_limit=gap_limit,
            book=book,
        ),
    )


def _load(round_: Round) -> list[_TableState]:
    states: dict[int, _TableState] = {}
    for table in round_.tables.order_by("number"):
        states[table.pk] = _TableState(table.pk, table.is_bye, [])
    for table_id, entry_id, position in (
        Seat.objects.filter(round=round_)
        .order_by("position")
        .values_list("table_id", "entry_id", "position")
    ):
        states[table_id].seats.append(entry_id)
        states[table_id].positions[entry_id] = position
    return list(states.values())


def _layout(states: Sequence[_TableState]) -> ProposedLayout:
    return ProposedLayout(
        tables=tuple(tuple(str(e) for e in s.seats) for s in states if not s.is_bye and s.seats),
        byes=tuple(str(e) for s in states if s.is_bye for e in s.seats),
    )


def _warnings(states: Sequence[_TableState], history: _History) -> list[PairingWarning]:
    return history.rules.warnings(_layout(states))


def _points(value: float) -> str:
    return f"{value:g}"


def _not_the_books(rule: str, fact: str) -> str:
    return _("not the book's rule (%(rule)s): %(fact)s") % {"rule": rule, "fact": fact}


def _special_text(warning: PairingWarning, who: list[str]) -> str:
    """The book's rule for the 3-player table (size 3) or the bye (size 1) broken."""
    triple = warning.size == 3
    rounds = ", ".join(map(str, warning.rounds))
    if warning.kind == SPECIAL_GROUP:
        rule = (
            _("the 3-player table goes to the lowest score group, section 21")
            if triple
            else _("the bye goes to the lowest score group")
        )
        fact = _(
            "%(high)s (%(high_points)s points) is in a higher group than "
            "%(low)s (%(low_points)s points)"
        ) % {
            "high": who[0],
            "high_points": _points(warning.points[0]),
            "low": who[1],
            "low_points": _points(warning.points[1]),
        }
    elif warning.kind == SPECIAL_AGAIN:
        if triple:
            rule = _("the 3-player table goes first to those who have had it least")
            fact = _("%(name)s had one in round %(rounds)s, %(other)s has not") % {
                "name": who[0],
                "rounds": rounds,
                "other": who[1],
            }
        else:
            rule = _("the bye goes first to those who have had it least")
            fact = (
                _("a second bye for %(name)s (round %(rounds)s), while %(other)s has had none")
                % {"name": who[0], "rounds": rounds, "other": who[1]}
                if len(who) > 1
                else _("a second bye for %(name)s (round %(rounds)s)")
                % {"name": who[0], "rounds": rounds}
            )
    else:
        rule = (
            _("within its score group the 3-player table goes to the lowest ranks")
            if triple
            else _("the bye goes to the lowest-ranked eligible player")
        )
        fact = _("%(low)s ranks below %(high)s") % {"low": who[1], "high": who[0]}
    return _not_the_books(rule, fact)


def warning_text(
    warning: PairingWarning, names: Mapping[int, str], policy: str, book: bool = False
) -> str:
    """One warning for people, with the players' names; ``book``: the round is paired by
    the book's rule, which a rematch and a forbidden pair break."""
    who = [names.get(int(p), p) for p in warning.players]
    if warning.kind == REMATCH:
        fact = _("%(first)s and %(second)s met already in round %(rounds)s") % {
            "first": who[0],
            "second": who[1],
            "rounds": ", ".join(map(str, warning.rounds)),
        }
        rule = _("each player meets one she has not yet played, section 21")
        return _not_the_books(rule, fact) if book else fact
    if warning.kind == FORBIDDEN:
        fact = _("%(first)s and %(second)s must never be seated together") % {
            "first": who[0],
            "second": who[1],
        }
        rule = _("a forbidden pair never shares a table")
        return _not_the_books(rule, fact) if book else fact
    if warning.kind in (SPECIAL_GROUP, SPECIAL_AGAIN, SPECIAL_RANK):
        return _special_text(warning, who)
    if warning.kind == LEFT_ALONE:
        return _("%(name)s is left alone at table %(table)s and would get the bye") % {
            "name": who[0],
            "table": warning.table,
        }
    if warning.kind == SCORE_GAP:
        return _("%(first)s and %(second)s are %(gap)s points apart") % {
            "first": who[0],
            "second": who[1],
            "gap": f"{warning.gap:g}",
        }
    policy_name = Tournament.Policy(policy).label
    if warning.size == 1:
        return _("a bye for %(names)s: the policy is '%(policy)s'") % {
            "names": ", ".join(who),
            "policy": policy_name,
        }
    if not who:
        return _("more than one 3-player table: the policy is '%(policy)s'") % {
            "policy": policy_name
        }
    return _("a table of %(size)s (%(names)s): the policy is '%(policy)s'") % {
        "size": warning.size,
        "names": ", ".join(who),
        "policy": policy_name,
    }


def _texts(warnings: Sequence[PairingWarning], history: _History) -> list[str]:
    book = history.rules.book is not None
    return [warning_text(w, history.names, history.policy, book) for w in warnings]


def _lock(round_: Round) -> Round:
    round_ = unpublished_round(round_)
    if round_.tournament.is_team_event:
        # Partners sit opposite each other (seats 1+3, 2+4): one player alone
        # cannot change tables.
        raise ServiceError(
            _("in a 2 vs 2 team event the teams keep their seats; pair again"), field="entry"
        )
    return round_


def _seated(entry: Entry, round_: Round, where: dict[int, _TableState], name: str) -> None:
    """Only a player seated in this round, not withdrawn since, can be moved."""
    if entry.tournament_id != round_.tournament_id:
        raise ServiceError(_("this player is not entered in this tournament"), field=name)
    if entry.status == Entry.Status.WITHDRAWN:
        raise ServiceError(
            _("%(name)s has withdrawn; pair the round again to leave her out")
            % {"name": entry.player.name},
            field=name,
        )
    if entry.pk not in where:
        raise ServiceError(
            _("%(name)s has no seat in round %(number)s")
            % {"name": entry.player.name, "number": round_.number},
            field=name,
        )


def _apply_moves(
    round_: Round, states: list[_TableState], moves: Sequence[tuple[Entry, Target]]
) -> list[_TableState]:
    """The layout after ``moves`` (each player to a table number, NEW_TABLE or None for
    the bye); the states are changed in place and returned in table order."""
    if not moves:
        raise ServiceError(_("choose a player to move"), field="entry")
    by_number = {n: s for n, s in enumerate(states, start=1)}
    where = {e: s for s in states for e in s.seats}
    seen: set[int] = set()
    for entry, target in moves:
        _seated(entry, round_, where, "entry")
        if entry.pk in seen:
            raise ServiceError(
                _("%(name)s is moved twice") % {"name": entry.player.name}, field="entry"
            )
        seen.add(entry.pk)
        if target is not None and target != NEW_TABLE:
            if not isinstance(target, int) or target not in by_number:
                raise ServiceError(
                    _("round %(number)s has no table %(table)s")
                    % {"number": round_.number, "table": target},
                    field="table",
                )
            if by_number[target] is where[entry.pk]:
                raise ServiceError(
                    _("%(name)s sits at table %(table)s already")
                    % {"name": entry.player.name, "table": target},
                    field="table",
                )
    new_table = _TableState(None, False, [], changed=True)
    for entry, _target in moves:
        source = where[entry.pk]
        source.seats.remove(entry.pk)
        source.changed = True
    extra: list[_TableState] = []
    for entry, target in moves:
        if target is None:
            extra.append(_TableState(None, True, [entry.pk], changed=True))
        elif target == NEW_TABLE:
            new_table.seats.append(entry.pk)
        else:
            destination = by_number[target]
            # Joining a player who had the bye makes a table of the two.
            destination.is_bye = False
            destination.seats.append(entry.pk)
            destination.changed = True
    result = [s for s in states if not s.is_bye] + [new_table] + [s for s in states if s.is_bye]
    result += extra
    return _settle(result)


def _settle(states: list[_TableState]) -> list[_TableState]:
    """Empty tables go; a table left with one player gives her the bye; byes last."""
    for s in states:
        if not s.is_bye and len(s.seats) == 1:
            s.is_bye = True
            s.changed = True
    kept = [s for s in states if s.seats]
    return [s for s in kept if not s.is_bye] + [s for s in kept if s.is_bye]


def _check_sizes(states: Sequence[_TableState], history: _History) -> None:
    for s in states:
        if s.is_bye and len(s.seats) > 1:
            raise ServiceError(_("a bye is for one player"), field="table")
        if not s.is_bye and len(s.seats) not in history.playable:
            raise ServiceError(
                _("a table of %(size)s cannot be played here: tables seat %(sizes)s players")
                % {
                    "size": len(s.seats),
                    "sizes": ", ".join(map(str, history.playable)),
                },
                field="table",
            )


def _seat_changed(states: Sequence[_TableState], history: _History) -> None:
    """Seat a changed table by the engine's rule (tournaments/pairing/first_move.py)."""
    for s in states:
        if not s.changed or s.is_bye:
            continue
        ranked = rank_players(
            PairingPlayer(
                id=str(e),
                score=history.scores.get(str(e), 0.0),
                seed=history.seeds.get(e, 0),
                starts=history.starts.get(e, 0),
            )
            for e in s.seats
        )
        s.seats = [int(e) for e in seat_order(ranked)]


def _check(
    before: Sequence[_TableState],
    after: Sequence[_TableState],
    history: _History,
    override_reason: str,
    moved: Collection[int],
) -> tuple[list[str], str]:
    """The warnings the edit creates, as texts; refused without a reason. ``moved``: the
    players the organiser moved (whoever else ends with the bye was left alone)."""
    found = edit_warnings(_layout(before), _layout(after), history.rules, {str(e) for e in moved})
    texts = _texts(found.created, history)
    reason = (override_reason or "").strip()
    if texts and not reason:
        raise PairingWarningsError(
            _("this change needs a reason to override: %(warnings)s")
            % {"warnings": "; ".join(texts)},
            warnings=texts,
        )
    return texts, reason


def _snapshot(states: Sequence[_TableState]) -> list[list[int]]:
    return [list(s.seats) for s in states]


def _names(states: Sequence[_TableState], history: _History) -> dict[str, list[list[str]]]:
    return {
        "tables": [[history.names.get(e, str(e)) for e in s.seats] for s in states if not s.is_bye],
        "byes": [history.names.get(e, str(e)) for s in states if s.is_bye for e in s.seats],
    }


def _write(round_: Round, before: list[_TableState], after: list[_TableState]) -> None:
    """Save the new layout: the seats of changed tables are made again (a player who
    stays at her table keeps her report link), games follow the table sizes, and the
    tables are numbered again."""
    tournament = round_.tournament
    kept_ids = {s.id for s in after if s.id is not None}
    gone = [s.id for s in before if s.id is not None and s.id not in kept_ids]
    changed = [s for s in after if s.changed]
    tokens = dict(Seat.objects.filter(round=round_).values_list("entry_id", "report_token"))
    old_table = {e: s.id for s in before for e in s.seats}
    Seat.objects.filter(table_id__in=[s.id for s in changed if s.id is not None] + gone).delete()
    Table.objects.filter(pk__in=gone).delete()
    # Numbered twice: (round, number) is unique, so first out of the way.
    tables = {t.pk: t for t in Table.objects.filter(round=round_)}
    offset = 1000
    for t in tables.values():
        t.number += offset
    Table.objects.bulk_update(list(tables.values()), ["number"])
    seats: list[Seat] = []
    games: list[Game] = []
    for number, s in enumerate(after, start=1):
        if s.id is None:
            table = Table.objects.create(round=round_, number=number, is_bye=s.is_bye)
            s.id = table.pk
        else:
            table = tables[s.id]
            table.number = number
            table.is_bye = s.is_bye
            table.save(update_fields=["number", "is_bye"])
        if not s.changed:
            continue
        Game.objects.filter(table=table).delete()
        for position, entry_id in enumerate(s.seats, start=1):
            seat = Seat(table=table, round=round_, entry_id=entry_id, position=position)
            if old_table.get(entry_id) == s.id:
                seat.report_token = tokens[entry_id]
            seats.append(seat)
        if not s.is_bye:
            games.extend(table_games(tournament, table, len(s.seats)))
    Seat.objects.bulk_create(seats)
    Game.objects.bulk_create(games)


def _edit(
    *,
    round_: Round,
    build: Callable[[Round, list[_TableState], _History], list[_TableState]],
    action: str,
    override_reason: str,
    by: Actor,
    detail: dict[str, object],
    moved: Collection[int] | None,
) -> EditCheck:
    """Lock, work out the new layout with ``build(round_, states, history)``, check it,
    save it, audit it. ``moved``: the players the organiser moved; None: all of them
    (a split seats its odd last player at the bye by its own rule)."""
    require_actor(by)
    with transaction.atomic():
        round_ = _lock(round_)
        history = _history(round_)
        before = _load(round_)
        snapshot = [
            _TableState(s.id, s.is_bye, list(s.seats), positions=dict(s.positions)) for s in before
        ]
        after = build(round_, before, history)
        _check_sizes(after, history)
        _seat_changed(after, history)
        everyone = [e for s in snapshot for e in s.seats]
        texts, reason = _check(
            snapshot, after, history, override_reason, everyone if moved is None else moved
        )
        _write(round_, snapshot, after)
        audit_record(
            tournament=round_.tournament,
            by=by,
            action=action,
            target=f"round {round_.number}",
            before=_names(snapshot, history),
            after={
                **_names(after, history),
                **detail,
                "warnings": texts,
                "override_reason": reason,
            },
        )
        standings_changed(tournament=round_.tournament_id)
        return EditCheck(
            current=_texts(_warnings(snapshot, history), history),
            after=_texts(_warnings(after, history), history),
            created=texts,
        )


def _target_text(target: Target) -> str:
    return "bye" if target is None else str(target)


def round_seats_rearrange(
    *,
    round: Round,  # noqa: A002
    moves: Sequence[tuple[Entry, Target]],
    override_reason: str = "",
    by: Actor,
) -> EditCheck:
    """Several moves at once, as the editor's form sends them: each player to a table
    number, to the bye (None) or to the new table (NEW_TABLE; all such players together)."""
    moves = list(moves)
    return _edit(
        round_=round,
        build=lambda r, states, history: _apply_moves(r, states, moves),
        action="pairing edit",
        override_reason=override_reason,
        by=by,
        detail={"moves": [[e.player.name, _target_text(t)] for e, t in moves]},
        moved=[e.pk for e, _t in moves],
    )


def round_seat_move(
    *,
    round: Round,  # noqa: A002
    entry: Entry,
    table: int | None,
    override_reason: str = "",
    by: Actor,
) -> EditCheck:
    """Move one player to table number ``table`` or, with None, to the bye. A table left
    with one player gives her the bye; joining a bye makes a table of the two."""
    return _edit(
        round_=round,
        build=lambda r, states, history: _apply_moves(r, states, [(entry, table)]),
        action="move seat",
        override_reason=override_reason,
        by=by,
        detail={"moves": [[entry.player.name, _target_text(table)]]},
        moved=[entry.pk],
    )


def round_table_build(
    *,
    round: Round,  # noqa: A002
    entries: Sequence[Entry],
    override_reason: str = "",
    by: Actor,
) -> EditCheck:
    """A new table from the chosen players, taken from their tables or the bye."""
    entries = list(entries)
    if len(entries) < 2:
        raise ServiceError(_("choose at least two players for a new table"), field="entries")
    return _edit(
        round_=round,
        build=lambda r, states, history: _apply_moves(r, states, [(e, NEW_TABLE) for e in entries]),
        action="build table",
        override_reason=override_reason,
        by=by,
        detail={"moves": [[e.player.name, "new"] for e in entries]},
        moved=[e.pk for e in entries],
    )


def _split(
    round_: Round, states: list[_TableState], history: _History, number: int
) -> list[_TableState]:
    """Pairs in rank order (score, then seed): the top two stay at the table, the next
    two get a new table, a last odd player the bye."""
    if not 1 <= number <= len(states):
        raise ServiceError(
            _("round %(number)s has no table %(table)s")
            % {"number": round_.number, "table": number},
            field="table",
        )
    table = states[number - 1]
    if table.is_bye or len(table.seats) < 3:
        raise ServiceError(
            _("only a table of three or more can be split; move a player instead"), field="table"
        )
    ranked = [
        int(p.id)
        for p in rank_players(
            PairingPlayer(
                id=str(e), score=history.scores.get(str(e), 0.0), seed=history.seeds.get(e, 0)
            )
            for e in table.seats
        )
    ]
    table.seats = ranked[:2]
    table.changed = True
    rest = ranked[2:]
    extra: list[_TableState] = []
    while len(rest) >= 2:
        extra.append(_TableState(None, False, rest[:2], changed=True))
        rest = rest[2:]
    if rest:
        extra.append(_TableState(None, True, rest, changed=True))
    regular = [s for s in states if not s.is_bye]
    return _settle(regular + extra + [s for s in states if s.is_bye])


def round_table_split(
    *,
    round: Round,  # noqa: A002
    table: int,
    override_reason: str = "",
    by: Actor,
) -> EditCheck:
    """Split table number ``table`` (of three or more) into tables of two by rank: the
    top two stay, the next two get a new table, an odd last player gets the bye."""
    return _edit(
        round_=round,
        build=lambda r, states, history: _split(r, states, history, table),
        action="split table",
        override_reason=override_reason,
        by=by,
        detail={"table": table},
        moved=None,
    )


def _against_proposal(
    round_: Round, layout: ProposedLayout
) -> tuple[list[int], dict[int, list[int]]]:
    """The players whose place in ``layout`` differs from the round's pairing as
    proposed, and their table-mates there (EditCheck.changed, .proposed)."""
    proposal = round_proposal(round_=round_)
    if proposal is None or sorted(proposal.players) != sorted(layout.players):
        return [], {}  # unknown, or not this round's players (an imported audit)
    changed = changed_players(proposal, layout)
    was = places(proposal)
    proposed: dict[int, list[int]] = {}
    for p in changed:
        mates = was[p]
        proposed[int(p)] = [] if mates is None else sorted(int(m) for m in mates if m != p)
    return [int(p) for p in changed], proposed


def round_edit_preview(
    *,
    round: Round,
    moves: Sequence[tuple[Entry, Target]],  # noqa: A002
) -> EditCheck:
    """What ``round_seats_rearrange`` would warn about, without saving (the editor's live
    warnings), and which players' places would differ from the pairing as proposed. No
    moves: the round as it is."""
    history = _history(round)
    before = _load(round)
    snapshot = [_TableState(s.id, s.is_bye, list(s.seats)) for s in before]
    if not moves:
        current = _texts(_warnings(snapshot, history), history)
        changed, proposed = _against_proposal(round, _layout(snapshot))
        return EditCheck(
            current=current, after=current, created=[], changed=changed, proposed=proposed
        )
    if round.status != Round.Status.PAIRED:
        raise ServiceError(
            _("round %(number)s is already published") % {"number": round.number}, field="round"
        )
    after = _apply_moves(round, before, list(moves))
    _check_sizes(after, history)
    found = edit_warnings(
        _layout(snapshot), _layout(after), history.rules, {str(e.pk) for e, _t in moves}
    )
    changed, proposed = _against_proposal(round, _layout(after))
    return EditCheck(
        current=_texts(found.current, history),
        after=_texts(found.after, history),
        created=_texts(found.created, history),
        changed=changed,
        proposed=proposed,
    )


def swap_check(
    *,
    round: Round,
    first: Entry,
    second: Entry,
    override_reason: str,  # noqa: A002
) -> tuple[list[str], str]:
    """The warnings a swap of two players' seats creates; refused without a reason."""
    history = _history(round)
    before = _load(round)
    after = [_TableState(s.id, s.is_bye, list(s.seats)) for s in before]
    for s in after:
        s.seats = [
            second.pk if e == first.pk else first.pk if e == second.pk else e for e in s.seats
        ]
    return _check(before, after, history, override_reason, [first.pk, second.pk])
