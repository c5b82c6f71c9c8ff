"""A round's explanations in words (docs/pairing.md, "Explanations"): each table's score
groups, who moved up between groups and why, why it seats three or who has the bye and
why, and the pairing check's own warnings in the editor's words (``warning_text``). The
facts come from the pure ``tournaments.pairing.explain`` through
``selectors.explanations.round_why``; the public round page, a player's page and the API
take their texts from here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.desk.selectors.explanations import RoundWhy, round_why
from tournaments.desk.services.pairing_edit import warning_text
from tournaments.models import Round
from tournaments.pairing.explain import (
    ABOVE,
    BOOK,
    BYE,
    MET,
    NEVER,
    ODD,
    POLICY,
    SEARCH,
    Move,
    TableExplanation,
)


def _points(value: float) -> str:
    return f"{value:g}"


def _names(why: RoundWhy, ids: Iterable[str]) -> str:
    return ", ".join(why.names.get(p, p) for p in ids)


def _groups(table: TableExplanation, why: RoundWhy) -> str:
    """ "Score groups: Anna, Ben 36 points (group 2 of 5); Cleo 30 points (group 3 of 5)"."""
    count = len(why.explanation.groups)
    parts: dict[int, list[str]] = {}
    scores: dict[int, float] = {}
    for seated in table.players:
        parts.setdefault(seated.group, []).append(seated.id)
        scores[seated.group] = seated.score
    return _("Score groups: %(groups)s.") % {
        "groups": "; ".join(
            _("%(names)s %(points)s points (group %(group)s of %(count)s)")
            % {
                "names": _names(why, ids),
                "points": _points(scores[group]),
                "group": group,
                "count": count,
            }
            for group, ids in parts.items()
        )
    }


def _blocked(move: Move, why: RoundWhy) -> str:
    """Why each of the higher player's group-mates below her is not her opponent."""
    name = why.names.get
    parts = []
    for b in move.blocked:
        values = {"name": name(b.player, b.player), "top": name(move.to, move.to)}
        if b.why == MET:
            values["rounds"] = ", ".join(map(str, b.rounds))
            parts.append(_("%(name)s met %(top)s in round %(rounds)s") % values)
        elif b.why == NEVER:
            parts.append(_("%(name)s is never seated with %(top)s") % values)
        elif b.why == BYE:
            parts.append(_("%(name)s has the bye") % values)
        elif b.why == ABOVE:
            values["partner"] = name(b.partner, b.partner)
            parts.append(_("%(name)s was taken by %(partner)s, ranked higher") % values)
        elif b.why == SEARCH:
            values["table"] = str(b.table)
            parts.append(
                _(
                    "%(name)s sits at table %(table)s: with %(name)s and %(top)s together, "
                    "the book's rule could not seat everyone below as it must (no rematch "
                    "while any seating avoids one, the table sizes, the 3-player table or "
                    "the bye where it belongs)"
                )
                % values
            )
        else:
            values["table"] = str(b.table)
            parts.append(_("%(name)s sits at table %(table)s") % values)
    return "; ".join(parts)


def _move(move: Move, why: RoundWhy, table: TableExplanation) -> str:
    by_id = {s.id: s for s in table.players}
    low, top = by_id[move.player], by_id[move.to]
    values = {
        "name": why.names.get(move.player, move.player),
        "points": _points(low.score),
        "top": why.names.get(move.to, move.to),
        "top_points": _points(top.score),
    }
    if not move.blocked:
        return (
            _(
                "%(name)s (%(points)s points) moved up to play %(top)s (%(top_points)s "
                "points): no one else was left in %(top)s's score group"
            )
            % values
        )
    if move.exhausted:
        return _(
            "%(name)s (%(points)s points) moved up to play %(top)s (%(top_points)s "
            "points): no one in %(top)s's score group was left whom she could play "
            "(%(why)s)"
        ) % {**values, "why": _blocked(move, why)}
    return _(
        "%(name)s (%(points)s points) plays %(top)s (%(top_points)s points) from a "
        "higher score group, while others of that group sit elsewhere (%(why)s)"
    ) % {**values, "why": _blocked(move, why)}


def _special(table: TableExplanation, why: RoundWhy) -> list[str]:
    special = table.special
    if special is None:
        return []
    triple = special.size == 3
    texts = []
    count = ngettext("%(count)s player", "%(count)s players", special.field) % {
        "count": special.field
    }
    if special.why == BOOK:
        texts.append(
            _(
                "%(count)s: an odd number, so one table seats three (section 21: "
                "“Let the three player tables play two games per turn”). The book's "
                "rule gives it to the lowest score group that can hold it, first to those "
                "who have had one least, then to the lowest ranks."
            )
            % {"count": count}
            if triple
            else _(
                "%(count)s: an odd number, so one player has the bye. The book's rule "
                "gives it to the lowest score group, first to those who have had one least, "
                "then to the lowest rank."
            )
            % {"count": count}
        )
    elif special.why == POLICY:
        texts.append(_("The policy seats as many 3-player tables as it can."))
    elif special.why == ODD:
        texts.append(
            _(
                "%(count)s: an odd number, so one table seats three; closest scores gives it "
                "to the lowest-ranked players who have not had one."
            )
            % {"count": count}
            if triple
            else _(
                "%(count)s: an odd number, so one player has the bye; closest scores gives it "
                "to the lowest-ranked player who has not had one."
            )
            % {"count": count}
        )
    for player, rounds in special.had:
        values = {"name": why.names.get(player, player), "rounds": ", ".join(map(str, rounds))}
        texts.append(
            _("%(name)s had a 3-player table before (round %(rounds)s).") % values
            if triple
            else _("%(name)s had the bye before (round %(rounds)s).") % values
        )
    return texts


def why_texts(table: TableExplanation, why: RoundWhy) -> list[str]:
    """One table's explanation, sentence by sentence."""
    texts = [_groups(table, why)]
    texts += [_move(m, why, table) + "." for m in table.moves]
    texts += _special(table, why)
    if not table.bye and table.fresh and len(table.players) > 1:
        texts.append(
            _(
                "No two players at this table have met before (section 21: “the next "
                "player down the list against whom she has not yet played”)."
            )
        )
    names = {int(k): v for k, v in why.names.items()}
    texts += [
        _("The pairing's check notes: %(warning)s.")
        % {"warning": warning_text(w, names, why.policy, why.book)}
        for w in table.warnings
    ]
    return texts


def attach_why(tables: Iterable[Any], why: RoundWhy | None) -> None:
    """Give each of the round's table rows (results/selectors/rounds.TableRow) its
    explanation, ``why``, which the one renderer of the rows (results/rows.table_rows)
    shows behind a "why?"."""
    if why is None:
        return
    for table in tables:
        found = why.at(table.number)
        if found is not None:
            table.why = why_texts(found, why)


def table_why(round_: Round, number: int) -> list[str]:
    """The explanation of one table of a round (a player's page: her latest table)."""
    why = round_why(round_)
    found = None if why is None else why.at(number)
    return [] if why is None or found is None else why_texts(found, why)


def why_json(why: RoundWhy) -> dict[str, object]:
    """The API's explanations: the facts of the pure core per table (with the round's
    table numbers) and their texts in the reader's language."""
    body = why.explanation.as_json()
    tables = []
    for number, table, facts in zip(
        why.numbers, why.explanation.tables, body["tables"], strict=True
    ):
        facts["table"] = number
        facts["texts"] = why_texts(table, why)
        tables.append(facts)
    body["tables"] = tables
    body["method"] = "book" if why.book else "closest"
    body["policy"] = why.policy
    return body
