"""Simulated Swiss tournaments, for the benchmark and the tests (no Django).

Each player has a hidden strength; a game's winner brings 3 pieces out (section 2:
"Whoever gets three pieces 'out' (off the board) is the winner"), the others a random
0..3 (3 = a tie, as the last round is played out). Round scores use the book's dropped
score and time weighting from ``tournaments.scoring``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tournaments.pairing.engine import pair_round
from tournaments.pairing.types import Meeting, Method, Pairing, PairingPlayer, Policy
from tournaments.scoring import DEFAULT_SETTINGS, ScoringSettings, round_scores


@dataclass
class SimulatedTournament:
    players: list[PairingPlayer]
    met: list[Meeting] = field(default_factory=list)
    had_triple: set[str] = field(default_factory=set)
    had_bye: set[str] = field(default_factory=set)
    rounds: list[Pairing] = field(default_factory=list)


def _game(strengths: list[float], rng: random.Random) -> list[int]:
    total = sum(strengths)
    pick = rng.random() * total
    winner = 0
    while pick > strengths[winner] and winner < len(strengths) - 1:
        pick -= strengths[winner]
        winner += 1
    return [3 if s == winner else rng.choice((0, 1, 1, 2, 2, 3)) for s in range(len(strengths))]


def simulate(
    n: int,
    rounds: int,
    policy: Policy = "pairs+triple",
    seed: int = 1,
    settings: ScoringSettings = DEFAULT_SETTINGS,
    window: int | None = None,
    method: Method = "book",
) -> SimulatedTournament:
    """Play ``rounds`` rounds (turns) of an ``n``-player Swiss and return the state."""
    rng = random.Random(seed)
    strength = {f"p{i + 1}": rng.uniform(1.0, 4.0) for i in range(n)}
    state = SimulatedTournament(
        players=[PairingPlayer(id=f"p{i + 1}", seed=i + 1) for i in range(n)]
    )
    for turn in range(1, rounds + 1):
        pairing = pair_round(
            state.players,
            state.met,
            (),
            state.had_triple,
            state.had_bye,
            policy,
            window=window,
            method=method,
        )
        state.rounds.append(pairing)
        gained: dict[str, float] = {}
        started: dict[str, int] = {}
        for table in pairing.tables:
            seats = table.seats
            games = [
                _game([strength[s] for s in seats], rng)
                for _ in range(settings.games_for(len(seats)))
            ]
            for seat, score in zip(seats, round_scores(games, settings), strict=True):
                gained[seat] = score
            if len(seats) == 2:
                # Seat 0 begins games 1 and 3, seat 1 game 2 (first_move.game_orders).
                started[seats[0]] = (len(games) + 1) // 2
                started[seats[1]] = len(games) // 2
            else:
                state.had_triple.update(seats)
            for i, a in enumerate(seats):
                for b in seats[i + 1 :]:
                    state.met.append(Meeting(a, b, turn))
        if pairing.bye is not None:
            gained[pairing.bye] = settings.bye_round_score()
            state.had_bye.add(pairing.bye)
        state.players = [
            PairingPlayer(
                p.id,
                score=p.score + gained.get(p.id, 0.0),
                seed=p.seed,
                starts=p.starts + started.get(p.id, 0),
                active=p.active,
            )
            for p in state.players
        ]
    return state
