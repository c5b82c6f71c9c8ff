"""One German word per concept: every translation of the German catalogue is checked
against the glossary in docs/glossary.md (a round is a Runde and never a Zug, a seat a
Sitz and never a Platz, a rank a Rang, an unfinished game "nicht beendet"), and the check
is shown to catch a planted bad entry."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PO = ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po"
GLOSSARY = ROOT / "docs" / "glossary.md"
TICKED = re.compile(r"`([^`]+)`")
# What a message's English says without its placeholders and markup.
PLACEHOLDER = re.compile(r"%\([^)]*\)[a-z]|%[a-z%]|\{[^}]*\}|<[^>]+>")


@dataclass(frozen=True)
class Term:
    english: tuple[str, ...]
    german: tuple[str, ...]
    only_here: bool
    never: tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    context: str
    english: str  # msgid and msgid_plural
    german: tuple[str, ...]  # every msgstr


def _rows(text: str, heading: str) -> list[list[str]]:
    """The body rows of the first table under `## heading`, as lists of cells."""
    rows: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line[3:].strip() == heading
        elif inside and line.startswith("|") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    assert rows, f"no table under '## {heading}' in {GLOSSARY}"
    return rows[1:]  # without the header


def glossary(text: str) -> tuple[list[Term], list[str]]:
    """The terms, and the words no translation uses."""
    terms = [
        Term(
            english=tuple(TICKED.findall(english)),
            german=tuple(TICKED.findall(german)),
            only_here=only_here.lower() == "yes",
            never=tuple(TICKED.findall(never)),
        )
        for english, german, only_here, never, _meaning, _book in _rows(text, "Terms")
    ]
    unused = [word for row in _rows(text, "Words not used") for word in TICKED.findall(row[0])]
    return terms, unused


def catalogue(text: str) -> list[Entry]:
    """The catalogue's translations: not the header, not obsolete entries, and not fuzzy
    ones (makemessages' guesses, which the site does not use until a translator has
    looked at them: `config/bin/untranslated` lists those)."""
    found: list[Entry] = []
    fields: dict[str, str] = {}
    key = ""
    fuzzy = False
    for line in [*text.splitlines(), ""]:
        if not line.strip():
            if fields.get("msgid") and not fuzzy:
                found.append(
                    Entry(
                        context=fields.get("msgctxt", ""),
                        english=" ".join(
                            fields[k] for k in ("msgid", "msgid_plural") if k in fields
                        ),
                        german=tuple(v for k, v in fields.items() if k.startswith("msgstr")),
                    )
                )
            fields, key, fuzzy = {}, "", False
        elif line.startswith("#,"):
            fuzzy = "fuzzy" in line
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            fields[key] += _unquote(line)
        else:
            key, _, value = line.partition(" ")
            fields[key] = _unquote(value)
    return found


def _unquote(quoted: str) -> str:
    return quoted.strip()[1:-1].replace('\\"', '"').replace("\\n", "\n")


def _says(text: str, words: tuple[str, ...]) -> list[str]:
    """Those of `words` that `text` contains as whole words (any case; a phrase's words
    may be separated by any white space)."""
    return [
        word
        for word in words
        if re.search(
            r"(?<!\w)" + r"\s+".join(map(re.escape, word.split())) + r"(?!\w)",
            text,
            re.IGNORECASE,
        )
    ]


def problems(entries: list[Entry], terms: list[Term], unused: list[str]) -> list[str]:
    """Every translation that breaks the glossary, with the reason."""
    found: list[str] = []
    for entry in entries:
        english = PLACEHOLDER.sub(" ", entry.english)
        for german in entry.german:
            where = f"{entry.english!r} -> {german!r}"
            plain = PLACEHOLDER.sub(" ", german)
            for word in _says(plain, tuple(unused)):
                found.append(f"{where}: uses {word!r}, a word the glossary does not use")
            said = [term for term in terms if _says(english, term.english)]
            # A never-word is fine where the English names its own concept too ("the
            # move ... the ply before it": Zug and Halbzug).
            allowed = {word.lower() for term in said for word in term.german}
            for term in terms:
                mentioned = _says(english, term.english)
                if mentioned:
                    for word in _says(plain, term.never):
                        if word.lower() in allowed:
                            continue
                        found.append(
                            f"{where}: {mentioned[0]!r} is {term.german[0]!r}, never {word!r}"
                        )
                elif term.only_here:
                    for word in _says(plain, term.german):
                        found.append(
                            f"{where}: {word!r} is only for {' / '.join(term.english)}, "
                            "which the English does not say"
                        )
    return found


def _glossary() -> tuple[list[Term], list[str]]:
    return glossary(GLOSSARY.read_text(encoding="utf-8"))


def test_the_glossary_names_the_concepts_that_were_mixed_up():
    terms, unused = _glossary()
    by_english: dict[str, Term] = {}
    for term in terms:
        by_english.setdefault(term.english[0], term)  # game: a Partie before the kind
    assert by_english["round"].german[0] == "Runde" and "Zug" in by_english["round"].never
    assert "turn" in by_english["round"].english
    assert by_english["move"].german[0] == "Zug"
    assert by_english["seat"].german[0] == "Sitz" and "Platz" in by_english["seat"].never
    assert by_english["rank"].german[0] == "Rang" and "Sitz" in by_english["rank"].never
    assert by_english["unfinished"].german[0] == "nicht beendet"
    assert by_english["game"].german[0] == "Partie" and by_english["table"].german[0] == "Tisch"
    assert by_english["pieces out"].german == ("Figuren draußen",)
    assert by_english["dropped score"].german == ("Dropped Score",)
    assert {"unbeendet", "Platz"} <= set(unused)


def test_every_translation_follows_the_glossary():
    terms, unused = _glossary()
    entries = catalogue(PO.read_text(encoding="utf-8"))
    assert len(entries) > 500  # the whole catalogue was read
    found = problems(entries, terms, unused)
    assert not found, "\n".join(found)


PLANTED = [
    # The book's turn (a round) said as a move.
    ('#, python-format\nmsgid "Round %(number)s (turn)"\nmsgstr "Zug %(number)s"', "never 'Zug'"),
    ('msgid "Games per turn"\nmsgstr "Partien je Zug"', "never 'Zug'"),
    # A seat said as a rank's word, and a rank as a seat's.
    ('#, python-format\nmsgid "seat %(seat)s"\nmsgstr "Platz %(seat)s"', "never 'Platz'"),
    ('msgid "Rank"\nmsgstr "Sitz"', "never 'Sitz'"),
    ('msgid "Your place"\nmsgstr "Dein Sitz"', "'Sitz' is only for"),
    ('msgid "Places"\nmsgstr "Plätze"', "does not use"),
    ('msgid "unfinished"\nmsgstr "unbeendet"', "never 'unbeendet'"),
    ('msgid "Open games"\nmsgstr "Unbeendete Partien"', "does not use"),
    # A plural's second form is checked too.
    (
        '#, python-format\nmsgid "%(counter)s round"\nmsgid_plural "%(counter)s rounds"\n'
        'msgstr[0] "%(counter)s Runde"\nmsgstr[1] "%(counter)s Züge"',
        "never 'Züge'",
    ),
]


def test_a_fuzzy_guess_is_not_checked_until_it_is_translated():
    terms, unused = _glossary()
    text = PO.read_text(encoding="utf-8")
    guess = '#, fuzzy\nmsgid "seat %(n)s"\nmsgstr "Platz %(n)s"'
    before = problems(catalogue(text), terms, unused)
    assert problems(catalogue(text.rstrip("\n") + "\n\n" + guess + "\n"), terms, unused) == before


@pytest.mark.parametrize(("planted", "reason"), PLANTED)
def test_the_check_catches_a_planted_bad_entry(planted, reason):
    terms, unused = _glossary()
    text = PO.read_text(encoding="utf-8")
    before = problems(catalogue(text), terms, unused)
    after = problems(catalogue(text.rstrip("\n") + "\n\n" + planted + "\n"), terms, unused)
    new = [problem for problem in after if problem not in before]
    assert new and any(reason in problem for problem in new), new
