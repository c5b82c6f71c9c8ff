"""The link between a venue and the club's site (docs/venue.md).

On the club's site: tokens (one club each, shown once, revocable), the push an event run
at a venue arrives by (`event_push_apply`), and taking such an event over. On the venue:
the link to the site (`site_link_set`) and the push itself (`event_push`).

A push is incremental and idempotent: the venue sends the digest of every part of the
event (its head and each round) and in full only the parts the site has not
acknowledged; the site applies a part only when its digest differs from the one it
holds, all in one transaction, so a push repeated, cut in the middle or resumed changes
nothing twice."""

from __future__ import annotations

import datetime as dt
import gzip
import http.client
import json
import logging
import secrets
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import DataError, IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import signals
from tournaments.core.actor import Actor, require_actor
from tournaments.core.audit import audit_record
from tournaments.core.errors import ConflictError, ServiceError
from tournaments.core.freshness import standings_changed
from tournaments.core.permissions import can_organise, venue_push_applying
from tournaments.link.documents import ROUNDS_PER_PUSH, PushDocument, push_body
from tournaments.link.selectors import token_digest
from tournaments.models import (
    Club,
    Entry,
    EventPush,
    ForbiddenPair,
    Round,
    SiteLink,
    Skip,
    Tournament,
    VenueEvent,
    VenueToken,
)
from tournaments.models_team import Team
from tournaments.transfer.documents import TournamentImportDocument, error_lines
from tournaments.transfer.services import (
    SETTINGS,
    document_audit_replace,
    document_player_for,
    document_round_import,
    document_tournament_import,
    tournament_export_document,
)

logger = logging.getLogger("tournaments.link")
TOKEN_PREFIX = "agv_"
PUSH_PATH = "/api/v1/venue/push/"
# The venue's back-off while there is no link: 2, 4, 8 … seconds, at most this.
MAX_BACKOFF = 120
PUSH_TIMEOUT = 30
# An event the site holds whole is asked about this often (was it taken over?).
PROBE_SECONDS = 30
# Above any seed an event has (the desk allows 10,000): where seeds wait while they move.
SEED_OFFSET = 1_000_000


# --- On the club's site -------------------------------------------------------------


def venue_token_create(*, club: Club, name: str, by: Actor) -> tuple[VenueToken, str]:
    """A token for one venue of one club; the token itself is returned once and only
    its digest is kept."""
    require_actor(by)
    if not can_organise(by.permission_user, club):
        raise PermissionDenied(_("only the club's organisers manage its venue tokens"))
    name = " ".join(name.split())
    if not name or len(name) > 80:
        raise ServiceError(_("a name of 1 to 80 characters"), field="name")
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = VenueToken.objects.create(
        club=club,
        name=name,
        digest=token_digest(secret),
        prefix=secret[:10],
        created_by=by.audit_user,
    )
    return token, secret


def venue_token_revoke(*, token: VenueToken, by: Actor) -> VenueToken:
    require_actor(by)
    if not can_organise(by.permission_user, token.club):
        raise PermissionDenied(_("only the club's organisers manage its venue tokens"))
    VenueToken.objects.filter(pk=token.pk, revoked_at=None).update(revoked_at=timezone.now())
    token.refresh_from_db()
    return token


def event_take_over(*, tournament: Tournament, by: Actor) -> VenueEvent:
    """Run an event pushed by a venue on the site from now on: the site takes edits
    again, and the venue learns so on its next push and holds the event read-only."""
    require_actor(by)
    if not can_organise(by.permission_user, tournament.club):
        raise PermissionDenied(_("only the club's organisers take an event over"))
    with transaction.atomic():
        event = VenueEvent.objects.select_for_update().filter(tournament=tournament).first()
        if event is None:
            raise ConflictError(_("this event is not run at a venue"), field="tournament")
        if event.taken_over_at is None:
            event.taken_over_at = timezone.now()
            event.save(update_fields=["taken_over_at"])
            audit_record(tournament=tournament, by=by, action="venue_take_over")
    return event


def event_hand_back(*, tournament: Tournament, by: Actor) -> VenueEvent:
    """Give an event taken over back to its venue: the venue's next push is applied
    again. Whatever was changed on the site meanwhile is replaced by the venue's."""
    require_actor(by)
    if not can_organise(by.permission_user, tournament.club):
        raise PermissionDenied(_("only the club's organisers hand an event back"))
    with transaction.atomic():
        event = VenueEvent.objects.select_for_update().filter(tournament=tournament).first()
        if event is None:
            raise ConflictError(_("this event is not run at a venue"), field="tournament")
        if event.taken_over_at is not None:
            event.taken_over_at = None
            # Everything is sent again and compared: the site may have changed it.
            event.digests = {}
            event.save(update_fields=["taken_over_at", "digests"])
            audit_record(tournament=tournament, by=by, action="venue_hand_back")
    return event


def _checked(payload: Any) -> dict[str, Any]:
    schema = PushDocument(data=payload)
    if not schema.is_valid():
        lines = error_lines(schema.errors)
        raise ServiceError("; ".join(lines[:3]), field=lines[0].split(":")[0] if lines else None)
    data: dict[str, Any] = schema.validated_data
    for part in ("club", "tournament"):
        if not isinstance(data["head"].get(part), dict):
            raise ServiceError(_("the head names its %(part)s") % {"part": part}, field="head")
    sent = {str(r.get("number")) for r in data["rounds"]}
    if not sent <= set(data["digests"]["rounds"]):
        raise ServiceError(_("every round sent has its digest"), field="digests.rounds")
    return data


def _document(head: dict[str, Any], rounds: list[dict[str, Any]]) -> dict[str, Any]:
    schema = TournamentImportDocument(data={**head, "rounds": rounds})
    if not schema.is_valid():
        lines = error_lines(schema.errors)
        more = f" (and {len(lines) - 3} more)" if len(lines) > 3 else ""
        raise ServiceError("; ".join(lines[:3]) + more, field="document")
    document: dict[str, Any] = schema.validated_data
    return document


def event_push_apply(*, token: VenueToken, payload: Any, by: Actor) -> dict[str, Any]:
    """Apply a venue's push, all or nothing. Answers the digests the site holds now
    (what the venue may count as acknowledged), or refuses: an event the site runs or
    took over, a part the venue did not send whose digest the site does not hold."""
    require_actor(by)
    data = _checked(payload)
    head, digests = data["head"], data["digests"]
    slug = (head.get("tournament") or {}).get("slug")
    if (head.get("club") or {}).get("slug") != token.club.slug:
        raise PermissionDenied(
            _("this token publishes %(club)s's events only") % {"club": token.club.name}
        )
    try:
        with venue_push_applying(), transaction.atomic():
            answer = _apply(token, head, data["rounds"], digests, slug, by)
    except (IntegrityError, DataError) as exc:
        raise ServiceError(
            _("the push contradicts itself or this site: %(exc)s") % {"exc": exc}
        ) from None
    VenueToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
    return answer


class OutOfStepError(ConflictError):
    """The venue counted on a part the site does not hold: it sends that part again."""

    def __init__(self, digests: dict[str, Any]) -> None:
        super().__init__(
            _("the site does not hold what the venue counted on; send those parts again"),
            field="digests",
        )
        self.digests = digests


class TakenOverError(ConflictError):
    """The organiser took the event over on the site: the venue stops writing to it."""


def _apply(
    token: VenueToken,
    head: dict[str, Any],
    rounds: list[dict[str, Any]],
    digests: dict[str, Any],
    slug: Any,
    by: Actor,
) -> dict[str, Any]:
    tournament = Tournament.objects.select_for_update().filter(slug=slug).first()
    wanted: dict[str, str] = digests["rounds"]
    if tournament is None:
        if {str(r["number"]) for r in rounds} != set(wanted):
            raise OutOfStepError({})
        document = _document(head, rounds)
        tournament = document_tournament_import(
            data=document, club=token.club, by=by, players={}, players_by_name=True
        )
        VenueEvent.objects.create(tournament=tournament, token=token)
        audit_record(tournament=tournament, by=by, action="venue_push", target=token.name)
        return _applied(tournament, digests, head=True, rounds=sorted(map(int, wanted)))
    event = VenueEvent.objects.select_for_update().filter(tournament=tournament).first()
    if event is None and tournament.club_id == token.club_id and not tournament.rounds.exists():
        # Prepared on the site (entries, settings, season), taken to the venue as its
        # export, and run there: the site hands it to the venue at its first push.
        event = VenueEvent.objects.create(tournament=tournament, token=token)
        audit_record(tournament=tournament, by=by, action="venue_adopt", target=token.name)
    if event is None or event.token.club_id != token.club_id:
        raise ConflictError(
            _("%(slug)s is run on this site, not at a venue") % {"slug": slug}, field="head"
        )
    if event.taken_over_at is not None:
        raise TakenOverError(
            _("the event was taken over on the club's site; the venue holds it read-only"),
            field="tournament",
        )
    held: dict[str, Any] = event.digests or {}
    held_rounds: dict[str, str] = held.get("rounds", {})
    sent = {str(r["number"]): r for r in rounds}
    if any(n not in sent and held_rounds.get(n) != d for n, d in wanted.items()):
        raise OutOfStepError(held)
    document = _document(head, rounds)
    existing = {r.number: r for r in tournament.rounds.all()}
    changed = sorted(int(n) for n, d in wanted.items() if n in sent and held_rounds.get(n) != d)
    gone = sorted(n for n in existing if str(n) not in wanted)
    head_changed = digests["head"] != held.get("head")
    # A closed evening is rated as a whole: anything it changes withdraws its rating
    # first (as reopening it does), and it is rated again once closed.
    evening = tournament.kind == Tournament.Kind.EVENING
    was_rated = evening and tournament.status == Tournament.Status.FINISHED
    if was_rated and (changed or gone or head_changed):
        signals.history_reopened.send(sender=Tournament, tournament_id=tournament.pk, by=by)
    # Old rounds out first (their seats hold the entries), newest first.
    for number in sorted([*gone, *(n for n in changed if n in existing)], reverse=True):
        _round_remove(existing[number], by)
    deciders = bool(document["tournament"].get("decider"))
    if head_changed:
        _head_apply(tournament, document, by)
    entries = {f"e{e.seed}": e for e in tournament.entries.all()}
    Tournament.objects.filter(pk=tournament.pk).update(decider=False)
    tournament.decider = False
    by_number = {r["number"]: (i, r) for i, r in enumerate(document["rounds"])}
    for number in changed:
        index, round_data = by_number[number]
        round_ = document_round_import(
            tournament=tournament,
            round_data=round_data,
            index=index,
            entries=entries,
            deciders=deciders,
            by=by,
        )
        if round_.status == Round.Status.CLOSED and tournament.kind != Tournament.Kind.EVENING:
            signals.round_closed.send(sender=Round, round_id=round_.pk, by=by)
    Tournament.objects.filter(pk=tournament.pk).update(decider=deciders)
    tournament.decider = deciders
    if head_changed:
        document_audit_replace(tournament=tournament, rows=document["audit"], by=by)
        audit_record(tournament=tournament, by=by, action="venue_push", target=token.name)
    rerated = was_rated and bool(changed or gone or head_changed)
    if evening and tournament.status == Tournament.Status.FINISHED and (rerated or not was_rated):
        signals.evening_closed.send(sender=Tournament, tournament_id=tournament.pk, by=by)
    return _applied(tournament, digests, head=head_changed, rounds=changed)


def _applied(
    tournament: Tournament, digests: dict[str, Any], *, head: bool, rounds: list[int]
) -> dict[str, Any]:
    VenueEvent.objects.filter(tournament=tournament).update(
        digests=digests, pushed_at=timezone.now()
    )
    event = VenueEvent.objects.get(tournament=tournament)
    VenueEvent.objects.filter(pk=event.pk).update(pushes=event.pushes + 1)
    if head or rounds:
        standings_changed(tournament=tournament)
    return {
        "event": tournament.slug,
        "digests": digests,
        "applied": {"head": head, "rounds": rounds},
    }


def _round_remove(round_: Round, by: Actor) -> None:
    """A round the venue changed or deleted: its rated history is forgotten first (the
    ratings listen), then it goes with its tables, seats and games."""
    if round_.status == Round.Status.CLOSED and round_.tournament.kind != Tournament.Kind.EVENING:
        # Withdrawn as a reopened round is (the ledgers locked: a job rating it now
        # finishes first), then rated again as a new period when it closes.
        signals.history_reopened.send(sender=Round, round_id=round_.pk, by=by)
    round_.delete()


def _head_apply(tournament: Tournament, document: dict[str, Any], by: Actor) -> None:
    """The event's settings, entries (by their keys), forbidden pairs and teams as the
    venue has them."""
    settings = {k: v for k, v in document["tournament"].items() if k in SETTINGS and k != "slug"}
    settings.pop("decider", None)
    Tournament.objects.filter(pk=tournament.pk).update(
        date=document["tournament"].get("date"), **settings
    )
    for field, value in settings.items():
        setattr(tournament, field, value)
    rows = {row["key"]: (i, row) for i, row in enumerate(document["entries"])}
    ForbiddenPair.objects.filter(tournament=tournament).delete()
    Team.objects.filter(tournament=tournament).delete()
    # Each of the venue's entries is the site's entry of the same player (by name
    # without regard to case and spacing: the venue may have re-seeded), else the one of
    # its seed (the player renamed on one side), else a new one.
    current = list(tournament.entries.select_related("player"))
    by_name = {_name(e.player.name): e for e in current}
    matched: dict[str, Entry] = {}
    for key, (_index, row) in rows.items():
        found = by_name.get(_name(row["player"]))
        if found is not None:
            matched[key] = found
    taken = {e.pk for e in matched.values()}
    by_seed = {f"e{e.seed}": e for e in current if e.pk not in taken}
    for key in rows:
        if key not in matched and key in by_seed:
            matched[key] = by_seed.pop(key)
    # Entries the venue no longer has; their seats went with the rounds removed above.
    # One still seated in a round the site keeps is the venue's contradiction, named.
    for entry in by_seed.values():
        if entry.seats.exists():
            raise ServiceError(
                _("entries: %(name)s is seated in a round but no longer entered")
                % {"name": entry.player.name},
                field="entries",
            )
        entry.delete()
    # Seeds move in two steps, out of each other's way (a seed is unique in an event).
    moved = [e.pk for key, e in matched.items() if e.seed != rows[key][1]["seed"]]
    Entry.objects.filter(pk__in=moved).update(seed=F("seed") + SEED_OFFSET)
    for key, (index, row) in rows.items():
        fields = {k: v for k, v in row.items() if k not in ("key", "player", "skips")}
        entry = matched.get(key)
        if entry is not None:
            Entry.objects.filter(pk=entry.pk).update(**fields)
        else:
            player = document_player_for(
                row=row, index=index, club=tournament.club, players={}, by_name=True, by=by
            )
            entry = Entry.objects.create(tournament=tournament, player=player, **fields)
        Skip.objects.filter(entry=entry).delete()
        Skip.objects.bulk_create(
            Skip(entry=entry, round_number=k["round"], bye=k["bye"]) for k in row.get("skips", [])
        )
    entries = {f"e{e.seed}": e for e in tournament.entries.all()}
    for first, second, reason in document["forbidden"]:
        if first in entries and second in entries and first != second:
            ForbiddenPair.objects.create(
                tournament=tournament, first=entries[first], second=entries[second], reason=reason
            )
    for row in document.get("teams", []):
        if row["first"] not in entries or row["second"] not in entries:
            raise ServiceError(_("teams: two entry keys of the event"), field="teams")
        Team.objects.create(
            tournament=tournament,
            name=row["name"],
            seed=row["seed"],
            first=entries[row["first"]],
            second=entries[row["second"]],
        )


def _name(name: str) -> str:
    return " ".join(name.split()).casefold()


# --- On the venue -------------------------------------------------------------------


def site_link_set(*, club: Club, site_url: str, token: str, by: Actor) -> SiteLink:
    """Name the club's site and the token made there, once per venue."""
    require_actor(by)
    if not can_organise(by.permission_user, club) and by.user is not None:
        raise PermissionDenied(_("only the club's organisers link it to its site"))
    site_url = site_url.strip().rstrip("/")
    parts = urllib.parse.urlsplit(site_url)
    # https, so the token never crosses a network in clear; plain http to this machine
    # alone (a site served beside the venue, the tests). No query or fragment: the push's
    # path is appended to the address.
    local = parts.hostname in ("localhost", "127.0.0.1", "::1")
    if (
        len(site_url) > 300
        or not parts.hostname
        or parts.scheme not in ("https", "http")
        or (parts.scheme == "http" and not local)
        or parts.query
        or parts.fragment
        or parts.username
    ):
        raise ServiceError(_("the site's address, starting with https://"), field="site_url")
    token = token.strip()
    if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
        raise ServiceError(_("the token the club's site showed, starting with agv_"), field="token")
    link, _created = SiteLink.objects.update_or_create(
        club=club,
        defaults={
            "site_url": site_url,
            "token": token,
            "failures": 0,
            "next_try_at": None,
            "last_error": "",
        },
    )
    return link


def event_publish(*, tournament: Tournament, by: Actor) -> EventPush:
    """Publish an event run at this venue to the club's site from now on."""
    require_actor(by)
    link = SiteLink.objects.filter(club=tournament.club_id).first()
    if link is None:
        raise ServiceError(_("link the club to its site first"), field="site_url")
    push, _created = EventPush.objects.get_or_create(tournament=tournament, defaults={"link": link})
    return push


@dataclass(frozen=True)
class PushOutcome:
    # "sent", "up_to_date", "handed_over", "no_link", "failed" (no link: back off),
    # "refused" (the site refused this event; the link's other events go on)
    state: str
    rounds: tuple[int, ...] = ()
    message: str = ""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A push is never redirected: the token would follow it to another address."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def _answer_of(raw: bytes) -> dict[str, Any]:
    try:
        answer = json.loads(raw or b"{}")
    except ValueError:
        return {}
    return answer if isinstance(answer, dict) else {}


def _send(link: SiteLink, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    data = gzip.compress(json.dumps(body, separators=(",", ":")).encode())
    request = urllib.request.Request(  # noqa: S310 - the organiser's own http(s) address
        link.site_url + PUSH_PATH,
        data=data,
        method="POST",
        headers={
            "Authorization": f"Bearer {link.token}",
            "Content-Type": "application/json",
            "Content-Encoding": "gzip",
            "Accept": "application/json",
        },
    )
    try:
        with _OPENER.open(request, timeout=PUSH_TIMEOUT) as answer:
            return answer.status, _answer_of(answer.read(1_000_000))
    except urllib.error.HTTPError as error:
        return error.code, _answer_of(error.read(100_000))


def _failed(link: SiteLink, message: str) -> PushOutcome:
    now = timezone.now()
    failures = link.failures + 1
    SiteLink.objects.filter(pk=link.pk).update(
        last_error=message[:300],
        last_error_at=now,
        failures=failures,
        next_try_at=now + dt.timedelta(seconds=min(2**failures, MAX_BACKOFF)),
    )
    return PushOutcome("failed", message=message)


def event_push(*, tournament: Tournament, by: Actor) -> PushOutcome:
    """Send what the site has not acknowledged of the event: the head and up to
    ROUNDS_PER_PUSH rounds whose digests differ, oldest first; called again until
    up to date. No transaction is held while the site is asked."""
    require_actor(by)
    push = EventPush.objects.select_related("link").filter(tournament=tournament).first()
    if push is None:
        return PushOutcome("no_link")
    link = push.link
    sent_rounds: list[int] = []
    rounds_count = tournament.rounds.count()
    for _attempt in range(2 + rounds_count // ROUNDS_PER_PUSH):
        # One reading of the event: a push never mixes two states of it.
        with transaction.atomic():
            document = tournament_export_document(tournament=tournament)
        # Taken over on the site, the venue sends it whole (the site's digests are
        # forgotten on a hand back): refused while taken over, applied once handed back.
        acked = {} if push.handed_over_at is not None else (push.acked or {})
        body, numbers, left = push_body(document, acked)
        if push.handed_over_at is None:
            EventPush.objects.filter(pk=push.pk).update(
                waiting=body is not None, waiting_rounds=left
            )
        if body is None:
            stale = push.acked_at is None or push.acked_at < timezone.now() - dt.timedelta(
                seconds=PROBE_SECONDS
            )
            if sent_rounds or not stale:
                return PushOutcome("up_to_date", tuple(sent_rounds))
            # Nothing to send, but the site is asked now and then whether it took the
            # event over: the head alone, with the digests it holds, changes nothing there.
            whole, _numbers, _left = push_body(document, {})
            body = {**(whole or {}), "rounds": [], "digests": acked}
            numbers = []
        try:
            status, answer = _send(link, body)
        except (OSError, ValueError, http.client.HTTPException) as exc:
            # urllib's "<urlopen error [Errno 101] Network is unreachable>": the reason.
            return _failed(link, str(getattr(exc, "reason", exc)))
        if status == 200:
            if push.handed_over_at is not None:
                # Handed back on the site: the venue writes the event again.
                push.handed_over_at = None
                audit_record(tournament=tournament, by=by, action="venue_handed_back")
            EventPush.objects.filter(pk=push.pk).update(
                acked=answer.get("digests", {}), acked_at=timezone.now(), handed_over_at=None
            )
            SiteLink.objects.filter(pk=link.pk).update(
                last_ok_at=timezone.now(), failures=0, next_try_at=None, last_error=""
            )
            push.acked = answer.get("digests", {})
            push.acked_at = timezone.now()
            sent_rounds += numbers
            EventPush.objects.filter(pk=push.pk).update(waiting_rounds=left - len(numbers))
            continue
        error = answer.get("error") if isinstance(answer.get("error"), dict) else {}
        if status == 409 and error.get("code") == "taken_over":
            if push.handed_over_at is None:
                EventPush.objects.filter(pk=push.pk).update(
                    handed_over_at=timezone.now(), waiting=False, waiting_rounds=0, acked={}
                )
            SiteLink.objects.filter(pk=link.pk).update(last_ok_at=timezone.now(), failures=0)
            return PushOutcome("handed_over", tuple(sent_rounds))
        if status == 409 and error.get("code") == "out_of_step":
            digests = answer.get("digests")
            push.acked = digests if isinstance(digests, dict) else {}
            EventPush.objects.filter(pk=push.pk).update(acked=push.acked)
            continue
        message = f"{status}: {error.get('message') or status}"
        if status in (401, 429) or status >= 500:
            return _failed(link, message)  # the link itself: back off
        # The site refused this event (a 400, a 403, a 409 of its own): the other events
        # of the link go on; the reason is on the event's page and in the log.
        logger.warning("the site refused %s: %s", tournament.slug, message)
        return PushOutcome("refused", tuple(sent_rounds), message)
    return PushOutcome("sent", tuple(sent_rounds))


def pushes_due(*, by: Actor) -> list[tuple[str, PushOutcome]]:
    """Push every event published from this venue whose link is not backing off (the
    push loop, `manage.py venue_push --loop`). A link that failed waits 2, 4 … up to
    MAX_BACKOFF seconds before it is tried again."""
    require_actor(by)
    now = timezone.now()
    due = (
        EventPush.objects.select_related("tournament", "link")
        .exclude(link__next_try_at__gt=now)
        .order_by("pk")
    )
    outcomes = []
    failed_links: set[int] = set()
    for push in due:
        if push.link_id in failed_links:
            continue
        try:
            outcome = event_push(tournament=push.tournament, by=by)
        except Exception as exc:  # noqa: BLE001 - one event's fault stops no other
            logger.exception("the push of %s failed", push.tournament.slug)
            outcome = PushOutcome("refused", message=str(exc)[:300])
        if outcome.state == "failed":
            failed_links.add(push.link_id)
        outcomes.append((push.tournament.slug, outcome))
    return outcomes
