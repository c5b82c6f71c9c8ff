from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.documents import TournamentSerializer
from tournaments.models import Club, Entry, Game, Player, Round, Team

__all__ = ["TournamentSerializer"]  # defined with the document formats it shares


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


class EntrySerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.name", read_only=True)
    player_id = serializers.IntegerField(source="player.id", read_only=True)

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
        ]
        read_only_fields = ["seed", "status", "joined_round"]


class EntryCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    rating = serializers.IntegerField(
        required=False, allow_null=True, min_value=-(2**31), max_value=2**31 - 1
    )


class PasteSerializer(serializers.Serializer):
    players = serializers.CharField(help_text="One player per line, optionally `name, rating`.")


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ["number", "status", "created_at", "published_at", "closed_at"]


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


class TableOutSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    is_bye = serializers.BooleanField()
    seats = SeatOutSerializer(many=True)
    games = GameOutSerializer(many=True)


class GameSerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="table.number", read_only=True)
    round = serializers.IntegerField(source="table.round.number", read_only=True)
    tournament = serializers.CharField(source="table.round.tournament.slug", read_only=True)
    out = serializers.SerializerMethodField()

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
        ]

    def get_out(self, game: Game) -> list[int | None]:
        # The list's queryset counts the seats in its one query (`seat_count`); a single
        # game just written counts them here.
        seats = getattr(game, "seat_count", None)
        return game.out_list(seats if seats is not None else game.table.seats.count())


class ClearResultSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text="Refuse to clear if the game changed since.",
    )


class GameResultSerializer(serializers.Serializer):
    """Either `out` (pieces out per seat position), or `moves` (the book's notation), or
    `events` (the online client's JSON event list). `version` is the version you saw."""

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
        required=False, help_text="Refuse the write if the game changed since."
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
