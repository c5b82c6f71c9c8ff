"""The statistics pages' charts (docs/statistics.md): where each dot, whisker, box and
bar goes, for the small SVG templates that draw them (templates/tournaments/
statistics_chart_*.html).

Horizontal positions are percentages of the chart's width and vertical ones pixels, so
a chart takes the width of any screen while its text keeps its size (no viewBox that
would shrink the labels on a phone). Texts come out in the reader's language and
numbers in her format; the numbers themselves are the selector's, unchanged."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.standings.selectors.statistics import ScopeStatistics
from tournaments.standings.statistics import Group, Mean, Share, Spread

register = template.Library()

# A row: its label's baseline, then the track its marks sit on (pixels from its top).
ROW = 46
LABEL_Y = 15
TRACK_Y = 31
AXIS_GAP = 6
AXIS_TEXT = 20
AXIS_HEIGHT = 30
# Horizontal bars of the letters: one per row.
BAR_ROW = 24
# The left part of the letters' chart holds the letters.
GUTTER = 9.0


def pct(x: float) -> str:
    """A horizontal position as the SVG attribute takes it (never localised)."""
    return f"{max(0.0, min(100.0, x)):.2f}%"


def number(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    text = number_format(round(value, digits), digits, use_l10n=True)
    # A minus sign, not a hyphen, as the charts' axes write it.
    return text.replace("-", "−") if text.strip("-0,.") else text.lstrip("-")


def percent(value: float | None, digits: int = 0) -> str:
    if value is None:
        return "–"
    return f"{number_format(round(value * 100, digits), digits, use_l10n=True)} %"


def signed(value: float, digits: int = 1) -> str:
    text = number_format(abs(round(value, digits)), digits, use_l10n=True)
    if round(value, digits) == 0:
        return text
    return f"+{text}" if value > 0 else f"−{text}"


def group_label(stats: ScopeStatistics, group: Group) -> str:
    """ "Pentagame · 3 players", "Pentagame · 2 vs 2"."""
    if group.teams:
        size = _("2 vs 2")
    else:
        size = ngettext("%(counter)s player", "%(counter)s players", group.seats) % {
            "counter": group.seats
        }
    return f"{stats.title(group.game)} · {size}"


def share_text(share: Share) -> str:
    if share.value is None:
        return "–"
    if share.low is None or share.high is None:
        return percent(share.value)
    # A small share (draws, unfinished games) with a decimal: "0.4 % (0.1 % – 1.2 %)".
    digits = 1 if share.high < 0.1 else 0
    return _("%(value)s (%(low)s – %(high)s)") % {
        "value": percent(share.value, digits),
        "low": percent(share.low, digits),
        "high": percent(share.high, digits),
    }


def mean_text(mean: Mean, digits: int = 2) -> str:
    if mean.value is None:
        return "–"
    if mean.low is None or mean.high is None:
        return number(mean.value, digits)
    return _("%(value)s (%(low)s – %(high)s)") % {
        "value": number(mean.value, digits),
        "low": number(mean.low, digits),
        "high": number(mean.high, digits),
    }


def nice_step(span: float, ticks: int = 4) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` steps."""
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return float(factor * power)
    return float(10 * power)


@dataclass
class Tick:
    x: str
    label: str
    anchor: str


@dataclass
class Row:
    label: str
    value: str
    top: int
    # A dot with its whisker, and a reference mark of this row alone.
    dot: str | None = None
    low: str | None = None
    high: str | None = None
    low_cap: bool = True
    high_cap: bool = True
    mark: str | None = None
    # A box: 10th to 90th percentile as a line, the quartiles as a box, the median, and
    # the book's value.
    box: str | None = None
    box_width: str | None = None
    median: str | None = None
    book: str | None = None
    # Stacked segments: (x, width, css class, title).
    segments: list[tuple[str, str, str, str]] = field(default_factory=list)
    # A horizontal bar from the gutter.
    bar_width: str | None = None

    # Vertical positions as text, so that the template neither localises them (a
    # number rendered in a template is, "1.200" in German) nor spends time doing so.
    @property
    def label_y(self) -> str:
        return str(self.top + LABEL_Y)

    @property
    def track_y(self) -> str:
        return str(self.top + TRACK_Y)

    @property
    def cap_top(self) -> str:
        return str(self.top + TRACK_Y - 6)

    @property
    def cap_bottom(self) -> str:
        return str(self.top + TRACK_Y + 6)

    @property
    def box_top(self) -> str:
        return str(self.top + TRACK_Y - 7)

    @property
    def mark_bottom(self) -> str:
        return str(self.top + TRACK_Y + 7)

    @property
    def book_top(self) -> str:
        return str(self.top + TRACK_Y - 11)

    @property
    def book_bottom(self) -> str:
        return str(self.top + TRACK_Y + 11)

    @property
    def bar_y(self) -> str:
        return str(self.top + 5)

    @property
    def bar_text_y(self) -> str:
        return str(self.top + 17)


@dataclass
class Chart:
    """One chart: its rows, its axis below them, and a reference line over all rows."""

    title: str
    rows: list[Row]
    ticks: list[Tick] = field(default_factory=list)
    reference: str | None = None
    row_height: int = ROW
    unit: str = ""
    # The id of the chart's title element (aria-labelledby).
    key: str = "chart"

    @property
    def axis_y(self) -> str:
        return str(len(self.rows) * self.row_height + AXIS_GAP)

    @property
    def tick_text_y(self) -> str:
        return str(len(self.rows) * self.row_height + AXIS_GAP + AXIS_TEXT)

    @property
    def height(self) -> str:
        return str(len(self.rows) * self.row_height + AXIS_GAP + AXIS_HEIGHT)


def _axis(lo: float, hi: float, step: float, label: Callable[[float], str]) -> list[Tick]:
    ticks = []
    count = round((hi - lo) / step)
    for i in range(count + 1):
        value = lo + i * step
        x = 100 * (value - lo) / (hi - lo)
        anchor = "start" if i == 0 else "end" if i == count else "middle"
        ticks.append(Tick(pct(x), label(value), anchor))
    return ticks


def _to_x(lo: float, hi: float) -> Callable[[float], str]:
    return lambda value: pct(100 * (value - lo) / (hi - lo))


# Rows of fewer games do not widen a score axis with their long whiskers (which are cut
# at its end instead), so that the rows that say something stay readable.
ENOUGH = 10


def _symmetric(means: Sequence[Mean]) -> float:
    """Half the width of an axis centred on 0 that holds every dot, and the intervals of
    the rows with enough games (of all rows when none has)."""
    sure = [m for m in means if m.n >= ENOUGH] or list(means)
    values = [m.value for m in means] + [v for m in sure for v in (m.low, m.high)]
    widest = max((abs(v) for v in values if v is not None), default=0.0)
    step = nice_step(max(widest, 0.25), 2)
    return step * math.ceil(max(widest, 0.25) / step)


def _dot_row(
    label: str,
    value: str,
    top: int,
    mean: Mean | Share,
    x: Callable[[float], str],
    bounds: tuple[float, float] = (0.0, 1.0),
) -> Row:
    row = Row(label, value, top)
    if mean.value is not None:
        row.dot = x(mean.value)
    if mean.low is not None and mean.high is not None:
        row.low, row.high = x(mean.low), x(mean.high)
        # A whisker cut at the axis's end has no cap there: it goes on.
        row.low_cap = mean.low >= bounds[0]
        row.high_cap = mean.high <= bounds[1]
    return row


@register.simple_tag
def first_move_charts(stats: ScopeStatistics) -> list[Chart]:
    """The first mover's win share (the mean seat's share marked in each row), and her
    dropped score against the even score."""
    rows = [r for r in stats.stats.first_move if r.games]
    if not rows:
        return []
    x = _to_x(0.0, 1.0)
    wins = Chart(
        _("The first mover's win share, with its interval (95 %)"),
        [
            _dot_row(group_label(stats, r.group), percent(r.wins.value), i * ROW, r.wins, x)
            for i, r in enumerate(rows)
        ],
        _axis(0.0, 1.0, 0.25, lambda v: percent(v)),
        key="chart-first-wins",
    )
    for row, r in zip(wins.rows, rows, strict=True):
        row.mark = None if r.fair is None else x(r.fair)
    half = _symmetric([r.above_even for r in rows])
    y = _to_x(-half, half)
    score = Chart(
        _("The first mover's score above the even score, with its interval (95 %)"),
        [
            _dot_row(
                group_label(stats, r.group),
                signed(r.above_even.value or 0.0, 2),
                i * ROW,
                r.above_even,
                y,
                (-half, half),
            )
            for i, r in enumerate(rows)
        ],
        _axis(-half, half, half / 2, lambda v: signed(v, 2 if half < 1 else 1)),
        reference=y(0.0),
        key="chart-first-score",
    )
    return [wins, score]


@register.simple_tag
def seat_order_chart(stats: ScopeStatistics) -> Chart | None:
    """After the stronger and after the weaker opponent, per game: the score above the
    even score."""
    games = stats.seat_order
    if not games:
        return None
    several = len(games) > 1
    lines: list[tuple[str, Mean]] = []
    for r in games:
        prefix = f"{stats.title(r.game)} · " if several else ""
        lines.append((prefix + _("right after the stronger opponent"), r.stronger_above_even))
        lines.append((prefix + _("right after the weaker opponent"), r.weaker_above_even))
    half = _symmetric([m for _label, m in lines])
    x = _to_x(-half, half)
    return Chart(
        _("Score above the even score at 3-player tables, with its interval (95 %)"),
        [
            _dot_row(label, signed(m.value or 0.0, 2), i * ROW, m, x, (-half, half))
            for i, (label, m) in enumerate(lines)
        ],
        _axis(-half, half, half / 2, lambda v: signed(v, 2 if half < 1 else 1)),
        reference=x(0.0),
        key="chart-seat-order",
    )


def _box_chart(
    stats: ScopeStatistics,
    title: str,
    spreads: list[tuple[Group, Spread, float | None]],
    unit: str,
    key: str,
) -> Chart | None:
    shown = [(g, s, b) for g, s, b in spreads if s.n]
    if not shown:
        return None
    top = max(max(s.p90 or 0.0 for _g, s, _b in shown), max((b or 0.0 for _g, _s, b in shown)))
    step = nice_step(top, 4)
    hi = step * max(1, math.ceil(top / step))
    x = _to_x(0.0, hi)
    rows = []
    for i, (group, s, book) in enumerate(shown):
        assert s.p10 is not None and s.q1 is not None and s.q3 is not None and s.p90 is not None
        row = Row(group_label(stats, group), f"{number(s.median, 0)} {unit}".strip(), i * ROW)
        row.low, row.high = x(s.p10), x(s.p90)
        row.box = x(s.q1)
        row.box_width = pct(100 * (s.q3 - s.q1) / hi)
        row.median = x(s.median)
        row.book = None if book is None else x(book)
        rows.append(row)
    return Chart(title, rows, _axis(0.0, hi, step, lambda v: number(v, 0)), unit=unit, key=key)


@register.simple_tag
def length_charts(stats: ScopeStatistics) -> list[Chart]:
    lengths = stats.stats.lengths
    charts = [
        _box_chart(
            stats,
            _("Plies per finished game"),
            [(r.group, r.plies, None) for r in lengths],
            "",
            "chart-plies",
        ),
        _box_chart(
            stats,
            _("Minutes per finished game, beside the book's Table 3"),
            [(r.group, r.minutes, r.book_minutes) for r in lengths],
            _("min"),
            "chart-minutes",
        ),
    ]
    return [c for c in charts if c is not None]


@register.simple_tag
def letters_chart(stats: ScopeStatistics) -> Chart | None:
    counts = stats.stats.letters.counts
    if not counts:
        return None
    most = counts[0][1]
    step = nice_step(most, 4)
    hi = step * max(1, math.ceil(most / step))
    width = 100 - GUTTER
    rows = []
    for i, (letter, count) in enumerate(counts):
        row = Row(letter, number(count, 0), i * BAR_ROW)
        row.bar_width = pct(width * count / hi)
        # The count right after its bar, or inside it at the far end.
        end = GUTTER + width * count / hi
        row.dot = pct(end + 1) if end < 92 else pct(end - 1)
        row.mark = "start" if end < 92 else "end"
        rows.append(row)
    ticks = [
        Tick(pct(GUTTER + width * v / hi), number(v, 0), "middle")
        for v in (step * k for k in range(round(hi / step) + 1))
    ]
    ticks[-1].anchor = "end"
    return Chart(
        _("Letters of the winners' first two colours out (Table 4), most frequent first"),
        rows,
        ticks,
        reference=pct(GUTTER),
        row_height=BAR_ROW,
        key="chart-letters",
    )


@register.simple_tag
def outcomes_chart(stats: ScopeStatistics) -> Chart | None:
    groups = [r for r in stats.stats.outcomes if r.games]
    if not groups:
        return None
    names = (
        ("won", "seg-won", _("won")),
        ("drawn", "seg-drawn", _("drawn")),
        ("shared", "seg-shared", _("best score shared")),
        ("unfinished", "seg-unfinished", _("unfinished")),
    )
    rows = []
    for i, r in enumerate(groups):
        row = Row(
            group_label(stats, r.group),
            ngettext("%(counter)s game", "%(counter)s games", r.games) % {"counter": r.games},
            i * ROW,
        )
        start = 0.0
        for attribute, css, text in names:
            count = getattr(r, attribute)
            if not count:
                continue
            width = 100 * count / r.games
            title = f"{text}: {number(count, 0)} ({percent(count / r.games)})"
            row.segments.append((pct(start), pct(width), css, title))
            start += width
        rows.append(row)
    return Chart(
        _("How the games ended, by table size"),
        rows,
        _axis(0.0, 1.0, 0.25, lambda v: percent(v)),
        key="chart-outcomes",
    )


@register.simple_tag
def number_of(value: float | None, digits: int = 1) -> str:
    return number(value, digits)


@register.simple_tag
def percent_of(value: float | None) -> str:
    return percent(value)


@register.simple_tag
def share_of(share: Share) -> str:
    return share_text(share)


@register.simple_tag
def mean_of(mean: Mean, digits: int = 2) -> str:
    return mean_text(mean, digits)


@register.simple_tag
def group_of(stats: ScopeStatistics, group: Group) -> str:
    return group_label(stats, group)


@register.simple_tag
def title_of(stats: ScopeStatistics, game: str) -> str:
    return stats.title(game)
