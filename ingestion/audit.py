"""Audit of the shipped statute sources: what they disagree on, and which curation record settles it.

``legal-rag audit`` reads every source that carries a section (India Code full text, the two copies of
the new codes, the legacy codes, the curation files), compares them and reports findings:

* ``duplicate_text``: one source gives two sections the same text (BNSS 58 and 59 in India Code);
* ``heading_mismatch``: a source's text under a heading is another section's text in another source;
* ``text_disagrees``: the text ingestion loads is confirmed by no other source that carries the section;
* ``empty_text``: a section in force (or in force until 2024-07-01) that ingestion would load without text;
* ``truncated_title``: a loaded title that is a word-prefix of another source's title, or ends mid-phrase;
* ``numbering_gap``: sub-sections (1), (2), (4): a number missing, with no omission footnote to explain it;
* ``no_change_differs``: a correspondence-table link whose summary says "no change" between texts
  that differ materially;
* ``unknown_act``: an Act the statute text names ("the Motor Vehicles Act, 1939") that the graph lacks;
* ``undated_insertion``: a section wrapped whole in an insertion marker that ingestion cannot date;
* ``bad_record``: a curation row that ingestion rejects.

Each finding is resolved by a curation record (``data/corpus/curation``): a correction ingestion applies,
a commencement date, an Act added, or a review that names the source confirming the text as it is. The
functions here are pure over the parsed sources; :func:`read_corpus` does the reading.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from graph_schema.acts import REPEALED_CODES, ActResolver
from graph_schema.errors import IngestError, LegalRagError
from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE, Act, Relation, Replacement, Section, SectionStatus
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

__all__ = ["AuditReport", "Corpus", "Finding", "FindingKind", "Resolution", "audit", "read_corpus"]


class FindingKind(StrEnum):
    DUPLICATE_TEXT = "duplicate_text"
    HEADING_MISMATCH = "heading_mismatch"
    TEXT_DISAGREES = "text_disagrees"
    EMPTY_TEXT = "empty_text"
    TRUNCATED_TITLE = "truncated_title"
    NUMBERING_GAP = "numbering_gap"
    NO_CHANGE_DIFFERS = "no_change_differs"
    UNKNOWN_ACT = "unknown_act"
    UNDATED_INSERTION = "undated_insertion"
    BAD_RECORD = "bad_record"


# Source names, as findings and reviews spell them.
INDIACODE = "indiacode"
COPIES = "new-codes-sections"
STRUCTURED = "new-codes-structured"
LEGACY = "legacy"
CURATION = "curation"

AGREE = 0.9
"""Two texts agree when this share of the shorter one's words match the other in order. The copies in
new-codes-sections append the marginal headings of the sections after (BNSS 59 ends "... Police to report
apprehensions. Discharge of person apprehended."), so the shorter text is the measure."""
DIFFERS = 0.75
"""A "no change" link is flagged when fewer than this share of the shorter text's words match the other's
(the legacy copies of the old codes carry no illustrations, so the new text is often longer)."""
MIN_WORDS = 12
"""Texts shorter than this ("Omitted.", "[Repealed.]") are not compared for duplicates."""


@dataclass(frozen=True, slots=True)
class Finding:
    kind: FindingKind
    act: str
    section: str | None
    detail: str
    message: str

    @property
    def key(self) -> str:
        return f"{self.kind.value}|{self.act}|{self.section or ''}|{self.detail}"

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind.value, "act": self.act, "section": self.section, "detail": self.detail,
                "message": self.message}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Resolution:
    how: str
    """``corrected``, ``dated``, ``not_in_force``, ``act_added`` or ``reviewed``."""
    record: str
    authority: str

    def as_dict(self) -> dict[str, str]:
        return {"how": self.how, "record": self.record, "authority": self.authority}


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


@dataclass
class AuditReport:
    findings: list[Finding]
    resolutions: dict[str, Resolution]
    compared: int
    """Sections whose text at least two sources carry."""
    agree: int
    """Of those, sections where every source agrees with the text ingestion loads."""
    corroborated: int
    """Of those, sections where at least one other source agrees with the loaded text."""
    unused: list[str] = field(default_factory=list)
    """Curation records that resolve no finding (a review of something no longer found)."""

    @property
    def unresolved(self) -> list[Finding]:
        return [f for f in self.findings if f.key not in self.resolutions]

    @property
    def clean(self) -> bool:
        """Every finding resolved, and no curation record left that resolves nothing (a stale review)."""
        return not self.unresolved and not self.unused

    def as_dict(self) -> dict[str, object]:
        by_kind: dict[str, dict[str, int]] = defaultdict(lambda: {"found": 0, "resolved": 0})
        for f in self.findings:
            by_kind[f.kind.value]["found"] += 1
            by_kind[f.kind.value]["resolved"] += f.key in self.resolutions
        resolved_disagreements = sum(1 for f in self.findings if f.kind in _TEXT_KINDS and f.key in self.resolutions)
        return {
            "clean": self.clean,
            "compared": self.compared,
            "agree": self.agree,
            "corroborated": self.corroborated,
            "text_findings_resolved": resolved_disagreements,
            "by_kind": dict(by_kind),
            "findings": [{**f.as_dict(), "resolution": r.as_dict() if (r := self.resolutions.get(f.key)) else None}
                         for f in self.findings],  # fmt: skip
            "unused_records": self.unused,
        }


_TEXT_KINDS = {FindingKind.DUPLICATE_TEXT, FindingKind.HEADING_MISMATCH, FindingKind.TEXT_DISAGREES}


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
            c.named_acts.append(NamedAct(act, n, authorities[n]))
    return c


# --- text comparison ------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+")


def words(text: str | None) -> list[str]:
    return _WORD.findall((text or "").lower())


def similarity(a: list[str], b: list[str], *, of: str = "shorter") -> float:
    """Share of the shorter (or ``of="longer"``) word list matched, in order, by the other."""
    if not a or not b:
        return 0.0
    matched = sum(m.size for m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return matched / (min(len(a), len(b)) if of == "shorter" else max(len(a), len(b)))


def _loaded(corpus: Corpus) -> dict[tuple[str, str], Section]:
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


def _texts(corpus: Corpus) -> dict[str, dict[tuple[str, str], str]]:
    """Every source's text per section, but for sections repealed or omitted before 2024: what a source
    holds for those is a note ("Rep. by the Prevention of Corruption Act, 1988 ..."), the same for many."""
    dead = {(s.act, s.number) for s in (*corpus.fulltext.sections, *corpus.legacy.sections) if not _live(s)}
    texts = {
        INDIACODE: {(s.act, s.number): s.text for s in corpus.fulltext.sections if s.text},
        COPIES: dict(corpus.copies),
        STRUCTURED: {k: t for k, (_, t) in corpus.structured.items() if t},
        LEGACY: {(s.act, s.number): s.text for s in corpus.legacy.sections if s.text},
        CURATION: {(s.act, s.number): s.text for s in corpus.curation.supplement.sections if s.text},
    }
    return {name: {k: t for k, t in table.items() if k not in dead} for name, table in texts.items()}


def _live(s: Section) -> bool:
    """In force today, or until the 2024 repeal of the old codes."""
    return s.status is SectionStatus.IN_FORCE or s.in_force_to == NEW_CRIMINAL_CODES_IN_FORCE


def compare_texts(corpus: Corpus) -> tuple[list[Finding], int, int, int]:
    """``text_disagrees`` findings and the counts (compared, all agree, corroborated)."""
    texts = _texts(corpus)
    findings: list[Finding] = []
    compared = agree = corroborated = 0
    primary = {INDIACODE: texts[INDIACODE], LEGACY: texts[LEGACY]}
    for source, table in primary.items():
        for key, text in table.items():
            others = {name: t[key] for name, t in texts.items() if name != source and key in t}
            if not others:
                continue
            compared += 1
            mine = words(text)
            scores = {name: similarity(mine, words(t)) for name, t in others.items()}
            if all(v >= AGREE for v in scores.values()):
                agree += 1
            if any(v >= AGREE for v in scores.values()):
                corroborated += 1
                continue
            shown = ", ".join(f"{n} {v:.2f}" for n, v in sorted(scores.items()))
            findings.append(Finding(FindingKind.TEXT_DISAGREES, key[0], key[1], source,
                                    f"{key[0]} {key[1]}: the {source} text is confirmed by no other source ({shown})"))
    return findings, compared, agree, corroborated


def duplicate_texts(corpus: Corpus) -> list[Finding]:
    """Sections of one Act to which one source gives the same text."""
    findings = []
    for source, table in _texts(corpus).items():
        groups: dict[tuple[str, tuple[str, ...]], list[str]] = defaultdict(list)
        for (act, number), text in table.items():
            w = tuple(words(text))
            if len(w) >= MIN_WORDS:
                groups[(act, w)].append(number)
        for (act, _), numbers in groups.items():
            if len(numbers) < 2:
                continue
            for n in numbers:
                others = ", ".join(f"s.{m}" for m in numbers if m != n)
                findings.append(Finding(FindingKind.DUPLICATE_TEXT, act, n, source,
                                        f"{act} {n}: {source} gives it the same text as {others}"))
    return findings


_FINGERPRINT = 15


def heading_mismatches(corpus: Corpus) -> list[Finding]:
    """A source's text for X that another source gives section Y (and not X): its heading, X's, is wrong for it."""
    texts = _texts(corpus)
    prints: dict[str, dict[tuple[str, tuple[str, ...]], set[str]]] = {}
    for source, table in texts.items():
        idx: dict[tuple[str, tuple[str, ...]], set[str]] = defaultdict(set)
        for (act, number), text in table.items():
            w = words(text)
            if len(w) >= MIN_WORDS:
                idx[(act, tuple(w[:_FINGERPRINT]))].add(number)
        prints[source] = idx
    findings = []
    for source, table in texts.items():
        for (act, number), text in table.items():
            w = words(text)
            if len(w) < MIN_WORDS:
                continue
            for other, idx in prints.items():
                if other == source:
                    continue
                elsewhere = {y for y in idx.get((act, tuple(w[:_FINGERPRINT])), set()) - {number}
                             if similarity(w, words(texts[other][(act, y)])) >= AGREE}
                own = texts[other].get((act, number))
                if elsewhere and own is not None and similarity(w, words(own)) < AGREE:
                    ys = ", ".join(f"s.{y}" for y in sorted(elsewhere))
                    findings.append(Finding(
                        FindingKind.HEADING_MISMATCH, act, number, source,
                        f"{act} {number}: the {source} text under this heading is the text of {ys} in {other}",
                    ))
                    break
    return findings


def empty_texts(corpus: Corpus) -> list[Finding]:
    """Sections in force, or in force until the 2024 repeal, that ingestion would load without text."""
    findings = []
    for (act, number), s in _loaded(corpus).items():
        if s.has_text:
            continue
        if _live(s):
            source = LEGACY if s.act in {"IPC", "CRPC", "IEA"} else INDIACODE
            findings.append(Finding(FindingKind.EMPTY_TEXT, act, number, source,
                                    f"{act} {number} ({s.title or 'no title'}): no shipped source carries its text"))
    return findings


def truncated_titles(corpus: Corpus) -> list[Finding]:
    """A loaded title that is a word-prefix of another source's title for the section, or ends mid-phrase."""
    findings = []
    others: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for key, (title, _) in corpus.structured.items():
        if title:
            others[key].append((STRUCTURED, title))
    for key, subjects in corpus.subjects.items():
        others[key].extend(subjects)
    for (act, number), s in _loaded(corpus).items():
        mine = words(s.title)
        if not mine:
            continue
        longer = next(((src, t) for src, t in others.get((act, number), []) if _cut_from(s.title or "", t)), None)
        if longer:
            findings.append(Finding(FindingKind.TRUNCATED_TITLE, act, number, longer[0],
                                    f"{act} {number}: title {s.title!r} is cut from {longer[1]!r} ({longer[0]})"))
    return findings


_CUT = re.compile(r"^(?:['\u2019]s\b|-[a-z])")


def _cut_from(short: str, full: str) -> bool:
    """``short`` is ``full`` cut inside a word group: at an apostrophe ("Police officer" from "Police officer's
    power to investigate cognizable case.", CrPC 156) or a hyphen ("... more than twenty" from "twenty-four").
    A shorter title that ends at a word boundary ("Rape" beside the table's "Rape definition.") is a title."""
    a, b = re.sub(r"\s+", " ", short).strip().rstrip("."), re.sub(r"\s+", " ", full).strip()
    return len(b) > len(a) > 0 and b.lower().startswith(a.lower()) and bool(_CUT.match(b[len(a):]))


def numbering_gaps(corpus: Corpus) -> list[Finding]:
    """Sub-sections numbered (1), (2), (4): a number missing that no omission footnote explains."""
    omitted = {(a.act, a.section) for a in corpus.fulltext.amendments if a.kind.value in {"omitted", "repealed"}}
    # India Code prints an omitted sub-section as "* * * * *", sometimes with no footnote (GWA 15, 17).
    omitted |= {k for k, raw in corpus.raw_fulltext.items() if _OMISSION.search(raw)}
    findings = []
    for (act, number), s in _loaded(corpus).items():
        if not _live(s):
            continue
        nums = sorted({int(u.path[0]) for u in s.subunits if len(u.path) == 1 and u.path[0].isdigit()})
        if not nums:
            continue
        missing = [n for n in range(1, nums[-1]) if n not in nums]
        if missing and (act, number) not in omitted:
            gap = ", ".join(f"({n})" for n in missing)
            held = ", ".join(f"({n})" for n in nums)
            findings.append(Finding(FindingKind.NUMBERING_GAP, act, number, gap,
                                    f"{act} {number}: sub-section {gap} missing (the text numbers {held})"))
    return findings


_OMISSION = re.compile(r"\*\s*\*\s*\*")


_NEW_WORDS = {"sanhita": "code", "adhiniyam": "act", "nagarik": "", "suraksha": "", "bharatiya": "", "nyaya": "",
              "sakshya": ""}  # fmt: skip


def _comparable(text: str | None) -> list[str]:
    return [w for w in (_NEW_WORDS.get(x, x) for x in words(text)) if w]


def no_change_links(corpus: Corpus) -> list[Finding]:
    """Table links whose summary says "no change" between texts that differ materially."""
    loaded = _loaded(corpus)
    findings = []
    for r in corpus.replacements:
        if r.relation is not Relation.SAME:
            continue
        old, new = loaded.get((r.old.act, r.old.section)), loaded.get((r.new.act, r.new.section))
        if old is None or new is None or not old.has_text or not new.has_text:
            continue
        old_text = _unit_text(old, r.old.sub)
        new_text = _unit_text(new, r.new.sub)
        if old_text is None or new_text is None:
            continue
        score = similarity(_comparable(old_text), _comparable(new_text))
        if score < DIFFERS:
            summary = corpus.summaries.get((r.old.act, r.old.section, r.new.label), "no change")
            findings.append(Finding(
                FindingKind.NO_CHANGE_DIFFERS, r.old.act, r.old.section, f"{r.new.act} {r.new.label}",
                f"{r.old} -> {r.new}: the table says {summary!r}, but only {score:.0%} of the words match",
            ))
    return findings


def _unit_text(s: Section, sub: tuple[str, ...]) -> str | None:
    if not sub:
        return s.text
    path = "/".join(sub)
    return next((u.text for u in s.subunits if "/".join(u.path) == path), None)


# "the Motor Vehicles Act, 1939", "the Marriage Laws (Amendment) Act, 1976": capitalised words (and the
# joining words of a title) before "Act, YYYY", read backwards up to the article that opens the name.
_ACT_END = re.compile(r"\b(Act|Code|Sanhita|Adhiniyam),?\s+(1[6-9]\d\d|20[0-2]\d)\b")
_TOKEN = re.compile(r"\([^()]{1,60}\)|[A-Za-z'\u2019.&-]+")
_JOINING = {"of", "and", "for", "in", "on", "to", "from", "the"}
_ACT_WORDS = {"Act", "Code", "Sanhita", "Adhiniyam", "Acts"}
_PART_OF = {"Chapter", "Part", "Schedule", "Order", "Section", "Article", "Rule", "Regulation", "Sch", "Sch."}


def act_names(text: str) -> Iterator[str]:
    """Act names with their year as the text writes them ("Motor Vehicles Act, 1939")."""
    for m in _ACT_END.finditer(text):
        head = text[max(0, m.start() - 300) : m.start()]
        tokens = list(_TOKEN.finditer(head))
        taken: list[str] = []
        end = len(head)
        for i in range(len(tokens) - 1, -1, -1):
            t = tokens[i]
            if head[t.end() : end].strip():  # punctuation or a number between: the name ends here
                break
            w = t.group(0)
            before = [x.group(0) for x in tokens[max(0, i - 2) : i]]
            # "the Scheduled Castes and the Scheduled Tribes (...) Act": "the" inside a name follows "and"
            # after a word of the name ("this Sanhita and the Air Force Act" names two Acts).
            if w.lower() == "the" and not (taken and before[-1:] == ["and"] and len(before) == 2
                                           and before[0][:1].isupper() and before[0] not in _ACT_WORDS):
                break
            if re.search(r"\d", w) or (w.startswith("(") and len(w) <= 4):
                break
            if not (w[0].isupper() or w[0] == "(" or w in _JOINING):
                break
            taken.append(w)
            end = t.start()
        while taken and taken[-1] in _JOINING:
            taken.pop()
        name = " ".join(reversed(taken))
        # "Chapter X of the ...", "section 5A of the ...": a part of an Act, not its name.
        if not taken or taken[-1] in _PART_OF or not re.match(r"[A-Z]", name) or name.startswith("("):
            continue
        yield f"{name} {m.group(1)}, {m.group(2)}"


def unknown_acts(corpus: Corpus) -> list[Finding]:
    """Acts named in the text ingestion loads that the graph (catalogue and repealed codes) does not hold."""
    from graph_schema.acts import normalise_alias

    resolver = ActResolver(corpus.acts)
    seen: dict[str, tuple[str, str]] = {}
    spellings: set[str] = set()
    for (act, number), s in _loaded(corpus).items():
        for name in act_names(s.text or ""):
            # One finding per Act however spelt ("Administrator-Generals", "Administrator General's").
            if normalise_alias(name) in spellings:
                continue
            spellings.add(normalise_alias(name))
            try:
                resolver.resolve(name)
            except LegalRagError:
                seen[name] = (act, number)
    return [Finding(FindingKind.UNKNOWN_ACT, a, n, name, f"{a} {n} names {name!r}, which the graph does not hold")
            for name, (a, n) in sorted(seen.items())]  # fmt: skip


_INSERTED_WHOLE = re.compile(r"^\s*\^(\d+)\[")


def undated_insertions(corpus: Corpus) -> list[Finding]:
    """Sections wrapped whole in an insertion marker whose footnote records an insertion without a date.

    A marker with no footnote at all (NI Act 143, 143A, 148; 260 rows of India Code) may be an insertion
    or a substitution, so it is not a finding: such sections are dated by ``commencement.jsonl`` records."""
    inserted = {(a.act, a.section, a.footnote) for a in corpus.fulltext.amendments if a.kind.value == "inserted"}
    findings = []
    for s in corpus.fulltext.sections:
        m = _INSERTED_WHOLE.match(corpus.raw_fulltext.get((s.act, s.number), ""))
        if not m or s.in_force_from is not None or s.status is not SectionStatus.IN_FORCE:
            continue
        if (s.act, s.number, m.group(1)) in inserted:
            findings.append(Finding(FindingKind.UNDATED_INSERTION, s.act, s.number, "",
                                    f"{s.act} {s.number} was inserted by amendment, but its footnote gives no date"))
    return findings


def bad_records(corpus: Corpus) -> list[Finding]:
    return [Finding(FindingKind.BAD_RECORD, r.act or "-", None, f"{r.file}:{r.line}", f"{r.file}:{r.line}: {r.reason}")
            for r in corpus.curation.rejects]  # fmt: skip


# --- resolution ------------------------------------------------------------------------------------


def resolve(findings: Iterable[Finding], corpus: Corpus) -> tuple[dict[str, Resolution], list[str]]:
    """Match each finding to the curation record that settles it; also the records that settle nothing."""
    c = corpus.curation
    out: dict[str, Resolution] = {}
    used: set[str] = set()
    named = ActResolver([*corpus.acts, *(n.act for n in c.named_acts)])
    by_code = {n.act.code: n for n in c.named_acts}
    for f in findings:
        res = (_by_correction(f, c) or _by_commencement(f, c) or _by_named_act(f, named, by_code)
               or _by_relation(f, c) or _by_review(f, c))
        if res is not None:
            out[f.key] = res
            used.add(res.record)
    # Commencement records are not listed: most date sections no finding points at (NI Act 139-142).
    records = [
        *(x.source for x in c.corrections),
        *(f"curation/reviewed.jsonl line {x.line}" for x in c.reviews),
    ]
    return out, [r for r in records if r not in used]


def _by_correction(f: Finding, c: Curation) -> Resolution | None:
    for x in c.corrections:
        if x.act == f.act and x.section == f.section and f.kind.value in x.findings:
            return Resolution("corrected", x.source, x.authority)
    return None


def _by_commencement(f: Finding, c: Curation) -> Resolution | None:
    if f.kind is not FindingKind.UNDATED_INSERTION:
        return None
    for x in c.commencements:
        if x.act == f.act and x.section == f.section and x.in_force_from:
            return Resolution("dated", f"curation/commencement.jsonl line {x.line}", x.authority)
    return None


def _by_named_act(f: Finding, resolver: ActResolver, by_code: dict[str, NamedAct]) -> Resolution | None:
    if f.kind is not FindingKind.UNKNOWN_ACT:
        return None
    try:
        code = resolver.resolve(f.detail)
    except LegalRagError:
        return None
    n = by_code.get(code)
    return Resolution("act_added", f"curation/named_acts.jsonl line {n.line}", n.authority) if n else None


def _by_relation(f: Finding, c: Curation) -> Resolution | None:
    """A "no change" link that ``relation_corrections.jsonl`` gives another relation (its edge replaces the
    table's: same edge key, loaded after the table)."""
    if f.kind is not FindingKind.NO_CHANGE_DIFFERS:
        return None
    for r in c.relations:
        if r.old.act == f.act and r.old.label == f.section and f"{r.new.act} {r.new.label}" == f.detail \
                and r.relation is not Relation.SAME:
            return Resolution("relation_corrected", str(r.source), r.note or "")
    return None


def _by_review(f: Finding, c: Curation) -> Resolution | None:
    for x in c.reviews:
        if x.kind == f.kind.value and x.act == f.act and (x.section or None) == f.section \
                and (x.detail is None or x.detail == f.detail):
            return Resolution("reviewed", f"curation/reviewed.jsonl line {x.line}", x.authority)
    return None


# --- the audit -------------------------------------------------------------------------------------


def audit(corpus: Corpus) -> AuditReport:
    """Every finding over ``corpus`` and the curation record resolving each."""
    disagreements, compared, agree, corroborated = compare_texts(corpus)
    findings = [
        *duplicate_texts(corpus),
        *heading_mismatches(corpus),
        *disagreements,
        *empty_texts(corpus),
        *truncated_titles(corpus),
        *numbering_gaps(corpus),
        *no_change_links(corpus),
        *unknown_acts(corpus),
        *undated_insertions(corpus),
        *bad_records(corpus),
    ]
    resolutions, unused = resolve(findings, corpus)
    return AuditReport(findings, resolutions, compared, agree, corroborated, unused)


# --- proposing records ------------------------------------------------------------------------------

_AMENDING = re.compile(r"\bAmendment\b|\bAmending\b|\bRepealing\b")
_REPEALS_IT = re.compile(r"\b(?:hereby\s+repealed|is\s+repealed|are\s+repealed|stands?\s+repealed)\b", re.I)
_BY_IT = re.compile(r"\b(?:Rep\.|Repealed|Omitted|Subs\.|Ins\.)\s*by\s+(?:the\s+)?$", re.I)
_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[(A-Z])")


def propose_named_acts(corpus: Corpus, report: AuditReport) -> list[dict[str, object]]:
    """Draft curation rows for the unresolved ``unknown_act`` findings, from the statute text itself.

    A name that is a variant spelling of an Act the graph holds ("Indian Stamps Act, 1899" for the
    Indian Stamp Act, 1899) gets a ``reviewed.jsonl`` row (``"record": "review"``). Any other becomes an
    Act for ``named_acts.jsonl``, with status ``repealed`` when a sentence naming it repeals it ("The
    Motor Vehicles Act, 1939 (4 of 1939) ... are hereby repealed", MVA 1988 s.217: the naming section is
    the authority); ``amending`` when its title says it amends or repeals ("Marriage Laws (Amendment)
    Act, 1976") or the text names it as the instrument of an amendment ("Rep. by the Amending Act, 1934");
    otherwise ``named``: a statute names it, its status is not held. The number is the "(N of YYYY)" after
    the name. A person reviews each row before it is committed.
    """
    from graph_schema.acts import generated_code, normalise_alias

    loaded = _loaded(corpus)
    wanted = {f.detail: f for f in report.unresolved if f.kind is FindingKind.UNKNOWN_ACT}
    seen: dict[str, list[tuple[str, str, str, int]]] = defaultdict(list)
    for (act, number), s in loaded.items():
        for sentence in _SENTENCE_END.split(s.text or ""):
            sentence = re.sub(r"\s+", " ", sentence).strip()
            for name in act_names(sentence):
                if name in wanted:
                    seen[name].append((act, number, sentence, sentence.find(name[: -6])))
    titles = {a.code: a.title for a in corpus.acts}
    taken = set(titles)
    rows: list[dict[str, object]] = []
    for name in sorted(seen):
        where = seen[name]
        year = int(name[-4:])
        act, sec, sent, _ = where[0]
        quote = f"{act} s.{sec} names it: \u201c{sent[:300]}\u201d"
        variant = max(((difflib.SequenceMatcher(None, normalise_alias(name), normalise_alias(t)).ratio(), c, t)
                       for c, t in titles.items() if t.endswith(str(year))), default=(0.0, "", ""))  # fmt: skip
        if variant[0] >= 0.85:
            f = wanted[name]
            rows.append({"record": "review", "kind": f.kind.value, "act": f.act, "section": f.section, "detail": name,
                         "authority": f"a variant spelling of {variant[2]} ({variant[1]}), which the graph holds; "
                                      + quote})  # fmt: skip
            continue
        act_number = next((m.group(1) for _, _, t, _ in where
                       if (m := re.search(re.escape(name) + r"\s*\(\s*(\d+)\s+of\s+" + name[-4:] + r"\s*\)", t))),
                      None)  # fmt: skip
        repeal = next(((a, n, t) for a, n, t, at in where if _REPEALS_IT.search(t) and not _BY_IT.search(t[:at])), None)
        instrument = next(((a, n, t) for a, n, t, at in where if at > 0 and _BY_IT.search(t[:at])), None)
        if repeal:
            status, by = "repealed", f"repealed by {repeal[0]} s.{repeal[1]}"
            quote = f"{repeal[0]} s.{repeal[1]} repeals it: \u201c{repeal[2][:300]}\u201d"
        elif _AMENDING.search(name) or instrument:
            status, by = "amending", "an amending Act: its amendments are part of the Acts it amended"
            if instrument:
                quote = f"{instrument[0]} s.{instrument[1]} names it as the amending instrument: " \
                        f"\u201c{instrument[2][:300]}\u201d"
        else:
            status, by = "named", "named by a statute; its own status is not held"
        code = generated_code(f"The {name}", year)
        while code in taken:
            code += "N"
        taken.add(code)
        rows.append({"record": "act", "code": code, "title": f"The {name}", "year": year, "number": act_number,
                     "status": status, "source": f"curation/named_acts.jsonl: {by}", "authority": quote})
    return rows
