"""Reporter and neutral citations of Indian judgments, in one canonical spelling.

Used both to key the case registry and to look up a precedent found in an answer, so that
"(2014)8 SCC 273", "(2014) 8 S.C.C. 273" and "[2014] 8 SCC 273" are one key: "(2014) 8 SCC 273".
"""

from __future__ import annotations

import re

_SP = r"\s*"
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # (2014) 8 SCC 273 ; [1978] 2 SCR 621 ; (2014)8 S.C.C. 273 ; 1992 Supp (1) SCC 272
    (
        re.compile(r"[\(\[]\s*(\d{4})\s*[\)\]]\s*(\d{1,2})\s*(S\.?\s*C\.?\s*[CR]\.?)\s*(\d{1,5})", re.I),
        "({0}) {1} {2} {3}",
    ),
    (re.compile(r"\b(\d{4})\s+Supp\.?\s*\(\s*(\d{1,2})\s*\)\s*(SCC|SCR)\s+(\d{1,5})", re.I), "{0} Supp ({1}) {2} {3}"),
    # AIR 1973 SC 1461 ; AIR 1978 Guj 134 ; A.I.R. 1950 Bom. 35
    (re.compile(r"\bA\.?\s*I\.?\s*R\.?\s*(\d{4})\s+([A-Z][A-Za-z]{1,12})\.?\s+(\d{1,5})\b"), "AIR {0} {1} {2}"),
    # 2023 SCC OnLine SC 890 ; 2021 SCC OnLine Del 123
    (
        re.compile(r"\b(\d{4})\s+SCC\s+On\s*Line\s+([A-Z][A-Za-z]{1,12})\.?\s+(\d{1,6})\b", re.I),
        "{0} SCC OnLine {1} {2}",
    ),
    # 2024 INSC 123 (Supreme Court neutral citation)
    (re.compile(r"\b(\d{4})\s+INSC\s+(\d{1,5})\b"), "{0} INSC {1}"),
    # High Court neutral citations: 2023:DHC:1234 ; 2023:BHC-AS:12345 ; 2024:KER:5678
    (re.compile(r"\b(\d{4})\s*:\s*([A-Z][A-Z\-]{1,12})\s*:\s*(\d{1,6})(?:\s*-\s*([A-Z]{2,4}))?\b"), "{0}:{1}:{2}"),
)
_SHORT = {"S.C.C.": "SCC", "SCC": "SCC", "S.C.R.": "SCR", "SCR": "SCR"}


def case_citations(text: str) -> list[str]:
    """Every reporter or neutral citation in ``text``, canonically spelt, in order of appearance.

    >>> case_citations("Arnesh Kumar v. State of Bihar, (2014)8 S.C.C. 273")
    ['(2014) 8 SCC 273']
    >>> case_citations("Kesavananda Bharati, AIR 1973 SC 1461")
    ['AIR 1973 SC 1461']
    """
    found: list[tuple[int, str]] = []
    for pattern, template in _PATTERNS:
        for m in pattern.finditer(text):
            parts = [g for g in m.groups() if g is not None]
            parts = [_SHORT.get(re.sub(r"\s", "", p).upper(), p) for p in parts]
            if template.startswith("AIR") or "OnLine" in template:
                parts[1] = parts[1][:1].upper() + parts[1][1:]
            found.append((m.start(), template.format(*parts)))
    found.sort()
    out: list[str] = []
    for _, c in found:
        if c not in out:
            out.append(c)
    return out
