"""The 3-player decider (sections 3 and 18; docs/scoring.md, "The 3-player decider").

Section 18: "Such a match can already produce a clear winner; if it doesn't, let the two
leaders in score play a two player to settle the issue." With the tournament's
`decider` option a 3-player table's match (its games of the turn, clockwise and
widdershins) that ends with exactly two players tied at the top gets one more game: a
2-player game of those two, the *decider*. It settles who wins the match; its score
enters no round score (the time weighting stays as it is).

`decider_sync` keeps a table's decider in step with its results. The result services
(services/results.py) call it inside the transaction of every result write at a table,
so whichever client wrote the result (results screen, a player's link, the board, the
API), the decider comes and goes with the result that causes it:

- every game of the match counts and exactly two players share the top: a decider of
  those two exists (added, or a voided one of the same two restored);
- otherwise (a correction, the option switched off) a decider nobody has touched is
  removed, and one with a result, a report or a record is voided: kept with its trail,
  counting nowhere. Each change is in the audit log.

The table's row is locked first, so two reports completing the match at the same moment
see each other's result and add one decider; the database allows one decider that counts
per table (`game_one_live_decider_per_table`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import F
from django.utils.translation import gettext as _

from tournaments.core.actor import Actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ServiceError
from tournaments.core.freshness import standings_changed
from tournaments.models import (
    Game,
    Ply,
    PlyConflict,
    ResultSubmission,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.results.services.broadcast import game_changed_on_commit
from tournaments.scoring import decider_first, decider_pair
from tournaments.standings.selectors.standings import scoring_settings

# The table sizes whose match a decider settles: the book's 3-player match.
DECIDER_TABLE = 3


def decider_possible(tournament: Tournament) -> bool:
    """Whether the tournament can have 3-player tables whose match a decider settles."""
    return (
        tournament.ruleset.has_decider
        and not tournament.is_team_event
        and tournament.policy != Tournament.Policy.PAIRS_BYE
    )


def check_decider_settings(tournament: Tournament, changed: Iterable[str] = ("decider",)) -> None:
    """The option is refused, naming the field, where no 3-player match can be tied:
    a game played only by two, a 2 vs 2 team event, 2-player tables with a bye."""
    if not tournament.decider:
        return
    changed = list(changed)
    field = (
        "decider"
        if "decider" in changed
        else next((f for f in ("game", "kind", "policy") if f in changed), "decider")
    )
    if not tournament.ruleset.has_decider:
        message = _("this game is not played by three, so it has no 3-player match to decide")
    elif tournament.is_team_event:
        message = _("a 2 vs 2 team event has no 3-player tables, so there is no match to decide")
    elif tournament.policy == Tournament.Policy.PAIRS_BYE:
        message = _(
            "with 2-player tables and a bye there are no 3-player tables, so there is no "
            "match to decide"
        )
    else:
        return
    raise ServiceError(message, field=field)


def _target(game: Game, round_number: int, table_number: int) -> str:
    return f"round {round_number} table {table_number} game {game.number}"


def _snapshot(game: Game) -> dict[str, Any]:
    return {
        "leaders": list(game.leaders or ()),
        "first_position": game.first_position,
        "status": game.status,
        "out": game.out_list(2),
        "moves": list(game.moves),
        "confirmed": game.confirmed,
    }


def _touched(game: Game) -> bool:
    """Whether anyone has written anything for this decider: a result, a report, a
    record in progress, a ply, a flagged ply. Such a decider is voided, never deleted."""
    return (
        game.status != Game.Status.PENDING
        or ResultSubmission.objects.filter(game=game).exists()
        or Ply.objects.filter(game=game).exists()
        or PlyConflict.objects.filter(game=game).exists()
    )


def _tied_leaders(
    tournament: Tournament, positions: list[int], games: list[Game], *, enabled: bool
) -> tuple[int, int] | None:
    """The seat positions of the two leaders when every game of the match counts and
    exactly two share the top (and the tournament plays deciders, ``enabled``); else
    None."""
    if not enabled or not decider_possible(tournament):
        return None
    if len(positions) != DECIDER_TABLE or not games or not all(g.counts for g in games):
        return None
    outs = [[int(o or 0) for o in g.out_list(DECIDER_TABLE)] for g in games]
    pair = decider_pair(outs, scoring_settings(tournament))
    if pair is None:
        return None
    return (positions[pair[0]], positions[pair[1]])


def _sync(table: Table, round_: Round, tournament: Tournament, by: Actor) -> bool:
    """Bring the (locked) table's deciders in step with its results; True if one changed."""
    positions = list(
        Seat.objects.filter(table_id=table.pk)
        .order_by("position")
        .values_list("position", flat=True)
    )
    games = list(Game.objects.filter(table_id=table.pk, decider=False).order_by("number"))
    # Locked: a player reporting the decider this moment either has committed (and the
    # decider is voided, not deleted, below) or waits and then finds it voided.
    deciders = list(
        Game.objects.select_for_update().filter(table_id=table.pk, decider=True).order_by("number")
    )
    pair = _tied_leaders(tournament, positions, games, enabled=tournament.decider)
    where = (round_.number, table.number)
    changed = False
    for game in [d for d in deciders if not d.voided and d.leaders != pair]:
        changed = True
        if _touched(game):
            Game.objects.filter(pk=game.pk).update(voided=True, version=F("version") + 1)
            game_changed_on_commit(game.pk)
            game.voided = True
            audit_record(
                tournament=tournament,
                by=by,
                action="void decider",
                target=_target(game, *where),
                before=_snapshot(game),
                after={"voided": True},
            )
        else:
            audit_record(
                tournament=tournament,
                by=by,
                action="remove decider",
                target=_target(game, *where),
                before=_snapshot(game),
            )
            game.delete()
            deciders.remove(game)
    if pair is not None and not any(d.leaders == pair and not d.voided for d in deciders):
        changed = True
        again = [d for d in deciders if d.leaders == pair]
        if again:
            # The same two tie again (a correction taken back): their decider counts again.
            game = again[-1]
            Game.objects.filter(pk=game.pk).update(voided=False, version=F("version") + 1)
            game_changed_on_commit(game.pk)
            audit_record(
                tournament=tournament,
                by=by,
                action="restore decider",
                target=_target(game, *where),
                after=_snapshot(game),
            )
        else:
            firsts = [
                positions.index(g.first_position) for g in games if g.first_position in positions
            ]
            first = decider_first((positions.index(pair[0]), positions.index(pair[1])), firsts)
            numbers = [g.number for g in games] + [d.number for d in deciders]
            game = Game.objects.create(
                table=table,
                number=max(numbers) + 1,
                decider=True,
                leader_a=pair[0],
                leader_b=pair[1],
                first_position=positions[first],
                direction=Game.Direction.CLOCKWISE,
                target=tournament.sheet_target,
            )
            game_changed_on_commit(game.pk)
            audit_record(
                tournament=tournament,
                by=by,
                action="add decider",
                target=_target(game, *where),
                after=_snapshot(game),
            )
    if changed and round_.status == Round.Status.CLOSED:
        # The decider settles the match, which the standings' `wins` read.
        standings_changed(tournament=tournament)
    return changed


def decider_sync(*, game: Game, by: Actor) -> bool:
    """After a result of ``game`` changed, in the same transaction: add, restore, void or
    remove its table's decider as the match now stands. A decider's own result changes
    no tie, and with the option off there is no decider that counts (switching it off
    voided them), so neither costs a query. Returns whether the decider changed."""
    if game.decider:
        return False
    tournament = game.table.round.tournament
    if not tournament.decider:
        return False
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("round").get(pk=game.table_id)
    )
    return _sync(table, table.round, tournament, by)


def deciders_sync_tournament(*, tournament: Tournament, by: Actor) -> int:
    """Every table of the tournament, after the option changed (services/tournaments.py,
    in the settings' transaction): switched on, each tied match gets its decider;
    switched off, every decider is voided or removed. Returns the tables changed."""
    changed = 0
    tables = (
        Table.objects.select_for_update(of=("self",))
        .filter(round__tournament=tournament, is_bye=False)
        .select_related("round")
        .order_by("round__number", "number")
    )
    for table in tables:
        changed += _sync(table, table.round, tournament, by)
    return changed


def table_deciders_in_step(*, tournament: Tournament, table: Table, enabled: bool) -> bool:
    """Whether the table's deciders that count are what its results call for (an
    imported document's, which are taken as given rather than added by the replay)."""
    positions = list(
        Seat.objects.filter(table_id=table.pk)
        .order_by("position")
        .values_list("position", flat=True)
    )
    games = list(Game.objects.filter(table_id=table.pk, decider=False).order_by("number"))
    pair = _tied_leaders(tournament, positions, games, enabled=enabled)
    live = [g.leaders for g in Game.objects.filter(table_id=table.pk, decider=True, voided=False)]
    return live == ([pair] if pair is not None else [])


def check_decider_player(*, by: Actor, game: Game) -> None:
    """A decider is the two leaders' game: the third player's link neither reports nor
    confirms nor records it."""
    leaders = game.leaders
    seat = by.seat if by.is_player else None
    if leaders is not None and seat is not None and seat.position not in leaders:
        raise ServiceError(
            _("the decider is played by seats %(a)s and %(b)s; your link cannot report it")
            % {"a": leaders[0], "b": leaders[1]},
            field="position",
        )
