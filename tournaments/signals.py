"""What the tournament side tells the layers above it that a result became final.

The services send these inside their transaction; whoever listens (the ratings app, in
its AppConfig.ready) does its work there too, so a rolled-back close queues nothing.
Tournaments never import the ratings: this module is the only way down-to-up news
travels (docs/architecture.md).

Every signal is sent with ``by`` (the acting Actor, tournaments/core/actor.py)
besides the named arguments. Signals are news only, nobody reads their receivers'
answers: the one question the tournaments ask the ratings (a new entry's rating) goes
through the interface in tournaments/starting_ratings.py.
"""

from __future__ import annotations

from django.dispatch import Signal

# A round closed (round_id): its games are final and can be rated.
round_closed = Signal()

# A club evening closed (tournament_id): rated as one period.
evening_closed = Signal()

# A result of an already closed round changed (round_id): history from there changed.
closed_result_changed = Signal()

# Rated history is about to be deleted in this transaction: a whole tournament
# (tournament_id) or its last round (round_id); the listener reads what it needs now.
history_deleted = Signal()

# A closed round (round_id) or a closed club evening (tournament_id) was reopened in this
# transaction: its games are no longer final. The listener takes its rating back now
# (replaying the history without it); closing it again rates it afresh.
history_reopened = Signal()

# News for a club's webhooks (tournaments/webhooks/receivers.py), sent inside the
# service's transaction like the others, so a change rolled back tells nobody:
# a round was published (round_id);
round_published = Signal()
# a round of any kind of event closed (round_id): round_closed above is the ratings'
# (an evening's rounds are rated with the evening), this one every round's;
round_ended = Signal()
# a game's result counts now, entered by a director or confirmed (game_id);
result_confirmed = Signal()
# the standings of an event changed (tournament_id), or of every event these players
# entered (player_ids): tournaments/core/freshness.py;
standings_version_changed = Signal()
# the ratings changed after a rating job (club_ids: the clubs whose events were rated,
# None for a recomputation, which may change every club's list). Sent by the ratings app
# (ratings/services.py), which may import this module; the tournaments never import it.
ratings_updated = Signal()
