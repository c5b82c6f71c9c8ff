"""Live tables: tell the pages that show a game that it changed, once the change is
committed (Django Channels' layer: Redis in production, in memory on the embedded
default). PostgreSQL is the record; this is only the news. When the layer cannot be
reached (Redis down) the ply is saved all the same and the pages, whose sockets close,
poll until it is back (docs/operations.md, "Live tables")."""

from __future__ import annotations

import json
import logging
from functools import partial
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from tournaments.core.poll import forget_recent_games_states
from tournaments.models import Game
from tournaments.results.selectors.table_state import game_live

logger = logging.getLogger(__name__)

# The consumer's message type (views/sockets.py sends its text to the page).
MESSAGE = "game.changed"
# Who may see the tournament, or where, changed: each socket checks again whether its
# visitor may still listen, and closes if not (views/sockets.py).
VISIBILITY = "tournament.visibility"


def tournament_group(tournament_id: int) -> str:
    """The group of every page following a tournament's live tables."""
    return f"live.tournament.{tournament_id}"


def _layer() -> Any:
    # "send" has short timeouts (config/settings.py); without Redis there is one layer.
    return get_channel_layer("send" if "send" in settings.CHANNEL_LAYERS else "default")


def game_changed_on_commit(
    game_id: int, *, tournament_id: int | None = None, state: dict[str, Any] | None = None
) -> None:
    """Once committed, tell the game's pages. A writer that knows the game's live state
    as committed (a ply recorded live, services/plies.py) passes it with its
    tournament, and nothing is read again; else the state is read after the commit.
    The round pages' reads kept by this process are forgotten now and once committed
    (a visitor's page read meanwhile kept the state before the commit)."""
    forget_recent_games_states()
    transaction.on_commit(forget_recent_games_states)
    transaction.on_commit(partial(_send, game_id, tournament_id, state))


def _send(
    game_id: int, tournament_id: int | None = None, state: dict[str, Any] | None = None
) -> None:
    try:
        if tournament_id is None or state is None:
            tournament_id = (
                Game.objects.filter(pk=game_id)
                .values_list("table__round__tournament_id", flat=True)
                .first()
            )
            state = game_live(game_id=game_id)
        if tournament_id is None or state is None:
            return
        # Encoded once here, not once per socket: the consumer sends the text as it is.
        text = json.dumps({"game": state}, separators=(",", ":"))
        async_to_sync(_layer().group_send)(
            tournament_group(tournament_id), {"type": MESSAGE, "text": text}
        )
    except Exception:  # noqa: BLE001 - the news may fail; the write it follows has not.
        logger.warning(
            "live: could not announce game %s (pages poll meanwhile)", game_id, exc_info=True
        )


def visibility_changed_on_commit(tournament_id: int) -> None:
    """The tournament was unpublished, moved, deleted or lost a director: once that is
    committed, its sockets check again who may listen."""
    transaction.on_commit(partial(_send_visibility, tournament_id))


def _send_visibility(tournament_id: int) -> None:
    try:
        async_to_sync(_layer().group_send)(tournament_group(tournament_id), {"type": VISIBILITY})
    except Exception:  # noqa: BLE001 - with the layer down the sockets are closed anyway.
        logger.warning(
            "live: could not tell tournament %s's sockets to check again",
            tournament_id,
            exc_info=True,
        )
