"""What the organiser's hand-made pairing risks: the pairing editor's warnings (no Django).

The engine never seats a forbidden pair, avoids rematches first, keeps the table sizes of
the policy, gives the 3-player table or the bye to the lowest score group and keeps the
scores at a table close. An organiser who moves players by hand may break any of these on
purpose (a late arrival, a family that must leave together), so the editor warns instead
of refusing, and the services ask for a reason to override (docs/pairing.md, "Editing a
pairing by hand"). ``edit_warnings`` is the one function the editor, its live check and
the API ask.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.pairing.criteria import SCORE_QUANTUM, rank_players
from tournaments.pairing.fallback import pair_round_or_fallback
from tournaments.pairing.types import Meeting, PairingError, PairingPlayer, Policy

REMATCH = "rematch"
FORBIDDEN = "forbidden"
TABLE_SIZE = "table size"
SCORE_GAP = "score gap"
# The book's rule for the 3-player table or the bye (docs/pairing.md, criterion 3), each
# against the book's own choice for the round: a higher score group than the book's, a
# player who had it before one who has not, a higher rank within the same group.
SPECIAL_GROUP = "special group"
SPECIAL_AGAIN = "special again"
SPECIAL_RANK = "special rank"
# Not a rule broken but what a move does: a player whose table-mates all left has the bye.
LEFT_ALONE = "left alone"
KINDS = (
    REMATCH,
    FORBIDDEN,
    TABLE_SIZE,
    SCORE_GAP,
    SPECIAL_GROUP,
    SPECIAL_AGAIN,
    SPECIAL_RANK,
    LEFT_ALONE,
)


@dataclass(frozen=True)
class ProposedLayout:
    """A round's tables in table order (seat order within each) and its byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    @property
    def players(self) -> list[str]:
        return [p for table in self.tables for p in table] + list(self.byes)


@dataclass(frozen=True)
class PairingWarning:
    """One thing the layout breaks. ``players`` are sorted, except for the book's rule
    for the 3-player table or the bye (SPECIAL_*): there the player who has it against
    the book's rule, then the one the book would give it to (if any), with their scores
    in ``points``. ``rounds``: the earlier rounds of a rematch, or those in which the
    first player had the 3-player table or bye; ``size`` the table size (or bye count)
    the policy does not give, or 3 (the 3-player table) or 1 (the bye) for SPECIAL_*;
    ``gap`` the score gap; ``table`` the table a player is left alone at. ``key`` says
    whether two layouts share the same warning."""

    kind: str
    players: tuple[str, ...] = ()
    rounds: tuple[int, ...] = ()
    size: int = 0
    gap: float = 0.0
    points: tuple[float, ...] = ()
    table: int = 0

    @property
    def key(self) -> tuple[str, tuple[str, ...], int]:
        # A table-size warning about the whole round (too many 3-player tables, byes)
        # is the same warning whoever sits there; per-table ones follow their players.
        return (self.kind, self.players, self.size)

    def as_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "players": list(self.players),
            "rounds": list(self.rounds),
            "size": self.size,
            "gap": self.gap,
            "points": list(self.points),
            "table": self.table,
        }


@dataclass(frozen=True)
class BookRule:
    """The book's own choice for a round's 3-player table and bye, and what its warnings
    need about each player: rank (0 leads), score group counted from the bottom (0 is the
    lowest), score, and the rounds of her earlier 3-player tables and byes. ``triple`` is
    the book's one 3-player table (None unless the policy is "pairs+triple" and the book
    seats exactly one), ``bye`` its bye (None: none)."""

    rank: Mapping[str, int]
    group: Mapping[str, int]
    score: Mapping[str, float]
    had_triple: Mapping[str, tuple[int, ...]]
    had_bye: Mapping[str, tuple[int, ...]]
    triple: tuple[str, ...] | None = None
    bye: str | None = None
    # The book's own tables for the round (each as the set of its players; empty when
    # there is no arrangement): what a round's explanations compare a layout with
    # (tournaments/pairing/explain.py).
    tables: tuple[frozenset[str], ...] = ()

    def key(
        self, seats: Iterable[str], had: Mapping[str, tuple[int, ...]]
    ) -> tuple[int, int, tuple[int, ...]]:
        """The book's order of candidates for the 3-player table or the bye (book.py,
        ``Book.special_candidates``), smaller first: the score group of its highest
        player, then how many have had it, then the lowest ranks (the lowest player's
        rank first, then the next)."""
        seats = list(seats)
        return (
            max(self.group[p] for p in seats),
            sum(1 for p in seats if had.get(p)),
            tuple(-self.rank[p] for p in sorted(seats, key=self.rank.__getitem__, reverse=True)),
        )


def book_rule(
    players: Sequence[PairingPlayer],
    *,
    met: Iterable[Meeting] = (),
    forbidden: Iterable[tuple[str, str]] = (),
    had_triple: Mapping[str, Sequence[int]] | None = None,
    had_bye: Mapping[str, Sequence[int]] | None = None,
    policy: Policy = "pairs+triple",
) -> BookRule:
    """The book's rule for the field ``players`` (everyone of the round): the engine's own
    pairing by the book's method says which 3-player table and bye the book gives (as the
    round page pairs, with the policy's alternative when forbidden pairs leave none).
    Comparing a layout's with it by ``BookRule.key`` keeps every rule the engine weighs
    first: a lower candidate than the book's own can only be had with a rematch."""
    triples = {p: tuple(sorted(r)) for p, r in (had_triple or {}).items() if r}
    byes = {p: tuple(sorted(r)) for p, r in (had_bye or {}).items() if r}
    ranked = rank_players(players)
    levels = sorted({round(p.score * SCORE_QUANTUM) for p in ranked})
    group = {p.id: levels.index(round(p.score * SCORE_QUANTUM)) for p in ranked}
    triple: tuple[str, ...] | None = None
    bye: str | None = None
    tables: tuple[frozenset[str], ...] = ()
    try:
        pairing = pair_round_or_fallback(
            players,
            met=met,
            forbidden=forbidden,
            had_triple=list(triples),
            had_bye=list(byes),
            policy=policy,
            method="book",
        )
    except PairingError:
        pairing = None
    if pairing is not None:
        bye = pairing.bye
        tables = tuple(frozenset(t.seats) for t in pairing.tables)
        sizes = [t.seats for t in pairing.tables if len(t.seats) == 3]
        if policy == "pairs+triple" and bye is None and len(sizes) == 1:
            triple = sizes[0]
    return BookRule(
        rank={p.id: i for i, p in enumerate(ranked)},
        group=group,
        score={p.id: p.score for p in ranked},
        had_triple=triples,
        had_bye=byes,
        triple=triple,
        bye=bye,
        tables=tables,
    )


def _against_the_book(
    rule: BookRule, mine: tuple[str, ...], book: tuple[str, ...], size: int
) -> PairingWarning | None:
    """Why ``mine`` (a 3-player table or a bye) is not the book's ``book``: the first
    criterion on which it comes later in the book's order, naming a player who has it
    and one the book would give it to instead. None: the book's or an earlier choice."""
    had = rule.had_triple if size == 3 else rule.had_bye
    ours, theirs = rule.key(mine, had), rule.key(book, had)
    if ours <= theirs:
        return None
    rank = rule.rank.__getitem__
    extra = sorted((p for p in mine if p not in book), key=rank)
    instead = sorted((p for p in book if p not in mine), key=rank) or sorted(book, key=rank)
    if ours[0] > theirs[0]:
        # Her score group is above every group the book's choice comes from.
        high, low = min(mine, key=rank), instead[0]
        return PairingWarning(
            SPECIAL_GROUP, (high, low), size=size, points=(rule.score[high], rule.score[low])
        )
    if ours[1] > theirs[1]:
        high = next(p for p in extra if had.get(p))
        low = next(p for p in reversed(instead) if not had.get(p))
        return PairingWarning(
            SPECIAL_AGAIN,
            (high, low),
            rounds=had[high],
            size=size,
            points=(rule.score[high], rule.score[low]),
        )
    high, low = extra[0], instead[-1]
    return PairingWarning(
        SPECIAL_RANK, (high, low), size=size, points=(rule.score[high], rule.score[low])
    )


def book_warnings(layout: ProposedLayout, rule: BookRule) -> list[PairingWarning]:
    """The layout's 3-player tables and byes that the book's rule gives to others: each
    3-player table against the book's one (when it seats exactly one), each bye against
    the book's bye; a bye where the book gives none, to a player who had one, is a second
    bye. A player the field does not know (none in the editor) is not judged."""
    known = rule.rank.keys()
    warnings: list[PairingWarning] = []
    if rule.triple is not None:
        for table in layout.tables:
            if len(table) == 3 and all(p in known for p in table):
                found = _against_the_book(rule, table, rule.triple, 3)
                if found is not None:
                    warnings.append(found)
    for p in layout.byes:
        if p not in known or p == rule.bye:
            continue
        if rule.bye is not None:
            found = _against_the_book(rule, (p,), (rule.bye,), 1)
            if found is not None:
                warnings.append(found)
        elif rule.had_bye.get(p):
            warnings.append(
                PairingWarning(
                    SPECIAL_AGAIN, (p,), rounds=rule.had_bye[p], size=1, points=(rule.score[p],)
                )
            )
    return warnings


def policy_sizes(policy: Policy, playable: Iterable[int]) -> tuple[int, ...]:
    """The table sizes a policy seats, among those the game can be played and scored at."""
    sizes = {2} if policy == "pairs+bye" else {2, 3}
    return tuple(sorted(sizes & set(playable)))


def layout_warnings(
    layout: ProposedLayout,
    *,
    met: Iterable[Meeting] = (),
    forbidden: Iterable[tuple[str, str]] = (),
    scores: Mapping[str, float] | None = None,
    policy: Policy = "pairs+triple",
    playable: Sequence[int] = (2, 3),
    gap_limit: float | None = None,
    book: BookRule | None = None,
) -> list[PairingWarning]:
    """Every warning of ``layout``, tables in order, then the round-wide ones, then the
    book's rule for the 3-player table and the bye.

    ``met`` lists earlier meetings, ``forbidden`` the pairs never to seat together,
    ``scores`` the players' scores so far, ``gap_limit`` the largest score gap at a table
    that raises no warning (None: none checked), ``book`` the book's rule for the round
    (None: not paired by the book's rule, not checked).
    """
    rounds: dict[frozenset[str], set[int]] = {}
    for m in met:
        rounds.setdefault(frozenset((m.a, m.b)), set()).add(m.round)
    banned = {frozenset(pair) for pair in forbidden if pair[0] != pair[1]}
    scores = scores or {}
    sizes = policy_sizes(policy, playable)
    warnings: list[PairingWarning] = []
    for table in layout.tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                pair = frozenset((a, b))
                players = tuple(sorted((a, b)))
                if pair in rounds:
                    warnings.append(
                        PairingWarning(REMATCH, players, rounds=tuple(sorted(rounds[pair])))
                    )
                if pair in banned:
                    warnings.append(PairingWarning(FORBIDDEN, players))
                if gap_limit is not None and a in scores and b in scores:
                    gap = abs(scores[a] - scores[b])
                    if gap > gap_limit:
                        warnings.append(PairingWarning(SCORE_GAP, players, gap=gap))
        if len(table) not in sizes:
            warnings.append(PairingWarning(TABLE_SIZE, tuple(sorted(table)), size=len(table)))
    triples = sum(1 for table in layout.tables if len(table) == 3)
    if policy == "pairs+triple" and triples > 1:
        # "one 3-player table when odd": the engine seats more only to avoid a rematch.
        warnings.append(PairingWarning(TABLE_SIZE, size=3))
    byes = len(layout.byes)
    if byes and (policy != "pairs+bye" or byes > 1):
        # Only "pairs+bye" gives a bye, and one: the odd player out.
        warnings.append(PairingWarning(TABLE_SIZE, tuple(sorted(layout.byes)), size=1))
    if book is not None:
        warnings.extend(book_warnings(layout, book))
    return warnings


def new_warnings(
    before: Sequence[PairingWarning], after: Sequence[PairingWarning]
) -> list[PairingWarning]:
    """The warnings of ``after`` that ``before`` did not have: what an edit creates (a
    rematch the engine had to accept stays without asking again)."""
    known = {w.key for w in before}
    return [w for w in after if w.key not in known]


@dataclass(frozen=True)
class RoundRules:
    """What a round's layouts are checked against (``layout_warnings``'s arguments)."""

    met: Sequence[Meeting] = ()
    forbidden: Sequence[tuple[str, str]] = ()
    scores: Mapping[str, float] = field(default_factory=dict)
    policy: Policy = "pairs+triple"
    playable: Sequence[int] = (2, 3)
    gap_limit: float | None = None
    book: BookRule | None = None

    def warnings(self, layout: ProposedLayout) -> list[PairingWarning]:
        return layout_warnings(
            layout,
            met=self.met,
            forbidden=self.forbidden,
            scores=self.scores,
            policy=self.policy,
            playable=self.playable,
            gap_limit=self.gap_limit,
            book=self.book,
        )


@dataclass(frozen=True)
class EditWarnings:
    """An edit's warnings: the layout's before and after, and those the edit creates
    (what it leaves a player alone with first, then the new warnings of the layout)."""

    current: list[PairingWarning]
    after: list[PairingWarning]
    created: list[PairingWarning]


def left_alone(
    before: ProposedLayout, after: ProposedLayout, moved: Collection[str]
) -> list[PairingWarning]:
    """Players the edit leaves alone: at a table before (numbered in the layout's order,
    byes last, as the round numbers them), not moved, and with the bye after it because
    her table-mates all went (services/pairing_edit.py gives a one-player table the bye)."""
    byes = set(after.byes)
    return [
        PairingWarning(LEFT_ALONE, (p,), table=number)
        for number, table in enumerate(before.tables, start=1)
        for p in table
        if p in byes and p not in moved
    ]


def edit_warnings(
    before: ProposedLayout,
    after: ProposedLayout,
    rules: RoundRules,
    moved: Collection[str] = (),
) -> EditWarnings:
    """The one function behind the editor's warnings (page, live check, save, API): the
    warnings of the round before and after an edit, and those the edit creates. ``moved``
    are the players the organiser moved herself (the others only follow)."""
    current, later = rules.warnings(before), rules.warnings(after)
    created = left_alone(before, after, moved) + new_warnings(current, later)
    return EditWarnings(current=current, after=later, created=created)


def places(layout: ProposedLayout) -> dict[str, frozenset[str] | None]:
    """Each player's table as the set of its players; None for the bye."""
    out: dict[str, frozenset[str] | None] = {}
    for table in layout.tables:
        seated = frozenset(table)
        for p in table:
            out[p] = seated
    for p in layout.byes:
        out[p] = None
    return out


def changed_players(proposed: ProposedLayout, layout: ProposedLayout) -> list[str]:
    """The players of ``layout`` whose place differs from the pairing as proposed: other
    table-mates, or the bye for a table or back (seat order and table numbers aside,
    which every edit sets afresh). A player the proposal does not have is not judged."""
    before, now = places(proposed), places(layout)
    return [p for p in layout.players if p in before and before[p] != now[p]]
