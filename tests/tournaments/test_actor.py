"""Every write names its actor: each public service takes a keyword-only ``by`` with no
default, a call without it fails, and a plain user where an Actor belongs is refused."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from tournaments.services.actor import Actor, require_actor

SERVICE_MODULES = [
    "tournaments.services.audit",
    "tournaments.services.clubs",
    "tournaments.services.deciders",
    "tournaments.services.entries",
    "tournaments.services.evenings",
    "tournaments.services.idempotency",
    "tournaments.services.pairing_edit",
    "tournaments.services.result_path",
    "tournaments.services.results",
    "tournaments.services.rounds",
    "tournaments.services.seasons",
    "tournaments.services.tournaments",
    "tournaments.services.transfer",
    "ratings.services",
]
# Public functions that write nothing on anyone's behalf: reads, checks, and the rating
# worker's own steps (it runs jobs whose row already names who asked for them).
NOT_WRITES = {
    "tournaments.services.deciders.check_decider_settings",
    "tournaments.services.deciders.decider_possible",
    "tournaments.services.deciders.lock_decider_table",
    "tournaments.services.deciders.lock_game",
    "tournaments.services.deciders.table_deciders_in_step",
    "tournaments.services.results.players_of",
    "tournaments.services.seasons.check_season_fits",
    "tournaments.services.tournaments.check_pre_round",
    "tournaments.services.entries.name_key",
    "tournaments.services.entries.name_problem",
    "tournaments.services.entries.entries_paste_preview",
    "tournaments.services.entries.open_for_entries",
    "tournaments.services.entries.pasted_line_problem",
    "tournaments.services.entries.rating_problem",
    "tournaments.services.evenings.evening_tables",
    "tournaments.services.idempotency.check_key",
    "tournaments.services.idempotency.scope",
    "tournaments.services.pairing_edit.round_edit_preview",
    "tournaments.services.pairing_edit.swap_check",
    "tournaments.services.pairing_edit.warning_text",
    "tournaments.services.result_path.check_reporting_seat",
    "tournaments.services.result_path.moves_from_text",
    "tournaments.services.result_path.pieces_out",
    "tournaments.services.results.require_open_for_reports",
    "tournaments.services.results.require_evening_open",
    "tournaments.services.rounds.check_policy",
    "tournaments.services.tournaments.check_game_settings",
    "tournaments.services.transfer.tournament_export_document",
    "ratings.services.rating_job_run",
    "ratings.services.rating_jobs_requeue",
}


def _services() -> list[tuple[str, Callable[..., Any]]]:
    found = []
    for name in SERVICE_MODULES:
        module = importlib.import_module(name)
        for attr, function in inspect.getmembers(module, inspect.isfunction):
            qualified = f"{name}.{attr}"
            public = function.__module__ == name and not attr.startswith("_")
            if public and qualified not in NOT_WRITES:
                found.append((qualified, function))
    return found


SERVICES = _services()


def test_the_service_list_covers_every_module() -> None:
    modules = {name.rsplit(".", 1)[0] for name, _ in SERVICES}
    assert modules == set(SERVICE_MODULES)
    assert len(SERVICES) >= 30


@pytest.mark.parametrize(("name", "service"), SERVICES, ids=[name for name, _ in SERVICES])
def test_service_takes_a_required_keyword_only_actor(
    name: str, service: Callable[..., Any]
) -> None:
    by = inspect.signature(service).parameters.get("by")
    assert by is not None, f"{name} takes no actor"
    assert by.kind is inspect.Parameter.KEYWORD_ONLY
    assert by.default is inspect.Parameter.empty


@pytest.mark.parametrize(("name", "service"), SERVICES, ids=[name for name, _ in SERVICES])
def test_service_call_without_actor_raises_type_error(
    name: str, service: Callable[..., Any]
) -> None:
    # Every other required argument is given, so the only thing missing is `by`.
    params = inspect.signature(service).parameters.values()
    given = {
        p.name: object()
        for p in params
        if p.name != "by"
        and p.default is inspect.Parameter.empty
        and p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    }
    with pytest.raises(TypeError, match="'by'"):
        service(**given)


def test_a_plain_user_is_not_an_actor() -> None:
    with pytest.raises(TypeError, match="must be an Actor"):
        require_actor(AnonymousUser())
    with pytest.raises(TypeError, match="must be an Actor"):
        require_actor(None)


def test_a_command_is_recorded_without_a_user_and_has_no_permissions() -> None:
    command = Actor.command()
    assert command.audit_user is None
    assert not command.is_player
    assert not command.permission_user.is_authenticated


def test_results_module_still_exports_actor() -> None:
    from tournaments.services import results

    assert results.Actor is Actor
