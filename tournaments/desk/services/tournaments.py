"""Tournaments themselves: create, change settings, delete; and forbidden pairs.

Once a round exists, the settings the existing rounds were paired and scored under are
guarded: a change is refused with a message naming the field, unless the organiser
confirms it (``recompute=True``); then the standings and ratings are recomputed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games import rulesets
from tournaments import signals
from tournaments.core.actor import Actor, require_actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.core.freshness import standings_changed
from tournaments.core.permissions import can_direct, can_organise, lock_tournament
from tournaments.desk.services.entries import open_for_entries
from tournaments.desk.services.seasons import check_season_fits
from tournaments.desk.services.teams import check_team_settings
from tournaments.models import Club, Entry, ForbiddenPair, Round, Season, Tournament
from tournaments.results.services.broadcast import visibility_changed_on_commit
from tournaments.results.services.deciders import check_decider_settings, deciders_sync_tournament
from tournaments.standings.selectors.standings import scoring_settings
from tournaments.standings.table import ALL_TIE_BREAKS

# Settings the rounds already played were paired or scored under. Changing one after a
# round exists needs the organiser's confirmation (and recomputes); the kind never
# changes then: a Swiss round is no club evening.
GUARDED = (
    "game",
    "policy",
    "target",
    "games_per_turn_2",
    "games_per_turn_3",
    "factor_2",
    "factor_3",
    # The decider settles matches already played (the `wins` tie-break, the ratings).
    "decider",
)
# The pre-round is round 1 itself: once that is paired it is played as what it is.
FROZEN = ("kind", "pre_round", "pre_round_counts")
# Settings that change only the standings (not the ratings) of rounds already played:
# the same confirmation, then the standings are computed again.
STANDINGS_GUARDED = ("late_score",)
# Everything a change of which can alter the standings.
SCORED = (
    *GUARDED,
    *STANDINGS_GUARDED,
    "kind",
    "bye_score",
    "absence_score",
    "tiebreaks",
    "rounds_planned",
    "pre_round",
    "pre_round_counts",
)
# Who may see the tournament, or at which address: its open sockets check again.
VISIBILITY = ("published", "club", "name")
# What an even turn is worth depends on these (docs/scoring.md, "Time weighting").
TURN_SETTINGS = ("games_per_turn_2", "factor_2", "games_per_turn_3", "factor_3")
EDITABLE = (
    "club",
    "name",
    "date",
    "published",
    "kind",
    "game",
    "tiebreaks",
    "season",
    *Tournament.PLAY_SETTINGS,
)


def _plain(value: Any) -> Any:
    if isinstance(value, str | int | float | bool | list | type(None)):
        return value
    return str(value)


def check_game_settings(game: str, policy: str) -> None:
    try:
        ruleset = rulesets.get(game)
    except KeyError:
        raise ServiceError(_("no such game: %(game)s") % {"game": game}, field="game") from None
    two_only = 3 not in ruleset.table_sizes
    if two_only and policy != Tournament.Policy.PAIRS_BYE:
        raise ServiceError(
            _("this game is played by two: use 2-player tables and a bye"), field="policy"
        )


def check_pre_round(tournament: Tournament) -> None:
    """Section 21 begins a Swiss tournament "with some prior ranking, ... or a
    pre-round" (docs/pairing.md, "Pre-round"); the other kinds pair their first round by
    their own rule (a league's schedule, an evening's tables, the teams' seeds)."""
    if tournament.pre_round not in Tournament.PreRound.values:
        raise ServiceError(
            _("a pre-round is paired by rating or at random: %(choices)s, or empty for none")
            % {"choices": ", ".join(v for v in Tournament.PreRound.values if v)},
            field="pre_round",
        )
    if not isinstance(tournament.pre_round_counts, bool):
        raise ServiceError(_("true or false"), field="pre_round_counts")
    if tournament.pre_round and tournament.kind != Tournament.Kind.SWISS:
        raise ServiceError(
            _("only a Swiss tournament begins with a pre-round; choose none for this kind"),
            field="pre_round",
        )


def _check_tiebreaks(value: Any) -> list[str]:
    """The organiser's tie-break order: known names, each once."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ServiceError(_("the tie-breaks are a list of names"), field="tiebreaks")
    unknown = [v for v in value if v not in ALL_TIE_BREAKS]
    if unknown:
        raise ServiceError(
            _("unknown tie-break %(name)s (known: %(known)s)")
            % {"name": unknown[0], "known": ", ".join(ALL_TIE_BREAKS)},
            field="tiebreaks",
        )
    if len(set(value)) != len(value):
        raise ServiceError(_("each tie-break can be chosen once"), field="tiebreaks")
    return list(value)


def _check_turns(tournament: Tournament, changed: Any, accept_uneven: bool) -> None:
    """An even turn must be worth the same at a 2- and a 3-player table, or a player's
    score depends on the size of the tables she was seated at (section 21: "We can
    squarely compare two and three player games if we multiply ..."). Refused with the
    numbers unless the organiser accepts it; only checked when the setting changes and
    when 3-player tables can occur."""
    if not any(f in changed for f in (*TURN_SETTINGS, "game", "policy")):
        return
    if tournament.policy == Tournament.Policy.PAIRS_BYE or tournament.is_team_event:
        # No 3-player tables: a bye, or every table is two teams of two.
        return
    if 3 not in tournament.ruleset.table_sizes:
        return
    settings = scoring_settings(tournament)
    if settings.turns_are_even() or accept_uneven:
        return
    even = settings.even_game_score()
    worth = settings.even_turns()
    field = next((f for f in TURN_SETTINGS if f in changed), "games_per_turn_3")
    raise ServiceError(
        _(
            "an even turn is worth %(even)s × %(g2)s games × %(f2)s = %(w2)s at a 2-player "
            "table but %(even)s × %(g3)s games × %(f3)s = %(w3)s at a 3-player table; "
            "make them equal (the book: 3 games × 2 and 2 games × 3) or confirm uneven turns"
        )
        % {
            "even": _number(even),
            "g2": tournament.games_per_turn_2,
            "f2": _number(settings.factor_for(2)),
            "w2": _number(worth[2]),
            "g3": tournament.games_per_turn_3,
            "f3": _number(settings.factor_for(3)),
            "w3": _number(worth[3]),
        },
        field=field,
    )


def _number(value: float) -> str:
    return f"{value:g}"


def _slug_for(name: str, *, exclude: int | None = None, slug: str = "") -> str:
    """The name's slug, or the ``slug`` asked for (a permalink kept from elsewhere)."""
    field = "slug" if slug else "name"
    if slug and slugify(slug) != slug:
        raise ServiceError(_("a slug has only lower-case letters, digits and dashes"), field="slug")
    slug = slug or slugify(name)
    if not slug:
        raise ServiceError(_("the name needs at least one letter or digit"), field="name")
    clash = Tournament.objects.filter(slug=slug)
    if exclude is not None:
        clash = clash.exclude(pk=exclude)
    if clash.exists():
        if field == "slug":
            raise ServiceError(_("a tournament with this slug exists already"), field="slug")
        raise ServiceError(_("a tournament with this name exists already"), field="name")
    return slug


def tournament_create(
    *,
    club: Club,
    name: str,
    by: Actor,
    slug: str = "",
    uneven_turns: bool = False,
    **settings: Any,
) -> Tournament:
    """A new tournament of ``club``, directed by its creator. Its address comes from the
    name unless a ``slug`` is given. ``uneven_turns`` accepts games per turn and time
    factors that weigh an even turn differently by table size."""
    require_actor(by)
    if not can_organise(by.permission_user, club):
        raise PermissionDenied("only this club's organisers create tournaments")
    unknown = set(settings) - set(EDITABLE)
    if unknown:
        raise ServiceError(
            _("unknown setting %(setting)s") % {"setting": sorted(unknown)[0]},
            field=sorted(unknown)[0],
        )
    if "tiebreaks" in settings:
        settings["tiebreaks"] = _check_tiebreaks(settings["tiebreaks"])
    name = name.strip()
    with transaction.atomic():
        tournament = Tournament(club=club, name=name, slug=_slug_for(name, slug=slug), **settings)
        check_game_settings(tournament.game, tournament.policy)
        _check_turns(tournament, TURN_SETTINGS, uneven_turns)
        check_team_settings(kind=tournament.kind, game=tournament.game)
        check_season_fits(tournament)
        check_pre_round(tournament)
        check_decider_settings(tournament)
        tournament.created_by = by.audit_user
        tournament.save()
        if by.user is not None:
            tournament.directors.add(by.user)
        audit_record(tournament=tournament, by=by, action="create", target=name)
    return tournament


def tournament_update(
    *,
    tournament: Tournament,
    by: Actor,
    recompute: bool = False,
    uneven_turns: bool = False,
    **changes: Any,
) -> Tournament:
    """Change settings. After the first round: a guarded setting changes only with
    ``recompute`` (the standings and ratings are then computed again), the kind never.
    ``uneven_turns`` accepts games per turn and time factors that weigh an even turn
    differently by table size."""
    require_actor(by)
    if not can_direct(by.permission_user, tournament):
        raise PermissionDenied("only this tournament's directors may change it")
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        field = sorted(unknown)[0]
        raise ServiceError(_("%(field)s cannot be changed here") % {"field": field}, field=field)
    if "tiebreaks" in changes:
        changes["tiebreaks"] = _check_tiebreaks(changes["tiebreaks"])
    with transaction.atomic():
        locked = lock_tournament(pk=tournament.pk)
        changed = {f: v for f, v in changes.items() if getattr(locked, f) != v}
        if "club" in changed and not can_organise(by.permission_user, changed["club"]):
            raise PermissionDenied("only the new club's organisers may move a tournament there")
        first_round = locked.rounds.order_by("number").first()
        if first_round is not None:
            for field in FROZEN:
                if field in changed:
                    raise ConflictError(
                        _("%(field)s cannot change once round 1 is paired") % {"field": field},
                        field=field,
                    )
            guarded = [f for f in GUARDED if f in changed]
            if guarded and not recompute:
                raise ConflictError(
                    _(
                        "%(field)s cannot change once round 1 is paired unless you confirm that the standings and ratings are computed again"
                    )
                    % {"field": guarded[0]},
                    field=guarded[0],
                )
            standings_only = [f for f in STANDINGS_GUARDED if f in changed]
            if standings_only and not recompute:
                raise ConflictError(
                    _(
                        "%(field)s cannot change once round 1 is paired unless you confirm "
                        "that the standings are computed again"
                    )
                    % {"field": standings_only[0]},
                    field=standings_only[0],
                )
        else:
            guarded = []
        before = {f: _plain(getattr(locked, f)) for f in changed}
        for field, value in changed.items():
            setattr(locked, field, value)
        if "name" in changed:
            locked.name = locked.name.strip()
            locked.slug = _slug_for(locked.name, exclude=locked.pk)
        check_game_settings(locked.game, locked.policy)
        _check_turns(locked, changed, uneven_turns)
        check_team_settings(kind=locked.kind, game=locked.game)
        check_season_fits(locked)
        check_pre_round(locked)
        check_decider_settings(locked, changed)
        if "rounds_planned" in changed:
            _rounds_planned_changed(locked)
        locked.save()
        if "decider" in changed:
            # Switched on, the tied matches already played get their decider; switched
            # off, every decider is voided (services/deciders.py).
            deciders_sync_tournament(tournament=locked, by=by)
        if changed:
            audit_record(
                tournament=locked,
                by=by,
                action="settings",
                before=before,
                after={f: _plain(getattr(locked, f)) for f in changed},
            )
        if any(f in SCORED for f in changed):
            standings_changed(tournament=locked)
        if any(f in VISIBILITY for f in changed):
            visibility_changed_on_commit(locked.pk)
        if guarded and first_round is not None:
            _ratings_changed(tournament=locked, first_round=first_round, by=by)
        locked.refresh_from_db()
    return locked


def tournament_directors_set(
    *, tournament: Tournament, directors: Iterable[AbstractBaseUser], by: Actor
) -> Tournament:
    """Who directs the tournament besides its club's organisers (and staff)."""
    require_actor(by)
    if not can_direct(by.permission_user, tournament):
        raise PermissionDenied("only this tournament's directors may name its directors")
    with transaction.atomic():
        locked = lock_tournament(pk=tournament.pk)
        before = sorted(u.get_username() for u in locked.directors.all())
        directors = list(dict.fromkeys(directors))
        after = sorted(u.get_username() for u in directors)
        if before != after:
            locked.directors.set(directors)
            audit_record(tournament=locked, by=by, action="directors", before=before, after=after)
            visibility_changed_on_commit(locked.pk)
    return locked


def _rounds_planned_changed(tournament: Tournament) -> None:
    """Fewer rounds than are paired cannot be planned; more rounds bring a finished
    tournament back to running (its Pair button back), fewer finish one whose last
    round is closed."""
    if tournament.kind == Tournament.Kind.EVENING:
        return
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return
    if tournament.rounds_planned < last.number:
        raise ConflictError(
            _("%(count)s rounds are paired already; plan at least %(count)s")
            % {"count": last.number},
            field="rounds_planned",
        )
    closed = last.status == Round.Status.CLOSED
    if tournament.rounds_planned > last.number and tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
    elif tournament.rounds_planned == last.number and closed:
        tournament.status = Tournament.Status.FINISHED


def tournament_add_rounds(*, tournament: Tournament, count: int = 1, by: Actor) -> Tournament:
    """Plan ``count`` more rounds, also after the tournament has finished itself."""
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 20:
        raise ServiceError(_("add between 1 and 20 rounds"), field="count")
    planned = Tournament.objects.get(pk=tournament.pk).rounds_planned + count
    if planned > 99:
        raise ServiceError(_("at most 99 rounds can be planned"), field="count")
    return tournament_update(tournament=tournament, rounds_planned=planned, by=by)


def tournament_delete(*, tournament: Tournament, by: Actor) -> None:
    """Delete a tournament with everything in it; the ratings are then recomputed as if
    it had never been played."""
    require_actor(by)
    if not can_direct(by.permission_user, tournament):
        raise PermissionDenied("only this tournament's directors may delete it")
    with transaction.atomic():
        locked = lock_tournament(pk=tournament.pk)
        _ratings_forget(tournament=locked, by=by)
        visibility_changed_on_commit(locked.pk)
        locked.delete()


def _ratings_changed(*, tournament: Tournament, first_round: Round, by: Actor) -> None:
    """A tournament's rated history changed from its first round on (a confirmed change
    of a played setting): the ratings listen (tournaments/signals.py)."""
    signals.closed_result_changed.send(sender=Round, round_id=first_round.pk, by=by)


def _ratings_forget(
    *,
    tournament: Tournament | None = None,
    round: Round | None = None,  # noqa: A002
    by: Actor,
) -> None:
    """Rated history (a whole tournament, or one round) is about to be deleted, in this
    transaction: the ratings listen and queue the replay without it."""
    signals.history_deleted.send(
        sender=Tournament,
        tournament_id=None if tournament is None else tournament.pk,
        round_id=None if round is None else round.pk,
        by=by,
    )


def round_delete(*, round: Round, by: Actor) -> None:  # noqa: A002
    """Delete the last round (paired, published or closed) with its tables and games; a
    closed round's ratings are replayed without it. Earlier rounds stay: later pairings
    were made from them. A closed club evening is rated as a whole and keeps its rounds."""
    require_actor(by)
    with transaction.atomic():
        tournament = lock_tournament(pk=round.tournament_id)
        if not can_direct(by.permission_user, tournament):
            raise PermissionDenied("only this tournament's directors may do that")
        locked = Round.objects.select_for_update().filter(pk=round.pk).first()
        if locked is None:
            raise ConflictError(_("this round was deleted already; reload"), field="round")
        last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
        if locked.number != last:
            raise ConflictError(
                _("only the last round (%(last)s) can be deleted, not round %(number)s")
                % {"last": last, "number": locked.number},
                field="round",
            )
        if tournament.kind == Tournament.Kind.EVENING and (
            tournament.status == Tournament.Status.FINISHED
        ):
            raise ConflictError(_("the evening is closed and rated as a whole"), field="round")
        if locked.status == Round.Status.CLOSED:
            _ratings_forget(round=locked, by=by)
        audit_record(
            tournament=tournament, by=by, action="delete round", target=f"round {locked.number}"
        )
        locked.delete()
        if not tournament.rounds.exists():
            tournament.status = Tournament.Status.DRAFT
        elif tournament.status == Tournament.Status.FINISHED:
            tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        standings_changed(tournament=tournament)


def forbidden_pair_add(
    *, tournament: Tournament, first: Entry, second: Entry, reason: str = "", by: Actor
) -> ForbiddenPair:
    """Never seat these two entries together (from the next pairing on)."""
    require_actor(by)
    if not can_direct(by.permission_user, tournament):
        raise PermissionDenied("only this tournament's directors may do that")
    if first.tournament_id != tournament.pk or second.tournament_id != tournament.pk:
        raise ServiceError(_("both players must be entered in this tournament"), field="second")
    if first.pk == second.pk:
        raise ServiceError(_("choose two different players"), field="second")
    with transaction.atomic():
        open_for_entries(lock_tournament(pk=tournament.pk))
        pair, created = ForbiddenPair.objects.get_or_create(
            tournament=tournament, first=first, second=second, defaults={"reason": reason}
        )
        if created:
            audit_record(
                tournament=tournament,
                by=by,
                action="forbid pair",
                target=f"{first.player.name} / {second.player.name}",
            )
    return pair


def forbidden_pair_remove(*, pair: ForbiddenPair, by: Actor) -> None:
    """These two may meet again (from the next pairing on)."""
    require_actor(by)
    tournament = pair.tournament
    if not can_direct(by.permission_user, tournament):
        raise PermissionDenied("only this tournament's directors may do that")
    with transaction.atomic():
        locked = ForbiddenPair.objects.select_for_update().filter(pk=pair.pk).first()
        if locked is None:
            return
        audit_record(
            tournament=tournament,
            by=by,
            action="allow pair",
            target=f"{locked.first.player.name} / {locked.second.player.name}",
        )
        locked.delete()


# A season's side of an event's season setting (the seasons' API): kept here, beside
# tournament_update, since services/seasons.py is imported by this module for its checks.
def _season_of_club(season: Season, tournament: Tournament, by: Actor) -> None:
    require_actor(by)
    if not can_organise(by.permission_user, season.club):
        raise PermissionDenied("only this club's organisers change its seasons")
    if tournament.club_id != season.club_id:
        raise ServiceError(_("choose an event of this season's club"), field="event")


def season_event_attach(*, season: Season, tournament: Tournament, by: Actor) -> Tournament:
    """The event joins the season: the event's own setting, changed by its service (the
    settings page's path), so the same checks and audit apply."""
    _season_of_club(season, tournament, by)
    return tournament_update(tournament=tournament, by=by, season=season)


def season_event_detach(*, season: Season, tournament: Tournament, by: Actor) -> Tournament:
    """The event leaves the season; it stays an event of the club."""
    _season_of_club(season, tournament, by)
    if tournament.season_id != season.pk:
        raise ServiceError(
            _("%(event)s is no event of %(season)s")
            % {"event": tournament.name, "season": season.name},
            field="event",
        )
    return tournament_update(tournament=tournament, by=by, season=None)
