"""Every write is a service call: outside the service modules (and migrations and
tests) the project's code neither saves, deletes, creates nor updates model rows itself.
Read from the source (ast), so a write added anywhere fails here before it ships; the few
exceptions are listed with their reason, and each must still be needed."""

from __future__ import annotations

import ast
from pathlib import Path

from django.apps import apps

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("config", "games", "ratings", "tournaments")

# Called on anything: no plain Python object of the project has these. The admin's and
# forms' own writers (``super().save_model(...)``, ``form.save_m2m()``) count too.
ALWAYS = {
    "save",
    "delete",
    "bulk_create",
    "bulk_update",
    "get_or_create",
    "update_or_create",
    "save_m2m",
    "save_model",
    "delete_model",
    "save_related",
    "save_formset",
    "delete_queryset",
}
# Writes only on a manager or queryset (a dict or a set also has ``update`` / ``add``).
ON_ORM = {"create", "update", "add", "set", "remove", "clear"}
QUERYSET_STEPS = {
    "all",
    "filter",
    "exclude",
    "select_for_update",
    "select_related",
    "prefetch_related",
    "order_by",
    "annotate",
    "distinct",
    "only",
    "defer",
    "using",
}

ALLOWED = {
    "ratings/rate.py": "the ratings layer's own write path: rating rows derived from the "
    "closed results, run by the ratings jobs (ratings/services.py, ratings/tasks.py)",
    "ratings/periods.py": "the ratings layer's write path: the rating period a closed round "
    "or evening becomes, created when it is rated",
    "ratings/history_rows.py": "the ratings layer's write path: the rating history rows of a "
    "replay, written in bulk",
    "tournaments/management/commands/demo.py": "the demo's admin account: an account of "
    "django.contrib.auth, which no domain service owns",
    "config/cache.py": "a cache key deleted, not a model row",
    "config/live_layer.py": "the live layer's own groups (a dict) cleared, not a model row",
    "tournaments/core/page_cache.py": "a page's render lock deleted from the cache, not a "
    "model row",
    # The ground services every concern's services call inside their transaction (they
    # were tournaments/services/ before the move by concern).
    "tournaments/core/audit.py": "the audit row each service writes with its change",
    "tournaments/core/freshness.py": "the standings' version a service bumps with its change",
    "tournaments/core/idempotency.py": "a write's idempotency key, kept with the write it guards",
}


def _relation_names() -> set[str]:
    """Managers a model instance reaches rows through: ``club.organisers``,
    ``tournament.entries``, ..."""
    names = {"objects"}
    for model in apps.get_models():
        names.update(f.name for f in model._meta.many_to_many)
        names.update(r.get_accessor_name() for r in model._meta.related_objects)
    return {n for n in names if n}


def _on_orm(node: ast.expr, relations: set[str]) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in relations
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in QUERYSET_STEPS and _on_orm(node.func.value, relations)
    return False


def writes_in(source: str, relations: set[str]) -> list[str]:
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name = node.func.attr
        if name in ALWAYS or (name in ON_ORM and _on_orm(node.func.value, relations)):
            found.append((node.lineno, node.col_offset, f"{ast.unparse(node.func)}(...)"))
    return [f"{line}: {call}" for line, _, call in sorted(found)]


def _checked_files() -> list[str]:
    files = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            parts = rel.split("/")
            if "migrations" in parts or "tests" in parts or "services" in parts:
                continue
            if parts[-1] == "services.py":
                continue
            files.append(rel)
    return files


def test_no_model_is_written_outside_the_services():
    relations = _relation_names()
    found = {}
    for rel in _checked_files():
        if rel in ALLOWED:
            continue
        writes = writes_in((ROOT / rel).read_text(encoding="utf-8"), relations)
        if writes:
            found[rel] = writes
    assert found == {}, "write through a service (a concern's services/) instead"


def test_every_allowed_file_still_writes_so_the_list_stays_short():
    relations = _relation_names()
    checked = set(_checked_files())
    stale = [
        rel
        for rel in ALLOWED
        if rel not in checked or not writes_in((ROOT / rel).read_text(), relations)
    ]
    assert stale == []


def test_the_check_finds_each_kind_of_write_and_not_a_dict_update():
    source = """
def view(request, tournament, club, user):
    Tournament.objects.create(name="x")
    tournament.save()
    tournament.rounds.last().delete()
    Entry.objects.filter(tournament=tournament).update(seed=1)
    Player.objects.get_or_create(name="y")
    club.organisers.add(user)
    tournament.entries.create(seed=3)
    Seat.objects.bulk_create([])
    form.save()
    super().save_model(request, obj, form, change)
    payload = {}
    payload.update(a=1)
    seen = set()
    seen.add(3)
"""
    found = writes_in(source, _relation_names())
    assert [f.split(": ")[1] for f in found] == [
        "Tournament.objects.create(...)",
        "tournament.save(...)",
        "tournament.rounds.last().delete(...)",
        "Entry.objects.filter(tournament=tournament).update(...)",
        "Player.objects.get_or_create(...)",
        "club.organisers.add(...)",
        "tournament.entries.create(...)",
        "Seat.objects.bulk_create(...)",
        "form.save(...)",
        "super().save_model(...)",
    ]
