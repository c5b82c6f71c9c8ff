from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import rulesets
from tournaments.models import Club, Entry, Season, Tournament
from tournaments.standings.table import ALL_TIE_BREAKS


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
            "club",
            "name",
            "game",
            "kind",
            "date",
            "season",
            *Tournament.PLAY_SETTINGS,
            "tiebreaks",
            "published",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}
        # Labels here, not as the model's verbose names: those are part of the
        # migrations' state, and a form label is only the page's wording.
        labels = {
            "club": _("Club"),
            "name": _("Name"),
            "game": pgettext_lazy("which game of the family", "Game"),
            "kind": _("Kind"),
            "date": _("Date"),
            "season": _("Season"),
            "rounds_planned": _("Rounds (turns) planned"),
            "policy": _("Tables"),
            "games_per_turn_2": _("Games per turn at a 2-player table"),
            "games_per_turn_3": _("Games per turn at a 3-player table"),
            "factor_2": _("Time factor, 2-player table"),
            "factor_3": _("Time factor, 3-player table"),
            "target": _("Target"),
            "bye_score": _("Bye score"),
            "absence_score": _("Absence score"),
            "published": _("Published"),
            "late_score": _("Round score of a late entrant for each round before her entry"),
            "pairing_method": _("Pairing method"),
            "seconds_per_move": _("Egg timer: seconds per move"),
            "decider": _("Decider at 3-player tables"),
            "no_show_minutes": _("No-show after (minutes from the round's start)"),
            "no_show_forfeit": _("Forfeit no-shows automatically"),
            "pre_round": _("Pre-round"),
        }
        help_texts = {
            "pre_round": _(
                "Swiss tournaments only (the book, section 21): round 1 is paired by rating "
                "or at random, and its result gives the order for the rounds after it. "
                "Fixed once round 1 is paired."
            ),
        }

    tiebreaks = forms.CharField(
        required=False,
        label=_("Tie-breaks, in order"),
        help_text=_(
            "Comma-separated, first decides first: opponents, median, direct, wins, rating, "
            "per_game, per_match, seated_after. Empty: opponents, median, direct, wins, rating."
        ),
    )
    # A choice rather than a checkbox: a post without it (an older page, a script) keeps
    # the setting, where an absent checkbox would say "no".
    pre_round_counts = forms.TypedChoiceField(
        required=False,
        label=_("The pre-round's scores"),
        choices=[
            ("True", _("count toward the standings")),
            ("False", _("only give the order")),
        ],
        coerce=lambda value: value == "True",
        empty_value=None,
        help_text=_(
            "“Only give the order”: the standings start from round 2. Either way its games "
            "are played and rated, and nobody meets the same opponent again."
        ),
    )
    uneven_turns = forms.BooleanField(
        required=False,
        label=_("Accept turns of unequal worth"),
        help_text=_(
            "Needed for games per turn and time factors that make an even turn worth more "
            "at one table size than at the other."
        ),
    )

    recompute = forms.BooleanField(
        required=False,
        label=_("Recompute the standings and ratings"),
        help_text=_(
            "Needed to change the game, the tables, the target, the games per turn, a "
            "time factor, the decider or the late entrants' score once a round is paired."
        ),
    )

    # The page shows the fields in these groups (two columns when wide); the last one is
    # folded away: few organisers change it, and it opens by itself on an error.
    GROUPS = (
        (_("Event"), ("club", "name", "game", "kind", "date", "season", "published"), False),
        (
            _("Pairing"),
            ("rounds_planned", "policy", "pairing_method", "pre_round", "pre_round_counts"),
            False,
        ),
        (
            _("Scoring"),
            ("target", "bye_score", "absence_score", "late_score", "tiebreaks"),
            False,
        ),
        (
            _("Advanced: turns, time and the decider"),
            (
                "games_per_turn_2",
                "games_per_turn_3",
                "factor_2",
                "factor_3",
                "uneven_turns",
                "decider",
                "seconds_per_move",
                "no_show_minutes",
                "no_show_forfeit",
            ),
            True,
        ),
    )

    def groups(self) -> list[tuple[str, list[forms.BoundField], bool]]:
        """(legend, fields, folded) for the page; a group with an error is not folded."""
        out = []
        for legend, names, folded in self.GROUPS:
            fields = [self[n] for n in names if n in self.fields]
            out.append((legend, fields, folded and not any(f.errors for f in fields)))
        return out

    def ungrouped(self) -> list[forms.BoundField]:
        grouped = {n for _legend, names, _folded in self.GROUPS for n in names}
        return [self[n] for n in self.fields if n not in grouped]

    def __init__(self, *args: Any, clubs: Any = None, played: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is None and not self.is_bound:
            # A new event is most often tonight's, at the organiser's one club.
            self.initial.setdefault("date", timezone.localdate())
            only = list(clubs[:2]) if clubs is not None else []
            if len(only) == 1:
                self.initial.setdefault("club", only[0].pk)
        if clubs is not None:
            self.fields["club"].queryset = clubs
            # The seasons of the clubs she may choose; the services check that the
            # season is the chosen club's and covers the date.
            self.fields["season"].queryset = Season.objects.filter(club__in=clubs).select_related(
                "club"
            )
        self.fields["season"].help_text = _(
            "The club's season this event counts toward; empty = none."
        )
        if not played:
            del self.fields["recompute"]
        # A post without the method (an older page, a script) keeps the current one.
        self.fields["pairing_method"].required = False
        # Empty means the default, no points for rounds before a late entry.
        self.fields["late_score"].required = False
        if self.instance.pk is not None and not self.is_bound:
            self.initial["tiebreaks"] = ", ".join(self.instance.tiebreaks or [])

    def settings(self) -> dict[str, Any]:
        """The cleaned settings, for the services (which save them)."""
        return {f: self.cleaned_data[f] for f in self._meta.fields or () if f in self.cleaned_data}

    def clean_late_score(self) -> Decimal:
        value = self.cleaned_data.get("late_score")
        return Decimal(0) if value is None else Decimal(value)

    def clean_tiebreaks(self) -> list[str]:
        text: str = self.cleaned_data.get("tiebreaks") or ""
        names = [n.strip().lower().replace(" ", "_") for n in text.split(",") if n.strip()]
        unknown = [n for n in names if n not in ALL_TIE_BREAKS]
        if unknown:
            raise forms.ValidationError(
                _("unknown tie-break %(name)s (known: %(known)s)")
                % {"name": unknown[0], "known": ", ".join(ALL_TIE_BREAKS)}
            )
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("each tie-break can be chosen once"))
        return names

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        slug = slugify(name)
        if not slug:
            raise forms.ValidationError(_("the name needs at least one letter or digit"))
        clash = Tournament.objects.filter(slug=slug).exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(_("a tournament with this name exists already"))
        return name

    def clean_pairing_method(self) -> str:
        method: str = self.cleaned_data.get("pairing_method") or self.instance.pairing_method
        return method

    def _posted(self, name: str) -> bool:
        return self.add_prefix(name) in self.data

    def clean_pre_round(self) -> str:
        # A post without the field (an older page, a script) keeps the setting.
        if not self._posted("pre_round"):
            return str(self.instance.pre_round)
        return str(self.cleaned_data.get("pre_round") or "")

    def clean_pre_round_counts(self) -> bool:
        value = self.cleaned_data.get("pre_round_counts")
        if value is None or not self._posted("pre_round_counts"):
            return bool(self.instance.pre_round_counts)
        return bool(value)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        game, policy = data.get("game"), data.get("policy")
        two_only = bool(game) and 3 not in rulesets.get(game).table_sizes
        if two_only and policy and policy != Tournament.Policy.PAIRS_BYE:
            self.add_error("policy", _("this game is played by two: use 2-player tables and a bye"))
        return data

    def save(self, commit: bool = True) -> Tournament:
        # Settings are saved by tournaments.desk.services.tournaments (checks, audit,
        # standings version), never by the form: see `settings()`.
        raise NotImplementedError("save through tournament_create / tournament_update")


class PasteEntriesForm(forms.Form):
    players = forms.CharField(
        label=_("Players"),
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "Anna, 1620\nBert\nCleo, 1500"}),
        help_text=_("One player per line, optionally followed by a comma and a rating."),
    )


class _EntryChoice(forms.ModelChoiceField):
    """Entries of one tournament, offered by the player's name alone."""

    def label_from_instance(self, obj: Any) -> str:
        return str(obj.player.name)


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
    first = _EntryChoice(queryset=Entry.objects.none(), label=_("Player"))
    second = _EntryChoice(queryset=Entry.objects.none(), label=_("and player"))
    reason = forms.CharField(max_length=120, required=False, label=_("Reason"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entries = tournament.entries.select_related("player")
        self.fields["first"].queryset = entries
        self.fields["second"].queryset = entries

    def clean_pairing_method(self) -> str:
        method: str = self.cleaned_data.get("pairing_method") or self.instance.pairing_method
        return method

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("first") and data.get("first") == data.get("second"):
            self.add_error("second", _("choose two different players"))
        return data


class SwapForm(ForbiddenPairForm):
    pass


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "city"]


class TeamsPasteForm(forms.Form):
    teams = forms.CharField(
        label=_("Teams"),
        widget=forms.Textarea(
            attrs={"rows": 5, "placeholder": "Anna Adler + Ben Berg\nStars: Cleo, 1500 + Dora"}
        ),
        help_text=_(
            "One team per line: two players joined by +, optionally a team name and a colon "
            "before them, a comma and a rating after a name."
        ),
    )


class TeamForm(forms.Form):
    """Two entered players without a team become one."""

    name = forms.CharField(label=_("Team name"), max_length=120)
    first = _EntryChoice(queryset=Entry.objects.none(), label=_("Player"))
    second = _EntryChoice(queryset=Entry.objects.none(), label=_("and player"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        free = (
            tournament.entries.select_related("player")
            .exclude(status=Entry.Status.WITHDRAWN)
            .filter(team_as_first__isnull=True, team_as_second__isnull=True)
            .order_by("player__name")
        )
        self.fields["first"].queryset = free
        self.fields["second"].queryset = free


class TeamNameForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=120)


class SeasonForm(forms.ModelForm):
    """A season's settings; saved by tournaments.desk.services.seasons, never by the form."""

    class Meta:
        model = Season
        fields = ["name", "starts_on", "ends_on", "best_of", "min_events", "participation_points"]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
        }

    def settings(self) -> dict[str, Any]:
        return {f: self.cleaned_data[f] for f in self._meta.fields or () if f in self.cleaned_data}

    def validate_unique(self) -> None:
        # The services check the name within the club (the form has no club field).
        pass

    def clean(self) -> dict[str, Any]:
        # Before the model's own check, whose message names no field.
        data = super().clean() or {}
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("the season ends before it starts"))
        return data

    def save(self, commit: bool = True) -> Season:
        raise NotImplementedError("save through season_create / season_update")
