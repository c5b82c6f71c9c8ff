"""JSON in and out for ``python -m tournaments.pairing``, without importing ``json``.

The ``json`` package imports ``re``, and ``re`` imports ``enum``: together about a fifth
of the command's CPU at 1,000 players (issue 44). ``json`` does its work in CPython's
accelerator ``_json``; this module calls the same functions with the settings that
``json.loads`` and ``json.dumps`` use by default, so the values and the text are the
same (tests/tournaments/core/test_pairing_cli_imports.py compares them). What the fast
path refuses (malformed input, a value JSON cannot hold), and any Python without
``_json``, goes through ``json`` for its exact errors.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: see types.py

if TYPE_CHECKING:
    from typing import Any

try:
    from _json import encode_basestring_ascii, make_encoder, make_scanner
except ImportError:  # not CPython
    ACCELERATED = False
else:
    ACCELERATED = True

WHITESPACE = " \t\n\r"  # JSON's, as json.decoder.WHITESPACE


class _Decoding:
    """What the scanner reads from a ``json.JSONDecoder()``: its defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float  # "NaN", "Infinity" and "-Infinity", as json.decoder reads them


if ACCELERATED:
    # The scanner reads the attributes above (typeshed wants a scanner as the context).
    _scan = make_scanner(_Decoding())  # type: ignore[arg-type]


def _refuse(value: object) -> object:
    raise TypeError("not JSON serializable")


def loads(text: str) -> Any:
    """``json.loads(text)``."""
    if ACCELERATED:
        body = text.strip(WHITESPACE)
        try:
            value, end = _scan(body, 0)
        except Exception:
            # Malformed. The accelerator raises its errors through json.decoder, which
            # is not imported here (it fails with a SystemError then): json reads the
            # text again and says what is wrong, as it would have.
            pass
        else:
            if end == len(body):
                return value
    import json

    return json.loads(text)


def dumps(value: object) -> str:
    """``json.dumps(value)``."""
    if ACCELERATED:
        # json.dumps's defaults: circular references checked (a fresh record of the
        # containers each time), ": " and ", ", keys as given, NaN and Infinity allowed.
        encode = make_encoder(
            {}, _refuse, encode_basestring_ascii, None, ": ", ", ", False, False, True
        )
        try:
            return "".join(encode(value, 0))
        except Exception:
            pass  # something JSON cannot hold: json says what, as it would have
    import json

    return json.dumps(value)
