"""What a round's explanations are made from (docs/pairing.md, "Explanations"): the
round's tables, the field with the scores and seeds it was paired by, the earlier
meetings, 3-player tables and byes, the forbidden pairs and the round's rules, read in a
fixed number of queries whatever the field's size; the pure
``tournaments.pairing.explain.explain_round`` does the rest, with the same check the
pairing editor asks (``RoundRules.warnings``) and the book's rule (``book_rule``)."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.desk.selectors.pre_round import pairing_seeds
from tournaments.models import ForbiddenPair, Game, Round, Seat, Tournament
from tournaments.pairing import Meeting, PairingPlayer
from tournaments.pairing.explain import RoundExplanation, TableExplanation, explain_round
from tournaments.pairing.warnings import ProposedLayout, RoundRules, book_rule
from tournaments.standings.selectors.standings import scores_before, scoring_settings

# The table sizes a tournament can score (as the pairing editor's SCORED_SIZES).
_SCORED = (2, 3)


@dataclass(frozen=True)
class RoundWhy:
    """A round's explanations, with what their texts name: the players' names by entry
    id (as text, the pure core's ids), the policy, and whether the book's rule paired it
    (else closest scores)."""

    def at(self, number: int) -> TableExplanation | None:
        """The explanation of the round's table ``number`` (a bye's table too)."""
        if number not in self.numbers:
            return None
        return self.explanation.tables[self.numbers.index(number)]

    explanation: RoundExplanation
    names: dict[str, str]
    numbers: tuple[int, ...]  # the round's table number of each explained table, in order
    policy: str
    book: bool


def explained(tournament: Tournament) -> bool:
    """Whose rounds are explained: a Swiss of players (a league follows its schedule, a
    club evening its own tables, a 2 vs 2 event its teams' pairing)."""
    return tournament.kind == Tournament.Kind.SWISS and not tournament.is_team_event


def round_why(round_: Round) -> RoundWhy | None:
    """The round's explanations; None for a round that is not explained (above) or has
    no tables. Ten queries, whatever the field's size."""
    tournament = round_.tournament
    if not explained(tournament):
        return None
    rows = (
        Seat.objects.filter(round__tournament=tournament, round__number__lte=round_.number)
        .order_by("round__number", "table__number", "position")
        .values_list(
            "table_id", "entry_id", "position", "round__number", "table__is_bye", "table__number"
        )
    )
    tables: dict[int, list[tuple[int, int, int]]] = {}
    had_bye: dict[str, list[int]] = {}
    now: dict[int, list[str]] = {}  # this round's tables, in table order
    bye_now: list[tuple[str, int]] = []
    numbers: dict[int, int] = {}
    for table_id, entry_id, position, number, is_bye, table_number in rows:
        if number == round_.number:
            if is_bye:
                bye_now.append((str(entry_id), table_number))
            else:
                now.setdefault(table_id, []).append(str(entry_id))
                numbers[table_id] = table_number
        elif is_bye:
            had_bye.setdefault(str(entry_id), []).append(number)
        else:
            tables.setdefault(table_id, []).append((entry_id, position, number))
    if not now and not bye_now:
        return None
    # As the pairing editor reads them (desk/services/pairing_edit.py, _history): earlier
    # meetings, 3-player tables and first moves at 2-player tables.
    met: list[Meeting] = []
    had_triple: dict[str, list[int]] = {}
    for seats in tables.values():
        for i, (a, _pos, number) in enumerate(seats):
            if len(seats) == 3:
                had_triple.setdefault(str(a), []).append(number)
            for b, _p, _n in seats[i + 1 :]:
                met.append(Meeting(str(a), str(b), number))
    starts: dict[int, int] = {}
    for table_id, first in Game.objects.filter(
        table__round__tournament=tournament, table__round__number__lt=round_.number
    ).values_list("table_id", "first_position"):
        seats = tables.get(table_id, [])
        if len(seats) == 2:
            for entry_id, position, _n in seats:
                if position == first:
                    starts[entry_id] = starts.get(entry_id, 0) + 1
    forbidden = [
        (str(a), str(b))
        for a, b in ForbiddenPair.objects.filter(tournament=tournament).values_list(
            "first_id", "second_id"
        )
    ]
    entries = list(tournament.entries.values_list("pk", "seed", "player__name"))
    scores = {
        str(k): v for k, v in scores_before(tournament=tournament, number=round_.number).items()
    }
    seeds = pairing_seeds(tournament, round_.number, {pk: seed for pk, seed, _name in entries})
    field_ids = [p for seats in now.values() for p in seats] + [p for p, _n in bye_now]
    players = [
        PairingPlayer(
            id=p,
            score=scores.get(p, 0.0),
            seed=seeds.get(int(p), 0),
            starts=starts.get(int(p), 0),
        )
        for p in field_ids
    ]
    policy = tournament.policy
    book = None
    if tournament.pairing_method == Tournament.PairingMethod.BOOK:
        book = book_rule(
            players,
            met=met,
            forbidden=forbidden,
            had_triple=had_triple,
            had_bye=had_bye,
            policy=policy,  # type: ignore[arg-type]
        )
    rules = RoundRules(
        met=met,
        forbidden=forbidden,
        scores=scores,
        policy=policy,  # type: ignore[arg-type]
        playable=tuple(s for s in _SCORED if s in tournament.ruleset.table_sizes),
        # One even turn at a 2-player table, as the editor's score-gap warning.
        gap_limit=scoring_settings(tournament).even_round_score(2),
        book=book,
    )
    layout = ProposedLayout(
        tables=tuple(tuple(s) for s in now.values()), byes=tuple(p for p, _n in bye_now)
    )
    return RoundWhy(
        explanation=explain_round(layout, players, rules, had_triple=had_triple, had_bye=had_bye),
        names={str(pk): name for pk, _seed, name in entries},
        numbers=tuple(numbers.values()) + tuple(n for _p, n in bye_now),
        policy=policy,
        book=book is not None,
    )
