"""Ingestion: detect each file's format, parse, merge, diff against the graph, write in batches.

The steps up to the diff are pure. Writing goes through a ``GraphStore`` one batch at a time; a
batch is one Cypher statement, so it lands whole or not at all. Records whose hash matches what
the graph holds are not written, which makes a re-run on unchanged input write nothing.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import cast

from graph_schema.acts import ACT_REPEALS, ActResolver
from graph_schema.errors import IngestError
from graph_schema.model import (
    Act,
    Amendment,
    AmendmentKind,
    Case,
    Chapter,
    CitationKey,
    Replacement,
    Section,
    section_key,
)
from graph_schema.store import GraphStore
from ingestion.report import IngestReport, Reject
from ingestion.sources import correspondence as corr
from ingestion.sources.base import Parsed
from ingestion.sources.cases import read_cases
from ingestion.sources.curation import read_commencements, read_section_corrections
from ingestion.sources.generic import read_generic
from ingestion.sources.indiacode import read_catalog, read_fulltext, read_section_index
from ingestion.sources.legacy import LEGACY_FILES, read_legacy
from ingestion.sources.newcodes import read_section_copies, read_structured_chapters
from ingestion.subunits import parse_subunits

Progress = Callable[[str, int, int], None]


class Kind(int, Enum):
    """Source formats, in the order a run applies them (Acts before their sections, sections
    before the edges between them)."""

    CATALOG = 0
    LEGACY = 1
    INDEX = 2
    FULLTEXT = 3
    GENERIC = 4
    STRUCTURED = 5
    COPIES = 6
    CORRESPONDENCE = 7
    CORRECTIONS = 8
    NO_SUCCESSOR = 9
    CASES = 10
    SECTION_CORRECTIONS = 11
    COMMENCEMENT = 12


_BY_NAME = {
    "acts_catalog.jsonl": Kind.CATALOG,
    "section_index_all_acts.jsonl": Kind.INDEX,
    "sections_fulltext_subset.jsonl": Kind.FULLTEXT,
    "legal_chunks.json": Kind.STRUCTURED,
    "bns_sections.json": Kind.COPIES,
    "bnss_sections.json": Kind.COPIES,
    "bsa_sections.json": Kind.COPIES,
    "no_successor.jsonl": Kind.NO_SUCCESSOR,
    "table_corrections.jsonl": Kind.CORRECTIONS,
    "relation_corrections.jsonl": Kind.CORRECTIONS,  # same rows; the edge replaces the table's own
    "section_corrections.jsonl": Kind.SECTION_CORRECTIONS,
    "commencement.jsonl": Kind.COMMENCEMENT,
    **{name: Kind.LEGACY for name in LEGACY_FILES},
}
_SKIP_SUFFIXES = {".md", ".xlsx", ".txt", ".csv"}
# Read by ``legal-rag audit`` only: findings checked and left as they are.
_AUDIT_ONLY = {"reviewed.jsonl"}


def detect(path: Path) -> Kind:
    """Tell a file's format from its name, or for other ``.jsonl`` files from its first record.

    Raises:
        IngestError: the file is of no format we read.
    """
    name = path.name.lower()
    if name in _AUDIT_ONLY:
        raise IngestError(f"{path}: {path.name} is read by 'legal-rag audit', not loaded into the graph")
    if name in _BY_NAME:
        return _BY_NAME[name]
    if name.endswith("_mapping.json") and corr.table_for(path) is not None:
        return Kind.CORRESPONDENCE
    if name.endswith(".jsonl"):
        first = _first_record(path)
        if {"act_slug", "section_no", "text"} <= first.keys():
            return Kind.FULLTEXT
        if {"act_slug", "section_no", "has_text"} <= first.keys():
            return Kind.INDEX
        if {"slug", "title", "actNumber"} <= first.keys():
            return Kind.CATALOG
        if {"citation", "parties"} <= first.keys():
            return Kind.CASES
        return Kind.GENERIC
    raise IngestError(f"{path}: unrecognised input (expected .jsonl in the generic format, or a known corpus file)")


def _first_record(path: Path) -> dict[str, object]:
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if line.strip():
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError:
                    return {}
                return obj if isinstance(obj, dict) else {}
    return {}


def expand(paths: Iterable[Path]) -> list[tuple[Kind, Path]]:
    """Files to read, directories walked, in application order.

    Raises:
        IngestError: a path does not exist or a file has no recognised format.
    """
    found: list[tuple[Kind, Path]] = []
    for p in paths:
        p = Path(p)
        if not p.exists():
            raise IngestError(f"{p}: no such file or directory")
        files = sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
        for f in files:
            if p.is_dir() and (f.suffix.lower() in _SKIP_SUFFIXES or f.name.startswith(".") or f.name in _AUDIT_ONLY):
                continue
            found.append((detect(f), f))
    return sorted(dict.fromkeys(found), key=lambda kp: (kp[0].value, str(kp[1])))


def default_paths(corpus_dir: Path) -> list[Path]:
    """The shipped corpus."""
    if not corpus_dir.is_dir():
        raise IngestError(f"default corpus not found at {corpus_dir}")
    return [corpus_dir]


# --- parse and merge -----------------------------------------------------------------------


@dataclass
class Merged:
    """One consistent set of records for a run, ready to diff against the graph."""

    acts: dict[str, Act] = field(default_factory=dict)
    sections: dict[str, Section] = field(default_factory=dict)
    existence_only: dict[str, Section] = field(default_factory=dict)
    chapters: dict[str, Chapter] = field(default_factory=dict)
    amendments: dict[str, Amendment] = field(default_factory=dict)
    replacements: dict[str, Replacement] = field(default_factory=dict)
    no_successor: list[tuple[str, str, str, list[str]]] = field(default_factory=list)
    act_repeals: list[tuple[str, str, str, str]] = field(default_factory=list)
    cases: dict[str, Case] = field(default_factory=dict)
    rejects: list[Reject] = field(default_factory=list)
    known_sections: dict[str, set[str]] = field(default_factory=dict)
    kinds: set[Kind] = field(default_factory=set)
    """The kinds of file this run read (a curation file not read leaves its stored effect in place)."""


def parse_and_merge(files: Sequence[tuple[Kind, Path]], store: GraphStore) -> Merged:
    """Read every file and fold the results into one ``Merged`` set.

    The graph is read (Acts, section numbers) so that files can refer to what is already loaded.
    """
    stored_acts = store.all_acts()
    slug_to_code = {a.slug: a.code for a in stored_acts if a.slug}
    m = Merged()
    origin: dict[str, str] = {}
    for kind, path in files:
        m.kinds.add(kind)
        if kind is Kind.CATALOG:
            parsed = read_catalog(path)
            slug_to_code.update({a.slug: a.code for a in parsed.acts if a.slug})
        elif kind is Kind.LEGACY:
            parsed = read_legacy(path)
        elif kind is Kind.INDEX:
            parsed = read_section_index(path, slug_to_code)
        elif kind is Kind.FULLTEXT:
            parsed = read_fulltext(path, slug_to_code)
        elif kind is Kind.GENERIC:
            known = {a.code: a for a in [*stored_acts, *m.acts.values()]}
            parsed = read_generic(path, ActResolver(known.values()).resolve, known)
            _check_generic_edges(m, parsed, path, store)
        elif kind is Kind.STRUCTURED:
            parsed = read_structured_chapters(path)
        elif kind is Kind.COPIES:
            parsed = read_section_copies(path)
        elif kind is Kind.CASES:
            parsed = read_cases(path)
        elif kind is Kind.SECTION_CORRECTIONS:
            parsed = _apply_section_corrections(m, path)
        elif kind is Kind.COMMENCEMENT:
            parsed = _apply_commencements(m, path)
        else:
            parsed = _read_correspondence_family(kind, path, m, store)
        _take(m, parsed, path, origin)
    _add_act_repeals(m, stored_acts)
    return m


def _take(m: Merged, parsed: Parsed, file: Path, origin: dict[str, str]) -> None:
    """Fold one file's records into ``m``: primary records first, then enrichments of them."""
    m.rejects.extend(parsed.rejects)
    for act in parsed.acts:
        m.acts[act.code] = act
    for s in parsed.sections:
        if s.key in m.sections:
            reason = f"duplicate section {s.act} {s.number}: also in {origin[s.key]}"
            m.rejects.append(Reject(file.name, 0, reason, s.act))
            continue
        m.sections[s.key] = s
        origin[s.key] = file.name
        m.known_sections.pop(s.act, None)  # this Act's section list grew
    for s in parsed.existence_only:
        m.existence_only.setdefault(s.key, s)
    for a in parsed.amendments:
        m.amendments[str(a.row()["key"])] = a
    for r in parsed.replacements:
        m.replacements[str(r.row()["edge_key"])] = r
    m.act_repeals.extend(parsed.act_repeals)
    for case in parsed.cases:
        m.cases[case.key] = case
    _apply_chapters(m, parsed, file)
    _apply_fills(m, parsed, file)


def _apply_chapters(m: Merged, parsed: Parsed, path: Path) -> None:
    for ca in parsed.chapters:
        key = section_key(ca.act, ca.section)
        s = m.sections.get(key)
        if s is None:
            m.rejects.append(Reject(path.name, 0, f"chapter {ca.chapter.number} given for {ca.act} {ca.section}, "
                                    "which this run does not load (ingest it together with its text source)", ca.act))
            continue
        m.chapters[ca.chapter.key] = ca.chapter
        if s.chapter != ca.chapter.key:
            m.sections[key] = dataclasses.replace(s, chapter=ca.chapter.key)


FILL_MARK = "; text: "


def _earlier_end(*days: str | None) -> str | None:
    """The earliest of the end days given (a judgment's day before its Code's repeal), None when none is."""
    return min(filter(None, days), default=None)


def _keep_stored_enrichment(m: Merged, store: GraphStore) -> None:
    """A section re-read from its primary file alone keeps the chapter and the filled-in text that
    other files gave it earlier, and the corrections and commencement of curation files this run did
    not read: loading one unchanged file must neither write nor lose anything."""
    curated = not {Kind.SECTION_CORRECTIONS, Kind.COMMENCEMENT} <= m.kinds
    need = [k for k, s in m.sections.items() if curated or s.chapter is None or not s.has_text]
    if not need:
        return
    stored = store.section_enrichment(need)
    for key, row in stored.items():
        s = m.sections[key]
        if s.chapter is None and row.get("chapter"):
            s = dataclasses.replace(s, chapter=row["chapter"])
        src = str(row.get("source") or "")
        if not s.has_text and row.get("text") and FILL_MARK in src and src.startswith(str(s.source)):
            s = dataclasses.replace(s, text=row["text"], subunits=parse_subunits(row["text"]), source=src)
        if Kind.SECTION_CORRECTIONS not in m.kinds and CORRECTION_MARK in src and src.startswith(str(s.source)):
            text = row.get("text") or s.text
            s = dataclasses.replace(s, text=text, title=row.get("title") or s.title, source=src,
                                    subunits=parse_subunits(text) if text else s.subunits)
        if Kind.COMMENCEMENT not in m.kinds and row.get("commencement_note") and not s.commencement_note:
            # a day a court struck the section down ends it before its Code's repeal (never later than the file says)
            end = _earlier_end(row.get("in_force_to"), s.in_force_to)
            s = dataclasses.replace(s, in_force_from=row.get("in_force_from") or s.in_force_from, in_force_to=end,
                                    not_in_force=tuple(row.get("not_in_force") or ()),
                                    commencement_note=row["commencement_note"])
        m.sections[key] = s


def _check_generic_edges(m: Merged, parsed: Parsed, path: Path, store: GraphStore) -> None:
    """Replacement and amendment records must point at sections that exist (in the graph or in this
    run, this file's own sections included), as correspondence-table rows must."""
    own = {(s.act, s.number) for s in parsed.sections}

    def exists(act: str, number: str) -> bool:
        return (act, number) in own or number in _known_sections(m, store, act)

    def unit_missing(key: CitationKey) -> bool:
        if not key.sub:
            return False
        rec = store.get_section(key.act, key.section)
        return rec is not None and bool(rec.subunits) and "/".join(key.sub) not in rec.subunits

    kept_r = []
    for r in parsed.replacements:
        missing = next((k for k in (r.old, r.new) if not exists(k.act, k.section) or unit_missing(k)), None)
        if missing:
            parsed.rejects.append(Reject(path.name, int(str(r.source).rsplit(" ", 1)[-1]),
                                         f"replacement names {missing}, which does not exist", r.old.act))
        else:
            kept_r.append(r)
    parsed.replacements[:] = kept_r
    kept_a = []
    for a in parsed.amendments:
        if exists(a.act, a.section):
            kept_a.append(a)
        else:
            line = int(a.footnote[4:]) if a.footnote.startswith("line") else 0
            parsed.rejects.append(Reject(path.name, line, f"amendment of {a.act} {a.section}, which does not exist",
                                         a.act))
    parsed.amendments[:] = kept_a


def _apply_fills(m: Merged, parsed: Parsed, path: Path) -> None:
    for fill in parsed.fills:
        key = section_key(fill.act, fill.section)
        s = m.sections.get(key)
        if s is None:
            m.rejects.append(Reject(path.name, 0, f"text for {fill.act} {fill.section}, which this run does not load",
                                    fill.act))
            continue
        if not s.has_text:
            m.sections[key] = dataclasses.replace(
                s, text=fill.text, subunits=parse_subunits(fill.text), source=f"{s.source}{FILL_MARK}{fill.source}"
            )


CORRECTION_MARK = "; corrected: "


def _apply_section_corrections(m: Merged, path: Path) -> Parsed:
    """Replace the text or title of sections this run loads, as ``section_corrections.jsonl`` says."""
    corrections, rejects = read_section_corrections(path)
    out = Parsed(rejects=rejects)
    for c in corrections:
        key = section_key(c.act, c.section)
        s = m.sections.get(key)
        if s is None:
            out.rejects.append(Reject(path.name, c.line, f"correction of {c.act} {c.section}, which this run does not "
                                      "load (ingest it together with its text source)", c.act))
            continue
        text = c.text if c.text is not None else s.text
        m.sections[key] = dataclasses.replace(
            s, text=text, title=c.title if c.title is not None else s.title,
            subunits=parse_subunits(text) if c.text is not None and text else s.subunits,
            source=f"{s.source}{CORRECTION_MARK}{c.source}",
        )  # fmt: skip
    return out


def _apply_commencements(m: Merged, path: Path) -> Parsed:
    """Date sections by their own commencement or the judgment that struck them down, and mark sub-units not in force
    (``commencement.jsonl``)."""
    records, rejects = read_commencements(path)
    out = Parsed(rejects=rejects)
    for c in records:
        key = section_key(c.act, c.section)
        s = m.sections.get(key)
        if s is None:
            out.rejects.append(Reject(path.name, c.line, f"commencement of {c.act} {c.section}, which this run does "
                                      "not load (ingest it together with its text source)", c.act))
            continue
        if c.not_in_force:
            sub = "/".join(c.sub)
            if s.subunits and sub not in {"/".join(u.path) for u in s.subunits}:
                out.rejects.append(Reject(path.name, c.line, f"{c.act} {c.section} has no sub-unit {sub}", c.act))
                continue
            m.sections[key] = dataclasses.replace(
                s, not_in_force=tuple(dict.fromkeys((*s.not_in_force, sub))), commencement_note=c.authority)
        else:
            start = c.in_force_from or s.in_force_from
            # struck down: the judgment's day ends the section sooner than any later repeal (never later than one)
            end = _earlier_end(c.in_force_to, s.in_force_to)
            if start and end and end <= start:
                out.rejects.append(Reject(path.name, c.line, f"{c.act} {c.section} would end ({end}) before it "
                                          f"begins ({start})", c.act))
                continue
            m.sections[key] = dataclasses.replace(s, in_force_from=start, in_force_to=end,
                                                  commencement_note=c.authority)
            if c.struck_down_by:
                out.amendments.append(Amendment(c.act, s.number, "curation-struck-down", AmendmentKind.STRUCK_DOWN,
                                                c.struck_down_by, c.in_force_to, c.authority))
    return out


def _known_sections(m: Merged, store: GraphStore, act: str) -> set[str]:
    """Section numbers of ``act`` in this run or in the graph (cached: sections are all parsed by now)."""
    if act not in m.known_sections:
        run = {s.number for s in (*m.sections.values(), *m.existence_only.values()) if s.act == act}
        m.known_sections[act] = run | store.section_numbers(act)
    return m.known_sections[act]


def _read_correspondence_family(kind: Kind, path: Path, m: Merged, store: GraphStore) -> Parsed:
    out = Parsed()
    if kind is Kind.CORRESPONDENCE:
        table = corr.table_for(path)
        assert table is not None
        res = corr.load_table(
            path,
            old_act=table.old_act,
            new_act=table.new_act,
            old_sections=_known_sections(m, store, table.old_act),
            new_sections=_known_sections(m, store, table.new_act),
        )
        out.replacements.extend(res.replacements)
        out.rejects.extend(res.rejects)
    elif kind is Kind.CORRECTIONS:
        for r in corr.load_corrections(path):
            if r.old.section not in _known_sections(m, store, r.old.act):
                out.rejects.append(Reject(path.name, 0, f"correction names {r.old} which is not loaded", r.old.act))
            elif r.new.section not in _known_sections(m, store, r.new.act):
                out.rejects.append(Reject(path.name, 0, f"correction names {r.new} which is not loaded", r.new.act))
            else:
                out.replacements.append(r)
    else:
        for ns in corr.load_no_successor(path):
            if ns.section not in _known_sections(m, store, ns.act):
                out.rejects.append(Reject(path.name, 0, f"no-successor entry for {ns.act} {ns.section}, not loaded",
                                          ns.act))
                continue
            today = []
            for act, ref in ns.today:
                if ref.split("(")[0] not in _known_sections(m, store, act):
                    out.rejects.append(Reject(path.name, 0, f"no-successor entry for {ns.act} {ns.section}: its "
                                              f"'today' provision {act} {ref} is not in the graph, left out", ns.act))
                    continue
                today.append(f"{act} {ref}")
            m.no_successor.append((section_key(ns.act, ns.section), ns.reason, ns.authority, today))
    return out


def _add_act_repeals(m: Merged, stored: Sequence[Act]) -> None:
    codes = {a.code for a in stored} | set(m.acts)
    for old, new, provision in ACT_REPEALS:
        if old in codes and new in codes and (old in m.acts or new in m.acts):
            m.act_repeals.append((old, new, "2024-07-01", f"{new} s.{provision}"))


# --- diff and write ------------------------------------------------------------------------


def ingest(
    store: GraphStore,
    paths: Iterable[Path],
    *,
    strict: bool = False,
    batch_size: int = 1000,
    progress: Progress | None = None,
) -> IngestReport:
    """Load ``paths`` into ``store``. Returns what was added, updated, left unchanged and rejected.

    With ``strict`` any rejected record aborts the run before anything is written.

    Raises:
        IngestError: unreadable input, or rejects under ``strict``.
        StoreUnavailableError: the graph could not be reached (retryable; nothing half-written
            beyond whole batches, and a re-run completes the load).
    """
    files = expand(paths)
    merged = parse_and_merge(files, store)
    report = IngestReport()
    report.empty_files = [str(f) for _, f in files if _is_empty(f)]
    for r in merged.rejects:
        report.reject(r)
    if strict and merged.rejects:
        shown = "\n".join(str(r) for r in merged.rejects[:20])
        more = f"\n... and {len(merged.rejects) - 20} more" if len(merged.rejects) > 20 else ""
        raise IngestError(f"--strict: {len(merged.rejects)} record(s) rejected, nothing written:\n{shown}{more}")

    plan = _plan(merged, store, report, batch_size)
    total = sum(len(batch) for _, batch in plan)
    done = 0
    if progress:
        progress("write", 0, total)
    for write, batch in plan:
        write(batch)
        done += len(batch)
        if progress:
            progress("write", done, total)
    if merged.act_repeals:
        store.upsert_act_repeals(merged.act_repeals)
    if merged.no_successor:
        store.set_no_successor(merged.no_successor)
    if report.changed:
        store.compact()
    return report


Batch = list[object]


def _is_empty(path: Path) -> bool:
    """No records at all: zero bytes or only whitespace (a large file is never read for this)."""
    try:
        size = path.stat().st_size
        if size > 4096:
            return False
        return not path.read_bytes().strip()
    except OSError:
        return False


def _plan(
    m: Merged, store: GraphStore, report: IngestReport, batch_size: int
) -> list[tuple[Callable[[Batch], None], Batch]]:
    """Diff every record against the graph and return the writes still needed, in order."""
    plan: list[tuple[Callable[[Batch], None], Batch]] = []

    def diff(kind: str, items: dict[str, object], act_of: Callable[[object], str]) -> list[object]:
        keys = list(items)
        hashes = store.existing_hashes(kind, keys)
        todo = []
        for k, obj in items.items():
            act = act_of(obj)
            h = obj.row()["row_hash"]  # type: ignore[attr-defined]
            if k not in hashes:
                report.added[act] += 1
                todo.append(obj)
            elif hashes[k] != h:
                report.updated[act] += 1
                todo.append(obj)
            else:
                report.unchanged[act] += 1
        return todo

    acts = diff("act", dict(m.acts), lambda a: a.code)  # type: ignore[attr-defined]
    if acts:
        plan.append((store.upsert_acts, acts))  # type: ignore[arg-type]

    chapters = diff("chapter", dict(m.chapters), lambda c: c.act)  # type: ignore[attr-defined]
    if chapters:
        plan.append((store.upsert_chapters, chapters))  # type: ignore[arg-type]

    _keep_stored_enrichment(m, store)
    # Existence-only records never overwrite a section from a text source (in this run or in the graph).
    sections: dict[str, object] = dict(m.sections)
    candidates = {k: s for k, s in m.existence_only.items() if k not in m.sections}
    primary = store.primary_keys(list(candidates))
    for k, s in candidates.items():
        if k in primary:
            report.unchanged[s.act] += 1
        else:
            sections[k] = s
    todo = diff("section", sections, lambda s: s.act)  # type: ignore[attr-defined]
    by_act: dict[str, list[object]] = {}
    for s in cast(list[Section], todo):  # diff() hands back the values of ``sections``: all Section
        by_act.setdefault(s.act, []).append(s)
    # An Act with up to ``batch_size`` changed sections (BNSS, the largest shipped, has 531) is
    # written in one statement, so it lands whole or not at all.
    for _, items in sorted(by_act.items()):
        for i in range(0, len(items), batch_size):
            plan.append((store.upsert_sections, items[i : i + batch_size]))  # type: ignore[arg-type]

    amendments = diff("amendment", dict(m.amendments), lambda a: a.act)  # type: ignore[attr-defined]
    for i in range(0, len(amendments), 2000):
        plan.append((store.upsert_amendments, amendments[i : i + 2000]))  # type: ignore[arg-type]

    cases = diff("case", dict(m.cases), lambda c: "CASES")
    for i in range(0, len(cases), 2000):
        plan.append((store.upsert_cases, cases[i : i + 2000]))  # type: ignore[arg-type]

    reps = diff("replacement", dict(m.replacements), lambda r: r.old.act)  # type: ignore[attr-defined]
    for i in range(0, len(reps), 2000):
        plan.append((store.upsert_replacements, reps[i : i + 2000]))  # type: ignore[arg-type]
    return plan

