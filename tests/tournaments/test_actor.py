"""Every write names its actor: each public service takes a keyword-only ``by`` with no
default, a call without it fails, and a plain user where an Actor belongs is refused."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from tournaments.core.actor import Actor, require_actor

SERVICE_MODULES = [
    "tournaments.core.audit",
    "tournaments.desk.services.clubs",
    "tournaments.results.services.deciders",
    "tournaments.desk.services.entries",
    "tournaments.desk.services.evenings",
    "tournaments.core.idempotency",
    "tournaments.desk.services.pairing_edit",
    "tournaments.results.services.result_path",
    "tournaments.results.services.results",
    "tournaments.desk.services.rounds",
    "tournaments.desk.services.seasons",
    "tournaments.desk.services.tournaments",
    "tournaments.transfer.services",
    "ratings.services",
]
# Public functions that write nothing on anyone's behalf: reads, checks, and the rating
# worker's own steps (it runs jobs whose row already names who asked for them).
NOT_WRITES = {
    "tournaments.results.services.deciders.check_decider_settings",
    "tournaments.results.services.deciders.decider_possible",
    "tournaments.results.services.deciders.table_deciders_in_step",
    "tournaments.results.services.results.players_of",
    "tournaments.results.services.results.record_result",
    "tournaments.results.services.results.record_variant",
    "tournaments.results.services.results.refuse_illegal",
    "tournaments.desk.services.seasons.check_season_fits",
    "tournaments.desk.services.tournaments.check_pre_round",
    "tournaments.desk.services.entries.name_key",
    "tournaments.desk.services.entries.name_problem",
    "tournaments.desk.services.entries.entries_paste_preview",
    "tournaments.desk.services.entries.open_for_entries",
    "tournaments.desk.services.entries.pasted_line_problem",
    "tournaments.desk.services.entries.rating_problem",
    "tournaments.desk.services.evenings.evening_tables",
    "tournaments.core.idempotency.check_key",
    "tournaments.core.idempotency.scope",
    "tournaments.desk.services.pairing_edit.round_edit_preview",
    "tournaments.desk.services.pairing_edit.swap_check",
    "tournaments.desk.services.pairing_edit.warning_text",
    "tournaments.results.services.result_path.check_reporting_seat",
    "tournaments.results.services.result_path.moves_from_text",
    "tournaments.results.services.result_path.pieces_out",
    "tournaments.results.services.results.require_open_for_reports",
    "tournaments.results.services.results.require_evening_open",
    "tournaments.desk.services.rounds.check_policy",
    "tournaments.desk.services.tournaments.check_game_settings",
    "tournaments.transfer.services.tournament_export_document",
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
    from tournaments.results.services import results

    assert results.Actor is Actor
