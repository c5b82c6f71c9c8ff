"""Why each table of a round is as it is (issue 46, part 2; docs/pairing.md,
"Explanations"), no Django.

The book's recipe (section 21): "Rank players per score. Working top-down, pair each
player with the next player down the list against whom she has not yet played." An
explanation says, per table: the score groups of its players; who sits with a player of
a higher score group, and why her group had no one left for that player (met before,
never seated together, or already taken by a player ranked higher); why it is the
3-player table or who has the bye and why; and every warning the pairing editor's check
gives for the round (``RoundRules.warnings``, the same function the editor, its live
check and the API ask: tournaments/pairing/warnings.py). An explanation names a rule as
kept only where that check finds nothing against it; what the check does see is told as
the check's own warning.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.criteria import SCORE_QUANTUM, rank_players
from tournaments.pairing.types import PairingPlayer
from tournaments.pairing.warnings import (
    SPECIAL_AGAIN,
    SPECIAL_GROUP,
    SPECIAL_RANK,
    TABLE_SIZE,
    PairingWarning,
    ProposedLayout,
    RoundRules,
)

# Why a player of the higher player's score group is not at her table.
ABOVE = "above"  # she sits with a player ranked higher, who took her first (top-down)
MET = "met"  # she met the higher player before ("...against whom she has not yet played")
NEVER = "forbidden"  # the organiser never seats the two together
BYE = "bye"  # she has the bye
# The book's own search seated her elsewhere: the layout is the book's own pairing
# (book_rule), so seating her with the higher player would break an earlier criterion
# of the book's rule further down (no rematch while any arrangement avoids one, the
# layout of the policy, the 3-player table or bye where the book gives it).
SEARCH = "search"
FREE = "free"  # none of these: the organiser (or another method) seated her elsewhere
# Why a table seats three, or a player has the bye.
BOOK = "book"  # the book's own choice for the round (warnings.book_rule)
POLICY = "policy"  # "prefer-triples" seats as many 3-player tables as it can
ODD = "odd"  # an odd field under a method other than the book's: the one odd table or bye
UNEXPLAINED = ""  # none of these: its warnings say what it breaks

_SPECIAL_KINDS = (SPECIAL_GROUP, SPECIAL_AGAIN, SPECIAL_RANK)


@dataclass(frozen=True)
class Seated:
    """A player at a table as the explanation sees her: her score before the round, her
    rank (1 leads: score, then seed) and her score group (1: the top one)."""

    id: str
    score: float
    rank: int
    group: int

    def as_json(self) -> dict[str, object]:
        return {"player": self.id, "score": self.score, "rank": self.rank, "group": self.group}


@dataclass(frozen=True)
class Block:
    """A player of the higher player's score group, ranked below her and not at her
    table, and why (ABOVE with ``partner``, the player ranked higher she sits with; MET
    with the ``rounds``; NEVER; BYE; SEARCH or FREE with her ``table``)."""

    player: str
    why: str
    rounds: tuple[int, ...] = ()
    partner: str = ""
    table: int = 0

    def as_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "why": self.why,
            "rounds": list(self.rounds),
            "partner": self.partner or None,
            "table": self.table or None,
        }


@dataclass(frozen=True)
class Move:
    """``player``, of a lower score group, sits with ``to``, the table's highest-ranked
    player, ``gap`` points above her. ``blocked``: the players of ``to``'s group ranked
    below ``to``, each with why she is not ``to``'s opponent."""

    player: str
    to: str
    gap: float
    blocked: tuple[Block, ...]

    @property
    def exhausted(self) -> bool:
        """No one was left in ``to``'s group whom she could play: each of them met her,
        may never sit with her, has the bye or was taken by a player ranked higher."""
        return all(b.why not in (FREE, SEARCH) for b in self.blocked)

    def as_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "to": self.to,
            "gap": self.gap,
            "group_exhausted": self.exhausted,
            "blocked": [b.as_json() for b in self.blocked],
        }


@dataclass(frozen=True)
class Special:
    """Why a table seats three (``size`` 3) or a player has the bye (``size`` 1): BOOK,
    POLICY, ODD or UNEXPLAINED. ``had``: its players who had one before, with the rounds;
    ``field``: the number of players in the round."""

    size: int
    why: str
    had: tuple[tuple[str, tuple[int, ...]], ...]
    field: int

    def as_json(self) -> dict[str, object]:
        return {
            "size": self.size,
            "why": self.why or None,
            "had_before": {p: list(r) for p, r in self.had},
            "field": self.field,
        }


@dataclass(frozen=True)
class TableExplanation:
    """One table (numbered as the round numbers them: 1, 2, ..., the byes last)."""

    number: int
    bye: bool
    players: tuple[Seated, ...]  # in rank order
    moves: tuple[Move, ...]
    special: Special | None
    fresh: bool  # no two of its players met before
    warnings: tuple[PairingWarning, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "table": self.number,
            "bye": self.bye,
            "players": [p.as_json() for p in self.players],
            "moved": [m.as_json() for m in self.moves],
            "special": None if self.special is None else self.special.as_json(),
            "no_rematch": self.fresh,
            "warnings": [w.as_json() for w in self.warnings],
        }


@dataclass(frozen=True)
class RoundExplanation:
    """The round's score groups (each: its score and how many players it holds, the top
    first), its tables' explanations, and every warning of the check, in its order."""

    groups: tuple[tuple[float, int], ...]
    tables: tuple[TableExplanation, ...]
    warnings: tuple[PairingWarning, ...]

    def table(self, number: int) -> TableExplanation | None:
        return next((t for t in self.tables if t.number == number), None)

    def as_json(self) -> dict[str, object]:
        return {
            "groups": [{"score": s, "players": n} for s, n in self.groups],
            "tables": [t.as_json() for t in self.tables],
        }


def _where(layout: ProposedLayout) -> dict[str, int]:
    where: dict[str, int] = {}
    for number, table in enumerate(layout.tables, start=1):
        for p in table:
            where[p] = number
    for i, p in enumerate(layout.byes, start=len(layout.tables) + 1):
        where[p] = i
    return where


def warning_tables(
    warning: PairingWarning, layout: ProposedLayout, where: Mapping[str, int]
) -> set[int]:
    """The tables a warning of the check belongs to: a player's 3-player table or bye
    against the book's rule to hers (the first player named); a round-wide "more than
    one 3-player table" to each 3-player table; any other to the tables of its players."""
    if warning.kind in _SPECIAL_KINDS:
        return {where[warning.players[0]]} if warning.players[0] in where else set()
    if warning.kind == TABLE_SIZE and not warning.players:
        return {n for n, t in enumerate(layout.tables, start=1) if len(t) == warning.size}
    return {where[p] for p in warning.players if p in where}


def explain_round(
    layout: ProposedLayout,
    field: Sequence[PairingPlayer],
    rules: RoundRules,
    *,
    had_triple: Mapping[str, Iterable[int]] | None = None,
    had_bye: Mapping[str, Iterable[int]] | None = None,
) -> RoundExplanation:
    """Explain ``layout`` (the round's tables and byes) for ``field`` (everyone of the
    round, with the scores and seeds it was paired by) under ``rules`` (what the editor's
    check weighs; ``rules.book`` set for a Swiss paired by the book's rule).
    ``had_triple``/``had_bye``: the earlier rounds of each player's 3-player tables and
    byes."""
    ranked = rank_players(field)
    rank = {p.id: i for i, p in enumerate(ranked, start=1)}
    score = {p.id: p.score for p in ranked}
    levels = sorted({round(p.score * SCORE_QUANTUM) for p in ranked}, reverse=True)
    level_group = {level: i for i, level in enumerate(levels, start=1)}
    group = {p.id: level_group[round(p.score * SCORE_QUANTUM)] for p in ranked}
    members: dict[int, list[PairingPlayer]] = {}  # each group's players, in rank order
    for p in ranked:
        members.setdefault(group[p.id], []).append(p)
    sizes = {g: len(ps) for g, ps in members.items()}
    groups = tuple((levels[g - 1] / SCORE_QUANTUM, sizes[g]) for g in sorted(sizes))
    warnings = tuple(rules.warnings(layout))
    where = _where(layout)
    met: dict[frozenset[str], set[int]] = {}
    for m in rules.met:
        met.setdefault(frozenset((m.a, m.b)), set()).add(m.round)
    banned = {frozenset(pair) for pair in rules.forbidden}
    tables = [*layout.tables, *((p,) for p in layout.byes)]
    tops = {n: min(t, key=lambda p: rank.get(p, len(rank) + 1)) for n, t in enumerate(tables, 1)}
    triples = {n for n, t in enumerate(layout.tables, start=1) if len(t) == 3}
    triple_rounds = {p: tuple(sorted(r)) for p, r in (had_triple or {}).items() if r}
    bye_rounds = {p: tuple(sorted(r)) for p, r in (had_bye or {}).items() if r}
    # The round is the book's own pairing (table for table, the bye alike).
    book = rules.book
    book_layout = (
        book is not None
        and bool(book.tables)
        and set(book.tables) == {frozenset(t) for t in layout.tables}
        and tuple(layout.byes) == (() if book.bye is None else (book.bye,))
    )
    attached: dict[int, list[PairingWarning]] = {}
    for w in warnings:
        for n in sorted(warning_tables(w, layout, where)):
            attached.setdefault(n, []).append(w)
    out: list[TableExplanation] = []
    for number, table in enumerate(tables, start=1):
        is_bye = number > len(layout.tables)
        known = [p for p in table if p in rank]
        seated = tuple(
            Seated(p, score[p], rank[p], group[p]) for p in sorted(known, key=rank.__getitem__)
        )
        moves: list[Move] = []
        if seated and not is_bye:
            top = seated[0]
            for s in seated[1:]:
                if s.group == top.group:
                    continue
                moves.append(
                    Move(
                        s.id,
                        top.id,
                        top.score - s.score,
                        _blocked(
                            top,
                            table,
                            members[top.group],
                            rank,
                            where,
                            tops,
                            met,
                            banned,
                            len(layout.tables),
                            book_layout,
                        ),
                    )
                )
        fresh = not any(
            frozenset((a, b)) in met for i, a in enumerate(table) for b in table[i + 1 :]
        )
        special: Special | None = None
        if is_bye or len(table) == 3:
            special = _special(
                table,
                is_bye,
                layout,
                rules,
                len(field),
                len(triples),
                bye_rounds if is_bye else triple_rounds,
            )
        out.append(
            TableExplanation(
                number=number,
                bye=is_bye,
                players=seated,
                moves=tuple(moves),
                special=special,
                fresh=fresh,
                warnings=tuple(attached.get(number, ())),
            )
        )
    return RoundExplanation(groups=groups, tables=tuple(out), warnings=warnings)


def _blocked(
    top: Seated,
    table: tuple[str, ...],
    mates: Sequence[PairingPlayer],
    rank: Mapping[str, int],
    where: Mapping[str, int],
    tops: Mapping[int, str],
    met: Mapping[frozenset[str], set[int]],
    banned: set[frozenset[str]],
    tables: int,
    book_layout: bool,
) -> tuple[Block, ...]:
    """Why each player of ``top``'s score group (``mates``, in rank order) ranked below
    her sits elsewhere (``tables``: how many tables the round has before its byes)."""
    blocks: list[Block] = []
    for p in mates:
        q = p.id
        if rank[q] <= top.rank or q in table or q not in where:
            continue
        pair = frozenset((q, top.id))
        there = where[q]
        partner = tops[there]
        if pair in met:
            blocks.append(Block(q, MET, rounds=tuple(sorted(met[pair]))))
        elif pair in banned:
            blocks.append(Block(q, NEVER))
        elif there > tables:
            blocks.append(Block(q, BYE, table=there))
        elif partner != q and rank.get(partner, 0) < top.rank:
            blocks.append(Block(q, ABOVE, partner=partner, table=there))
        elif book_layout:
            blocks.append(Block(q, SEARCH, table=there))
        else:
            blocks.append(Block(q, FREE, table=there))
    return tuple(blocks)


def _special(
    table: tuple[str, ...],
    is_bye: bool,
    layout: ProposedLayout,
    rules: RoundRules,
    field: int,
    triples: int,
    had: Mapping[str, tuple[int, ...]],
) -> Special:
    """Why a 3-player table or a bye: the book's own choice (only where the book gives
    exactly this one; warnings.book_rule), the policy's, or the one odd table or bye of an
    odd field under another method; else UNEXPLAINED, and its warnings say why."""
    book = rules.book
    why = UNEXPLAINED
    if is_bye:
        if book is not None and book.bye is not None and table[0] == book.bye:
            why = BOOK
        elif book is None and rules.policy == "pairs+bye" and len(layout.byes) == 1 and field % 2:
            why = ODD
    elif book is not None and book.triple is not None and set(table) == set(book.triple):
        why = BOOK
    elif rules.policy == "prefer-triples":
        why = POLICY
    elif book is None and rules.policy == "pairs+triple" and triples == 1 and field % 2:
        why = ODD
    return Special(
        size=1 if is_bye else 3,
        why=why,
        had=tuple((p, had[p]) for p in table if had.get(p)),
        field=field,
    )
