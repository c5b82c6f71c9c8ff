"""Seating helpers shared by pairing a round (rounds.py) and editing its pairing
(pairing_edit.py): the games a new table plays, and the lock on a round still open to
changes of its tables."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.core.errors import ConflictError
from tournaments.core.permissions import lock_round
from tournaments.models import Game, Round, Table, Tournament
from tournaments.pairing.first_move import game_orders


def unpublished_round(round_: Round) -> Round:
    """The round locked for a change of its tables, which only an unpublished round allows."""
    try:
        round_ = lock_round(pk=round_.pk)
    except Round.DoesNotExist:
        # Paired again (a new row) or deleted by someone else while this request waited.
        raise ConflictError(
            _("round %(number)s was changed meanwhile; reload the page")
            % {"number": round_.number},
            field="round",
        ) from None
    if round_.status != Round.Status.PAIRED:
        raise ConflictError(_("round %(number)s is already published") % {"number": round_.number})
    return round_


def table_games(tournament: Tournament, table: Table, n: int) -> list[Game]:
    """The (unsaved) games of a table of ``n`` for one round: the book's games per turn,
    the first mover alternating at 2-player tables (seat 1 begins)."""
    games: list[Game] = []
    per_turn = tournament.games_per_turn_2 if n == 2 else tournament.games_per_turn_3
    order_ids = [str(p) for p in range(1, n + 1)]
    for g, order in enumerate(game_orders(order_ids, per_turn), start=1):
        # Section 21: three players play "clockwise, and widdershins".
        clockwise = n < 3 or tuple(order) == tuple(order_ids)
        games.append(
            Game(
                table=table,
                number=g,
                first_position=int(order[0]),
                direction=Game.Direction.CLOCKWISE if clockwise else Game.Direction.WIDDERSHINS,
                target=tournament.sheet_target,
            )
        )
    return games
