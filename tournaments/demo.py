"""The demo data set of the quick start: a club of 24 players, a Swiss tournament with
finished rounds whose games were played move by move through the rules engine, and a
club evening. Idempotent: what exists already is left alone. Written through the
services like everything else: the steps as the organiser (the staff account passed
in), the results as the organiser's own script (``Actor.command()``)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count

from games import rulesets
from tournaments.core.actor import Actor
from tournaments.desk.services.clubs import club_create, club_organisers_set
from tournaments.desk.services.entries import entries_paste, entry_check_in
from tournaments.desk.services.evenings import evening_close
from tournaments.desk.services.rounds import round_close, round_pair_next, round_publish
from tournaments.desk.services.seasons import season_create
from tournaments.desk.services.teams import teams_paste
from tournaments.desk.services.tournaments import tournament_create, tournament_update
from tournaments.models import GAMES, Club, Entry, Game, Round, Season, Seat, Tournament
from tournaments.results.services.result_path import PlyEntry, ResultEntry, game_result_record
from tournaments.results.services.results import game_record_moves, game_record_out

NAMES = [
    "Jan Suchanek",
    "Anna Berger",
    "Bert Okafor",
    "Cleo Marchetti",
    "Dora Lindqvist",
    "Emil Novak",
    "Fatma Yilmaz",
    "Gustav Brandt",
    "Hanna Kowalski",
    "Ivo Petrov",
    "Jule Hartmann",
    "Kai Nakamura",
    "Lena Fischer",
    "Malte Jensen",
    "Nina Rossi",
    "Oskar Weber",
    "Paula Schmidt",
    "Quentin Laurent",
    "Rosa Alvarez",
    "Sven Olsen",
    "Tara Murphy",
    "Uwe Krüger",
    "Vera Sokolova",
    "Wim de Vries",
]
CLUB = "pentagame-club-hamburg"
SWISS = "autumn-swiss-2026"
EVENING = "club-evening-2026-11-18"
TEAMS = "doubles-cup-2026"
SEASON = "autumn-2026"
# The season's Wednesday evenings before the one of 18 November.
SEASON_EVENINGS = [dt.date(2026, 9, 2) + dt.timedelta(weeks=2 * i) for i in range(6)]
# The demo data is entered as the organiser's own script would: final results.
DEMO = Actor.command()
# A short tournament of each other game of the family: (game, players, policy).
FAMILY = [
    ("pantarei", 4, "pairs+bye"),
    ("pentamid_twist", 4, "pairs+bye"),
    ("pent_up", 5, "pairs+triple"),
    ("pentacosmos", 5, "pairs+triple"),
]


def random_record(game: str, players: int, seed: int) -> tuple[list[str], dict[str, Any]]:
    """The moves and setup of a random legal game, played by the game's own engine."""
    demo = rulesets.get(game).demo_record
    if demo is None:
        raise ValueError(f"no random games for {game!r}")
    return demo(players, seed)


def _strengths(rng: random.Random) -> dict[str, float]:
    return {name: rng.gauss(0.0, 1.0) for name in NAMES}


def _play_game(
    game: Game, names: list[str], strengths: dict[str, float], rng: random.Random
) -> None:
    """Play a legal game with the engine: draw the winner by strength, then take the
    first random legal game that this player wins."""
    n = len(names)
    order = game.moving_order(n)
    weights = [2.718 ** strengths[names[p - 1]] for p in order]
    winner = rng.choices(range(n), weights=weights)[0]
    # The Swiss and the evenings name no game: they are for the family's default game.
    ruleset = rulesets.get(rulesets.DEFAULT)
    for seed in range(rng.randrange(10**6), 10**7):
        moves, _setup = random_record(ruleset.name, n, seed)
        result: Any = ruleset.replay({"players": n, "variant": "standard", "moves": moves})
        if result.finished and result.out[winner] == max(result.out):
            game_record_moves(game=game, moves=moves, by=DEMO)
            return


def _play_round(
    round_: Round, strengths: dict[str, float], rng: random.Random, upto: int | None = None
) -> None:
    games = (
        Game.objects.filter(table__round=round_)
        .select_related("table")
        .order_by("table__number", "number")
    )
    for i, game in enumerate(games):
        if upto is not None and i >= upto:
            break
        names = [s.entry.player.name for s in game.table.seats.select_related("entry__player")]
        _play_game(game, names, strengths, rng)


def _play_live(round_: Round, rng: random.Random, skip: int) -> None:
    """The games after the first ``skip`` are being played: recorded live, ply by ply,
    from the seats' links, as the tables do (docs/results.md, "Live tables")."""
    games = (
        Game.objects.filter(table__round=round_, table__is_bye=False)
        .select_related("table")
        .order_by("table__number", "number")
    )
    tables: set[int] = set()
    for game in list(games)[skip:]:
        if game.table_id in tables:
            continue  # a table plays its games one after the other
        tables.add(game.table_id)
        seats = {s.position: Actor.player(s) for s in game.table.seats.all()}
        order = game.moving_order(len(seats))
        seed, plies = rng.randrange(10**6), rng.randint(8, 40)
        # The first plies of a random game of the Swiss's game (the default one).
        moves = random_record(rulesets.DEFAULT, len(seats), seed)[0][:plies]
        for n, move in enumerate(moves, start=1):
            by = seats[order[(n - 1) % len(seats)]]
            entry = ResultEntry(ply=PlyEntry(number=n, move=move, key=f"demo-{game.pk}-{n}"))
            game_result_record(game=game, entry=entry, by=by)


def _swiss(
    club: Club, organiser: AbstractBaseUser, strengths: dict[str, float], rng: random.Random
) -> None:
    # The tournament steps are the organiser's own, recorded under their name.
    by = Actor.director(organiser)
    tournament = tournament_create(
        club=club,
        name="Autumn Swiss 2026",
        slug=SWISS,
        kind=Tournament.Kind.SWISS,
        published=True,
        date=dt.date(2026, 11, 14),
        rounds_planned=5,
        by=by,
    )
    field = NAMES[:23]  # odd on purpose: every round has one 3-player table
    ratings = sorted(field, key=lambda n: -strengths[n])
    entries_paste(
        tournament=tournament,
        text="\n".join(f"{n}, {1500 + round(strengths[n] * 150)}" for n in ratings),
        by=by,
    )
    for number in range(1, 5):
        round_ = round_pair_next(tournament=tournament, by=by)
        round_publish(round=round_, by=by)
        if number < 4:
            _play_round(round_, strengths, rng)
            round_close(round=round_, by=by)
        else:
            _play_round(round_, strengths, rng, upto=9)  # round 4 is being played
            _play_live(round_, rng, skip=9)


def _evening(
    club: Club, organiser: AbstractBaseUser, strengths: dict[str, float], rng: random.Random
) -> None:
    # The tournament steps are the organiser's own, recorded under their name.
    by = Actor.director(organiser)
    tournament = tournament_create(
        club=club,
        name="Club evening 18 November",
        slug=EVENING,
        kind=Tournament.Kind.EVENING,
        published=True,
        date=dt.date(2026, 11, 18),
        by=by,
    )
    present = NAMES[5:14]
    entries_paste(tournament=tournament, text="\n".join(present), by=by)
    for entry in Entry.objects.filter(tournament=tournament):
        entry_check_in(entry=entry, by=by)
    _play_evening(tournament, by, 2, strengths, rng)


def _play_evening(
    tournament: Tournament,
    by: Actor,
    rounds: int,
    strengths: dict[str, float],
    rng: random.Random,
    colours: bool = False,
    showcase: bool = False,
) -> None:
    """Play ``rounds`` rounds and close the evening: half the games move by move, the
    others typed from the score sheet (pieces out, and with ``colours`` the winner's
    colours out, section 22).
    A 3-player match tied at the top gets its decider (the evening's option, sections 3
    and 18), played with a generator of its own. With ``showcase`` round 1 has one such
    match and a 3:3 draw whatever the generator deals (the statistics and the
    crosstable show both)."""
    for number in range(1, rounds + 1):
        round_ = round_pair_next(tournament=tournament, by=by)
        round_publish(round=round_, by=by)
        games = Game.objects.filter(table__round=round_).select_related("table")
        shown = _showcase(games) if showcase and number == 1 else {}
        for game in games:
            n = game.table.seats.count()
            names = [s.entry.player.name for s in game.table.seats.select_related("entry__player")]
            if game.pk in shown:
                game_record_out(game=game, out=shown[game.pk], by=DEMO)
            elif rng.random() < 0.5:
                _play_game(game, names, strengths, rng)
            else:  # typed from the score sheet: pieces out only
                out = [rng.randint(0, 2) for _ in range(n)]
                winner = rng.randrange(n)
                out[winner] = 3
                # The winner's three colours out, in order.
                gone = "".join(rng.sample("wbryg", 3))
                game_record_out(
                    game=game,
                    out=out,
                    by=DEMO,
                    colours_out={str(winner + 1): gone} if colours else None,
                )
        _play_deciders(round_, strengths, random.Random(f"{tournament.slug}-{number}"))
        round_close(round=round_, by=by)
    evening_close(tournament=tournament, by=by)


def _showcase(games: Any) -> dict[int, list[int]]:
    """Results by game id: the first 3-player match 1:3:2 then 1:2:3 (seats 2 and 3
    level at the top), and the first 2-player table's first game 3:3."""
    shown: dict[int, list[int]] = {}
    sizes = dict(
        Seat.objects.filter(table__in={g.table_id for g in games})
        .values("table_id")
        .annotate(n=Count("id"))
        .values_list("table_id", "n")
    )
    triple = next((g.table_id for g in games if sizes.get(g.table_id) == 3), None)
    pair = next((g for g in games if sizes.get(g.table_id) == 2), None)
    for game in games:
        if game.table_id == triple and game.number in (1, 2):
            shown[game.pk] = [1, 3, 2] if game.number == 1 else [1, 2, 3]
    if pair is not None:
        shown[pair.pk] = [3, 3]
    return shown


def _play_deciders(round_: Round, strengths: dict[str, float], rng: random.Random) -> None:
    """A match tied at the top got its decider with the result that tied it (the
    evening's option): the two leaders play it, the stronger more likely to win."""
    deciders = (
        Game.objects.filter(
            table__round=round_, decider=True, voided=False, status=Game.Status.PENDING
        )
        .select_related("table")
        .order_by("table__number")
    )
    for game in deciders:
        seats = {
            s.position: s.entry.player.name
            for s in game.table.seats.select_related("entry__player")
        }
        a, b = seats[game.leader_a], seats[game.leader_b]
        first = rng.random() < 1 / (1 + 2.718 ** (strengths[b] - strengths[a]))
        loser = rng.randint(0, 2)
        game_record_out(game=game, out=[3, loser] if first else [loser, 3], by=DEMO)


def _season(
    club: Club, organiser: AbstractBaseUser, strengths: dict[str, float], rng: random.Random
) -> None:
    """A season of the club's Wednesday evenings since September, best 5 counted,
    ranked after 3, 2 points for each evening played; the Swiss and the evening above
    count toward it too."""
    by = Actor.director(organiser)
    season = season_create(
        club=club,
        name="Autumn season 2026",
        slug=SEASON,
        starts_on=dt.date(2026, 9, 1),
        ends_on=dt.date(2026, 12, 31),
        best_of=5,
        min_events=3,
        participation_points=2,
        by=by,
    )
    for day in SEASON_EVENINGS:
        tournament = tournament_create(
            club=club,
            name=f"Club evening {day.day} {day:%B}",
            slug=f"club-evening-{day.isoformat()}",
            kind=Tournament.Kind.EVENING,
            published=True,
            date=day,
            season=season,
            # The club settles a 3-player match tied at the top by a decider.
            decider=True,
            by=by,
        )
        present = rng.sample(NAMES, rng.randint(8, 12))
        entries_paste(
            tournament=tournament,
            text="\n".join(f"{n}, {1500 + round(strengths[n] * 150)}" for n in present),
            by=by,
        )
        for entry in Entry.objects.filter(tournament=tournament):
            entry_check_in(entry=entry, by=by)
        _play_evening(
            tournament, by, 3, strengths, rng, colours=True, showcase=day == SEASON_EVENINGS[0]
        )
    for slug in (SWISS, EVENING):
        tournament_update(tournament=Tournament.objects.get(slug=slug), season=season, by=by)


def _teams(club: Club, organiser: AbstractBaseUser, rng: random.Random) -> None:
    """A 2 vs 2 team event (section 3: partners sit opposite, seats 1 and 3 against 2
    and 4), two rounds played of three, results typed from the score sheets."""
    by = Actor.director(organiser)
    tournament = tournament_create(
        club=club,
        name="Doubles Cup 2026",
        slug=TEAMS,
        kind=Tournament.Kind.TEAMS,
        published=True,
        date=dt.date(2026, 11, 22),
        rounds_planned=3,
        by=by,
    )
    players = NAMES[12:24]
    teams_paste(
        tournament=tournament,
        text="\n".join(f"{a} + {b}" for a, b in zip(players[::2], players[1::2], strict=True)),
        by=by,
    )
    for _ in range(2):
        round_ = round_pair_next(tournament=tournament, by=by)
        round_publish(round=round_, by=by)
        for game in Game.objects.filter(table__round=round_):
            # The winning team brings its 5 pieces out between its two partners.
            won = rng.randint(0, 5)
            lost = rng.randint(0, 4)
            lost_first = rng.randint(0, lost)
            if rng.random() < 0.5:
                out = [won, lost_first, 5 - won, lost - lost_first]
            else:
                out = [lost_first, won, lost - lost_first, 5 - won]
            game_record_out(game=game, out=out, by=DEMO)
        round_close(round=round_, by=by)


def _family(club: Club, organiser: AbstractBaseUser, game: str, players: int, policy: str) -> None:
    title = dict(GAMES)[game]
    # The tournament steps are the organiser's own, recorded under their name.
    by = Actor.director(organiser)
    tournament = tournament_create(
        club=club,
        name=f"{title} afternoon",
        slug=f"{game.replace('_', '-')}-afternoon",
        game=game,
        policy=policy,
        published=True,
        date=dt.date(2026, 11, 21),
        rounds_planned=2,
        # One game per turn at every table, so the factors are equal: an even turn is
        # worth the same at 2 and 3 players (docs/scoring.md, the even-turn check).
        games_per_turn_2=1,
        games_per_turn_3=1,
        factor_2=1,
        factor_3=1,
        by=by,
    )
    entries_paste(tournament=tournament, text="\n".join(NAMES[14 : 14 + players]), by=by)
    for _ in range(2):
        round_ = round_pair_next(tournament=tournament, by=by)
        round_publish(round=round_, by=by)
        for game_ in Game.objects.filter(table__round=round_).select_related("table"):
            moves, setup = random_record(game, game_.table.seats.count(), seed=game_.pk)
            # A record that stops before its end is a game whose turn ended: a result.
            game_record_moves(game=game_, moves=moves, setup=setup, finished=False, by=DEMO)
        round_close(round=round_, by=by, force=True)


def demo_load(*, organiser: AbstractBaseUser) -> str:
    rng = random.Random(2026)
    strengths = _strengths(rng)
    # The organiser (the demo's staff account) opens the club and names themself its
    # organiser, as staff do in the admin.
    by = Actor.director(organiser)
    club = Club.objects.filter(slug=CLUB).first()
    if club is None:
        club = club_create(name="Pentagame Club Hamburg", slug=CLUB, city="Hamburg", by=by)
    organisers = list(club.organisers.all())
    if organiser not in organisers:
        club_organisers_set(club=club, organisers=[*organisers, organiser], by=by)
    done = []
    if not Tournament.objects.filter(slug=SWISS).exists():
        with transaction.atomic():
            _swiss(club, organiser, strengths, rng)
        done.append("Swiss tournament")
    if not Tournament.objects.filter(slug=EVENING).exists():
        with transaction.atomic():
            _evening(club, organiser, strengths, rng)
        done.append("club evening")
    if not Tournament.objects.filter(slug=TEAMS).exists():
        with transaction.atomic():
            _teams(club, organiser, rng)
        done.append("2 vs 2 team event")
    if not Season.objects.filter(club=club, slug=SEASON).exists():
        with transaction.atomic():
            _season(club, organiser, strengths, rng)
        done.append("a season of club evenings")
    for game, players, policy in FAMILY:
        if not Tournament.objects.filter(game=game).exists():
            with transaction.atomic():
                _family(club, organiser, game, players, policy)
            done.append(f"{dict(GAMES)[game]} tournament")
    return "Demo loaded: " + ", ".join(done) if done else "Demo already loaded; nothing added."
