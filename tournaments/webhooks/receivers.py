"""The club's events, heard from tournaments/signals.py inside the services'
transactions, written to the webhooks' outbox (services.webhook_event_queue) in the same
transaction: a change rolled back tells nobody, a change committed is told even if the
broker is down. Connected in WebhooksConfig.ready.

Each costs one query when the club has no endpoint (the common case): the active
endpoints of the event's club."""

from __future__ import annotations

from typing import Any

from tournaments import signals
from tournaments.core.actor import Actor
from tournaments.models import WebhookEvent
from tournaments.webhooks import selectors
from tournaments.webhooks.services import webhook_event_queue

# The receivers are connected once, by these names (dispatch_uid): a second ready() in
# a test process connects nothing twice.
_UID = "tournaments.webhooks.receivers"


def on_round_published(sender: Any, round_id: int, **kwargs: Any) -> None:
    _round_event(round_id, WebhookEvent.ROUND_PUBLISHED)


def on_round_ended(sender: Any, round_id: int, **kwargs: Any) -> None:
    _round_event(round_id, WebhookEvent.ROUND_CLOSED)


def _round_event(round_id: int, event: str) -> None:
    tournament_id = selectors.tournament_of_round(round_id)
    if tournament_id is None:
        return
    endpoints = selectors.listening(selectors.active_endpoints_of_tournament(tournament_id), event)
    if not endpoints:
        return
    data = selectors.round_data(round_id)
    if data is not None:
        webhook_event_queue(endpoints=endpoints, event=event, data=data, by=Actor.command())


def on_result_confirmed(sender: Any, game_id: int, **kwargs: Any) -> None:
    event = WebhookEvent.RESULT_CONFIRMED
    tournament_id = selectors.tournament_of_game(game_id)
    if tournament_id is None:
        return
    endpoints = selectors.listening(selectors.active_endpoints_of_tournament(tournament_id), event)
    if not endpoints:
        return
    found = selectors.game_data(game_id)
    if found is not None:
        webhook_event_queue(endpoints=endpoints, event=event, data=found[1], by=Actor.command())


def on_standings_changed(
    sender: Any,
    tournament_id: int | None = None,
    player_ids: list[int] | None = None,
    **kwargs: Any,
) -> None:
    if tournament_id is not None:
        _standings(tournament_id)
    elif player_ids:
        for pk in selectors.tournaments_of_players(player_ids):
            _standings(pk)


def _standings(tournament_id: int) -> None:
    event = WebhookEvent.STANDINGS_CHANGED
    endpoints = selectors.listening(selectors.active_endpoints_of_tournament(tournament_id), event)
    if not endpoints:
        return
    data = selectors.standings_data(tournament_id)
    if data is not None:
        webhook_event_queue(
            endpoints=endpoints,
            event=event,
            data=data,
            # A burst of changes is one message while the first still waits to be sent.
            coalesce_key=f"standings:{tournament_id}",
            by=Actor.command(),
        )


def on_ratings_updated(
    sender: Any, club_ids: list[int] | None = None, job_id: int | None = None, **kwargs: Any
) -> None:
    event = WebhookEvent.RATINGS_UPDATED
    endpoints = selectors.listening(selectors.active_endpoints_of_clubs(club_ids), event)
    by_club: dict[int, list[Any]] = {}
    for endpoint in endpoints:
        by_club.setdefault(endpoint.club_id, []).append(endpoint)
    for club_endpoints in by_club.values():
        data = selectors.ratings_data(club_endpoints[0].club_id, job_id=job_id)
        webhook_event_queue(endpoints=club_endpoints, event=event, data=data, by=Actor.command())


def connect() -> None:
    signals.round_published.connect(on_round_published, dispatch_uid=f"{_UID}.round_published")
    signals.round_ended.connect(on_round_ended, dispatch_uid=f"{_UID}.round_ended")
    signals.result_confirmed.connect(on_result_confirmed, dispatch_uid=f"{_UID}.result")
    signals.standings_version_changed.connect(
        on_standings_changed, dispatch_uid=f"{_UID}.standings"
    )
    signals.ratings_updated.connect(on_ratings_updated, dispatch_uid=f"{_UID}.ratings")
