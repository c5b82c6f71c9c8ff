"""Swiss pairing with mixed 2- and 3-player tables (issue 4, section 4).

Two methods, both avoiding rematches first, at every field size and over every layout the
policy allows (how many 3-player tables, or a bye):

* "book" (default, book.py): the book's method (section 21): "Rank players per score.
  Working top-down, pair each player with the next player down the list against whom
  she has not yet played", backtracking only as far as needed;
* "closest": the scores at each table as close as possible (criteria.py). Small fields
  (up to ``EXACT_LIMIT`` players) are searched exhaustively over every layout; bigger
  fields give the 3-player table or bye to the lowest-ranked eligible players that leave
  a rematch-free remainder and pair the remainder by weighted matching (matching.py);
  "prefer-triples" builds 3-player tables top-down and searches the bottom exhaustively.
  When the preferred layout then needs a rematch, the book's search looks for another
  layout without one, and the 2-player tables are paired again by closest scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from tournaments.pairing.book import Book, book_arrangement, book_in_layout
from tournaments.pairing.criteria import Encoder, Field, build_field, rank_players
from tournaments.pairing.exact import Arrangement, solve_exact
from tournaments.pairing.first_move import seat_order
from tournaments.pairing.layout import Layout, layouts
from tournaments.pairing.types import (
    METHODS,
    TYPE_CHECKING,
    Meeting,
    Pairing,
    PairingError,
    PairingPlayer,
    Table,
)

if TYPE_CHECKING:
    from tournaments.pairing.types import Method, Policy

EXACT_LIMIT = 12
# How many of the lowest-ranked eligible players are tried for the 3-player table or bye.
SPECIAL_CANDIDATES = 12
# How many candidate tables/byes are paired out before settling for a rematch.
SPECIAL_TRIES = 6
# How far down a top-down 3-player table looks for table-mates.
TRIPLE_REACH = 40


def pair_players(
    field: Field, members: Sequence[int], window: int | None = None
) -> list[tuple[int, int]]:
    """matching.py's, imported on first use: a book's round reaches it only when every
    arrangement of a big field has a rematch (issue 44: the command imports what it
    uses)."""
    from tournaments.pairing.matching import pair_players

    return pair_players(field, members, window)


def normalise_met(met: Iterable[Meeting | Sequence[str]]) -> list[Meeting]:
    """Accept ``Meeting`` records or bare ``(a, b)`` pairs; bare pairs count as listed
    oldest first, so their position in the list is their age."""
    out: list[Meeting] = []
    for i, m in enumerate(met):
        if isinstance(m, Meeting):
            out.append(m)
        else:
            a, b = m[0], m[1]
            out.append(Meeting(str(a), str(b), i + 1))
    return out


def pair_round(
    players: Sequence[PairingPlayer],
    met: Iterable[Meeting | Sequence[str]] = (),
    forbidden: Iterable[tuple[str, str]] = (),
    had_triple: Iterable[str] = (),
    had_bye: Iterable[str] = (),
    policy: Policy = "pairs+triple",
    window: int | None = None,
    method: Method = "book",
) -> Pairing:
    """Pair one round (turn). Withdrawn players (``active=False``) are left out.

    ``met`` lists earlier meetings (two players at one table), ``forbidden`` pairs never
    share a table, ``had_triple``/``had_bye`` name who already had the 3-player table or
    the bye, ``method`` is "book" or "closest" (see the module). Raises PairingError when
    no valid pairing exists.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}")
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("player ids must be unique")
    ranked = rank_players(p for p in players if p.active)
    special_ids = had_bye if policy == "pairs+bye" else had_triple
    field = build_field(
        ranked, normalise_met(met), [(str(a), str(b)) for a, b in forbidden], special_ids
    )
    n = field.size
    options = layouts(policy, n)
    if not options or (n == 1 and not options[0].bye):
        raise PairingError(f"{n} player(s) cannot be seated under policy {policy!r}")
    special_triples = policy == "pairs+triple"

    def closest() -> Arrangement:
        if n <= EXACT_LIMIT:
            return _exact_over_layouts(field, options, special_triples)
        return _large_over_layouts(field, options, policy, window)

    if method == "closest":
        return _publish(field, closest())
    found = book_arrangement(field, options, policy, closest)
    if found is None:
        raise PairingError("forbidden pairs leave no valid arrangement")
    return _publish(field, found)


def _exact_over_layouts(field: Field, options: list[Layout], special_triples: bool) -> Arrangement:
    """Layouts are tried in the policy's order; a later one wins only with fewer or older
    rematches, since rematches outrank table sizes."""
    members = list(range(field.size))
    encoder = Encoder.for_members(field, members)
    base = encoder.high_base
    best: Arrangement | None = None
    for layout in options:
        bound = None if best is None else (best.cost // base) * base
        found = solve_exact(field, members, layout, encoder, special_triples, bound)
        if found is not None and (best is None or found.cost // base < best.cost // base):
            best = found
        if best is not None and best.cost // base == 0:
            break
    if best is None:
        raise PairingError("forbidden pairs leave no valid arrangement")
    return best


def _rematches(field: Field, arrangement: Arrangement) -> int:
    return sum(1 for t in arrangement.tables for a, b in combinations(t, 2) if field.met(a, b))


def _large_over_layouts(
    field: Field, options: list[Layout], policy: Policy, window: int | None
) -> Arrangement:
    """The preferred layout by closest scores; if it needs a rematch, the first other
    layout the book's search seats without one, its 2-player tables paired again by
    closest scores (issue "The book's tournament, exactly", item 3)."""
    first = _large(field, options[0], policy, window)
    if _rematches(field, first) == 0:
        return first
    book = Book(field)
    for layout in options[1:]:
        tables = book_in_layout(book, layout, policy, 0)
        if tables is None:
            continue
        kept = tuple(t for t in tables if len(t) == 3)
        rest = [a for t in tables if len(t) == 2 for a in t]
        pairs = pair_players(field, rest, window)
        again = Arrangement(0, tuple(pairs) + kept, None)
        if _rematches(field, again) == 0:
            return again
        return Arrangement(0, tuple(t for t in tables if len(t) > 1), None)
    return first


def _large(field: Field, layout: Layout, policy: Policy, window: int | None) -> Arrangement:
    if policy == "prefer-triples" and layout.triples > 0:
        return _triples_top_down(field, layout)
    members = list(range(field.size))
    if not layout.bye and layout.triples == 0:
        return _arrangement(field, pair_players(field, members, window), None, ())
    encoder = Encoder.for_members(field, members)
    size = 1 if layout.bye else 3
    best: tuple[int, Arrangement] | None = None
    for tries, special in enumerate(_special_candidates(field, encoder, size)):
        rest = [a for a in members if a not in special]
        try:
            pairs = pair_players(field, rest, window)
        except PairingError:
            continue
        if size == 1:
            found = _arrangement(field, pairs, special[0], ())
        else:
            found = _arrangement(field, pairs, None, (special,))
        rematches = sum(1 for t in found.tables for a, b in combinations(t, 2) if field.met(a, b))
        if best is None or rematches < best[0]:
            best = (rematches, found)
        if rematches == 0 or tries + 1 >= SPECIAL_TRIES:
            break
    if best is None:
        raise PairingError("forbidden pairs leave no valid arrangement")
    return best[1]


def _special_candidates(field: Field, encoder: Encoder, size: int) -> list[tuple[int, ...]]:
    """Byes or 3-player tables for the lowest-ranked who have not had one, best first:
    rematch-free and allowed tables before the rest, then by the packed criteria."""
    n = field.size
    fresh = [a for a in range(n - 1, -1, -1) if not field.had_special[a]]
    used = [a for a in range(n - 1, -1, -1) if field.had_special[a]]
    pool = (fresh + used)[: max(SPECIAL_CANDIDATES, size)]
    scored: list[tuple[int, int, tuple[int, ...]]] = []
    for combo in combinations(sorted(pool), size):
        if any(not field.allowed(a, b) for a, b in combinations(combo, 2)):
            continue
        rem = sum(1 for a, b in combinations(combo, 2) if field.met(a, b))
        cost = encoder.table(field, combo, True) if size > 1 else encoder.special(field, combo[0])
        scored.append((rem, cost, combo))
    scored.sort()
    return [combo for _, _, combo in scored]


def _triples_top_down(field: Field, layout: Layout) -> Arrangement:
    """Policy "prefer-triples" on a big field: the top unseated player takes the next two
    down she has not met (who have not met each other either); 2-player tables go to the
    bottom; the last ``EXACT_LIMIT`` players are searched exhaustively."""
    free = list(range(field.size))
    tables: list[tuple[int, ...]] = []
    triples = layout.triples
    while triples > 0 and len(free) > EXACT_LIMIT:
        p = free[0]
        reach = free[1 : 1 + TRIPLE_REACH]
        chosen: tuple[int, int] | None = None
        fallback: tuple[int, int] | None = None
        for i, q in enumerate(reach):
            if not field.allowed(p, q):
                continue
            for r in reach[i + 1 :]:
                if not (field.allowed(p, r) and field.allowed(q, r)):
                    continue
                if fallback is None:
                    fallback = (q, r)
                if not (field.met(p, q) or field.met(p, r) or field.met(q, r)):
                    chosen = (q, r)
                    break
            if chosen:
                break
        pick = chosen or fallback
        if pick is None:
            break
        tables.append((p, *pick))
        free = [a for a in free if a not in (p, *pick)]
        triples -= 1
    tail_layout = Layout((len(free) - 3 * triples) // 2, triples, False)
    encoder = Encoder.for_members(field, free)
    tail = (
        solve_exact(field, free, tail_layout, encoder, False) if len(free) <= EXACT_LIMIT else None
    )
    if tail is None:
        pairs = pair_players(field, free) if triples == 0 else None
        if pairs is None:
            raise PairingError("forbidden pairs leave no valid arrangement")
        return _arrangement(field, pairs, None, tuple(tables))
    return Arrangement(0, tuple(tables) + tail.tables, None)


def _arrangement(
    field: Field,
    pairs: Sequence[tuple[int, int]],
    bye: int | None,
    triples: Sequence[tuple[int, ...]],
) -> Arrangement:
    return Arrangement(0, tuple(pairs) + tuple(triples), bye)


def _publish(field: Field, arrangement: Arrangement) -> Pairing:
    tables = sorted((tuple(sorted(t)) for t in arrangement.tables), key=lambda t: t[0])
    rematches = sum(1 for t in tables for a, b in combinations(t, 2) if field.met(a, b))
    return Pairing(
        tables=tuple(Table(seat_order([field.players[s] for s in t])) for t in tables),
        bye=None if arrangement.bye is None else field.players[arrangement.bye].id,
        rematches=rematches,
    )
