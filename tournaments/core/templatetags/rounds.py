"""A round's name on every page: round 1 of a Swiss with a pre-round is "the pre-round"
(section 21: a Swiss may start "with some prior ranking, ... or a pre-round"), so the
wall list, the projectors and the sheets say so; one place for the rule."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

register = template.Library()


def is_pre_round(tournament: Any, number: int) -> bool:
    return number == 1 and bool(getattr(tournament, "pre_round", ""))


@register.simple_tag
def round_name(tournament: Any, number: int) -> str:
    """The round's name: "Pre-round" or "Round 3" (the templates' "Round N" message)."""
    if is_pre_round(tournament, number):
        return _("Pre-round")
    return _("Round %(number)s") % {"number": number}
