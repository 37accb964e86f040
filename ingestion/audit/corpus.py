"""The shipped sources as the audit reads them: every section's text per source, the correspondence tables' summaries
and subjects, and the curation records, parsed with ingestion's own readers."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from graph_schema.acts import REPEALED_CODES, ActResolver
from graph_schema.errors import IngestError
from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE, Act, Replacement, Section, SectionStatus
from ingestion.report import Reject
from ingestion.sources import correspondence as corr
from ingestion.sources.base import Parsed, read_json_array, read_jsonl
from ingestion.sources.curation import (
    Commencement,
    Review,
    SectionCorrection,
    read_commencements,
    read_reviews,
    read_section_corrections,
)
from ingestion.sources.generic import read_generic
from ingestion.sources.indiacode import read_catalog, read_fulltext
from ingestion.sources.legacy import LEGACY_FILES, read_legacy
from ingestion.sources.newcodes import NEW_CODES, read_section_copies, read_structured_texts

# Source names, as findings and reviews spell them.
INDIACODE = "indiacode"
COPIES = "new-codes-sections"
STRUCTURED = "new-codes-structured"
LEGACY = "legacy"
CURATION = "curation"


@dataclass(frozen=True, slots=True)
class NamedAct:
    act: Act
    line: int
    authority: str



@dataclass
class Curation:
    corrections: list[SectionCorrection] = field(default_factory=list)
    commencements: list[Commencement] = field(default_factory=list)
    reviews: list[Review] = field(default_factory=list)
    named_acts: list[NamedAct] = field(default_factory=list)
    relations: list[Replacement] = field(default_factory=list)
    """Edges from ``relation_corrections.jsonl``: a table's edge given another relation."""
    supplement: Parsed = field(default_factory=Parsed)
    rejects: list[Reject] = field(default_factory=list)



@dataclass
class Corpus:
    """The shipped sources, parsed by ingestion's own readers."""

    acts: list[Act]
    fulltext: Parsed
    raw_fulltext: dict[tuple[str, str], str]
    legacy: Parsed
    copies: dict[tuple[str, str], str]
    structured: dict[tuple[str, str], tuple[str | None, str]]
    replacements: list[Replacement]
    summaries: dict[tuple[str, str, str], str]
    """(old act, old section, new label) -> the table's summary for that link."""
    subjects: dict[tuple[str, str], list[tuple[str, str]]]
    """(act, section) -> [(table file, subject)] for cells that name exactly one whole section."""
    curation: Curation



# --- reading ------------------------------------------------------------------------------------


def read_corpus(corpus_dir: Path) -> Corpus:
    """Parse the shipped corpus (``data/corpus``) with ingestion's readers.

    Raises:
        IngestError: a source file is missing or unreadable.
    """
    try:
        return _read_corpus(corpus_dir)
    except OSError as exc:
        raise IngestError(f"{corpus_dir}: {exc.strerror or exc}: {exc.filename or ''}") from exc


def _read_corpus(corpus_dir: Path) -> Corpus:
    catalog = read_catalog(corpus_dir / "indiacode" / "acts_catalog.jsonl")
    slug_to_code = {a.slug: a.code for a in catalog.acts if a.slug}
    fulltext_path = corpus_dir / "indiacode" / "sections_fulltext_subset.jsonl"
    fulltext = read_fulltext(fulltext_path, slug_to_code)
    raw: dict[tuple[str, str], str] = {}
    for s, (_, r) in zip(fulltext.sections, _rows_in_order(fulltext_path, slug_to_code), strict=False):
        raw[(s.act, s.number)] = str(r.get("text") or "")
    legacy = Parsed()
    for name in LEGACY_FILES:
        legacy.extend(read_legacy(corpus_dir / "legacy" / name))
    copies: dict[tuple[str, str], str] = {}
    for code in NEW_CODES:
        for fill in read_section_copies(corpus_dir / "new-codes-sections" / f"{code}_sections.json").fills:
            copies[(fill.act, fill.section)] = fill.text
    structured = read_structured_texts(corpus_dir / "new-codes-structured" / "legal_chunks.json")
    acts = [*catalog.acts, *REPEALED_CODES]
    curation = _read_curation(corpus_dir / "curation", acts)
    known: dict[str, set[str]] = defaultdict(set)
    for s in (*fulltext.sections, *legacy.sections, *curation.supplement.sections):
        known[s.act].add(s.number)
    replacements: list[Replacement] = []
    summaries: dict[tuple[str, str, str], str] = {}
    subjects: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for spec in corr.TABLES:
        path = corpus_dir / "correspondence" / spec.file
        result = corr.load_table(path, spec.old_act, spec.new_act, known[spec.old_act], known[spec.new_act])
        replacements.extend(result.replacements)
        for row in read_json_array(path):
            _table_row(spec, row, summaries, subjects)
    return Corpus(acts, fulltext, raw, legacy, copies, structured, replacements, summaries, subjects, curation)


def _rows_in_order(path: Path, slug_to_code: dict[str, str]) -> Iterator[tuple[int, dict[str, object]]]:
    """The raw rows ``read_fulltext`` turned into sections (same filter: known Act, first of its number)."""
    from graph_schema.errors import InvalidSectionNumberError
    from graph_schema.numbering import canonical_section

    seen: set[tuple[str, str]] = set()
    for n, r in read_jsonl(path, []):
        code = slug_to_code.get(str(r.get("act_slug")))
        if code is None:
            continue
        try:
            number = canonical_section(str(r.get("section_no", "")))
        except InvalidSectionNumberError:
            continue
        if (code, number) in seen:
            continue
        seen.add((code, number))
        yield n, r


_WHOLE = re.compile(r"^\s*(\d+[A-Z]{0,3})\.?\s*$")


def _table_row(spec: corr.TableSpec, row: object, summaries: dict[tuple[str, str, str], str],
               subjects: dict[tuple[str, str], list[tuple[str, str]]]) -> None:
    if not isinstance(row, dict):
        return
    old_act, new_act = spec.old_act, spec.new_act
    old_cell, new_cell = str(row.get(spec.old_column) or ""), str(row.get(spec.new_column) or "")
    new_label = re.sub(r"\s+", "", new_cell)
    prefix_old, prefix_new = spec.old_column.rsplit("_", 1)[0], spec.new_column.rsplit("_", 1)[0]
    old_whole, new_whole = _WHOLE.match(old_cell), _WHOLE.match(new_cell)
    if old_whole and row.get(f"{prefix_old}_subject"):
        subjects[(old_act, old_whole.group(1))].append((spec.file, str(row[f"{prefix_old}_subject"])))
    if new_whole and row.get(f"{prefix_new}_subject"):
        subjects[(new_act, new_whole.group(1))].append((spec.file, str(row[f"{prefix_new}_subject"])))
    if old_whole and row.get("summary"):
        summaries[(old_act, old_whole.group(1), new_label)] = str(row["summary"])


def _read_curation(folder: Path, acts: list[Act]) -> Curation:
    c = Curation()
    if not folder.is_dir():
        return c
    path = folder / "section_corrections.jsonl"
    if path.exists():
        c.corrections, rejects = read_section_corrections(path)
        c.rejects.extend(rejects)
    path = folder / "commencement.jsonl"
    if path.exists():
        c.commencements, rejects = read_commencements(path)
        c.rejects.extend(rejects)
    path = folder / "reviewed.jsonl"
    if path.exists():
        c.reviews, rejects = read_reviews(path)
        c.rejects.extend(rejects)
    path = folder / "relation_corrections.jsonl"
    if path.exists():
        c.relations = list(corr.load_corrections(path))
    path = folder / "legacy_supplement.jsonl"
    known = {a.code: a for a in acts}
    if path.exists():
        c.supplement = read_generic(path, ActResolver(acts).resolve, known)
        c.rejects.extend(c.supplement.rejects)
    path = folder / "named_acts.jsonl"
    if path.exists():
        parsed = read_generic(path, ActResolver(acts).resolve, known)
        c.rejects.extend(parsed.rejects)
        authorities = {n: str(r.get("authority") or "") for n, r in read_jsonl(path, [])}
        lines = [n for n, r in read_jsonl(path, []) if r.get("record") == "act"]
        for act, n in zip(parsed.acts, lines, strict=False):
            if not authorities.get(n):
                c.rejects.append(Reject(path.name, n, "an Act named by the statutes needs its 'authority'", act.code))
                continue
            if act.code in known:  # ingestion would overwrite the catalogue's record of that Act
                c.rejects.append(Reject(path.name, n, f"{act.code} is already in the graph ({known[act.code].title})",
                                        act.code))
                continue
            c.named_acts.append(NamedAct(act, n, authorities[n]))
    return c



def loaded_sections(corpus: Corpus) -> dict[tuple[str, str], Section]:
    """Sections as ingestion loads them before curation: text sources, India Code gaps filled from the copies."""
    out: dict[tuple[str, str], Section] = {}
    for s in (*corpus.fulltext.sections, *corpus.legacy.sections):
        if not s.has_text and (s.act, s.number) in corpus.copies:
            s = _replace_text(s, corpus.copies[(s.act, s.number)])
        out[(s.act, s.number)] = s
    return out


def _replace_text(s: Section, text: str) -> Section:
    from dataclasses import replace

    return replace(s, text=text)


def source_texts(corpus: Corpus) -> dict[str, dict[tuple[str, str], str]]:
    """Every source's text per section, but for sections repealed or omitted before 2024: what a source
    holds for those is a note ("Rep. by the Prevention of Corruption Act, 1988 ..."), the same for many."""
    dead = {(s.act, s.number) for s in (*corpus.fulltext.sections, *corpus.legacy.sections) if not live(s)}
    texts = {
        INDIACODE: {(s.act, s.number): s.text for s in corpus.fulltext.sections if s.text},
        COPIES: dict(corpus.copies),
        STRUCTURED: {k: t for k, (_, t) in corpus.structured.items() if t},
        LEGACY: {(s.act, s.number): s.text for s in corpus.legacy.sections if s.text},
        CURATION: {(s.act, s.number): s.text for s in corpus.curation.supplement.sections if s.text},
    }
    return {name: {k: t for k, t in table.items() if k not in dead} for name, table in texts.items()}


def live(s: Section) -> bool:
    """In force today, or until the 2024 repeal of the old codes."""
    return s.status is SectionStatus.IN_FORCE or s.in_force_to == NEW_CRIMINAL_CODES_IN_FORCE
