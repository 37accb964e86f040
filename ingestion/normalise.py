"""Parse the section cells of the government correspondence tables into ``CitationKey`` values.

The tables (``data/corpus/correspondence/*_mapping.json``) were typed by hand, converted PDF -> xlsx
-> JSON, and their section cells show it. Each rule below names the table row it exists for, as
``<file> row <n>`` with ``n`` the 1-based index in the JSON array.

Sub-unit labels. Numbered and lettered sub-units keep their own label (``"1"``, ``"m"``, ``"wa"``)
through :func:`graph_schema.numbering.canonical_sub`. Parts of a section that carry no number get a
label made here, unlike any real sub-section or clause label:

- ``"expl"``: the Explanation of the section (``"498A Explanation"``, ``"Explanation to section 5"``);
- ``"proviso"``: the only proviso (``"Provisio to section 23"``);
- ``"proviso1"``, ``"proviso2"``, ...: the first, second, ... proviso (``"First provision to section 22"``);
- ``"para1"``, ...: the n-th unnumbered paragraph (``"3, para 1"``);
- ``"cl1"``, ...: the n-th unnumbered clause, in the table's own word (``"23 Clause -1"``).

A key with any sub-unit names only part of its section; the loader turns that into
``Relation.PARTIAL``.

Both parsers raise :class:`~graph_schema.errors.InvalidSectionNumberError` with the raw cell in the
message when a cell cannot be read, and return ``()`` for the cells that say "no counterpart".
"""

from __future__ import annotations

import re

from graph_schema.errors import InvalidSectionNumberError
from graph_schema.model import CitationKey
from graph_schema.numbering import canonical_section, canonical_sub, parse_reference

__all__ = ["NO_PREDECESSOR_CELLS", "parse_new_cell", "parse_old_cell"]

NO_PREDECESSOR_CELLS = frozenset({"", "nan", "none", "-", "new", "new subsection"})
"""Old-side cells (lower-cased, stripped) meaning "this new provision has no predecessor".

``"New"`` (IPC_BNS row 2), ``"new"`` (row 327), ``"-"`` (row 105), ``""`` (row 6, a merged cell in
the xlsx), ``"New subsection"`` (rows 501-502), ``"nan"`` (CrPC_BNSS row 40, a pandas NaN).
"""

_BLANK_NEW_CELLS = frozenset({"", "nan", "none", "-"})

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}

# BSA_IEA rows 36, 37, 40: "First provision to section 22", "Second provision to section 22",
# "Provisio to section 23" (the table misspells "proviso" two ways).
_PROVISO_RE = re.compile(
    r"^(?:(?P<ord>first|second|third|fourth|fifth)\s+)?provi\w*\s+to\s+section\s+(?P<ref>.+)$", re.I
)
# IPC_BNS row 56: "Explanation to section 5" (IPC 55A became the Explanation to BNS 5).
_EXPLANATION_TO_RE = re.compile(r"^explanation\s+to\s+section\s+(?P<ref>.+)$", re.I)
# IPC_BNS row 298: "197 (1)d" - the clause letter lost its brackets.
_BARE_TRAILING_CLAUSE_RE = re.compile(r"\)\s*([a-z]{1,3})$")
# IPC_BNS rows 284, 417, 518 and BSA_IEA rows 152, 168: "189 (8)/ (9)", "309 (1), (2), (3)",
# "351 (2)/ (3)", "132(1) &(2)" - one reference followed by sibling sub-units.
_LIST_SEP_RE = re.compile(r"\s*(?:/|,|&|\band\b)\s*", re.I)
_SIBLING_RE = re.compile(r"^(?:\(\s*[0-9A-Za-z]{1,6}\s*\)\s*)+$")
_SUB_RE = re.compile(r"\(\s*([0-9A-Za-z]{1,6})\s*\)")

# Old-side qualifiers, tried on the whole cell before it is split into a list.
# BSA_IEA rows 3-14: "3, para 1" ... "4, para 3".
_PARA_RE = re.compile(r"^(?P<ref>[0-9]+\s*[A-Z]{0,4})\s*,?\s*para(?:graph)?\s*-?\s*(?P<n>\d+)$", re.I)
# IPC_BNS rows 41-43: "23 Clause -1", "23 Clause-2", "23 Clause-3".
_CLAUSE_RE = re.compile(r"^(?P<ref>[0-9]+\s*[A-Z]{0,4})\s+clause\s*-?\s*(?P<n>\d+)$", re.I)
# IPC_BNS row 147: "498A Explanation" (the Explanation of IPC 498A became BNS 86).
_EXPLANATION_RE = re.compile(r"^(?P<ref>[0-9]+\s*-?\s*[A-Z]{0,4})\s+explanation$", re.I)
# BSA_IEA row 2: "IEA 3 Interpretation clause". "Interpretation clause" is the heading of IEA s.3
# itself, so the cell names the whole section, and BSA 2 (Definitions) replaces all of it; the
# paragraphs of s.3 are then mapped one by one in rows 3-14 ("3, para 1" -> BSA 2(1)(a) ...).
_HEADING_RE = re.compile(r"^(?P<ref>[0-9]+\s*[A-Z]{0,4})\s+interpretation[\s-]*clause$", re.I)
# IPC_BNS rows 266-268: "230 to 232, 246 to 249, 255, 489A".
_RANGE_RE = re.compile(r"^(?P<lo>\d+)\s+to\s+(?P<hi>\d+)$", re.I)
_MAX_RANGE = 50
_SPACED_WORD_RE = re.compile(r"\d\s+[A-Za-z]{2,}")


def parse_new_cell(raw: object, act: str) -> tuple[CitationKey, ...]:
    """Parse a new-code cell (BNS, BNSS or BSA side) into one or more keys.

    >>> parse_new_cell("103 (1)", "BNS")
    (CitationKey(act='BNS', section='103', sub=('1',)),)
    >>> [k.label for k in parse_new_cell("351 (2)/ (3)", "BNS")]
    ['351(2)', '351(3)']

    Args:
        raw: The cell as read from JSON (a string, sometimes ``"nan"``).
        act: Code of the new Act, stored on every key.

    Returns:
        The keys named by the cell, in table order; ``()`` for a blank or ``"nan"`` cell, which the
        loader rejects because every row exists to describe a new provision.

    Raises:
        InvalidSectionNumberError: the cell is not blank and cannot be read; the message quotes it.
    """
    cell = _clean(raw)
    if cell.lower() in _BLANK_NEW_CELLS:
        return ()
    m = _PROVISO_RE.match(cell)
    if m:
        label = f"proviso{_ORDINALS[m['ord'].lower()]}" if m["ord"] else "proviso"
        return (_with_sub(_ref(m["ref"], act, raw), label),)
    m = _EXPLANATION_TO_RE.match(cell)
    if m:
        return (_with_sub(_ref(m["ref"], act, raw), "expl"),)
    cell = _BARE_TRAILING_CLAUSE_RE.sub(r")(\1)", cell)
    return _parse_list(cell, act, raw, allow_ranges=False)


def parse_old_cell(raw: object, act: str) -> tuple[CitationKey, ...]:
    """Parse an old-code cell (IPC, CrPC or IEA side) into the keys it names.

    >>> [k.label for k in parse_old_cell("230 to 232, 255, 489A", "IPC")]
    ['230', '231', '232', '255', '489A']
    >>> parse_old_cell("498A Explanation", "IPC")
    (CitationKey(act='IPC', section='498A', sub=('expl',)),)
    >>> parse_old_cell("New subsection", "IPC")
    ()

    Args:
        raw: The cell as read from JSON.
        act: Code of the old Act; a leading copy of it in the cell (``"IEA 3 ..."``) is dropped.

    Returns:
        The keys in table order, duplicates removed. A key with a sub-unit names only part of its
        section. ``()`` when the cell says the new provision has no predecessor
        (:data:`NO_PREDECESSOR_CELLS`) - that is data, not an error.

    Raises:
        InvalidSectionNumberError: the cell cannot be read; the message quotes it.
    """
    cell = _clean(raw)
    # IPC_BNS row 224 "363A," and CrPC_BNSS rows 5, 8 "2(a)]", "2(b)]": stray punctuation.
    cell = cell.rstrip(",;.] ").strip()
    if cell.lower() in NO_PREDECESSOR_CELLS:
        return ()
    cell = re.sub(rf"^{re.escape(act)}\s+", "", cell, flags=re.I)
    for pattern, label in ((_PARA_RE, "para"), (_CLAUSE_RE, "cl")):
        m = pattern.match(cell)
        if m:
            return (_with_sub(_ref(m["ref"], act, raw), f"{label}{int(m['n'])}"),)
    m = _EXPLANATION_RE.match(cell)
    if m:
        return (_with_sub(_ref(m["ref"], act, raw), "expl"),)
    m = _HEADING_RE.match(cell)
    if m:
        return (_ref(m["ref"], act, raw),)
    return _parse_list(cell, act, raw, allow_ranges=True)


def _clean(raw: object) -> str:
    return re.sub(r"\s+", " ", "" if raw is None else str(raw)).strip()


def _ref(text: str, act: str, raw: object) -> CitationKey:
    # A letter suffix set apart by a space is one letter ("73 A", BSA_IEA rows 92, 101, 105, 106); a separated
    # word ("5 para") is prose, which parse_reference would otherwise read as section "5PARA".
    if _SPACED_WORD_RE.search(text):
        raise InvalidSectionNumberError(f"unreadable section cell {str(raw)!r}")
    try:
        return parse_reference(text, act)
    except InvalidSectionNumberError as exc:
        raise InvalidSectionNumberError(f"unreadable section cell {str(raw)!r}") from exc


def _with_sub(key: CitationKey, label: str) -> CitationKey:
    return CitationKey(key.act, key.section, (*key.sub, label))


def _parse_list(cell: str, act: str, raw: object, *, allow_ranges: bool) -> tuple[CitationKey, ...]:
    """Split ``"233 / 234 / 489D"``, ``"29 and 29A"``, ``"228A (1)/(2)"`` and expand ``"230 to 232"``."""
    keys: list[CitationKey] = []
    for part in _LIST_SEP_RE.split(cell):
        if not part:
            continue
        rng = _RANGE_RE.match(part)
        if rng and allow_ranges:
            keys.extend(_expand_range(int(rng["lo"]), int(rng["hi"]), act, raw))
        elif _SIBLING_RE.match(part) and keys:
            # "(2)" after "228A (1)" (IPC_BNS row 132) is a sibling of the previous key's last sub-unit.
            prev = keys[-1]
            subs = tuple(canonical_sub(s) for s in _SUB_RE.findall(part))
            if len(subs) > len(prev.sub):
                raise InvalidSectionNumberError(f"unreadable section cell {str(raw)!r}")
            keys.append(CitationKey(act, prev.section, prev.sub[: len(prev.sub) - len(subs)] + subs))
        else:
            keys.append(_ref(part, act, raw))
    if not keys:
        raise InvalidSectionNumberError(f"unreadable section cell {str(raw)!r}")
    return tuple(dict.fromkeys(keys))


def _expand_range(lo: int, hi: int, act: str, raw: object) -> list[CitationKey]:
    # Ranges hold whole numbers only: no lettered section (e.g. 231A) sits inside the ranges the
    # IPC_BNS table uses (rows 266-268), and a lettered one would need the old Act's index to find.
    if not 0 < hi - lo <= _MAX_RANGE:
        raise InvalidSectionNumberError(f"implausible range in section cell {str(raw)!r}")
    return [CitationKey(act, canonical_section(n)) for n in range(lo, hi + 1)]
