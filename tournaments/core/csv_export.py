"""CSV for spreadsheets, safe to open: a text cell that starts with = + - @ (or a tab or
carriage return) is a formula to Excel and LibreOffice, so a player named
`=HYPERLINK(...)` would run as one. Such cells get a leading apostrophe, which the
spreadsheet shows as text (OWASP's "CSV injection" advice); numbers stay numbers."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(cell: Any) -> Any:
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


class SafeWriter:
    def __init__(self, stream: Any) -> None:
        self._writer = csv.writer(stream)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([neutralise(cell) for cell in row])
