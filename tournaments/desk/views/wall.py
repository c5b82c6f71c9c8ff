"""The wall list: a round's players in alphabetical order with their table and seat,
to pin up beside the pairing sheet (a printable page, in columns on paper) and to show
on the projector (a page of its own, in large type, that follows the round being
played). Public like the round page: a round only paired is for its directors."""

from __future__ import annotations

import math

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.core.permissions import can_direct
from tournaments.core.web import round_or_404, viewable_tournament
from tournaments.desk.selectors.wall import current_round, page_of, wall_list
from tournaments.models import Round

# The projector shows at most COLUMNS columns of ROWS_PER_COLUMN players a screen (the
# type as large as the rows of a column allow, agon/wall.css); a larger field is shown a
# screenful at a time, each for PAGE_SECONDS.
ROWS_PER_COLUMN = 16
COLUMNS = 4
# The type's sizes by the rows a column has at most (wall-rows-N in agon/wall.css).
ROW_SIZES = (6, 9, 12, ROWS_PER_COLUMN)
PAGE_SIZE = ROWS_PER_COLUMN * COLUMNS
PAGE_SECONDS = 20
# With one screenful, the page asks for itself again this often, to follow the rounds.
REFRESH_SECONDS = 30


@require_GET
def round_wall(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The printable wall list of one round."""
    tournament = viewable_tournament(request, slug)
    round_ = round_or_404(tournament, number)
    director = can_direct(request.user, tournament)
    if round_.status == Round.Status.PAIRED and not director:
        raise Http404(_("this round is not published yet"))
    return render(
        request,
        "tournaments/wall.html",
        {
            "tournament": tournament,
            "round": round_,
            "wall": wall_list(round_=round_),
            "can_direct": director,
        },
    )


@require_GET
def wall_projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The wall list of the round being played, for the projector, without a script: it
    asks for itself again (a field larger than a screen shows its next screenful), so a
    newly published round appears on its own."""
    tournament = viewable_tournament(request, slug)
    wall = wall_list(round_=current_round(tournament.pk))
    pages = max(1, math.ceil(wall.count / PAGE_SIZE))
    raw = request.GET.get("page", "")
    page = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 5 else 1
    page = page if 1 <= page <= pages else 1
    shown = page_of(wall, page, PAGE_SIZE) if pages > 1 else wall
    columns = min(COLUMNS, max(1, math.ceil(shown.count / ROWS_PER_COLUMN)))
    rows = math.ceil(shown.count / columns) if shown.count else 0
    # The next screenful, or this page again.
    next_page = f"{PAGE_SECONDS}; url=?page={page % pages + 1}"
    refresh = next_page if pages > 1 else str(REFRESH_SECONDS)
    return render(
        request,
        "tournaments/wall_projector.html",
        {
            "tournament": tournament,
            "round": wall.round,
            "wall": shown,
            "columns": columns,
            # The type is as large as the screen's height allows this many rows.
            "rows": next(size for size in ROW_SIZES if rows <= size),
            "page": page,
            "pages": pages,
            "refresh": refresh,
        },
    )
