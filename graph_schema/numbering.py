"""Canonical section numbers and section references.

Section numbers are written many ways in the sources and by lawyers: ``"498A"``, ``"498-A"``,
``"171-I"`` (India Code's hyphen keeps a capital I from reading as 1), ``"28JA."``, ``"73 A"``.
They all collapse to one canonical form: upper case, no spaces, hyphens or trailing dots.

A reference adds sub-units: ``"103(1)"``, ``"103 (1)"``, ``"13(1)(ia)"``, ``"2(1)(m )"``.
"""

from __future__ import annotations

import re

from graph_schema.errors import InvalidSectionNumberError
from graph_schema.model import CitationKey

_SECTION_RE = re.compile(r"^(\d+)([A-Z]{0,4})$")
# digits, then letters attached or after a hyphen ("498A", "171-I", "28JA"), or one capital after a
# space ("73 A"); "302.5", "30 2" and "5 para" are not section numbers.
_RAW_SECTION_RE = re.compile(r"(\d+)(?:-?([A-Za-z]{1,4}(?:-[A-Za-z]{1,3})?)|\s([A-Z]))?")
_ROMAN_ONLY = re.compile(r"^[IVXLC]+$")
_SUB_RE = re.compile(r"\(\s*([0-9A-Za-z]{1,6})\s*\)")
_REF_RE = re.compile(
    # A letter suffix is attached ("498A", "498-A") or a single capital after a space ("73 A");
    # "5 para" is not section "5PARA".
    r"^\s*(?:(?:section|sec\.?|s\.|ss\.)\s*)?([0-9]+(?:-?[A-Za-z]{1,4}|\s[A-Z])?)\s*\.?\s*((?:\(\s*[0-9A-Za-z]{1,6}\s*\)\s*)*)\s*$",
    re.IGNORECASE,
)


_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def roman_value(numeral: str) -> int:
    """The value of a Roman numeral in either case ("iv" -> 4, "XIV" -> 14): a numeral before a larger one is
    subtracted. Raises ``KeyError`` on a letter that is not a numeral.

    >>> roman_value("ix"), roman_value("XL")
    (9, 40)
    """
    values = [_ROMAN_VALUES[ch] for ch in numeral.lower()]
    return sum(-v if i + 1 < len(values) and values[i + 1] > v else v for i, v in enumerate(values))


def canonical_section(raw: str | int) -> str:
    """Return the canonical form of a bare section number.

    >>> canonical_section("498-a")
    '498A'
    >>> canonical_section(" 73 A ")
    '73A'
    >>> canonical_section("28JA.")
    '28JA'

    Raises:
        InvalidSectionNumberError: if ``raw`` is not a section number (Roman numerals alone are
            Part or Chapter headings in the India Code index, not sections).
    """
    text = str(raw).strip().rstrip(".")
    m = _RAW_SECTION_RE.fullmatch(text)
    s = (m.group(1) + (m.group(2) or m.group(3) or "").replace("-", "")).upper() if m else text.upper()
    if not m or not _SECTION_RE.match(s):
        if _ROMAN_ONLY.match(s):
            raise InvalidSectionNumberError(f"{raw!r} is a Roman numeral heading, not a section number")
        raise InvalidSectionNumberError(f"{raw!r} is not a section number")
    return s


def canonical_sub(label: str) -> str:
    """Canonical sub-unit label: ``"ia"``, ``"1"``, ``"2A"``, ``"m"``."""
    s = re.sub(r"\s", "", label)
    m = re.match(r"^(\d+)([A-Za-z]*)$", s)
    if m:
        return m.group(1) + m.group(2).upper()
    return s.lower()


def parse_reference(raw: str | int, act: str = "") -> CitationKey:
    """Parse ``"13(1)(ia)"`` into ``CitationKey(act, "13", ("1", "ia"))``.

    Raises:
        InvalidSectionNumberError: when ``raw`` is not a section reference.
    """
    m = _REF_RE.match(str(raw))
    if not m:
        raise InvalidSectionNumberError(f"{raw!r} is not a section reference")
    section = canonical_section(m.group(1))
    subs = tuple(canonical_sub(x) for x in _SUB_RE.findall(m.group(2) or ""))
    return CitationKey(act=act, section=section, sub=subs)
