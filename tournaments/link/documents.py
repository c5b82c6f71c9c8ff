"""The push a venue sends to the club's site (docs/venue.md): the event's document as
the export writes it (tournaments/transfer/documents.py), cut into its head (settings,
entries, teams, audit) and its rounds, with a digest of each part. Only the parts whose
digests the site has not acknowledged are sent in full."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from rest_framework import serializers

FORMAT = "agon-push"
VERSION = 1
# A round at most per push beside the head: a venue that was cut off for a whole
# evening sends it in several pushes, each one transaction on the site.
ROUNDS_PER_PUSH = 5
DIGEST = {"max_length": 64, "min_length": 64}
ROUND_KEY = re.compile(r"[1-9][0-9]{0,3}|10000")


def digest(part: Any) -> str:
    """A part's digest: the same JSON on both sides gives the same digest."""
    text = json.dumps(part, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def split_document(document: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    head = {k: v for k, v in document.items() if k != "rounds"}
    return head, list(document["rounds"])


class DigestsDocument(serializers.Serializer):
    head = serializers.CharField(**DIGEST)
    rounds = serializers.DictField(child=serializers.CharField(**DIGEST))

    def validate_rounds(self, value: dict[str, str]) -> dict[str, str]:
        # ASCII digits only: str.isdigit takes "²" and "１", which int() reads or not.
        if len(value) > 10_000 or any(not ROUND_KEY.fullmatch(k) for k in value):
            raise serializers.ValidationError("round numbers from 1")
        return value


class PushDocument(serializers.Serializer):
    format = serializers.ChoiceField(choices=[FORMAT])
    version = serializers.ChoiceField(choices=[VERSION])
    # The head and rounds are checked against the import's schema by the service.
    head = serializers.DictField()
    rounds = serializers.ListField(child=serializers.DictField(), max_length=ROUNDS_PER_PUSH)
    digests = DigestsDocument()


def push_body(
    document: dict[str, Any], acked: dict[str, Any]
) -> tuple[dict[str, Any] | None, list[int], int]:
    """What a venue sends for an event's document when the site acknowledged `acked`:
    the head in full, up to ROUNDS_PER_PUSH rounds whose digests differ (oldest first),
    and the digests. None when the site holds it all. The rounds left for a later push
    are named by the digests the site holds (so it keeps them as they are), or not at
    all while the site has none of them. Also the numbers of the rounds sent, and how
    many rounds differ in all."""
    head, rounds = split_document(document)
    digests = {"head": digest(head), "rounds": {str(r["number"]): digest(r) for r in rounds}}
    if digests == acked:
        return None, [], 0
    held: dict[str, str] = acked.get("rounds", {})
    differ = [
        r for r in rounds if held.get(str(r["number"])) != digests["rounds"][str(r["number"])]
    ]
    batch = differ[:ROUNDS_PER_PUSH]
    sent = {str(r["number"]) for r in batch}
    body = {
        "format": FORMAT,
        "version": VERSION,
        "head": head,
        "rounds": batch,
        "digests": {
            "head": digests["head"],
            "rounds": {
                n: d if n in sent else held[n]
                for n, d in digests["rounds"].items()
                if n in sent or n in held
            },
        },
    }
    return body, [int(r["number"]) for r in batch], len(differ)
