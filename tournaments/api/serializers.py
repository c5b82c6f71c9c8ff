from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.desk.selectors.pre_round import pre_round_view
from tournaments.models import (
    Club,
    Entry,
    ForbiddenPair,
    Game,
    Player,
    ResultSubmission,
    Round,
    Skip,
    Team,
)
from tournaments.pairing.pre_round import DRAW_LIMIT
from tournaments.results.services.result_path import PlyEntry
from tournaments.transfer.documents import TournamentSerializer

__all__ = ["TournamentSerializer"]  # defined with the document formats it shares

ID_MAX = 2**63 - 1  # the largest id a database integer holds


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "city", "rating_system"]


class PlayerSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(
        slug_field="slug", queryset=Club.objects.all(), allow_null=True, required=False
    )

    class Meta:
        model = Player
        fields = ["id", "name", "club"]


class SkipSerializer(serializers.ModelSerializer):
    """A round the player announced she will not play."""

    class Meta:
        model = Skip
        fields = ["round_number", "bye"]


class EntrySerializer(serializers.ModelSerializer):
    """A player's entry; `skips` are the rounds she announced she will not play
    (requested byes and absences), `missed_round_score` a late entry's score for each
    round before she joined (null: the tournament's `late_score`)."""

    player = serializers.CharField(source="player.name", read_only=True)
    player_id = serializers.IntegerField(source="player.id", read_only=True)
    skips = SkipSerializer(many=True, read_only=True)

    class Meta:
        model = Entry
        fields = [
            "id",
            "player",
            "player_id",
            "seed",
            "status",
            "rating",
            "checked_in",
            "joined_round",
            "missed_round_score",
            "skips",
        ]
        read_only_fields = ["seed", "status", "joined_round", "missed_round_score"]


def _missed_round_score() -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=5,
        decimal_places=2,
        required=False,
        allow_null=True,
        help_text="A late entry's round score for each round played before she joined "
        "(the organiser's choice); null: the tournament's `late_score`. Ignored before "
        "round 1 is paired (nobody has missed a round then).",
    )


@extend_schema_field(
    {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "enum": ["new"]}]}
)
class PlayerChoiceField(serializers.Field):
    """The organiser's answer to a doubtful name (a 409): a player's id, or "new"."""

    def to_internal_value(self, data: Any) -> int | str:
        text = str(data)
        if text == "new":
            return text
        if text.isascii() and text.isdigit() and 0 < int(text) <= ID_MAX:
            return int(text)
        raise serializers.ValidationError('a player\'s id, or "new"')

    def to_representation(self, value: Any) -> Any:
        return value


class EntryCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    player_choice = PlayerChoiceField(
        required=False,
        help_text="When the name is only near a player of the club, or matches two (a "
        '409 naming them): the player\'s id, or "new" for a new player.',
    )
    rating = serializers.IntegerField(
        required=False, allow_null=True, min_value=-(2**31), max_value=2**31 - 1
    )
    missed_round_score = _missed_round_score()


class EntryUpdateSerializer(serializers.Serializer):
    """Only the fields given change; the player is renamed everywhere (the same person)."""

    name = serializers.CharField(max_length=120, required=False)
    rating = serializers.IntegerField(
        required=False, allow_null=True, min_value=-(2**31), max_value=2**31 - 1
    )
    missed_round_score = _missed_round_score()


class SkipRequestSerializer(serializers.Serializer):
    bye = serializers.BooleanField(
        default=False,
        help_text="True: a requested bye (scored as the tournament's bye); false: an "
        "absence (scored as the tournament's absence).",
    )


class ReseedRequestSerializer(serializers.Serializer):
    event = serializers.SlugField(
        required=False,
        help_text=(
            "Seed by the final standings of this earlier event of the club (its slug; it "
            "must be finished): its players in their final rank, then everyone new by "
            "rating. Without it the seeds follow the ratings."
        ),
    )
    season = serializers.SlugField(
        required=False,
        help_text=(
            "Seed by the standings of this season of the club (its slug): its ranked "
            "players in the season's order, then everyone else by rating."
        ),
    )

    def validate(self, attrs: dict) -> dict:
        if "event" in attrs and "season" in attrs:
            raise serializers.ValidationError({"season": "give an event or a season, not both"})
        return attrs


class ReseedSerializer(serializers.Serializer):
    unrated = serializers.IntegerField(
        help_text="How many entries have no rating (seeded last, in the order of entry)."
    )
    entries = EntrySerializer(many=True)


class CheckInEveryoneSerializer(serializers.Serializer):
    checked_in = serializers.IntegerField(help_text="How many players were checked in now.")


class AddRoundsSerializer(serializers.Serializer):
    count = serializers.IntegerField(
        default=1, min_value=1, max_value=20, help_text="How many more rounds to plan."
    )


class ImportSerializer(serializers.Serializer):
    document = serializers.JSONField(
        help_text="A tournament document as `/t/{slug}/export.json` gives it (docs/api.md)."
    )
    players_by_name = serializers.BooleanField(
        default=False,
        help_text="Use the club's players of the same names (otherwise a name the club "
        "already has is refused).",
    )


class ForbiddenPairSerializer(serializers.ModelSerializer):
    first = serializers.IntegerField(
        source="first_id", min_value=1, max_value=ID_MAX, help_text="entry id"
    )
    second = serializers.IntegerField(
        source="second_id", min_value=1, max_value=ID_MAX, help_text="entry id"
    )
    reason = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")

    class Meta:
        model = ForbiddenPair
        fields = ["id", "first", "second", "reason"]
        read_only_fields = ["id"]


class PasteSerializer(serializers.Serializer):
    players = serializers.CharField(help_text="One player per line, optionally `name, rating`.")
    choices = serializers.DictField(
        child=PlayerChoiceField(),
        required=False,
        help_text="For doubtful lines (a 409 naming them): line number -> the player's id, "
        'or "new" for a new player.',
    )

    def validate_choices(self, value: dict) -> dict[int, int | str]:
        if not all(k.isascii() and k.isdigit() and len(k) < 7 for k in value):
            raise serializers.ValidationError("keys are line numbers")
        return {int(k): v for k, v in value.items()}


class TeamsPasteSerializer(serializers.Serializer):
    teams = serializers.CharField(
        help_text="One team per line: its name and its two players, as the organiser's page "
        "takes them. A player already entered and in no team joins as she is."
    )


class TeamFormSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    first = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text="entry id of a player entered and in no team"
    )
    second = serializers.IntegerField(
        min_value=1, max_value=ID_MAX, help_text="entry id of a player entered and in no team"
    )


class PreRoundOrderSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    entry = serializers.IntegerField()
    player = serializers.CharField()
    score = serializers.FloatField(help_text="her score in the pre-round")


class PreRoundSerializer(serializers.Serializer):
    by = serializers.ChoiceField(choices=["rating", "random"])
    draw = serializers.IntegerField(
        allow_null=True, help_text="the draw's number (at random): anyone can replay it"
    )
    counts = serializers.BooleanField(help_text="its scores count toward the standings")
    order = PreRoundOrderSerializer(
        many=True,
        allow_null=True,
        help_text="once it is closed: the order its result gives the Swiss proper",
    )


class RoundSerializer(serializers.ModelSerializer):
    pre_round = serializers.SerializerMethodField(
        help_text="Round 1 of a Swiss tournament with a pre-round: how it was paired and, "
        'once closed, the order it gives (docs/pairing.md, "Pre-round"); null otherwise.'
    )

    class Meta:
        model = Round
        fields = ["number", "status", "created_at", "published_at", "closed_at", "pre_round"]

    @extend_schema_field(PreRoundSerializer(allow_null=True))
    def get_pre_round(self, round_: Round) -> dict[str, Any] | None:
        view = pre_round_view(round_)
        return None if view is None else view.as_json()


class PairRequestSerializer(serializers.Serializer):
    draw = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=DRAW_LIMIT - 1,
        help_text="Round 1 of a pre-round paired at random: the draw's number (e.g. drawn "
        "from a hat in the room); without it the site draws one. Refused otherwise.",
    )


class CheckInSerializer(serializers.Serializer):
    present = serializers.BooleanField(default=True, help_text="False: not here after all.")


class CloseSerializer(serializers.Serializer):
    force = serializers.BooleanField(
        default=False,
        help_text="Close even with games unplayed (each counts as an unfinished 0:0, an even result).",
    )


class SwapSerializer(serializers.Serializer):
    first = serializers.IntegerField(help_text="entry id")
    second = serializers.IntegerField(help_text="entry id")
    override_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=500,
        help_text="needed when the swap creates a warning (rematch, forbidden pair, ...)",
    )


class MoveSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text="entry id")
    table = serializers.IntegerField(
        allow_null=True, min_value=1, max_value=999, help_text="table number; null = the bye"
    )
    override_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=500,
        help_text="needed when the move creates a warning (rematch, forbidden pair, ...)",
    )


MOVE_TARGET = r"^(?:[0-9]{1,4}|bye|new)$"


class RearrangeMoveSerializer(serializers.Serializer):
    entry = serializers.IntegerField(min_value=1, max_value=ID_MAX, help_text="entry id")
    to = serializers.RegexField(
        MOVE_TARGET,
        help_text="A table number, `bye`, or `new` (all players sent there in one request "
        "sit together at a table added after the others).",
    )


class RearrangeSerializer(serializers.Serializer):
    moves = serializers.ListField(
        child=RearrangeMoveSerializer(), min_length=1, max_length=1000, help_text="the moves"
    )
    override_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=500,
        help_text="needed when the moves create a warning (rematch, forbidden pair, ...)",
    )


class EditCheckSerializer(serializers.Serializer):
    moves = serializers.ListField(
        child=RearrangeMoveSerializer(),
        max_length=1000,
        default=list,
        help_text="the moves to check; none: the warnings of the round as it is",
    )


class SplitSerializer(serializers.Serializer):
    table = serializers.IntegerField(
        min_value=1, max_value=9999, help_text="number of a table of three or more"
    )
    override_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=500,
        help_text="needed when the split creates a warning (rematch, table size, ...)",
    )


class EditWarningsSerializer(serializers.Serializer):
    """The warnings of a pairing edit, as texts for people."""

    current = serializers.ListField(
        child=serializers.CharField(), help_text="the round's warnings before the edit"
    )
    after = serializers.ListField(
        child=serializers.CharField(), help_text="the round's warnings after the edit"
    )
    created = serializers.ListField(
        child=serializers.CharField(),
        help_text="those the edit creates (they need `override_reason`)",
    )


class EditResultSerializer(EditWarningsSerializer):
    round = RoundSerializer()


class SeatOutSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry_id")
    player = serializers.CharField(source="name")
    round_score = serializers.FloatField(allow_null=True)


class GameOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    first_position = serializers.IntegerField()
    direction = serializers.CharField()
    status = serializers.CharField()
    out = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    letters = serializers.ListField(child=serializers.CharField(allow_blank=True))
    moves = serializers.IntegerField(help_text="plies recorded")
    version = serializers.IntegerField()
    decider = serializers.BooleanField(
        help_text="A 3-player match's decider: a 2-player game of the two leaders, who "
        "sit at `positions` (`out` and `letters` list theirs, in seat order)."
    )
    positions = serializers.ListField(
        child=serializers.IntegerField(), help_text="the seat positions that play this game"
    )
    voided = serializers.BooleanField(
        help_text="A decider whose match is no longer tied at the top: it counts nowhere."
    )


class MatchOutSerializer(serializers.Serializer):
    leaders = serializers.ListField(
        child=serializers.IntegerField(), help_text="seat positions sharing the best match total"
    )
    winner = serializers.IntegerField(
        allow_null=True, help_text="the seat position that won the match; null: shared"
    )
    by_decider = serializers.BooleanField(help_text="the decider settled it")
    pending = serializers.BooleanField(help_text="the decider has no result yet")


class TableOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    is_bye = serializers.BooleanField()
    seats = SeatOutSerializer(many=True)
    games = GameOutSerializer(many=True)
    match = MatchOutSerializer(
        allow_null=True,
        help_text="Where the tournament plays deciders, a 3-player table's match once "
        "every game of it counts (docs/scoring.md); null otherwise.",
    )


class GameSerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="table.number", read_only=True)
    round = serializers.IntegerField(source="table.round.number", read_only=True)
    tournament = serializers.CharField(source="table.round.tournament.slug", read_only=True)
    out = serializers.SerializerMethodField(
        help_text="pieces out per seat position; a decider's two leaders' in seat order"
    )
    leaders = serializers.SerializerMethodField(
        help_text="A decider (a 3-player match tied at the top, settled by a 2-player game "
        "of the two leaders): their seat positions; null for a game of the match."
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "tournament",
            "round",
            "table",
            "number",
            "first_position",
            "direction",
            "status",
            "target",
            "out",
            "colours_out",
            "moves",
            "version",
            "entered_at",
            "confirmed",
            "decider",
            "leaders",
            "voided",
            "timer_paused_at",
        ]
        # The egg timer: paused since (null: it runs); written through `timer`.
        read_only_fields = ["timer_paused_at"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField(), allow_null=True))
    def get_leaders(self, game: Game) -> list[int] | None:
        leaders = game.leaders
        return None if leaders is None else list(leaders)

    def get_out(self, game: Game) -> list[int | None]:
        # The list's queryset counts the seats in its one query (`seat_count`); a single
        # game just written counts them here.
        seats = getattr(game, "seat_count", None)
        return game.out_list(seats if seats is not None else game.table.seats.count())


class CorrectionSerializer(serializers.Serializer):
    correction = serializers.BooleanField(
        default=False,
        help_text="A director's deliberate correction of a result in a closed round (audited, "
        "standings and ratings recomputed); without it a closed round's result is refused "
        "with 409 naming `correction`.",
    )


class ClearResultSerializer(CorrectionSerializer):
    version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text="Refuse to clear if the game changed since.",
    )


class PlySerializer(serializers.Serializer):
    """One ply recorded live (docs/results.md, "Live tables"): ply `ply` is `move`, with
    a `key` of your own so that sending it again stores it once; or `undo` the last ply;
    `timeout`: the egg timer ran out, the seat to move loses her turn (a `pass`)."""

    ply = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False)
    move = serializers.CharField(max_length=64, required=False, allow_blank=True, default="")
    key = serializers.RegexField(r"^[A-Za-z0-9_.:-]{1,64}$", required=False, default="")
    timeout = serializers.BooleanField(default=False)
    undo = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("ply" in attrs) == ("undo" in attrs):
            raise serializers.ValidationError(
                {"ply": "send either `ply` (with `move` and `key`) or `undo`"}
            )
        if "ply" in attrs and not attrs["key"]:
            raise serializers.ValidationError({"key": "each ply needs a key of your own"})
        return attrs

    def entry(self) -> PlyEntry:
        v = self.validated_data
        if "undo" in v:
            return PlyEntry(number=v["undo"], undo=True)
        return PlyEntry(number=v["ply"], move=v["move"], key=v["key"], timeout=v["timeout"])


class TimerSerializer(serializers.Serializer):
    """The table's egg timer (docs/rules.md, "The egg timer"): `paused` true lays it on
    its side, false sets it running again with the time it had left."""

    paused = serializers.BooleanField()


class GameResultSerializer(CorrectionSerializer):
    """Either `out` (pieces out per seat position; a decider's two leaders', in seat
    order), or `moves` (the book's notation), or `events` (the online client's JSON event
    list). `version` is the version you saw."""

    out = serializers.ListField(child=serializers.IntegerField(allow_null=True), required=False)
    finished = serializers.BooleanField(default=True)
    colours_out = serializers.DictField(
        child=serializers.CharField(allow_blank=True),
        required=False,
        help_text='With `out`: colours that went out per seat position, e.g. {"1": "rw"}.',
    )
    moves = serializers.ListField(child=serializers.CharField(), required=False)
    setup = serializers.DictField(
        required=False,
        help_text="With `moves`, for games with a setup: the record's other keys, e.g. "
        'Pantarei\'s {"setup": ["W2", ...], "first": "white"}.',
    )
    events = serializers.JSONField(required=False)
    turn_ended = serializers.BooleanField(
        default=False,
        help_text="With `moves`: the turn ended before the game did, an unfinished result "
        "(section 21). Without it a record that stops before the end is a game in progress.",
    )
    version = serializers.IntegerField(
        required=False,
        help_text="Refuse the write if the game changed since. Required for a director's "
        "result sent from an offline queue (with `X-Agon-Queued-At`).",
    )
    position = serializers.IntegerField(
        required=False,
        help_text="Reports through a player's own link: may be left out; if given, it must "
        "be the link's seat.",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        given = [k for k in ("out", "moves", "events") if k in data]
        if len(given) != 1:
            raise serializers.ValidationError({"out": ["give exactly one of out, moves or events"]})
        return data


class RecordSerializer(serializers.Serializer):
    players = serializers.IntegerField(min_value=2, max_value=5)
    variant = serializers.CharField(default="standard")
    moves = serializers.ListField(child=serializers.CharField(), allow_empty=True)


class SubmissionSerializer(serializers.ModelSerializer):
    """One report of a game's result: a director's entry or a player's report through her
    own link (then `position` is her seat). The list is the game's audit trail."""

    round = serializers.IntegerField(source="game.table.round.number", read_only=True)
    table = serializers.IntegerField(source="game.table.number", read_only=True)
    position = serializers.IntegerField(source="by_seat.position", read_only=True, allow_null=True)
    player = serializers.CharField(
        source="by_seat.entry.player.name", read_only=True, allow_null=True
    )

    class Meta:
        model = ResultSubmission
        fields = [
            "id",
            "game",
            "round",
            "table",
            "position",
            "player",
            "state",
            "status",
            "out",
            "moves",
            "colours_out",
            "created_at",
            "decided_at",
        ]
        read_only_fields = fields


class AcceptSerializer(CorrectionSerializer):
    version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text="Refuse if the game changed since this version.",
    )


class NightChoiceSerializer(serializers.Serializer):
    choice = serializers.ChoiceField(
        choices=["late", "skip", "leave"],
        help_text="What the player says of her night (docs/results.md): `late` (her table "
        "is asked to wait), `skip` (the next round), `leave` (after this round).",
    )


class SeatNoticeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField(help_text="leaving, skip, late, seen (a check) or forfeit")
    at = serializers.DateTimeField(help_text="when it was said, by the server's clock")
    round_number = serializers.IntegerField(
        allow_null=True, help_text="the round skipped (a skip); empty otherwise"
    )
    seat = serializers.IntegerField(source="seat_id")
    name = serializers.CharField(source="seat.entry.player.name")
    table = serializers.IntegerField(source="seat.table.number")
    cleared_at = serializers.DateTimeField(
        allow_null=True, help_text="undone by the organiser (or a late flag cleared)"
    )


class NightSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(source="seat.pk")
    name = serializers.CharField()
    table = serializers.IntegerField()
    late_since = serializers.DateTimeField(source="late.at", allow_null=True, default=None)


class RoundNightSerializer(serializers.Serializer):
    """A round's players' notices and no-shows (docs/results.md)."""

    deadline = serializers.DateTimeField(
        allow_null=True, help_text="when an unseen seat becomes a no-show (server clock)"
    )
    late = NightSeatSerializer(many=True, help_text="announced late and not seen since")
    no_shows = NightSeatSerializer(many=True, help_text="offered to the organiser as forfeits")
    announced = serializers.SerializerMethodField(help_text="leaving and skip notices")

    def get_announced(self, night: Any) -> list[dict[str, Any]]:
        return [SeatNoticeSerializer(notice).data for _seat, notice in night.announced]


class ForfeitSerializer(serializers.Serializer):
    forfeited = serializers.BooleanField(help_text="false: the seat was forfeited already")


class ConfirmSerializer(serializers.Serializer):
    position = serializers.IntegerField(
        required=False,
        help_text="The confirming player's seat: may be left out (the link names it); if "
        "given, it must be the link's seat.",
    )


class TeamSerializer(serializers.ModelSerializer):
    """A team of a 2 vs 2 event: its two players' entries (seats 1+3 or 2+4 at a table)."""

    players = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["id", "name", "seed", "players"]
        read_only_fields = fields

    @extend_schema_field(EntrySerializer(many=True))
    def get_players(self, team: Team) -> list[dict[str, object]]:
        return [EntrySerializer(team.first).data, EntrySerializer(team.second).data]


class TeamRenameSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)


class TeamCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    players = serializers.ListField(
        child=serializers.CharField(max_length=120),
        min_length=2,
        max_length=2,
        help_text="The two players' names.",
    )
    ratings = serializers.ListField(
        child=serializers.IntegerField(allow_null=True, min_value=-(2**31), max_value=2**31 - 1),
        min_length=2,
        max_length=2,
        required=False,
    )
