"""The API can do everything the pages do (issue 27, item 13).

Every organiser action of the pages is a POST to a route of `tournaments/urls.py` (or
`tournaments/results/urls_games.py`) whose view calls a service with an explicit actor. This
test reads both sides from the code, so a page action added without its API operation
fails here, naming what is missing:

1. the page side: every route whose view accepts POST (its `require_POST` /
   `require_http_methods`, or, undecorated, a view that reads the posted form) is listed
   in `PAGE_ACTIONS` with the services it calls, or in `NOT_ORGANISER` with the reason
   it is no organiser action; the services are read from the view's source (ast), its
   helpers in the views modules included, and must be those listed;
2. the API side: every service a page action calls is called by an operation of the
   OpenAPI schema (drf-spectacular's own list of endpoints, each operation's code read
   the same way, with the `perform_*` hooks of DRF's generic actions).

`PAGE_ACTIONS` is the readable map (docs/api.md has the same table with the operations);
the reading of the code keeps it true.
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
import textwrap
import types
from collections.abc import Callable, Iterator
from functools import cache
from importlib import import_module
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

PAGE_URLCONFS = (
    "tournaments.desk.urls",
    "tournaments.results.urls",
    "tournaments.standings.urls",
    "tournaments.transfer.urls",
    "tournaments.results.urls_games",
)

# Route name -> the services its view calls (module under tournaments/services, name).
PAGE_ACTIONS: dict[str, set[str]] = {
    "tournament-create": {"tournaments.tournament_create"},
    "tournament-import": {"transfer.tournament_import_document"},
    "tournament-edit": {"tournaments.tournament_update"},
    "entries-paste": {"entries.entries_paste"},
    "entry-add-late": {"entries.entry_add"},
    "entry-edit": {"entries.entry_update"},
    "entry-delete": {"entries.entry_delete"},
    "entry-withdraw": {"entries.entry_withdraw"},
    "entry-readmit": {"entries.entry_readmit"},
    "entry-skip": {"entries.entry_skip"},
    "entries-skip": {"entries.entry_skip"},
    "entry-unskip": {"entries.entry_unskip"},
    "entries-reseed": {"entries.entries_reseed_by_rating"},  # by rating or an earlier event
    "entry-check-in": {"entries.entry_check_in"},
    "check-in-everyone": {"entries.entries_check_in_all"},
    "forbidden-add": {"tournaments.forbidden_pair_add"},
    "teams-paste": {"teams.teams_paste"},
    "team-form": {"teams.team_form"},
    "team-edit": {"teams.team_rename"},
    "team-withdraw": {"teams.team_withdraw"},
    "team-readmit": {"teams.team_readmit"},
    "team-dissolve": {"teams.team_dissolve"},
    "rounds-add": {"tournaments.tournament_add_rounds"},
    "round-pair": {"rounds.round_pair_next"},
    "round-action": {
        "rounds.round_publish",
        "rounds.round_repair",
        "rounds.round_close",
        "rounds.round_swap_seats",
        "tournaments.round_delete",
    },
    "round-reopen": {"rounds.round_reopen"},
    "round-unpublish": {"rounds.round_unpublish"},
    "round-edit": {"pairing_edit.round_seats_rearrange", "pairing_edit.round_table_split"},
    "round-edit-check": {"pairing_edit.round_edit_preview"},
    "round-results": {"result_path.game_result_sync"},
    # A row's save may come from the device's offline queue: it says what became of it.
    "round-result-save": {"result_path.game_result_sync"},
    "round-result-accept": {"results.result_accept"},
    "round-result-set-aside": {"results.result_held_set_aside"},
    "round-result-clear-flag": {"plies.ply_conflicts_clear"},
    "night-undo": {"night.notice_undo"},
    "night-seen": {"night.seat_seen"},
    "night-forfeit": {"no_show.seat_forfeit"},
    "submission-accept": {"results.result_accept"},
    "evening-close": {"evenings.evening_close"},
    "evening-reopen": {"evenings.evening_reopen"},
    # The board: plies and records, the egg timer's pause and resume (the API:
    # games/{id}/timer/), and a seat's confirmation, refused to a director (the API:
    # report/{token}/games/{id}/confirm/).
    "record": {
        "result_path.game_result_sync",
        "result_path.game_confirm_sync",
        "plies.game_timer_pause",
        "plies.game_timer_resume",
    },
}
# POST routes that are no organiser action, and why.
NOT_ORGANISER = {
    "position": "public and read-only: the position after a move record (the API: rules/replay/)",
    "record-token": "a player's own link, recording as her seat (the API: report/{token}/...)",
    "batch": "the offline queue's plies sent together, each as its own board save "
    "(record or record-token) would be; the API takes plies one by one (games/{id}/plies/)",
}

# The services of every concern (tournaments/<concern>/services/, the transfer's
# services.py, the ground services in core/), named as before the move by concern:
# "<module>.<function>" (e.g. "results.game_record_out").
SERVICE_MODULES = re.compile(
    r"^tournaments\.(?:\w+\.services\.(?P<module>\w+)|(?P<concern>transfer)\.services"
    r"|core\.(?P<ground>actor|audit|errors|freshness|idempotency|retry))$"
)
# Where a view's or an operation's helpers live: followed when read.
HELPERS = re.compile(
    r"^(?:tournaments\.(?:\w+\.views\b|api\.|core\.web$|results\.consumers$)|config\.)"
)


def service_module(module: str) -> str | None:
    match = SERVICE_MODULES.match(module)
    if not match:
        return None
    return match["module"] or match["concern"] or match["ground"]


# DRF's generic actions call these hooks, where the project's code is.
PERFORM = {
    "create": "perform_create",
    "update": "perform_update",
    "partial_update": "perform_update",
    "destroy": "perform_destroy",
}


def _resolve(node: ast.expr, module: types.ModuleType, cls: type | None) -> Any:
    """What a name or a dotted name in a function's source stands for: a module-level
    name of its module, or an attribute of ``self``'s class."""
    chain: list[str] = []
    while isinstance(node, ast.Attribute):
        chain.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    if node.id == "self" and cls is not None:
        obj: Any = cls
    elif node.id in vars(module):
        obj = vars(module)[node.id]
    else:
        return None
    for name in reversed(chain):
        try:
            if isinstance(obj, types.ModuleType):
                obj = getattr(obj, name)
            else:
                obj = inspect.getattr_static(obj, name)
        except AttributeError:
            return None
        if isinstance(obj, staticmethod | classmethod):
            obj = obj.__func__
    return obj


def _references(func: Callable[..., Any], cls: type | None) -> Iterator[Any]:
    func = inspect.unwrap(func)
    module = sys.modules[func.__module__]
    for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(func)))):
        if isinstance(node, ast.Name | ast.Attribute):
            obj = _resolve(node, module, cls)
            yield obj
            # A table of actions (views/board.py's TIMER: "pause" -> game_timer_pause)
            # calls what it holds: a service hidden there is still one the view calls.
            if isinstance(obj, dict):
                yield from obj.values()


def _writes(func: Callable[..., Any]) -> bool:
    """A service that writes takes its actor, ``by`` (tournaments/core/actor.py)."""
    return "by" in inspect.signature(func).parameters


def services_called(
    func: Callable[..., Any],
    cls: type | None = None,
    seen: set[Any] | None = None,
    depth: int = 0,
) -> set[str]:
    """The public functions of tournaments/services that ``func`` calls or passes on:
    those that write (take ``by``) also through the project's helpers it calls (views,
    API, config); those that only read where ``func`` itself calls them (so the
    organiser page's own context, shown again after a refusal, does not count as the
    action)."""
    seen = set() if seen is None else seen
    func = inspect.unwrap(func)
    if func in seen:
        return set()
    seen.add(func)
    found: set[str] = set()
    for obj in _references(func, cls):
        if not inspect.isfunction(obj):
            continue
        module, method = obj.__module__, "." in obj.__qualname__
        short = service_module(module)
        if short and not method and not obj.__name__.startswith("_"):
            if depth == 0 or _writes(obj):
                found.add(f"{short}.{obj.__name__}")
        elif HELPERS.match(module):
            found |= services_called(obj, cls, seen, depth + 1)
    return found


def _allowed_methods(view: Callable[..., Any]) -> set[str] | None:
    """The methods `require_http_methods` (or `require_POST`, `require_GET`) lets in,
    or None for a view without such a decorator."""
    current: Any = view
    while current is not None:
        code = getattr(current, "__code__", None)
        names = code.co_freevars if code is not None else ()
        for name, cell in zip(names, current.__closure__ or (), strict=False):
            if name == "request_method_list":
                return {m.upper() for m in cell.cell_contents}
        current = getattr(current, "__wrapped__", None)
    return None


def _reads_posted_data(func: Callable[..., Any], seen: set[Any] | None = None) -> bool:
    """Whether a view (or a helper of it in the views modules) reads the posted form or
    the request's method: an undecorated view that does acts on a POST."""
    seen = set() if seen is None else seen
    func = inspect.unwrap(func)
    if func in seen:
        return False
    seen.add(func)
    module = sys.modules[func.__module__]
    for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(func)))):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in {"POST", "FILES", "body", "method"}
            and isinstance(node.value, ast.Name)
            and node.value.id == "request"
        ):
            return True
        if isinstance(node, ast.Name | ast.Attribute):
            obj = _resolve(node, module, None)
            if (
                inspect.isfunction(obj)
                and HELPERS.match(obj.__module__)
                and not obj.__module__.startswith(("tournaments.api.", "config."))
                and _reads_posted_data(obj, seen)
            ):
                return True
    return False


@cache
def post_routes() -> dict[str, Callable[..., Any]]:
    """Route name -> view of every page route that accepts a POST."""
    routes: dict[str, Callable[..., Any]] = {}
    for urlconf in PAGE_URLCONFS:
        for pattern in import_module(urlconf).urlpatterns:
            allowed = _allowed_methods(pattern.callback)
            takes_post = (
                "POST" in allowed if allowed is not None else _reads_posted_data(pattern.callback)
            )
            if takes_post:
                routes[pattern.name] = pattern.callback
    return routes


@cache
def api_operations() -> dict[tuple[str, str], set[str]]:
    """(METHOD, path) of every operation in the OpenAPI schema -> the services its code
    calls."""
    generator = SchemaGenerator()
    schema_paths = generator.get_schema(request=None, public=True)["paths"]
    generator = SchemaGenerator()
    generator._initialise_endpoints()
    operations: dict[tuple[str, str], set[str]] = {}
    for path, _regex, method, view in generator._get_paths_and_endpoints():
        if method.lower() not in schema_paths.get(path, {}):
            continue  # not in the schema: no operation a client can see
        cls = type(view)
        name = getattr(view, "action", None) or method.lower()
        func = inspect.getattr_static(cls, name, None)
        if func is None:
            func = getattr(cls, name)
        if not HELPERS.match(getattr(inspect.unwrap(func), "__module__", "")):
            hook = PERFORM.get(name)
            func = getattr(cls, hook) if hook else func
        found = (
            services_called(func, cls)
            if HELPERS.match(getattr(inspect.unwrap(func), "__module__", ""))
            else set()
        )
        operations[(method.upper(), path)] = found
    return operations


def test_every_post_route_of_the_pages_is_listed():
    routes = set(post_routes())
    listed = set(PAGE_ACTIONS) | set(NOT_ORGANISER)
    unlisted, stale = sorted(routes - listed), sorted(listed - routes)
    assert not unlisted, (
        "page routes that accept POST but are not in PAGE_ACTIONS (the services they call) "
        "or NOT_ORGANISER (why they are no organiser action): " + ", ".join(unlisted)
    )
    assert not stale, "listed, but no page route by that name accepts POST: " + ", ".join(stale)


@pytest.mark.parametrize("name", sorted(PAGE_ACTIONS))
def test_each_page_action_calls_the_services_listed(name):
    view = post_routes().get(name)
    if view is None:
        pytest.fail(f"no page route {name} accepts POST")
    assert services_called(view) == PAGE_ACTIONS[name], name


def test_every_service_a_page_action_calls_has_an_api_operation():
    operations = api_operations()
    called_by_api = set().union(*operations.values())
    missing = {
        f"{service} (pages: {', '.join(sorted(names))})"
        for service in set().union(*PAGE_ACTIONS.values())
        if service not in called_by_api
        for names in [[n for n, s in PAGE_ACTIONS.items() if service in s]]
    }
    assert not missing, "page actions without an API operation in the schema:\n" + "\n".join(
        sorted(missing)
    )


def test_the_reading_of_the_code_sees_what_it_must():
    """The readers themselves: a known operation and its service, a DRF generic action
    through its hook, and a view whose services are passed on to a helper."""
    operations = api_operations()
    assert "rounds.round_pair_next" in operations[("POST", "/api/v1/tournaments/{slug}/rounds/")]
    delete = operations[("DELETE", "/api/v1/tournaments/{slug}/rounds/{number}/")]
    assert delete == {"tournaments.round_delete"}
    assert services_called(post_routes()["round-reopen"]) == {"rounds.round_reopen"}
    assert "check-in" not in post_routes()  # the check-in page only shows (GET)
    assert "tournament-manage" not in post_routes()


def test_the_api_operations_of_the_page_actions():
    """Which operation does what each page action does (the table in docs/api.md)."""
    operations = api_operations()
    expected = {
        ("PUT", "/api/v1/tournaments/{slug}/entries/{id}/skips/{round_number}/"): {
            "entries.entry_skip",
            "entries.entry_unskip",
        },
        ("POST", "/api/v1/tournaments/{slug}/forbidden-pairs/"): {"tournaments.forbidden_pair_add"},
        ("POST", "/api/v1/tournaments/{slug}/entries/reseed/"): {
            "entries.entries_reseed_by_rating"
        },
        ("POST", "/api/v1/tournaments/{slug}/entries/"): {"entries.entry_add"},
        ("PATCH", "/api/v1/tournaments/{slug}/entries/{id}/"): {"entries.entry_update"},
        ("POST", "/api/v1/tournaments/{slug}/rounds/{number}/rearrange/"): {
            "pairing_edit.round_seats_rearrange"
        },
        ("POST", "/api/v1/tournaments/{slug}/submissions/{id}/accept/"): {"results.result_accept"},
        ("POST", "/api/v1/tournaments/{slug}/submissions/{id}/set-aside/"): {
            "results.result_held_set_aside"
        },
        ("POST", "/api/v1/clubs/{slug}/import/"): {"transfer.tournament_import_document"},
    }
    for operation, services in expected.items():
        assert operations.get(operation) == services, operation
