"""The schema of an exported tournament document (tournaments/transfer/services.py):
checked as a whole before anything is written, so every error names its field path
(``rounds[2].tables[0].games[1].out``) and a refused import changes nothing."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Club, Entry, Game, ResultSubmission, Round, Tournament
from tournaments.standings.table import ALL_TIE_BREAKS

SMALL = {"min_value": 0, "max_value": 10_000}


class TournamentSerializer(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    slug = serializers.SlugField(read_only=True)
    recompute = serializers.BooleanField(
        write_only=True,
        required=False,
        default=False,
        help_text="Confirms changing the game, table policy, target, games per turn or a "
        "time factor once a round is paired: the standings and ratings are recomputed.",
    )
    uneven_turns = serializers.BooleanField(
        write_only=True,
        required=False,
        default=False,
        help_text="Accepts games per turn and time factors that make an even turn worth "
        "more at one table size than at the other (refused otherwise, with the numbers).",
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "slug",
            "club",
            "name",
            "game",
            "kind",
            "status",
            "published",
            "date",
            *Tournament.PLAY_SETTINGS,
            "tiebreaks",
            "recompute",
            "uneven_turns",
        ]
        read_only_fields = ["status"]

    def validate_tiebreaks(self, value: Any) -> list[str]:
        if not isinstance(value, list) or any(v not in ALL_TIE_BREAKS for v in value):
            raise serializers.ValidationError(f"a list of tie-breaks out of {list(ALL_TIE_BREAKS)}")
        if len(set(value)) != len(value):
            raise serializers.ValidationError("each tie-break can be chosen once")
        return value


class ClubDocument(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=120)
    city = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")


class TournamentDocument(TournamentSerializer):
    """The API's own tournament serializer (the same choices, ranges and tie-breaks), with
    the slug and status of the exported tournament."""

    slug = serializers.SlugField(max_length=160)
    status = serializers.ChoiceField(choices=Tournament.Status.choices)

    class Meta(TournamentSerializer.Meta):
        fields = [
            f
            for f in TournamentSerializer.Meta.fields
            if f not in ("id", "club", "recompute", "uneven_turns")
        ]
        read_only_fields: list[str] = []
        # The slug is checked against this site by the import itself (a clear message).
        extra_kwargs = {"slug": {"validators": []}}


class SkipDocument(serializers.Serializer):
    """A round the entry announced they would miss: a requested bye or an absence."""

    round = serializers.IntegerField(min_value=1, max_value=99)
    bye = serializers.BooleanField()


class EntryDocument(serializers.Serializer):
    key = serializers.CharField(max_length=20)
    player = serializers.CharField(max_length=120)
    seed = serializers.IntegerField(min_value=1, max_value=10_000)
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    rating = serializers.IntegerField(allow_null=True, min_value=-10_000, max_value=10_000)
    checked_in = serializers.BooleanField()
    joined_round = serializers.IntegerField(min_value=1, max_value=10_000)
    withdrawn_after_round = serializers.IntegerField(allow_null=True, **SMALL)
    # Added after version 2 without a new version: older documents have none.
    missed_round_score = serializers.DecimalField(
        max_digits=6, decimal_places=2, allow_null=True, required=False, default=None
    )
    skips = serializers.ListField(child=SkipDocument(), max_length=99, required=False, default=list)


# A colour out: a letter as entered with pieces out (w b r y g), or the engine's colour
# name (white, blue …) as a record's replay gives it: a game recorded by moves exports
# the names, and its document must import again.
def colour_out() -> serializers.CharField:
    return serializers.CharField(max_length=12)


class SubmissionDocument(serializers.Serializer):
    """One result submission: a director's entry, or the report of the player at a seat
    position. Replayed in order through the result services."""

    seat = serializers.IntegerField(min_value=1, max_value=4, allow_null=True)
    state = serializers.ChoiceField(choices=ResultSubmission.State.choices)
    decided_by = serializers.IntegerField(min_value=1, max_value=4, allow_null=True, default=None)
    status = serializers.ChoiceField(choices=["finished", "unfinished", "in_progress"])
    out = serializers.ListField(child=serializers.IntegerField(**SMALL), max_length=4)
    moves = serializers.ListField(child=serializers.CharField(max_length=200), max_length=5000)
    colours_out = serializers.DictField(
        child=serializers.ListField(child=colour_out(), max_length=5)
    )
    setup = serializers.DictField()


class GameDocument(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=100)
    first_position = serializers.IntegerField(min_value=1, max_value=4)
    direction = serializers.ChoiceField(choices=Game.Direction.choices)
    status = serializers.ChoiceField(choices=["pending", "finished", "unfinished", "in_progress"])
    target = serializers.IntegerField(min_value=1, max_value=100)
    out = serializers.ListField(
        child=serializers.IntegerField(allow_null=True, **SMALL), max_length=4
    )
    colours_out = serializers.DictField(
        child=serializers.ListField(child=colour_out(), max_length=5)
    )
    moves = serializers.ListField(child=serializers.CharField(max_length=200), max_length=5000)
    # Version 2: the setup of the move record and every submission, in order.
    setup = serializers.DictField(required=False, default=dict)
    submissions = SubmissionDocument(many=True, required=False)
    # The game's version (its count of writes), so a device that saw it before the
    # export still gets a conflict rather than overwriting; absent in older documents.
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False)
    # A 3-player match's decider (docs/scoring.md): its two leaders' seat positions, and
    # whether it is voided. Absent in older documents: a game of the match.
    decider = serializers.BooleanField(required=False, default=False)
    leaders = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=3),
        min_length=2,
        max_length=2,
        allow_null=True,
        required=False,
        default=None,
    )
    voided = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        leaders = attrs.get("leaders")
        if attrs["decider"] != (leaders is not None) or (
            leaders is not None and leaders[0] >= leaders[1]
        ):
            raise serializers.ValidationError(
                {"leaders": "a decider names its two leaders' seat positions, lower first"}
            )
        if attrs["voided"] and not attrs["decider"]:
            raise serializers.ValidationError({"voided": "only a decider is voided"})
        return attrs


class TableDocument(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=10_000)
    is_bye = serializers.BooleanField()
    seats = serializers.ListField(child=serializers.CharField(max_length=20), max_length=4)
    games = GameDocument(many=True, max_length=100)


class RoundDocument(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=10_000)
    status = serializers.ChoiceField(choices=Round.Status.choices)
    published_at = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    tables = TableDocument(many=True, max_length=10_000)


class AuditDocument(serializers.Serializer):
    user = serializers.CharField(max_length=150, allow_blank=True, allow_null=True)
    actor = serializers.CharField(max_length=150, allow_blank=True, required=False, default="")
    action = serializers.CharField(max_length=64)
    target = serializers.CharField(max_length=120, allow_blank=True)
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    at = serializers.DateTimeField()


class TeamDocument(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    seed = serializers.IntegerField(min_value=1, max_value=100_000)
    first = serializers.CharField(max_length=120)
    second = serializers.CharField(max_length=120)


class TournamentImportDocument(serializers.Serializer):
    format = serializers.ChoiceField(choices=["agon-tournament"])
    version = serializers.ChoiceField(choices=[1, 2])
    club = ClubDocument()
    tournament = TournamentDocument()
    entries = EntryDocument(many=True, max_length=10_000)
    forbidden = serializers.ListField(
        child=serializers.ListField(
            child=serializers.CharField(max_length=120, allow_blank=True),
            min_length=3,
            max_length=3,
        ),
        required=False,
        default=list,
    )
    teams = TeamDocument(many=True, required=False, default=list, max_length=5_000)
    rounds = RoundDocument(many=True, max_length=10_000)
    audit = AuditDocument(many=True, required=False, default=list)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        keys = [e["key"] for e in attrs["entries"]]
        if len(set(keys)) != len(keys):
            raise serializers.ValidationError({"entries": "entry keys must be distinct"})
        return attrs


def error_lines(detail: Any, path: str = "") -> list[str]:
    """DRF's nested error detail as ``path: message`` lines."""
    if isinstance(detail, dict):
        lines = []
        for key, value in detail.items():
            if key == "non_field_errors":
                name = path
            elif isinstance(key, int):  # a list field's errors by index
                name = f"{path}[{key}]"
            else:
                name = f"{path}.{key}" if path else str(key)
            lines += error_lines(value, name)
        return lines
    if isinstance(detail, list):
        if all(isinstance(d, str) for d in detail):
            return [f"{path}: {d}" if path else str(d) for d in detail]
        lines = []
        for i, value in enumerate(detail):
            if value:
                lines += error_lines(value, f"{path}[{i}]")
        return lines
    return [f"{path}: {detail}" if path else str(detail)]
