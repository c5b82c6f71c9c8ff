"""The registry of games a tournament or club evening can be *for*: the only place in the
project keyed by a game's name (docs/architecture.md).

Every game of the family offers the same small interface, so pairing, scoring,
standings and ratings work for any of them. A game's engine lives in `games/<name>/`
(Django-free) and exposes `replay(record) -> result` whose `to_dict()` has the fields
ok, plies, finished, to_move, out, error {ply, move, reason}, and a CLI
`python -m games.<name> replay|moves FILE`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

from games.dropped import dropped_scores
from games.engine_common.errors import EngineError
from games.engine_common.stepping import Start, game_start, state_start

if TYPE_CHECKING:
    from games.pictures import PictureFn

# The family's first game (the book's own): what a tournament, a rating or a page is for
# when nothing names a game.
DEFAULT = "pentagame"

# A random legal game for the demo: (players, seed) -> (moves, setup beside them).
DemoRecord = Callable[[int, int], tuple[list[str], dict[str, Any]]]


class ReplayOutcome(Protocol):
    ok: bool
    plies: int
    finished: bool

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Board:
    """A game's own board page (tournaments/results/views/board.py, agon/board.js): the
    page draws the board from ``geometry()`` with a piece shape per seat position
    (``shapes``), asks ``position(record)`` for the position and its legal moves, and a
    spectator's small board ``snapshot(record)`` for the position alone. A record the
    engine cannot read raises ``refused`` (a ValueError)."""

    geometry: Callable[[], dict[str, Any]]
    shapes: tuple[str, ...]
    # (record, the position stored with it or None) -> the payload: a stored position
    # that is the record's is read instead of replaying the record (`Ruleset.extend`).
    position: Callable[[dict[str, Any], Any], dict[str, Any]]
    snapshot: Callable[[dict[str, Any], Any], dict[str, Any]]
    refused: type[ValueError]


@dataclass(frozen=True)
class Ruleset:
    """What the tournament side needs to know about a game.

    ``points`` turns a finished game's per-seat result (``out`` of the replay) into
    zero-sum tournament points (docs/scoring.md); ``target`` is the largest per-seat
    result a score sheet may hold (Pentagame: pieces out to win).
    """

    name: str
    title: str
    table_sizes: tuple[int, ...]
    target: int
    replay: Callable[[Mapping[str, Any]], ReplayOutcome]
    points: Callable[[Sequence[int]], list[float]]
    # How a record names the game's own setup beside "players" and "moves".
    record_keys: tuple[str, ...] = ("players", "variant", "moves")
    # Turns the engine's per-seat result into the small numbers a score sheet holds
    # (0..target); None keeps it as it is.
    sheet: Callable[[Sequence[int]], list[int]] | None = None
    # Pentagame: a finished game has a seat with `target` pieces out; elsewhere a
    # finished game may be a draw.
    finished_needs_target: bool = False
    # The replay page steps through a record with `start(record)` and draws each
    # position with `picture(state, last_move)`; Pentagame has its own board page.
    start: Start | None = None
    picture: PictureFn | None = None
    # A random legal game for the demo; None: the demo plays the game its own way.
    demo_record: DemoRecord | None = None
    # Reads one move of the game's notation (the engine's `parse_move`; raises a
    # ValueError with the reason): a ply is read before anything of it is stored.
    parse_move: Callable[[str], object] | None = None
    # What `replay` raises for a record it cannot read at all (a ValueError with the
    # reason; an illegal move is a result with ok=false, not an error): the rules API
    # answers it with a 400. The family's engines share EngineError as its base.
    refused: type[ValueError] = EngineError
    # What else differs between the games: the layers above ask these, never the name
    # (tests/games/test_rulesets_are_the_only_switch.py). False is the family's default.
    # A seat's result is its pieces out (section 2), already on the rating core's 0..3
    # scale; elsewhere it is the game's own number ("the result").
    result_is_pieces_out: bool = False
    # Pieces out to win is the tournament's setting, `Tournament.target` (section 2's
    # three by default); elsewhere the game fixes `target`.
    target_is_setting: bool = False
    # A game's points are the dropped score, counted against that target (section 21).
    points_are_dropped_scores: bool = False
    # A seat's first two colours out name a letter after its result (section 22, Table
    # 4): the result forms and score sheets ask for the colours out.
    has_colour_letters: bool = False
    # The 2 vs 2 team variant, partners sitting opposite (section 3).
    has_team_variant: bool = False
    # One more ply checked against the position stored with the record (a ply recorded
    # live): (record, stored position or None, move) -> (the longer record's outcome,
    # the position to store with it). None: the record is replayed whole every time and
    # no position is stored (`Ruleset.one_more`).
    extend: Callable[[Mapping[str, Any], Any, str], tuple[ReplayOutcome, Any]] | None = None
    # A board page of its own (Board, above): record a game by taps on the board and
    # replay it; the others step through `start` and `picture`.
    board: Board | None = None
    # Reads the online client's event list into a record (games/pentagame/importer.py;
    # raises a ValueError with the reason); None: the game cannot be imported.
    import_events: Callable[[Any], Any] | None = None
    # The book's duration of one game by table size, in minutes (Table 3: "duration
    # (ca.) 20min 40min 1h 20min" at 2, 3 and 4 players), shown beside a club's own game
    # lengths (docs/statistics.md); empty for a game the book does not time.
    book_minutes: tuple[tuple[int, int], ...] = ()

    @property
    def has_board_page(self) -> bool:
        return self.board is not None

    @property
    def imports_online_events(self) -> bool:
        return self.import_events is not None

    @property
    def has_decider(self) -> bool:
        """A 3-player match tied at the top can be settled by a 2-player game of the two
        leaders (sections 3 and 18): a game played both by three and by two."""
        return 2 in self.table_sizes and 3 in self.table_sizes

    def seat_most(self, target: int, *, team: bool = False) -> int:
        """The largest result one seat can have: the sheet's ``target``, or at a 2 vs 2
        table each player's own set of five pieces (section 3)."""
        return 5 if team and self.has_team_variant else target

    def team_most(self, team_target: int) -> int:
        """What a 2 vs 2 team can bring out at most: four before the deciding round,
        then one from each partner (section 3), so ``team_target`` + 1."""
        return team_target + 1

    def example_entry(self, seats: int, target: int, *, team: bool = False) -> str:
        """A result as the results screen types it, for the hint and placeholder: a
        winner at ``target`` and the others behind; at a 2 vs 2 table seats 1+3 with
        five (3 + 2) against 2+4 with one."""
        if team and self.has_team_variant and seats == 4:
            return "3 1 2 0"
        values = [target, min(1, target)] + [0] * (seats - 2)
        return " ".join(str(v) for v in values[:seats])

    def one_more(
        self, record: Mapping[str, Any], position: Any, move: str
    ) -> tuple[ReplayOutcome, Any]:
        """The record with ``move`` added: its outcome and the position to store with it
        (None where the engine stores none). Cheap for an engine with `extend`: its
        cost does not grow with the record."""
        if self.extend is not None:
            return self.extend(record, position, move)
        return self.replay({**record, "moves": [*record["moves"], move]}), None

    def sheet_values(self, out: Sequence[int]) -> list[int]:
        return list(out) if self.sheet is None else self.sheet(out)

    def points_at(self, out: Sequence[int], target: int) -> list[float]:
        """A game's points when it was played to ``target``: the dropped score reads it
        (section 21); the other games' points have no target to read."""
        if self.points_are_dropped_scores:
            return dropped_scores(out, target)
        return self.points(out)


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    if ruleset.name in _REGISTRY:
        raise ValueError(f"ruleset {ruleset.name!r} is registered already")
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def get(name: str) -> Ruleset:
    _load_builtin()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise KeyError(f"unknown game {name!r}; known: {known}") from None


def all_rulesets() -> list[Ruleset]:
    _load_builtin()
    return [_REGISTRY[name] for name in sorted(_REGISTRY)]


def board_game() -> Ruleset:
    """The game whose board the public position endpoint answers for (one game of the
    family has a board page of its own); a client names no game there."""
    return next(ruleset for ruleset in all_rulesets() if ruleset.board is not None)


def choices() -> list[tuple[str, str]]:
    """(name, title) of every game, Pentagame first, for a model field's choices."""
    _load_builtin()
    return [(ruleset.name, ruleset.title) for ruleset in _REGISTRY.values()]


def win_draw_loss(result: Sequence[int]) -> list[float]:
    """Points for games decided by win, draw or loss: against each other seat 1 for a
    better result, 1/2 for an equal one, 0 for a worse one. Every game hands out
    n(n-1)/2 points whatever happens, so it is zero-sum around its mean, like the
    dropped score (docs/scoring.md)."""
    points = []
    for i, mine in enumerate(result):
        score = 0.0
        for j, theirs in enumerate(result):
            if i != j:
                score += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        points.append(score)
    return points


def dense_ranks(result: Sequence[int]) -> list[int]:
    """Each seat's place from the bottom (0 = worst, equal results share a place): keeps
    the order of any result, in numbers small enough for a score sheet."""
    levels = sorted(set(result))
    return [levels.index(value) for value in result]


def _pentagame_points(out: Sequence[int]) -> list[float]:
    return dropped_scores(out, 3)


def _pentagame_demo(players: int, seed: int) -> tuple[list[str], dict[str, Any]]:
    # Up to 1,500 plies, as the demo's Swiss has always played them (it keeps a game that
    # ends); its live tables take the first plies (a shorter playout, the same moves).
    from games.pentagame.playout import random_game

    return random_game(players, seed=seed, max_plies=1500), {}


def _pantarei_demo(players: int, seed: int) -> tuple[list[str], dict[str, Any]]:
    from games.pantarei.playout import random_record

    record = random_record(seed=seed)
    return record["moves"], {"setup": record["setup"], "first": record["first"]}


def _twist_demo(players: int, seed: int) -> tuple[list[str], dict[str, Any]]:
    from games.pentamid_twist.playout import random_record

    return random_record(seed=seed)["moves"], {}


def _pent_up_demo(players: int, seed: int) -> tuple[list[str], dict[str, Any]]:
    from games.pent_up.playout import random_game

    return random_game(players, seed=seed), {}


def _cosmos_demo(players: int, seed: int) -> tuple[list[str], dict[str, Any]]:
    from games.pentacosmos.playout import random_game

    return random_game(players, seed=seed, greedy=True, max_plies=200), {}


def _family(module: str, *, immutable: bool, demo: DemoRecord) -> Ruleset | None:
    """A game of the family other than Pentagame: its engine's RULESET with the replay
    page's stepping and picture and the demo's random game. The picture modules import
    the engines, so they are attached here rather than in the engines' own RULESET."""
    try:
        engine = import_module(f"games.{module}")
    except ModuleNotFoundError:
        return None  # not built yet
    ruleset = getattr(engine, "RULESET", None)
    if not isinstance(ruleset, Ruleset):
        return None
    replay = import_module(f"games.{module}.replay")
    if immutable:
        start = state_start(replay.check_record, engine.parse_move, engine.apply_move)
    else:
        start = game_start(replay.check_record, replay.start_game, engine.parse_move)
    picture = import_module(f"games.pictures.{module}").picture
    return replace(
        ruleset, start=start, picture=picture, demo_record=demo, parse_move=engine.parse_move
    )


_loaded = False


def _load_builtin() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from games import pentagame
    from games.pictures import pentagame as pentagame_board

    register(
        Ruleset(
            name="pentagame",
            title="Pentagame",
            table_sizes=(2, 3, 4, 5),
            target=3,
            replay=pentagame.replay,  # type: ignore[arg-type]
            points=_pentagame_points,
            finished_needs_target=True,
            result_is_pieces_out=True,
            target_is_setting=True,
            points_are_dropped_scores=True,
            has_colour_letters=True,
            has_team_variant=True,
            board=Board(
                geometry=pentagame_board.board_geometry,
                shapes=pentagame_board.SHAPES,
                position=pentagame_board.position_payload,
                snapshot=pentagame_board.position_snapshot,
                refused=pentagame.PentagameError,
            ),
            import_events=pentagame.import_events,
            extend=pentagame.extend,  # type: ignore[arg-type]
            book_minutes=((2, 20), (3, 40), (4, 80)),
            parse_move=pentagame.parse_move,
            refused=pentagame.PentagameError,
            demo_record=_pentagame_demo,
        )
    )
    family: list[tuple[str, bool, DemoRecord]] = [
        ("pantarei", True, _pantarei_demo),
        ("pentamid_twist", True, _twist_demo),
        ("pent_up", False, _pent_up_demo),
        ("pentacosmos", False, _cosmos_demo),
    ]
    for module, immutable, demo in family:
        ruleset = _family(module, immutable=immutable, demo=demo)
        if ruleset is not None:
            register(ruleset)
