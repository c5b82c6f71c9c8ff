"""A player's games against everyone they met: plain counting over the confirmed
results (`head_to_head` is pure; `player_shared_games` reads them in three queries)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import QuerySet

from games import rulesets
from tournaments.models import Game, Round, Seat, Tournament


@dataclass(frozen=True)
class SharedGame:
    """One game with a result: player ids and pieces out, both by seat position."""

    players: tuple[int, ...]
    out: tuple[int, ...]
    target: int = 3
    game: str = rulesets.DEFAULT  # which game of the family: each keeps its own records


@dataclass
class Record:
    """A player's record against one opponent over the games they played together.

    A game is won, drawn or lost by comparing the two players' pieces out (at a
    3-player table too); ``scored`` and ``conceded`` are the two players' dropped
    scores in those games (section 21), unweighted by table size.
    """

    opponent: int
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    scored: float = 0.0
    conceded: float = 0.0

    @property
    def balance(self) -> float:
        return self.scored - self.conceded


def head_to_head(player: int, games: Iterable[SharedGame]) -> list[Record]:
    """The player's record against every opponent, most games first."""
    records: dict[int, Record] = {}
    for game in games:
        if player not in game.players:
            continue
        me = game.players.index(player)
        # Pentagame's dropped score against the game's target (section 21); another
        # game's zero-sum points stand in for it (docs/scoring.md).
        scores = rulesets.get(game.game).points_at(list(game.out), game.target)
        for seat, opponent in enumerate(game.players):
            if seat == me or opponent == player:
                continue
            record = records.setdefault(opponent, Record(opponent))
            record.games += 1
            if game.out[me] > game.out[seat]:
                record.wins += 1
            elif game.out[me] < game.out[seat]:
                record.losses += 1
            else:
                record.draws += 1
            record.scored += scores[me]
            record.conceded += scores[seat]
    return sorted(records.values(), key=lambda r: (-r.games, r.opponent))


def player_shared_games(
    *, player_id: int, tournaments: QuerySet[Tournament]
) -> tuple[list[SharedGame], dict[int, str]]:
    """Every confirmed result of the tables the player sat at in ``tournaments`` (rounds
    not yet published left out), and the names of everyone at those tables."""
    table_ids = (
        Seat.objects.filter(entry__player_id=player_id, round__tournament__in=tournaments)
        .exclude(round__status=Round.Status.PAIRED)
        .values("table_id")
    )
    players: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for table_id, pid, name in (
        Seat.objects.filter(table_id__in=table_ids)
        .order_by("table_id", "position")
        .values_list("table_id", "entry__player_id", "entry__player__name")
    ):
        players.setdefault(table_id, []).append(pid)
        names[pid] = name
    games = []
    for table_id, target, game, leader_a, leader_b, *outs in (
        Game.objects.filter(table_id__in=table_ids, confirmed=True, voided=False)
        .exclude(status__in=Game.WITHOUT_RESULT)
        .order_by("table_id", "number")
        .values_list(
            "table_id",
            "target",
            "table__round__tournament__game",
            "leader_a",
            "leader_b",
            "out_1",
            "out_2",
            "out_3",
            "out_4",
        )
    ):
        seated = players.get(table_id, [])
        if len(seated) < 2:
            continue
        if leader_a is not None and leader_b is not None:
            # A decider: a 2-player game of the two leaders of a 3-player table.
            positions = (leader_a, leader_b)
            if leader_b > len(seated):
                continue
            out = tuple(int(outs[p - 1] or 0) for p in positions)
            games.append(SharedGame(tuple(seated[p - 1] for p in positions), out, target, game))
            continue
        out = tuple(int(o or 0) for o in outs[: len(seated)])
        games.append(SharedGame(tuple(seated), out, target, game))
    return games, names
