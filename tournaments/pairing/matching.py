"""2-player tables by maximum-weight matching.

Every allowed pair is an edge whose weight is a constant minus its packed cost (see
criteria.py), so a maximum-cardinality, maximum-weight matching is a perfect pairing with
the least cost in strict criterion priority. Forbidden pairs have no edge.

A dense blossom on a whole big field is slow (about 7 s for 1,000 players in pure
Python), and nearly all of its edges are useless: in a Swiss round, players are paired
close to their rank. So big fields are paired through a window that slides top-down, as
the book pairs "top-down": solve the top ``window`` unpaired players exactly, keep the
pairs within the upper half, move on. The bottom is solved with a larger tail when it
cannot otherwise avoid a rematch or a forbidden pair.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.criteria import Encoder, Field
from tournaments.pairing.types import PairingError

DEFAULT_WINDOW = 24
DENSE_LIMIT = 40


def _dense(field: Field, members: Sequence[int]) -> tuple[list[tuple[int, int]], int]:
    """Optimal pairs among ``members`` (maximum cardinality first) and their packed cost."""
    encoder = Encoder.for_members(field, members)
    adjacent = [(members[i], members[i + 1]) for i in range(0, len(members) - 1, 2)]
    if len(members) % 2 == 0 and all(
        field.allowed(a, b) and not field.met(a, b) for a, b in adjacent
    ):
        # The book's own pairing: each with the next one down. With scores sorted, it
        # minimises both the score gaps (a convex cost on a line) and the rank gaps, so
        # when it has no rematch it is optimal without running the matching.
        return adjacent, sum(encoder.pair(field, a, b) for a, b in adjacent)
    costs: list[tuple[int, int, int]] = []
    for x, a in enumerate(members):
        for b in members[x + 1 :]:
            if field.allowed(a, b):
                costs.append((a, b, encoder.pair(field, a, b)))
    if not costs:
        return [], 0
    ceiling = max(c for _, _, c in costs) + 1
    # Imported here, not at the top: networkx takes about 0.5 s to import, 90 % of a
    # pairing command's run, and most pairings never reach this line.
    import networkx as nx  # type: ignore[import-untyped]  # no stubs among the dependencies

    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(members)
    graph.add_weighted_edges_from((a, b, ceiling - c) for a, b, c in costs)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted((min(a, b), max(a, b)) for a, b in matched)
    return pairs, sum(encoder.pair(field, a, b) for a, b in pairs)


def _rematches(field: Field, pairs: Sequence[tuple[int, int]]) -> int:
    return sum(1 for a, b in pairs if field.met(a, b))


def pair_players(
    field: Field,
    members: Sequence[int],
    window: int | None = None,
) -> list[tuple[int, int]]:
    """Pair an even number of ``members`` (rank indexes). ``window=None`` picks dense
    matching for small groups and the sliding window above ``DENSE_LIMIT``; ``window=0``
    forces dense. Raises PairingError when forbidden pairs leave no perfect pairing."""
    members = sorted(members)
    if len(members) % 2:
        raise ValueError("pair_players needs an even number of players")
    if window is None:
        window = 0 if len(members) <= DENSE_LIMIT else DEFAULT_WINDOW
    if window == 0 or len(members) <= 2 * window:
        pairs, _ = _dense(field, members)
        if 2 * len(pairs) != len(members):
            raise PairingError("forbidden pairs leave a player without an opponent")
        return pairs
    return _windowed(field, members, window)


def _windowed(field: Field, members: list[int], window: int) -> list[tuple[int, int]]:
    committed: list[tuple[int, int]] = []
    pending = list(members)
    width = window
    while len(pending) > 2 * window:
        top = pending[:width]
        pairs, _ = _dense(field, top)
        position = {a: i for i, a in enumerate(top)}
        keep = [p for p in pairs if position[p[1]] < width // 2]
        if not keep:
            first = [p for p in pairs if p[0] == top[0]]
            if not first:
                # Forbidden pairs cut the top player off inside this window: look further.
                width = min(2 * width, len(pending))
                continue
            keep = first
        committed.extend(keep)
        done = {a for p in keep for a in p}
        pending = [a for a in pending if a not in done]
        width = window
    return _finish(field, committed, pending, window)


def _finish(
    field: Field,
    committed: list[tuple[int, int]],
    pending: list[int],
    window: int,
) -> list[tuple[int, int]]:
    """Solve the bottom; when it needs a rematch or cannot be paired, reopen the last
    committed pairs (a tail twice as long each time) and keep the best result."""
    best: tuple[int, int, list[tuple[int, int]]] | None = None
    tail = len(pending)
    while True:
        reopened = (
            committed[len(committed) - (tail - len(pending)) // 2 :] if tail > len(pending) else []
        )
        kept = committed[: len(committed) - len(reopened)]
        group = sorted(pending + [a for p in reopened for a in p])
        pairs, _ = _dense(field, group)
        if 2 * len(pairs) == len(group):
            result = kept + pairs
            rematches = _rematches(field, result)
            if best is None or rematches < best[0]:
                best = (rematches, len(group), result)
            if rematches == 0:
                break
        if len(group) == len(pending) + 2 * len(committed) or tail >= 8 * window:
            break
        tail = min(2 * tail, len(pending) + 2 * len(committed))
    if best is None:
        # Last resort: the whole field at once.
        pairs, _ = _dense(field, sorted(pending + [a for p in committed for a in p]))
        if 2 * len(pairs) != len(pending) + 2 * len(committed):
            raise PairingError("forbidden pairs leave a player without an opponent")
        return pairs
    return sorted(best[2])
