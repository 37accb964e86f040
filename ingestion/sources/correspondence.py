"""The government correspondence tables (new code -> old code), inverted into ``Replacement`` edges.

Three JSON files in ``data/corpus/correspondence/`` list, one row per new provision, the old
provision(s) it replaces (see that folder's ``SOURCE.md``). :func:`load_table` reads one of them and
returns edges old -> new, the rows it refused, and the new provisions the table calls new.

Two hand-curated files in ``data/corpus/curation/`` complete the tables: ``table_corrections.jsonl``
(rows the table left out, :func:`load_corrections`) and ``no_successor.jsonl`` (old provisions that
truly have no successor, :func:`load_no_successor`). :func:`coverage` checks that together they
account for every old section.

Relation of an edge, first rule that applies wins:

1. ``PARTIAL`` - the old cell names only part of the old section: a sub-section, clause, paragraph or
   Explanation (IPC_BNS row 147 "498A Explanation" -> BNS 86; BSA_IEA row 3 "3, para 1").
2. ``MERGED`` - the row lists more than one old section (IPC_BNS row 55 "54 & 55" -> BNS 5; row 266
   "230 to 232, 246 to 249, 255, 489A" -> BNS 178).
3. ``SPLIT`` - the old section reaches more than one new section across the table (IPC 498A -> BNS 85
   and 86, rows 146-147), or its whole text reaches more than one new sub-provision (IPC 10 -> BNS
   2(19) "man" and 2(35) "woman", rows 24 and 40; IPC 158 -> BNS 189(8) and 189(9), row 284).
4. ``SAME`` - every sentence of the summary says "no change" or only that the old section now sits
   as a sub-section without its heading ("No change." passim; row 164 "No Change, except IPC section
   is included as subsection in BNS."; row 445 "IPC section is included as a sub-section in BNS sans
   heading." for IPC 420 -> BNS 318(4)). The table spells out every textual change elsewhere
   ("... sans heading. Fine is added.", row 206), so a summary that names none is a statement that
   the words are unchanged.
5. ``MODIFIED`` - anything else.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from graph_schema.errors import IngestError, InvalidSectionNumberError
from graph_schema.model import CitationKey, Relation, Replacement
from graph_schema.numbering import canonical_section, parse_reference
from ingestion.normalise import parse_new_cell, parse_old_cell
from ingestion.report import Reject
from ingestion.sources.base import read_jsonl

__all__ = [
    "TABLES",
    "CorrespondenceResult",
    "NoSuccessor",
    "TableSpec",
    "coverage",
    "load_corrections",
    "load_no_successor",
    "load_table",
]


@dataclass(frozen=True, slots=True)
class TableSpec:
    """One correspondence table file and the Acts on each side of it."""

    file: str
    old_act: str
    new_act: str
    old_column: str
    new_column: str


TABLES: tuple[TableSpec, ...] = (
    TableSpec("IPC_BNS_mapping.json", "IPC", "BNS", "ipc_section", "bns_section"),
    TableSpec("CrPC_BNSS_mapping.json", "CRPC", "BNSS", "crpc_section", "bnss_section"),
    TableSpec("BSA_IEA_mapping.json", "IEA", "BSA", "iea_section", "bsa_section"),
)
"""The three tables in ``data/corpus/correspondence/``. :func:`load_table` reads the columns named here
(``<act>_section`` for any other pair of Acts) and the ``summary`` column."""


def table_for(path: Path) -> TableSpec | None:
    """The table spec whose file name ``path`` has (case-insensitive), or None."""
    return next((t for t in TABLES if t.file.lower() == path.name.lower()), None)


@dataclass(frozen=True, slots=True)
class CorrespondenceResult:
    """What :func:`load_table` made of one table.

    Attributes:
        replacements: One edge per distinct (old key, new key) pair, in table order.
        rejects: Cells that could not be read and sections that do not exist, with file and row.
        new_without_predecessor: New provisions whose old cell is "New", "-", blank or "nan".
        rows: Number of rows in the file.
    """

    replacements: tuple[Replacement, ...]
    rejects: tuple[Reject, ...]
    new_without_predecessor: tuple[CitationKey, ...]
    rows: int = 0


@dataclass(frozen=True, slots=True)
class NoSuccessor:
    """An old provision that no new provision replaces, with the authority for saying so."""

    act: str
    section: str
    reason: str
    authority: str
    today: tuple[tuple[str, str], ...] = ()
    """(Act code, reference) of the provisions that govern its subject today, where some do though none replaced it
    (IPC 309, attempt to suicide: BNS 226 punishes only an attempt to compel a public servant)."""


@dataclass(frozen=True, slots=True)
class _Pair:
    old: CitationKey
    new: CitationKey
    row: int
    merged: bool
    summary: str | None


def load_table(
    path: Path, old_act: str, new_act: str, old_sections: set[str], new_sections: set[str]
) -> CorrespondenceResult:
    """Read one correspondence table and invert it into old -> new ``Replacement`` edges.

    Args:
        path: The JSON array file; row ``n`` is its ``n``-th element (1-based).
        old_act: Code of the repealed Act (``"IPC"``, ``"CRPC"``, ``"IEA"``); its cells are read from
            the ``<old_act>_section`` column.
        new_act: Code of the new Act (``"BNS"``, ``"BNSS"``, ``"BSA"``), column ``<new_act>_section``.
        old_sections: Canonical section numbers that exist in the old Act.
        new_sections: Canonical section numbers that exist in the new Act.

    Returns:
        The edges, rejects and new provisions without predecessor. A row that names a section
        missing from ``old_sections`` / ``new_sections`` gets one reject per missing section and
        keeps its edges between sections that do exist; the rest of the table always loads.

    Raises:
        IngestError: the file is not a JSON array of objects.
    """
    rows = _read_rows(path)
    name = path.name
    old_col, new_col = _columns(old_act, new_act)
    rejects: list[Reject] = []
    pairs: dict[tuple[CitationKey, CitationKey], _Pair] = {}
    without: dict[CitationKey, None] = {}
    for n, row in enumerate(rows, start=1):
        new_keys = _cell(parse_new_cell, row.get(new_col), new_act, name, n, rejects)
        old_keys = _cell(parse_old_cell, row.get(old_col), old_act, name, n, rejects)
        if new_keys is None or old_keys is None:
            continue
        if not new_keys:
            # CrPC_BNSS row 40: both cells "nan", a spill-over line of the row above.
            rejects.append(Reject(name, n, f"row names no {new_act} provision (cell {row.get(new_col)!r})", new_act))
            continue
        no_predecessor = not old_keys
        # Counted before the existence check: the row lists them all, even one we cannot place.
        merged = len({k.section for k in old_keys}) > 1
        new_keys = _existing(new_keys, new_sections, row.get(new_col), name, n, rejects)
        old_keys = _existing(old_keys, old_sections, row.get(old_col), name, n, rejects)
        if no_predecessor:
            without.update(dict.fromkeys(new_keys))
        summary = _note(row.get("summary"))
        for old in old_keys:
            for new in new_keys:
                pairs.setdefault((old, new), _Pair(old, new, n, merged, summary))
    split = _split_sections(pairs.values())
    replacements = tuple(
        Replacement(
            old=p.old,
            new=p.new,
            relation=_relation(p, split),
            note=p.summary,
            source=f"{name} row {p.row}",
        )
        for p in pairs.values()
    )
    return CorrespondenceResult(replacements, tuple(rejects), tuple(without), rows=len(rows))


def load_no_successor(path: Path) -> tuple[NoSuccessor, ...]:
    """Read ``no_successor.jsonl``: one old provision per line with ``act``, ``section``, ``reason``,
    ``authority`` and, optionally, ``today``: ``[act, reference]`` pairs of the provisions that govern its subject
    now (``[["BNS", "226"]]``, ``[["HMA", "13(1)(i)"]]``), which its reason explains.

    Raises:
        IngestError: a line is not JSON, lacks a field, has an empty reason or authority, a ``today`` that is not a
            list of ``[act, reference]`` pairs or names an unreadable reference, or repeats an (act, section) already
            listed; the message gives file and line.
    """
    out: list[NoSuccessor] = []
    seen: set[tuple[str, str]] = set()
    for n, rec in _jsonl(path):
        act, section, reason, authority = _fields(rec, ("act", "section", "reason", "authority"), path, n)
        entry = NoSuccessor(act, _canonical(section, path, n), reason, authority, _today(rec.get("today"), path, n))
        if any((a, r.split("(")[0]) == (entry.act, entry.section) for a, r in entry.today):
            raise IngestError(f'{path.name}:{n}: "today" names {entry.act} {entry.section} itself')
        if (entry.act, entry.section) in seen:
            raise IngestError(f"{path.name}:{n}: {entry.act} {entry.section} listed twice")
        seen.add((entry.act, entry.section))
        out.append(entry)
    return tuple(out)


def load_corrections(path: Path) -> tuple[Replacement, ...]:
    """Read ``table_corrections.jsonl``: edges the correspondence tables left out.

    Each line holds ``old_act``, ``old_section``, ``new_act``, ``new_section`` (a reference such as
    ``"189(2)"``), ``relation`` (a :class:`Relation` value), ``note`` and ``evidence``. The edge's
    ``source`` is ``"curation/table_corrections.jsonl line N"``; ``evidence`` stays in the file.

    Raises:
        IngestError: a line is not JSON, lacks a field, or has an unknown relation or an unreadable
            section; the message gives file and line.
    """
    out: list[Replacement] = []
    fields = ("old_act", "old_section", "new_act", "new_section", "relation", "note", "evidence")
    for n, rec in _jsonl(path):
        old_act, old_section, new_act, new_section, relation, note, _ = _fields(rec, fields, path, n)
        try:
            old = parse_reference(old_section, old_act)
            new = parse_reference(new_section, new_act)
            rel = Relation(relation)
        except (InvalidSectionNumberError, ValueError) as exc:
            raise IngestError(f"{path.name}:{n}: {exc}") from exc
        out.append(Replacement(old, new, rel, note, source=f"curation/{path.name} line {n}"))
    return tuple(out)


def coverage(
    replacements: Iterable[Replacement],
    old_sections: set[str],
    no_successor: Iterable[NoSuccessor],
    *,
    act: str | None = None,
) -> set[str]:
    """Old sections that have neither a successor edge nor a no-successor entry.

    Any edge from any part of a section (``IPC 23(cl1)``) counts as a successor for the section.

    Args:
        replacements: Edges from the tables and the corrections.
        old_sections: Every section of the old Act.
        no_successor: Curated entries.
        act: When given, only edges and entries for this old Act count (pass it whenever the inputs
            mix Acts, since section numbers repeat across Acts).

    Returns:
        The uncovered section numbers; empty when the curation is complete.
    """
    covered = {r.old.section for r in replacements if act is None or r.old.act == act}
    covered |= {e.section for e in no_successor if act is None or e.act == act}
    return set(old_sections) - covered


# --- relation -----------------------------------------------------------------------------------

_NO_CHANGE_SENTENCE = re.compile(
    r"^(?:"
    r"no (?:other )?changes?"
    r"|no changes?,? except (?:that )?(?:the )?ipc section is included as (?:a )?sub-? ?section(?: in (?:the )?bns)?"
    r"|(?:the )?(?:ipc )?section is included as (?:a )?sub-? ?section(?: in (?:the )?bns)?(?:,? sans heading)?"
    r")$"
)


def _says_no_change(summary: str | None) -> bool:
    """True when every sentence of ``summary`` is a "no change" or a placement-only sentence."""
    if not summary:
        return False
    text = re.sub(r"\s+", " ", summary.lower()).strip()
    sentences = [s.strip() for s in text.split(".") if s.strip()]
    return bool(sentences) and all(_NO_CHANGE_SENTENCE.match(s) for s in sentences)


def _split_sections(pairs: Iterable[_Pair]) -> set[str]:
    new_sections: dict[str, set[str]] = defaultdict(set)
    whole_targets: dict[str, set[CitationKey]] = defaultdict(set)
    for p in pairs:
        new_sections[p.old.section].add(p.new.section)
        if not p.old.sub:
            whole_targets[p.old.section].add(p.new)
    return {s for s, news in new_sections.items() if len(news) > 1} | {
        s for s, targets in whole_targets.items() if len(targets) > 1
    }


def _relation(p: _Pair, split: set[str]) -> Relation:
    if p.old.sub:
        return Relation.PARTIAL
    if p.merged:
        return Relation.MERGED
    if p.old.section in split:
        return Relation.SPLIT
    if _says_no_change(p.summary):
        return Relation.SAME
    return Relation.MODIFIED


# --- reading ------------------------------------------------------------------------------------


def _read_rows(path: Path) -> list[dict[str, object]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise IngestError(f"{path}: cannot read correspondence table: {exc}") from exc
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise IngestError(f"{path}: expected a JSON array of objects")
    return data


def _columns(old_act: str, new_act: str) -> tuple[str, str]:
    for t in TABLES:
        if (t.old_act, t.new_act) == (old_act, new_act):
            return t.old_column, t.new_column
    return f"{old_act.lower()}_section", f"{new_act.lower()}_section"


def _cell(
    parse: Callable[[object, str], tuple[CitationKey, ...]],
    raw: object,
    act: str,
    file: str,
    n: int,
    rejects: list[Reject],
) -> tuple[CitationKey, ...] | None:
    try:
        return parse(raw, act)
    except InvalidSectionNumberError:
        rejects.append(Reject(file, n, f"unreadable {act} cell {raw!r}", act))
        return None


def _existing(
    keys: tuple[CitationKey, ...], known: set[str], raw: object, file: str, n: int, rejects: list[Reject]
) -> tuple[CitationKey, ...]:
    kept = []
    for k in keys:
        if k.section in known:
            kept.append(k)
        else:
            rejects.append(
                Reject(
                    file, n, f"{k.act} section {k.section} not found in the {k.act} section list (cell {raw!r})", k.act
                )
            )
    return tuple(kept)


def _note(raw: object) -> str | None:
    if raw is None:
        return None
    text = str(raw).strip()
    return text if text and text.lower() != "nan" else None


def _jsonl(path: Path) -> Iterable[tuple[int, dict[str, object]]]:
    """Curated files must be clean: the first malformed line aborts with file and line."""
    rejects: list[Reject] = []
    rows = list(read_jsonl(path, rejects))
    if rejects:
        raise IngestError(str(rejects[0]))
    return rows

def _fields(rec: dict[str, object], names: tuple[str, ...], path: Path, n: int) -> tuple[str, ...]:
    values = []
    for name in names:
        value = rec.get(name)
        if not isinstance(value, str | int) or not str(value).strip():
            raise IngestError(f"{path.name}:{n}: field {name!r} is missing or empty")
        values.append(str(value).strip())
    return tuple(values)


def _today(value: object, path: Path, n: int) -> tuple[tuple[str, str], ...]:
    """The ``today`` field of a no-successor line: ``[act, reference]`` pairs, each reference readable."""
    if value is None:
        return ()
    pairs = value if isinstance(value, list) else None
    if not pairs or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) and x.strip() for x in p)
                            for p in pairs):
        raise IngestError(f'{path.name}:{n}: "today" must be a non-empty list of [act, reference] pairs, '
                          f"not {value!r}")
    out: list[tuple[str, str]] = []
    for act, ref in pairs:
        try:
            key = parse_reference(ref.strip(), act.strip().upper())
        except InvalidSectionNumberError as exc:
            raise IngestError(f'{path.name}:{n}: "today" {act} {ref}: {exc}') from exc
        if key.label != ref.strip() or act.strip() != act.strip().upper():
            raise IngestError(f'{path.name}:{n}: "today" {act} {ref} is not written as the graph writes it: '
                              f'"{key.act}", "{key.label}"')
        if (key.act, key.label) in out:
            raise IngestError(f'{path.name}:{n}: "today" lists {key} twice')
        out.append((key.act, key.label))
    return tuple(out)


def _canonical(section: str, path: Path, n: int) -> str:
    try:
        return canonical_section(section)
    except InvalidSectionNumberError as exc:
        raise IngestError(f"{path.name}:{n}: {exc}") from exc
