"""`{% load organiser_rows %}`: the organiser's rows (results/rows.py), which the views
also render directly; the library lives there so views import no template tags."""

from tournaments.results.rows import register

__all__ = ["register"]
