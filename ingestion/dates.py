"""Dates as written in Indian statute sources, turned into ISO-8601 strings."""

from __future__ import annotations

import re
from datetime import date

_MONTHS = {
    m: i
    for i, names in enumerate(
        [
            ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
            ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
            ("oct", "october"), ("nov", "november"), ("dec", "december"),
        ],
        start=1,
    )
    for m in names
}

_DMY = re.compile(r"^\s*(\d{1,2})\s*[-./]+\s*(\d{1,2})\s*[-./]+\s*(\d{4})\s*$")
_ISO = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")
_WORDS = re.compile(r"^\s*(\d{1,2})(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?([A-Za-z]+),?\s+(\d{4})\s*$")


def parse_date(raw: str | None) -> str | None:
    """Parse ``"1-10-1978"``, ``"30--03-2007"``, ``"01-07-2024"``, ``"2022-01-25"`` or
    ``"22nd August, 1996"`` into ``"YYYY-MM-DD"``. Returns None for blanks, ``"undefined"`` and
    anything that is not a real calendar date."""
    if raw is None:
        return None
    s = str(raw).strip()
    if not s or s.lower() in {"undefined", "null", "none", "nan", "-"}:
        return None
    m = _ISO.match(s)
    if m:
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    else:
        m = _DMY.match(s)
        if m:
            d, mo, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        else:
            m = _WORDS.match(s)
            if not m or m.group(2).lower() not in _MONTHS:
                return None
            d, mo, y = int(m.group(1)), _MONTHS[m.group(2).lower()], int(m.group(3))
    try:
        return date(y, mo, d).isoformat()
    except ValueError:
        return None
