"""The wall list of a round: every seated player in alphabetical order with her table
and seat, what chess arbiters pin up beside the pairings by board so that a player finds
her table without reading every table's row (one query)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from tournaments.models import Round, Seat

# A name that starts with no letter (a digit, a quote) is listed under this heading.
OTHER = "#"


@dataclass(frozen=True)
class WallRow:
    name: str
    table: int | None  # None: the player has the bye
    seat: int


@dataclass
class WallGroup:
    """The players whose names start with one letter."""

    letter: str
    rows: list[WallRow] = field(default_factory=list)


@dataclass
class WallList:
    round: Round | None
    groups: list[WallGroup] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(len(group.rows) for group in self.groups)


def _plain(name: str) -> str:
    """The name as an alphabetical list orders it: accents set aside (Ä with A, as the
    German phone book's DIN 5007 does), case ignored."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def sort_key(name: str) -> tuple[str, str]:
    return _plain(name.strip()), name


def initial(name: str) -> str:
    first = _plain(name.strip())[:1].upper()
    return first if first.isalpha() else OTHER


def wall_list(*, round_: Round | None) -> WallList:
    """The round's players A–Z, grouped by initial; an empty list for no round."""
    if round_ is None:
        return WallList(round=None)
    rows = [
        WallRow(name=name, table=None if is_bye else number, seat=position)
        for name, number, is_bye, position in Seat.objects.filter(round=round_).values_list(
            "entry__player__name", "table__number", "table__is_bye", "position"
        )
    ]
    return WallList(round=round_, groups=grouped(sorted(rows, key=lambda r: sort_key(r.name))))


def grouped(rows: list[WallRow]) -> list[WallGroup]:
    """Rows in alphabetical order, in groups of one initial each."""
    groups: list[WallGroup] = []
    for row in rows:
        letter = initial(row.name)
        if not groups or groups[-1].letter != letter:
            groups.append(WallGroup(letter))
        groups[-1].rows.append(row)
    return groups


def page_of(wall: WallList, page: int, size: int) -> WallList:
    """One screenful of a long list: its `page`-th `size` rows (1-based), regrouped."""
    rows = [row for group in wall.groups for row in group.rows]
    return WallList(round=wall.round, groups=grouped(rows[(page - 1) * size : page * size]))


def current_round(tournament_id: int) -> Round | None:
    """The round being played: the newest published one (a closed round's players have
    no table to find; a round only paired is not public yet)."""
    return (
        Round.objects.filter(tournament_id=tournament_id, status=Round.Status.PUBLISHED)
        .order_by("-number")
        .first()
    )
