"""Which stops a piece can reach: free paths, turning only at free nodes, never jumping.

Everything works on a 100-bit occupancy mask (bit s set when stop s holds anything).
Lines are walked with bit tricks, nodes with a tiny search; the result is the mask of
every stop the piece may end on (free stops and the first occupied stop in each
direction).
"""

from __future__ import annotations

from collections import deque
from typing import Final

from .board import ADJ, LINE_BASE, LINE_FULL, LINES, N_STOPS, NODE_LINES, STOP_INDEX, STOP_LINE


def _walk_from_end(li: int, seg: int, first: bool) -> int:
    """Global mask of the stops reached walking line li from one of its nodes, given the
    line's occupancy seg; a free line also reaches the far node."""
    base, full = LINE_BASE[li], LINE_FULL[li]
    a, b, _ = LINES[li]
    if seg == 0:
        return (full << base) | (1 << (b if first else a))
    if first:
        low = seg & -seg
        return ((low << 1) - 1) << base
    h = seg.bit_length() - 1
    return (full >> h << h) << base


# Per node: (line base, line full mask, far node, walk table indexed by line occupancy).
_NODE_EXITS: Final = tuple(
    tuple(
        (
            LINE_BASE[li],
            LINE_FULL[li],
            other,
            tuple(_walk_from_end(li, seg, first) for seg in range(LINE_FULL[li] + 1)),
        )
        for li, other, first in NODE_LINES[n]
    )
    for n in range(10)
)
_LINE_SPANS: Final = tuple(zip(LINE_BASE, LINE_FULL, strict=True))
# Per node: (global mask of a whole line, far node) for the 4 lines.
_NODE_NEIGH: Final = tuple(
    tuple((LINE_FULL[li] << LINE_BASE[li], other) for li, other, _ in NODE_LINES[n])
    for n in range(10)
)


def _stop_tables(s: int) -> tuple[int, int, int, int, int, tuple[int, ...]]:
    """For a line stop: base, full, mask of the line stops below it, above it, and a
    table: line occupancy -> global mask reached walking both ways (with free end nodes)."""
    li, k = STOP_LINE[s], STOP_INDEX[s]
    base, full = LINE_BASE[li], LINE_FULL[li]
    a, b, _ = LINES[li]
    below_mask = (1 << k) - 1
    above_mask = full >> (k + 1) << (k + 1)
    table = []
    for seg in range(full + 1):
        reached = 0
        below = seg & below_mask
        if below:
            h = below.bit_length() - 1
            reached |= (below_mask >> h << h) << base
        else:
            reached |= (below_mask << base) | (1 << a)
        above = seg & above_mask
        if above:
            low = above & -above
            reached |= ((low << 1) - 1 ^ ((1 << (k + 1)) - 1)) << base
        else:
            reached |= (above_mask << base) | (1 << b)
        table.append(reached)
    return base, full, below_mask, above_mask, a * 16 + b, tuple(table)


_STOP_TABLES: Final = tuple(
    _stop_tables(s) if s >= 10 else (0, 0, 0, 0, 0, ()) for s in range(N_STOPS)
)
# For a line stop: base, full, the masks of the line stops below and above it, the line's
# first and second node, and its walk table (line occupancy -> global mask reached).
LINE_STOPS: Final = tuple(
    (t[0], t[1], t[2], t[3], t[4] // 16, t[4] % 16, t[5]) for t in _STOP_TABLES
)
# For a line stop: base, full, and per line occupancy: (the stops reached along the line,
# the set of the line's end nodes that the way along the line reaches, as bits).
LINE_WALKS: Final = tuple(
    (
        (
            base,
            full,
            tuple(
                (
                    reached,
                    sum(1 << n for n, way in ((a, below), (b, above)) if not seg & way),
                )
                for seg, reached in enumerate(table)
            ),
        )
        if s >= 10
        else (0, 0, ())
    )
    for s, (base, full, below, above, a, b, table) in enumerate(LINE_STOPS)
)
# Per node: (mask of a whole line and its far node, far node, far node's bit).
_NODE_STEPS: Final = tuple(
    tuple((lm | (1 << other), other, 1 << other) for lm, other in _NODE_NEIGH[n]) for n in range(10)
)
# For a target stop: per node, the global mask of the stops between the node and the
# target when the node is next to it along a line, else -1 (all bits: never free).
_ENTRY: list[list[int]] = [[-1] * 10 for _ in range(N_STOPS)]
for _s in range(N_STOPS):
    if _s < 10:
        for _lm, _other in _NODE_NEIGH[_s]:
            _ENTRY[_s][_other] = _lm
    else:
        _base, _full, _below, _above, _ab, _ = _STOP_TABLES[_s]
        _ENTRY[_s][_ab // 16] = _below << _base
        _ENTRY[_s][_ab % 16] = _above << _base


BIT: Final = tuple(1 << s for s in range(N_STOPS))


_MAX_NODES: Final = 3
# Per target stop, built on first use (all 100: about 0.1 s and 57,000 masks, once per
# process): per start stop, the masks of the stops that must be free for each way through
# at most _MAX_NODES nodes, fewest nodes first. 9 in 10 moves of random games take one.
SHORT_WAYS: Final[list[tuple[tuple[int, ...], ...] | None]] = [None] * N_STOPS


def short_ways_to(to: int) -> tuple[tuple[int, ...], ...]:
    """SHORT_WAYS[to]: the ways from a node are enumerated once per node; a line stop's
    ways start at either end node of its line."""
    entry = _ENTRY[to]
    # Per node n: (nodes after n, mask) of every way n -> ... -> to through at most
    # _MAX_NODES further nodes (n's own stop not in the mask).
    tails: list[list[tuple[int, int]]] = []
    for n in range(10):
        found: list[tuple[int, int]] = []
        stack = [(n, 1 << n, 0, 0)]
        while stack:
            node, seen, mask, k = stack.pop()
            if entry[node] >= 0 and node != to:
                found.append((k, mask | entry[node]))
            if k < _MAX_NODES:
                for line, other, bit in _NODE_STEPS[node]:
                    if not seen & bit and other != to:
                        stack.append((other, seen | bit, mask | line, k + 1))
        found.sort(key=lambda w: w[0])
        tails.append(found)
    # The same through one node fewer, for a start on a line (its end node counts).
    inner = [[w for w in found if w[0] < _MAX_NODES] for found in tails]
    row: list[tuple[int, ...]] = []
    for frm in range(N_STOPS):
        if frm == to:
            row.append(())
            continue
        if frm < 10:
            row.append(tuple(dict.fromkeys(mask for _, mask in tails[frm])))
            continue
        base, _, below, above, a, b, _ = LINE_STOPS[frm]
        ways: list[tuple[int, int]] = []
        if STOP_LINE[to] == STOP_LINE[frm]:
            lo, hi = sorted((STOP_INDEX[frm], STOP_INDEX[to]))
            ways.append((0, ((1 << hi) - (2 << lo)) << base))
        for n, start in ((a, below << base | 1 << a), (b, above << base | 1 << b)):
            if n == to:
                ways.append((0, start ^ 1 << n))
            else:
                ways += [(k + 1, start | mask) for k, mask in inner[n]]
        ways.sort(key=lambda w: w[0])
        # A way back over frm's own line would pass frm itself: never free.
        row.append(tuple(dict.fromkeys(mask for _, mask in ways if not (mask >> frm) & 1)))
    SHORT_WAYS[to] = done = tuple(row)
    return done


def start_walk(frm: int, occ: int) -> tuple[int, list[int]]:
    """Stops reached from frm along its own line(s), and the nodes reached at the ends."""
    if frm < 10:
        reached = 0
        nodes: list[int] = []
        for base, full, other, table in _NODE_EXITS[frm]:
            seg = (occ >> base) & full
            reached |= table[seg]
            if not seg:
                nodes.append(other)
        return reached, nodes
    base, full, below_mask, above_mask, ab, table = _STOP_TABLES[frm]
    seg = (occ >> base) & full
    nodes = []
    if not seg & below_mask:
        nodes.append(ab // 16)
    if not seg & above_mask:
        nodes.append(ab % 16)
    return table[seg], nodes


def reaches(frm: int, to: int, occ: int) -> bool:
    """Whether a piece on frm can end its move on to (a free path, turning only at free
    nodes). occ must include frm."""
    # Most moves take a way through at most 3 nodes: one test of a precomputed mask each
    # (replaying records is dominated by this call); the search decides the rest.
    for way in (SHORT_WAYS[to] or short_ways_to(to))[frm]:
        if not occ & way:
            return True
    return search_path(frm, to, occ)


def search_path(frm: int, to: int, occ: int) -> bool:
    """`reaches` by a search over the free nodes; stops as soon as the answer is known."""
    if frm == to:
        return False
    entry = _ENTRY[to]
    # Visited nodes are added to the blocked mask, so one test covers both (frm is in
    # occ already).
    if frm < 10:
        if not occ & entry[frm]:
            return True
        stack = [frm]
        blocked = occ
    else:
        base, full, below, above, a, b, table = LINE_STOPS[frm]
        seg = (occ >> base) & full
        if table[seg] & BIT[to]:
            return True
        blocked = occ
        stack = []
        if not seg & below and not occ & BIT[a]:
            if not occ & entry[a]:
                return True
            blocked |= BIT[a]
            stack.append(a)
        if not seg & above and not blocked & BIT[b]:
            if not occ & entry[b]:
                return True
            blocked |= BIT[b]
            stack.append(b)
        if not stack:
            return False
    while stack:
        for combo, other, bit in _NODE_STEPS[stack.pop()]:
            if not blocked & combo:
                blocked |= bit
                if not occ & entry[other]:
                    return True
                stack.append(other)
    return False


def targets(frm: int, occ: int) -> int:
    """Mask of every stop a piece on frm can end its move on (frm itself excluded)."""
    reached, nodes = start_walk(frm, occ)
    seen = 1 << frm
    stack = []
    for n in nodes:
        if not (seen >> n) & 1:
            seen |= 1 << n
            if not (occ >> n) & 1:
                stack.append(n)
    while stack:
        for base, full, other, table in _NODE_EXITS[stack.pop()]:
            seg = (occ >> base) & full
            reached |= table[seg]
            if not seg and not (seen >> other) & 1:
                seen |= 1 << other
                if not (occ >> other) & 1:
                    stack.append(other)
    return reached & ~(1 << frm)


def blocking_stop(frm: int, to: int, occ: int) -> int:
    """A stop that blocks the way from frm to to: on a shortest board path, the occupied
    stop nearest to frm (used only to explain an illegal move)."""
    d_from = _distances(frm)
    d_to = _distances(to)
    total = d_from[to]
    best = -1
    for s in range(N_STOPS):
        if s in (frm, to) or not (occ >> s) & 1:
            continue
        if d_from[s] + d_to[s] == total and (best < 0 or d_from[s] < d_from[best]):
            best = s
    if best >= 0:
        return best
    # Every shortest path is free but ends at nodes that are occupied: take any occupied
    # stop next to the target.
    for s in ADJ[to]:
        if (occ >> s) & 1 and s != frm:
            return s
    return to


def _distances(src: int) -> list[int]:
    dist = [-1] * N_STOPS
    dist[src] = 0
    queue = deque([src])
    while queue:
        s = queue.popleft()
        for t in ADJ[s]:
            if dist[t] < 0:
                dist[t] = dist[s] + 1
                queue.append(t)
    return dist


# --- every line at once -----------------------------------------------------------------
#
# Move generation works on all 20 lines in a handful of big-int operations: a line's stops
# are consecutive bits, so subtracting one at each busy line's first stop, or smearing
# bits downwards within each line, walks every line from either end at the same time.

ALL_LINES: Final = sum(full << base for base, full in _LINE_SPANS)
STARTS: Final = sum(1 << base for base in LINE_BASE)


def _within(k: int) -> int:
    """The stops at least k stops below their line's last stop (where a shift down by k
    stays on the line)."""
    return sum(((1 << max(n - k, 0)) - 1) << LINE_BASE[li] for li, (_, _, n) in enumerate(LINES))


M1: Final = _within(1)
M2: Final = _within(2)
M4: Final = _within(4)
# For a 10-bit set of nodes: every stop of the lines whose first (second) node is in it.
FIRST_LINES: Final = tuple(
    sum(LINE_FULL[li] << LINE_BASE[li] for li, (a, _, _) in enumerate(LINES) if nodes >> a & 1)
    for nodes in range(1024)
)
SECOND_LINES: Final = tuple(
    sum(LINE_FULL[li] << LINE_BASE[li] for li, (_, b, _) in enumerate(LINES) if nodes >> b & 1)
    for nodes in range(1024)
)
NODES_OF: Final = tuple(tuple(n for n in range(10) if nodes >> n & 1) for nodes in range(1024))


def _node_links(n: int) -> tuple[int, dict[int, tuple[int, int]]]:
    """For node n: the first stops of its 4 lines, and for every set of them that is
    free: (the nodes at their far ends, every stop of those lines and the far nodes)."""
    lines = [
        (1 << LINE_BASE[li], LINE_FULL[li] << LINE_BASE[li], other)
        for li, other, _ in NODE_LINES[n]
    ]
    table: dict[int, tuple[int, int]] = {}
    for subset in range(16):
        key = links = near = 0
        for k, (start, whole, other) in enumerate(lines):
            if subset >> k & 1:
                key |= start
                links |= 1 << other
                near |= whole | 1 << other
        table[key] = (links, near)
    return sum(start for start, _, _ in lines), table


NODE_STARTS: Final = tuple(_node_links(n)[0] for n in range(10))
NODE_LINKS: Final = tuple(_node_links(n)[1] for n in range(10))
