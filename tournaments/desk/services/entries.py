"""Entering players: one by one, a pasted list, late entries, corrections, deletion,
withdrawal and re-admission, announced byes and absences, check-in."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments import starting_ratings
from tournaments.core.actor import Actor, require_actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.core.freshness import standings_changed, standings_changed_for_players
from tournaments.core.permissions import lock_tournament
from tournaments.models import Entry, Player, Round, Season, Skip, Tournament
from tournaments.standings.selectors.seasons import season_ranks
from tournaments.standings.selectors.standings import tournament_standings

NAME_MAX = Player._meta.get_field("name").max_length or 120
# Plausible ratings at entry (every system the club keeps stays within these).
RATING_MIN = 0
RATING_MAX = 3000
# A pasted line is `name` or `name, rating` (a semicolon or a tab separates too).
SEPARATORS = re.compile(r"[,;\t]")
PASTED_NUMBER = re.compile(r"[+-]?\d+")


class NamesInDoubt(ConflictError):
    """Names that may be players of the club but are not certainly: the organiser chooses
    (one of the candidates, or a new player) and sends again; nothing is entered."""

    def __init__(
        self, doubts: list[PastedLine], *, field: str, lines: list[PastedLine] | None = None
    ) -> None:
        problems = [
            pasted_line_problem(
                d.number,
                d.name,
                _("is this %(players)s, or a new player? Choose")
                % {"players": _(" or ").join(p.name for p in d.candidates)},
            )
            if field == "players"
            else _("%(name)s: is this %(players)s, or a new player? Choose")
            % {"name": d.name, "players": _(" or ").join(p.name for p in d.candidates)}
            for d in doubts
        ]
        message = "; ".join(problems) or _("confirm the players the names were matched to")
        super().__init__(message, field=field)
        self.doubts = doubts
        # Every line of the list, for the page that asks (the matched ones shown too).
        self.lines = lines or doubts


class PasteError(ServiceError):
    """A pasted list with bad lines: every problem, one per bad line, in line order."""

    def __init__(self, problems: list[str], *, field: str = "players") -> None:
        super().__init__("; ".join(problems), field=field)
        self.problems = problems


def _next_seed(tournament: Tournament) -> int:
    top = tournament.entries.aggregate(top=Max("seed"))["top"]
    return (top or 0) + 1


def _current_round_number(tournament: Tournament | int) -> int:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    top = Round.objects.filter(tournament_id=pk).aggregate(top=Max("number"))["top"]
    return top or 0


def name_problem(name: str) -> str | None:
    """What is wrong with a player's name as typed (whitespace already collapsed)."""
    if not name:
        return _("a player needs a name")
    if len(name) > NAME_MAX:
        return _("a name has at most %(max)s characters") % {"max": NAME_MAX}
    if SEPARATORS.search(name):
        # "Ida Imhof, abc" is a name with a mistyped rating, not a name.
        return _("a name has no comma or semicolon (a rating follows the comma)")
    return None


def rating_problem(rating: int | None) -> str | None:
    if rating is not None and not RATING_MIN <= rating <= RATING_MAX:
        return _("rating must be between %(min)s and %(max)s") % {
            "min": RATING_MIN,
            "max": RATING_MAX,
        }
    return None


def _clean_name(name: str) -> str:
    name = " ".join(str(name).split())
    problem = name_problem(name)
    if problem:
        raise ServiceError(problem, field="name")
    return name


def _clean_rating(rating: Any) -> int | None:
    if rating is None or rating == "":
        return None
    if isinstance(rating, bool) or not isinstance(rating, int):
        raise ServiceError(_("rating must be a number"), field="rating")
    problem = rating_problem(rating)
    if problem:
        raise ServiceError(problem, field="rating")
    return rating


def _clean_score(score: Any) -> Decimal | None:
    if score is None or score == "":
        return None
    try:
        value = Decimal(str(score))
    except InvalidOperation:
        raise ServiceError(_("points must be a number"), field="missed_round_score") from None
    if not value.is_finite() or not Decimal(-1000) < value < Decimal(1000):
        raise ServiceError(_("points must be between -999 and 999"), field="missed_round_score")
    return value.quantize(Decimal("0.01"))


def open_for_entries(tournament: Tournament) -> None:
    """A finished tournament or a closed evening is read-only for its players: no entry,
    withdrawal, re-admission, announced skip, check-in or new seed until it runs again
    (rounds added, the evening reopened; docs/standings.md, "Taking a step back")."""
    if tournament.status == Tournament.Status.FINISHED:
        if tournament.kind == Tournament.Kind.EVENING:
            raise ConflictError(_("the evening is closed; reopen it first"), field="tournament")
        raise ConflictError(_("the tournament is finished; add rounds first"), field="tournament")


def name_key(name: str) -> str:
    """A name as it is compared with the club's players: case and spacing do not count
    ("cleo  MARCHETTI" is Cleo Marchetti); accents do (René is not Rene)."""
    return " ".join(name.split()).casefold()


def _loose(key: str) -> str:
    # Accents, hyphens and spaces dropped: close enough to ask, never to decide.
    bare = unicodedata.normalize("NFKD", key)
    return "".join(c for c in bare if c.isalnum())


def _one_edit_apart(a: str, b: str) -> bool:
    """One letter changed, added, dropped, or two neighbours swapped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return a == b
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
        )
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def _digits(name: str) -> str:
    # Numbers tell players apart on purpose ("Team 1 Anna" and "Team 2 Anna", a
    # club's "Jan Kowalski 2"): a different number is never a typo.
    return "".join(c for c in name if c.isdigit())


# A one-letter difference is a typo only in a name this long ("Ida"/"Ina" are two people).
NEAR_MIN_LENGTH = 10


@dataclass(frozen=True)
class PastedLine:
    """What a name becomes: the club's ``player`` (certain), a new player (neither), or
    a question to the organiser (``candidates``: the players it may be)."""

    number: int
    name: str
    rating: int | None = None
    player: Player | None = None
    candidates: tuple[Player, ...] = ()

    @property
    def doubtful(self) -> bool:
        return bool(self.candidates)

    @property
    def renamed(self) -> bool:
        # Matched to a player written otherwise: shown to the organiser before entering.
        return self.player is not None and self.player.name != self.name


def _match(players: list[Player], number: int, name: str, rating: int | None) -> PastedLine:
    key = name_key(name)
    same = [p for p in players if name_key(p.name) == key]
    if len(same) == 1:
        return PastedLine(number, name, rating, player=same[0])
    if same:
        return PastedLine(number, name, rating, candidates=tuple(same))
    loose = _loose(key)
    near = tuple(
        p
        for p in players
        if _loose(name_key(p.name)) == loose
        or (
            len(loose) >= NEAR_MIN_LENGTH
            and _one_edit_apart(_loose(name_key(p.name)), loose)
            and _digits(p.name) == _digits(name)
        )
    )
    return PastedLine(number, name, rating, candidates=near)


def _club_players(tournament: Tournament) -> list[Player]:
    return list(Player.objects.filter(club=tournament.club).order_by("name", "pk"))


Choice = int | str  # a player's id, or "new"


def _chosen(tournament: Tournament, line: PastedLine, choice: Choice | None, field: str) -> Player:
    """The player a line enters: the organiser's choice if she made one, else the
    certain match, else a new player; a doubt without a choice is not decided here."""
    if choice == "new":
        player, created = Player.objects.get_or_create(club=tournament.club, name=line.name)
        if not created:
            raise ServiceError(
                _("%(name)s is a player of this club already: choose her") % {"name": line.name},
                field=field,
            )
        return player
    if choice is not None:
        player = (
            Player.objects.filter(club=tournament.club, pk=choice).first()
            if isinstance(choice, int) and not isinstance(choice, bool)
            else None
        )
        if player is None:
            raise ServiceError(_("choose a player of this club, or a new player"), field="player")
        return player
    if line.player is not None:
        return line.player
    player, _created = Player.objects.get_or_create(club=tournament.club, name=line.name)
    return player


def _check_in_used(tournament: Tournament) -> bool:
    return tournament.entries.filter(checked_in=True).exists()


def entry_add(
    *,
    tournament: Tournament,
    name: str,
    rating: int | None = None,
    missed_round_score: Any = None,
    player_choice: Choice | None = None,
    by: Actor,
) -> Entry:
    """Enter a player by name (found in the tournament's club regardless of case and
    spacing, or created there; a name only near a player's, or matching two, is refused
    with NamesInDoubt until ``player_choice`` says whom: a player's id or "new"). After
    round 1 has been paired the entry is a late one and joins from the next round; each
    round missed scores ``missed_round_score`` (the organiser's choice; empty: nothing).
    Once check-in has begun, a newly entered player is checked in: they are at the desk."""
    require_actor(by)
    name = _clean_name(name)
    rating = _clean_rating(rating)
    missed = _clean_score(missed_round_score)
    with transaction.atomic():
        tournament = lock_tournament(pk=tournament.pk)
        open_for_entries(tournament)
        line = _match(_club_players(tournament), 1, name, rating)
        if line.doubtful and player_choice is None:
            raise NamesInDoubt([line], field="name")
        player = _chosen(tournament, line, player_choice, "name")
        if tournament.entries.filter(player=player).exists():
            raise ServiceError(
                _("%(name)s is already entered") % {"name": player.name}, field="name"
            )
        if rating is None:
            # A club member with a rating keeps it; nobody is shown as rated 0.
            rating = _known_ratings(tournament, [player.pk]).get(player.pk)
        paired = _current_round_number(tournament)
        entry = Entry.objects.create(
            tournament=tournament,
            player=player,
            seed=_next_seed(tournament),
            rating=rating,
            status=Entry.Status.LATE if paired else Entry.Status.ACTIVE,
            joined_round=paired + 1,
            missed_round_score=missed if paired else None,
            checked_in=_check_in_used(tournament),
        )
        if paired:
            audit_record(
                tournament=tournament,
                by=by,
                action="late entry",
                target=name,
                after={
                    "joined_round": paired + 1,
                    "missed_round_score": None if missed is None else str(missed),
                },
            )
        standings_changed(tournament=tournament)
    return entry


def pasted_line_problem(number: int, line: str, problem: str) -> str:
    return _('line %(number)s: "%(line)s": %(problem)s') % {
        "number": number,
        "line": line,
        "problem": problem,
    }


def _parse_paste(
    text: str,
) -> tuple[list[tuple[int, str, int | None]], list[tuple[int, str]]]:
    """The lines of a pasted list as (line number, name, rating), and a problem for each
    bad line: `line 3: "Ida Imhof, abc": rating must be a number`."""
    rows: list[tuple[int, str, int | None]] = []
    problems: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = SEPARATORS.split(line)
        name = " ".join(parts[0].split())
        rating: int | None = None
        problem: str | None = None
        if len(parts) > 2:
            problem = _("one name and at most one rating per line")
        elif len(parts) == 2 and parts[1].strip():
            raw = parts[1].strip()
            if not PASTED_NUMBER.fullmatch(raw):
                problem = _("rating must be a number")
            else:
                rating = int(raw)
                problem = rating_problem(rating)
        problem = problem or name_problem(name)
        if problem is None and name.casefold() in seen:
            problem = _("%(name)s appears twice (line %(line)s too)") % {
                "name": name,
                "line": seen[name.casefold()],
            }
        if problem is not None:
            problems.append((number, pasted_line_problem(number, line.strip(), problem)))
            continue
        seen[name.casefold()] = number
        rows.append((number, name, rating))
    return rows, problems


def entries_paste_preview(*, tournament: Tournament, text: str) -> list[PastedLine]:
    """What each line of a pasted list becomes (the club's player, a new one, or a
    question), for the organiser to confirm; bad lines raise PasteError as on entering."""
    rows, problems = _parse_paste(text)
    if not rows and not problems:
        raise ServiceError(_("the list is empty"), field="players")
    lines = [_match(_club_players(tournament), n, name, r) for n, name, r in rows]
    entered = {name_key(n) for n in tournament.entries.values_list("player__name", flat=True)}
    for line in lines:
        if name_key(line.player.name if line.player else line.name) in entered:
            problem = pasted_line_problem(line.number, line.name, _("already entered"))
            problems.append((line.number, problem))
    if problems:
        problems.sort(key=lambda p: p[0])
        raise PasteError([message for _number, message in problems])
    return lines


def entries_paste(
    *,
    tournament: Tournament,
    text: str,
    choices: Mapping[int, Choice] | None = None,
    confirm_matches: bool = False,
    by: Actor,
) -> list[Entry]:
    """Enter a pasted list, one player per line, optionally `name, rating`. All or
    nothing: every bad line is reported by its number (PasteError) and nothing is
    entered. A name matches the club's player regardless of case and spacing; doubtful
    lines (near one player, or matching two) are refused together (NamesInDoubt) until
    ``choices`` (line number -> a player's id or "new") settles each. With
    ``confirm_matches`` (the run page's first step) a list with a name matched to a player
    written otherwise is refused the same way, to be shown before it is entered."""
    require_actor(by)
    open_for_entries(Tournament.objects.get(pk=tournament.pk))  # and again, locked, per entry
    choices = choices or {}
    lines = entries_paste_preview(tournament=tournament, text=text)
    doubts = [line for line in lines if line.doubtful and line.number not in choices]
    if doubts or (confirm_matches and any(line.renamed for line in lines)):
        raise NamesInDoubt(doubts, field="players", lines=lines)
    entries: list[Entry] = []
    with transaction.atomic():
        for line in lines:
            try:
                entries.append(
                    entry_add(
                        tournament=tournament,
                        name=line.name,
                        rating=line.rating,
                        player_choice=choices.get(line.number, line.player and line.player.pk),
                        by=by,
                    )
                )
            except NamesInDoubt as exc:  # a player of the club added meanwhile
                doubt = replace(exc.doubts[0], number=line.number)
                raise NamesInDoubt([doubt], field="players") from None
            except ServiceError as exc:
                raise ServiceError(exc.message, field="players") from None
    return entries


def _known_ratings(tournament: Tournament, player_ids: list[int]) -> dict[int, int]:
    return starting_ratings.provide(
        player_ids=player_ids, game=tournament.game, system=tournament.club.rating_system
    )


def entries_reseed_by_rating(
    *, tournament: Tournament, by: Actor, source: Tournament | Season | None = None
) -> int:
    """Seed order = rating, highest first (unrated last, in entry order). An entry
    without a rating takes the player's current one first, if they have one. Returns
    how many entries are still unrated.

    With ``source``, an earlier event of the same club, the seeds follow its final
    standings first: the book starts a Swiss "with some prior ranking, typically the
    result of the previous tournament" (section 21; docs/pairing.md "Seeding"). Its
    players come first in their final rank; everyone who did not play it (a newcomer)
    follows by rating as above. A ``source`` season of the club gives its standings'
    order the same way (its ranked players; those not yet ranked count as newcomers)."""
    require_actor(by)
    prior = _prior_ranks(tournament, source) if source is not None else {}
    with transaction.atomic():
        open_for_entries(lock_tournament(pk=tournament.pk))
        # The entries only: their players are read (a plain FOR UPDATE would lock the
        # joined players too, which a rating job's writes wait for; issue 41).
        entries = list(
            tournament.entries.select_for_update(of=("self",))
            .select_related("player")
            .order_by("seed")
        )
        blank = [e for e in entries if e.rating is None]
        known = _known_ratings(tournament, [e.player_id for e in blank])
        filled = [e for e in blank if e.player_id in known]
        for entry in filled:
            entry.rating = known[entry.player_id]
        if filled:
            Entry.objects.bulk_update(filled, ["rating"])
            audit_record(
                tournament=tournament,
                by=by,
                action="ratings filled",
                target=", ".join(e.player.name for e in filled)[:120],
            )
        ordered = sorted(
            entries,
            key=lambda e: (
                e.player_id not in prior,
                prior.get(e.player_id, 0),
                e.rating is None,
                -(e.rating or 0),
                e.seed,
            ),
        )
        if source is not None:
            audit_record(tournament=tournament, by=by, action="seeded", target=source.name[:120])
        # Two passes keep the unique (tournament, seed) constraint satisfied throughout.
        offset = len(entries) + 1000
        for entry in entries:
            entry.seed += offset
        Entry.objects.bulk_update(entries, ["seed"])
        for i, entry in enumerate(ordered, start=1):
            entry.seed = i
        Entry.objects.bulk_update(ordered, ["seed"])
        standings_changed(tournament=tournament)
    return sum(1 for e in entries if e.rating is None)


def _prior_ranks(tournament: Tournament, source: Tournament | Season) -> dict[int, int]:
    """Player -> place in the final standings of ``source``, a finished earlier event
    of the same club (a withdrawn player keeps hers), or in the
    standings of a season of the club."""
    if isinstance(source, Season):
        if source.club_id != tournament.club_id:
            raise ServiceError(_("choose a season of this club"), field="season")
        ranks = season_ranks(source)
        if not ranks:
            raise ServiceError(
                _("%(season)s has no ranked player yet: it gives no order")
                % {"season": source.name},
                field="season",
            )
        return ranks
    if source.pk == tournament.pk:
        raise ServiceError(_("choose another event: this one has no result yet"), field="event")
    if source.club_id != tournament.club_id:
        raise ServiceError(_("choose an event of this club"), field="event")
    finished = Tournament.objects.filter(pk=source.pk, status=Tournament.Status.FINISHED)
    if not finished.exists():  # as stored now, not as the caller last read it
        raise ServiceError(
            _("%(event)s has not finished: it has no final standings yet") % {"event": source.name},
            field="event",
        )
    standings = tournament_standings(tournament=source)
    if not standings.rows:
        raise ServiceError(
            _("%(event)s has no closed round: it gives no order") % {"event": source.name},
            field="event",
        )
    players = dict(
        Entry.objects.filter(pk__in=[r.entry_id for r in standings.rows]).values_list(
            "pk", "player_id"
        )
    )
    # The standings' order, not only their rank numbers: players tied on every
    # tie-break share a rank but are listed in the order the standings settle them.
    return {players[row.entry_id]: place for place, row in enumerate(standings.rows, start=1)}


def _locked(entry: Entry) -> Entry:
    # The entry only; its player is locked where it is renamed (`_entry_rename`), not on
    # every edit (a plain FOR UPDATE locks the joined player too; issue 41).
    locked = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk=entry.pk)
        .first()
    )
    if locked is None:
        raise ConflictError(_("this player was removed meanwhile; reload"), field="entry")
    return locked


_UNCHANGED: Any = object()


def entry_update(
    *,
    entry: Entry,
    by: Actor,
    name: str = _UNCHANGED,
    rating: int | None = _UNCHANGED,
    missed_round_score: Any = _UNCHANGED,
) -> Entry:
    """Correct an entry: the player's name (the player is renamed everywhere: it is the
    same person; a name of another club player not yet entered re-points an entry that
    has not played to that player), the rating at entry, a late entry's points per
    missed round."""
    require_actor(by)
    new_name = None if name is _UNCHANGED else _clean_name(name)
    new_rating = _UNCHANGED if rating is _UNCHANGED else _clean_rating(rating)
    new_missed = (
        _UNCHANGED if missed_round_score is _UNCHANGED else _clean_score(missed_round_score)
    )
    with transaction.atomic():
        lock_tournament(pk=entry.tournament_id)
        locked = _locked(entry)
        before: dict[str, Any] = {}
        after: dict[str, Any] = {}
        if new_name is not None and new_name != locked.player.name:
            before["name"], after["name"] = locked.player.name, new_name
            _entry_rename(locked, new_name)
        if new_rating is not _UNCHANGED and new_rating != locked.rating:
            before["rating"], after["rating"] = locked.rating, new_rating
            locked.rating = new_rating
        if new_missed is not _UNCHANGED and new_missed != locked.missed_round_score:
            if locked.joined_round <= 1:
                raise ServiceError(
                    _("only a late entry has missed rounds"), field="missed_round_score"
                )
            before["missed_round_score"] = _text(locked.missed_round_score)
            after["missed_round_score"] = _text(new_missed)
            locked.missed_round_score = new_missed
        if after:
            locked.save(update_fields=["player", "rating", "missed_round_score"])
            audit_record(
                tournament=locked.tournament,
                by=by,
                action="edit entry",
                target=locked.player.name,
                before=before,
                after=after,
            )
            standings_changed(tournament=locked.tournament_id)
    return locked


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _entry_rename(entry: Entry, name: str) -> None:
    player = Player.objects.select_for_update().get(pk=entry.player_id)
    other = Player.objects.filter(club=player.club, name=name).exclude(pk=player.pk).first()
    if other is None:
        player.name = name
        player.save(update_fields=["name"])
        standings_changed_for_players(players=[player])
        entry.player = player
        return
    if Entry.objects.filter(tournament_id=entry.tournament_id, player=other).exists():
        raise ConflictError(_("%(name)s is already entered") % {"name": name}, field="name")
    if entry.seats.exists():
        raise ConflictError(
            _(
                "%(name)s is another player of this club, and %(player)s has played here "
                "already: their games stay theirs"
            )
            % {"name": name, "player": player.name},
            field="name",
        )
    # A mistyped name of someone the club knows: the entry becomes theirs.
    entry.player = other
    entry.save(update_fields=["player"])
    _forget_if_unused(player)


def _forget_if_unused(player: Player) -> None:
    """A player created by a typo, entered nowhere else and without an account, goes."""
    if player.user_id is None and not Entry.objects.filter(player=player).exists():
        player.delete()


def entry_delete(*, entry: Entry, by: Actor) -> None:
    """Remove an entry before the player's first round (a typo, a no-show); a player
    who has played is withdrawn instead: their games are history."""
    require_actor(by)
    with transaction.atomic():
        open_for_entries(lock_tournament(pk=entry.tournament_id))
        locked = _locked(entry)
        first = locked.seats.order_by("round__number").values_list("round__number", flat=True)
        if first.exists():
            raise ConflictError(
                _("%(name)s has played in round %(round)s; withdraw them instead")
                % {"name": locked.player.name, "round": first[0]},
                field="entry",
            )
        # Deleting a team's player would take the team with it, unseen (a cascade).
        if hasattr(locked, "team_as_first") or hasattr(locked, "team_as_second"):
            raise ConflictError(
                _("%(name)s plays in a team; dissolve the team first")
                % {"name": locked.player.name},
                field="entry",
            )
        player = locked.player
        audit_record(
            tournament=locked.tournament,
            by=by,
            action="delete entry",
            target=player.name,
            before={"seed": locked.seed, "rating": locked.rating, "status": locked.status},
        )
        locked.delete()
        _forget_if_unused(player)
        standings_changed(tournament=locked.tournament_id)


def entry_withdraw(*, entry: Entry, by: Actor) -> Entry:
    """Not paired from the next round on; rounds played stay in the standings."""
    require_actor(by)
    with transaction.atomic():
        open_for_entries(lock_tournament(pk=entry.tournament_id))
        entry = _locked(entry)
        if entry.status == Entry.Status.WITHDRAWN:
            return entry
        before = entry.status
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_after_round = _current_round_number(entry.tournament_id)
        entry.save(update_fields=["status", "withdrawn_after_round"])
        audit_record(
            tournament=entry.tournament,
            by=by,
            action="withdraw",
            target=entry.player.name,
            before={"status": before},
            after={"withdrawn_after_round": entry.withdrawn_after_round},
        )
        standings_changed(tournament=entry.tournament_id)
    return entry


def entry_readmit(*, entry: Entry, by: Actor) -> Entry:
    """Undo a withdrawal: paired again from the next round; rounds missed meanwhile
    count as absences."""
    require_actor(by)
    with transaction.atomic():
        tournament = lock_tournament(pk=entry.tournament_id)
        open_for_entries(tournament)
        entry = _locked(entry)
        if entry.status != Entry.Status.WITHDRAWN:
            return entry
        before = entry.withdrawn_after_round
        entry.status = Entry.Status.LATE if entry.joined_round > 1 else Entry.Status.ACTIVE
        entry.withdrawn_after_round = None
        entry.save(update_fields=["status", "withdrawn_after_round"])
        audit_record(
            tournament=tournament,
            by=by,
            action="re-admit",
            target=entry.player.name,
            before={"withdrawn_after_round": before},
            after={"status": entry.status},
        )
        standings_changed(tournament=tournament)
    return entry


def entry_skip(*, entry: Entry, round_number: int, bye: bool = False, by: Actor) -> Skip:
    """The player announced they will not play round ``round_number``: not paired then;
    scored as the tournament's bye (a requested bye) or its absence."""
    require_actor(by)
    with transaction.atomic():
        tournament = lock_tournament(pk=entry.tournament_id)
        open_for_entries(tournament)
        entry = _locked(entry)
        if entry.status == Entry.Status.WITHDRAWN:
            raise ConflictError(
                _("%(name)s is withdrawn") % {"name": entry.player.name}, field="entry"
            )
        paired = _current_round_number(tournament)
        if not isinstance(round_number, int) or round_number < 1:
            raise ServiceError(_("choose a round"), field="round_number")
        if round_number <= paired:
            raise ConflictError(
                _("round %(number)s is paired already") % {"number": round_number},
                field="round_number",
            )
        if tournament.kind != Tournament.Kind.EVENING and round_number > tournament.rounds_planned:
            raise ServiceError(
                _("only %(count)s rounds are planned") % {"count": tournament.rounds_planned},
                field="round_number",
            )
        if round_number < entry.joined_round:
            raise ServiceError(
                _("%(name)s joins in round %(round)s")
                % {"name": entry.player.name, "round": entry.joined_round},
                field="round_number",
            )
        skip, _created = Skip.objects.update_or_create(
            entry=entry, round_number=round_number, defaults={"bye": bye}
        )
        audit_record(
            tournament=tournament,
            by=by,
            action="requested bye" if bye else "skips round",
            target=entry.player.name,
            after={"round": round_number},
        )
        standings_changed(tournament=tournament)
    return skip


def entry_unskip(*, entry: Entry, round_number: int, by: Actor) -> None:
    """Take back an announced bye or absence of a round not yet paired."""
    require_actor(by)
    if not 1 <= round_number <= 99:
        raise ServiceError(_("choose a round from 1 to 99"), field="round_number")
    with transaction.atomic():
        tournament = lock_tournament(pk=entry.tournament_id)
        open_for_entries(tournament)
        if round_number <= _current_round_number(tournament):
            raise ConflictError(
                _("round %(number)s is paired already") % {"number": round_number},
                field="round_number",
            )
        deleted, _by_model = Skip.objects.filter(entry=entry, round_number=round_number).delete()
        if deleted:
            audit_record(
                tournament=tournament,
                by=by,
                action="plays round",
                target=entry.player.name,
                after={"round": round_number},
            )
            standings_changed(tournament=tournament)


def entry_check_in(*, entry: Entry, present: bool = True, by: Actor) -> Entry:
    """At the door: here (or not after all). Once anyone is checked in, only those
    checked in are paired."""
    require_actor(by)
    with transaction.atomic():
        tournament = lock_tournament(pk=entry.tournament_id)
        open_for_entries(tournament)
        locked = _locked(entry)
        if present and locked.status == Entry.Status.WITHDRAWN:
            raise ConflictError(
                _("%(name)s is withdrawn; re-admit them first") % {"name": locked.player.name},
                field="entry",
            )
        if locked.checked_in != present:
            locked.checked_in = present
            locked.save(update_fields=["checked_in"])
            audit_record(
                tournament=tournament,
                by=by,
                action="check in" if present else "check out",
                target=locked.player.name,
            )
    return locked


def entries_check_in_all(*, tournament: Tournament, by: Actor) -> int:
    """Check in everyone entered and not withdrawn; returns how many were checked in."""
    require_actor(by)
    with transaction.atomic():
        tournament = lock_tournament(pk=tournament.pk)
        open_for_entries(tournament)
        count = (
            tournament.entries.exclude(status=Entry.Status.WITHDRAWN)
            .filter(checked_in=False)
            .update(checked_in=True)
        )
        audit_record(tournament=tournament, by=by, action="check in everyone", after=count)
    return count
