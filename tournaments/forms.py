from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from games import rulesets

from .models import Club, Entry, Tournament


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
            "club",
            "name",
            "game",
            "kind",
            "date",
            *Tournament.PLAY_SETTINGS,
            "published",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}
        labels = {
            "rounds_planned": "Rounds (turns) planned",
            "games_per_turn_2": "Games per turn at a 2-player table",
            "games_per_turn_3": "Games per turn at a 3-player table",
            "factor_2": "Time factor, 2-player table",
            "factor_3": "Time factor, 3-player table",
        }

    recompute = forms.BooleanField(
        required=False,
        label=_("Recompute the standings and ratings"),
        help_text=_(
            "Needed to change the game, the tables, the target, the games per turn or a "
            "time factor once a round is paired."
        ),
    )

    def __init__(self, *args: Any, clubs: Any = None, played: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if clubs is not None:
            self.fields["club"].queryset = clubs
        if not played:
            del self.fields["recompute"]

    def settings(self) -> dict[str, Any]:
        """The cleaned settings, for the services (which save them)."""
        return {f: self.cleaned_data[f] for f in self._meta.fields or () if f in self.cleaned_data}

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        slug = slugify(name)
        if not slug:
            raise forms.ValidationError("the name needs at least one letter or digit")
        clash = Tournament.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError("a tournament with this name exists already")
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        game, policy = data.get("game"), data.get("policy")
        two_only = bool(game) and 3 not in rulesets.get(game).table_sizes
        if two_only and policy and policy != Tournament.Policy.PAIRS_BYE:
            self.add_error("policy", "this game is played by two: use 2-player tables and a bye")
        return data

    def save(self, commit: bool = True) -> Tournament:
        # Settings are saved by tournaments.services.tournaments (checks, audit,
        # standings version), never by the form: see `settings()`.
        raise NotImplementedError("save through tournament_create / tournament_update")


class PasteEntriesForm(forms.Form):
    players = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "Anna, 1620\nBert\nCleo, 1500"}),
        help_text="One player per line, optionally followed by a comma and a rating.",
    )


class EntryForm(forms.Form):
    """Correct an entry; the services check the name and the bounds again."""

    name = forms.CharField(label=_("Name"), max_length=120)
    rating = forms.IntegerField(
        label=_("Rating"),
        required=False,
        min_value=0,
        max_value=3000,
        help_text=_("Rating at entry, 0 to 3000; empty if unknown."),
    )
    missed_round_score = forms.DecimalField(
        label=_("Points per missed round"),
        required=False,
        max_digits=5,
        decimal_places=2,
        help_text=_("A late entry's round score for each round played before they joined."),
    )

    def __init__(self, *args: Any, late: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not late:
            del self.fields["missed_round_score"]


class LateEntryForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    rating = forms.IntegerField(label=_("Rating"), required=False, min_value=0, max_value=3000)
    missed_round_score = forms.DecimalField(
        label=_("Points per missed round"), required=False, max_digits=5, decimal_places=2
    )


class SkipForm(forms.Form):
    round_number = forms.IntegerField(label=_("Round"), min_value=1, max_value=99)
    bye = forms.TypedChoiceField(
        label=_("Scored as"),
        choices=[("1", _("a requested bye")), ("0", _("an absence"))],
        coerce=lambda v: v == "1",
    )


class ForbiddenPairForm(forms.Form):
    first = forms.ModelChoiceField(queryset=Entry.objects.none())
    second = forms.ModelChoiceField(queryset=Entry.objects.none())
    reason = forms.CharField(max_length=120, required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entries = tournament.entries.select_related("player")
        self.fields["first"].queryset = entries
        self.fields["second"].queryset = entries

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("first") and data.get("first") == data.get("second"):
            self.add_error("second", "choose two different players")
        return data


class SwapForm(ForbiddenPairForm):
    pass


class ResultForm(forms.Form):
    """Pieces out per seat, or a move record in the book's notation (or the online
    client's JSON event list)."""

    out_1 = forms.IntegerField(required=False)
    out_2 = forms.IntegerField(required=False)
    out_3 = forms.IntegerField(required=False)
    finished = forms.BooleanField(required=False, initial=True)
    colours_1 = forms.CharField(required=False, max_length=9)
    colours_2 = forms.CharField(required=False, max_length=9)
    colours_3 = forms.CharField(required=False, max_length=9)
    moves = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        help_text="Optional: the move record, one move per line or separated by commas; "
        "or the online client's JSON event list.",
    )
    version = forms.IntegerField(widget=forms.HiddenInput)
    position = forms.IntegerField(required=False, help_text="Reporting players: your seat.")


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "city"]
