"""The result form of one game: pieces out per seat (and a decider), typed on the results screen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models_game import MAX_SEATS, out_fields
from tournaments.results.services.result_path import ResultEntry


class ResultForm(forms.Form):
    """Pieces out per seat, or a move record in the book's notation (or the online
    client's JSON event list)."""

    finished = forms.BooleanField(required=False, initial=True)
    # With a move record: the turn ended before it did (the results screen's `u`), an
    # unfinished result; without it a record that stops early is a game in progress.
    unfinished = forms.BooleanField(required=False)
    moves = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        help_text=_(
            "Optional: the move record, one move per line or separated by commas; "
            "or the online client's JSON event list."
        ),
    )
    # The results screen's one field: pieces out in its notation (`31`, `3120`, `3 1 u`).
    out = forms.CharField(required=False, max_length=80)
    version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A field per seat of the largest table: a 2 vs 2 game has four (written out for
        # three seats, the fourth was dropped and reported as "missing").
        for name in out_fields(MAX_SEATS):
            self.fields[name] = forms.IntegerField(required=False)
            self.fields[name.replace("out_", "colours_")] = forms.CharField(
                required=False, max_length=9
            )

    def entry(self, positions: Sequence[int]) -> ResultEntry:
        """The valid form as the one result path's input, for a game played by the seat
        ``positions`` (every seat of the table, or a decider's two leaders)."""
        data = self.cleaned_data
        return ResultEntry(
            out=[data.get(f"out_{p}") for p in positions],
            out_text=data.get("out") or "",
            finished=bool(data.get("finished")),
            colours_out={str(p): data.get(f"colours_{p}") or "" for p in positions},
            moves_text=data.get("moves") or "",
            turn_ended=bool(data.get("unfinished")),
            # No seat from a page's form: a player's link acts for its own seat.
        )
