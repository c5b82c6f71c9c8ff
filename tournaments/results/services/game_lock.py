"""The game's lock: every write of a game (a ply, a result, a report, a confirmation, the
egg timer, a flag) locks its row here first, once, so that two devices writing one game
wait for each other instead of acting on a state they have not seen. A decider's table
is locked before the decider's row (`lock_decider_table`): the services that complete a
tied match lock the table first, and both take the locks in one order."""

from __future__ import annotations

from django.db.models import Count, Exists, OuterRef, Subquery
from django.utils.translation import gettext as _

from tournaments.core.errors import ConflictError
from tournaments.core.permissions import refuse_if_written_elsewhere, written_elsewhere_q
from tournaments.models import Game, PlyConflict, Seat, Table


def lock_decider_table(game: Game) -> None:
    """Before a decider's own row is locked, its table's: a result of a game of the
    match locks the table before its decider (decider_sync), so both take the locks in
    one order and never wait for each other."""
    if game.decider:
        # The table's row alone: Table's default ordering joins its round and tournament,
        # which a plain FOR UPDATE would lock as well (see `lock_game`).
        list(
            Table.objects.select_for_update(of=("self",)).filter(pk=game.table_id).values_list("pk")
        )


def lock_game(game: Game, *, counted: bool = False) -> Game:
    """The game's row, locked for a write (its decider's table first, see
    `lock_decider_table`); a decider taken away meanwhile is a conflict, never a 500.
    ``counted``: read in the same statement the table's seat count (`seat_count`) and
    whether the game has open ply flags (`flagged`), which a ply needs (services/plies.py)."""
    lock_decider_table(game)
    # Whether the event is written elsewhere (docs/venue.md) comes in the same statement.
    games = Game.objects.annotate(**written_elsewhere_q("table__round__tournament_id"))
    if counted:
        games = games.annotate(
            seat_count=Subquery(
                Seat.objects.filter(table_id=OuterRef("table_id"))
                .order_by()
                .values("table_id")
                .annotate(n=Count("pk"))
                .values("n")
            ),
            flagged=Exists(
                PlyConflict.objects.filter(game=OuterRef("pk"), cleared_at__isnull=True)
            ),
        )
    # `of=("self",)`: the joined table, round and tournament (select_related, and Game's
    # default ordering) are read, not locked. Locked too (PostgreSQL's plain FOR UPDATE
    # locks every joined row), the round blocked the rating job's commit (its
    # foreign-key check on the round) while this transaction waited for the job's
    # tournament row: a deadlock (issue 41).
    locked = (
        games.select_for_update(of=("self",))
        .select_related("table__round__tournament")
        .filter(pk=game.pk)
        .first()
    )
    if locked is None:
        # Taken away meanwhile: a decider whose match a correction untied.
        raise ConflictError(
            _(
                "this game was taken away meanwhile (a decider whose match is no longer tied at the top); reload"
            ),
            field="game",
        )
    refuse_if_written_elsewhere(
        run_at_venue=locked.run_at_venue, taken_over_on_site=locked.taken_over_on_site
    )
    return locked
