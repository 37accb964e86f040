"""Findings matched to the curation records that resolve them, and the report."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from graph_schema.acts import ActResolver
from graph_schema.errors import LegalRagError
from graph_schema.model import Relation
from ingestion.audit.checks import (
    AGREE,
    Finding,
    FindingKind,
    act_names,
    bad_records,
    compare_texts,
    cut_from,
    duplicate_texts,
    empty_texts,
    heading_mismatches,
    no_change_links,
    numbering_gaps,
    similarity,
    sub_section_gaps,
    truncated_titles,
    undated_insertions,
    unknown_acts,
    words,
)
from ingestion.audit.corpus import Corpus, Curation, NamedAct, source_texts
from ingestion.sources.curation import SectionCorrection
from ingestion.subunits import parse_subunits


@dataclass(frozen=True, slots=True)
class Resolution:
    how: str
    """``corrected``, ``dated``, ``not_in_force``, ``act_added`` or ``reviewed``."""
    record: str
    authority: str

    def as_dict(self) -> dict[str, str]:
        return {"how": self.how, "record": self.record, "authority": self.authority}


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


# --- resolution ------------------------------------------------------------------------------------


def resolve(findings: Iterable[Finding], corpus: Corpus) -> tuple[dict[str, Resolution], list[str]]:
    """Match each finding to the curation record that settles it; also the records that settle nothing."""
    c = corpus.curation
    out: dict[str, Resolution] = {}
    used: set[str] = set()
    named = ActResolver([*corpus.acts, *(n.act for n in c.named_acts)])
    by_code = {n.act.code: n for n in c.named_acts}
    for f in findings:
        res = (_by_correction(f, corpus) or _by_commencement(f, c) or _by_named_act(f, named, by_code)
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


def _by_correction(f: Finding, corpus: Corpus) -> Resolution | None:
    """A correction resolves the findings it lists, and only when its text or title actually fixes them."""
    for x in corpus.curation.corrections:
        if x.act == f.act and x.section == f.section and f.kind.value in x.findings and _fixes(x, f, corpus):
            return Resolution("corrected", x.source, x.authority)
    return None


def _fixes(x: SectionCorrection, f: Finding, corpus: Corpus) -> bool:
    """Re-run the finding's check on the corrected text or title."""
    if f.kind in (FindingKind.DUPLICATE_TEXT, FindingKind.HEADING_MISMATCH, FindingKind.TEXT_DISAGREES):
        return x.text is not None and not _another_sections_text(x.act, x.section, x.text, corpus)
    if f.kind is FindingKind.EMPTY_TEXT:
        return bool(x.text)
    if f.kind is FindingKind.TRUNCATED_TITLE:
        full = [t for _, t in corpus.subjects.get((x.act, x.section), [])]
        return x.title is not None and not any(cut_from(x.title, t) for t in full)
    if f.kind is FindingKind.NUMBERING_GAP:
        return x.text is not None and not sub_section_gaps(parse_subunits(x.text))
    if f.kind is FindingKind.UNKNOWN_ACT:
        return x.text is not None and f.detail not in set(act_names(x.text))
    return True


def _another_sections_text(act: str, section: str, text: str, corpus: Corpus) -> bool:
    """Whether any source gives ``text`` to another section of ``act`` (BNSS 58 "corrected" to s.59's words)."""
    mine = words(text)
    for table in source_texts(corpus).values():
        for (a, n), t in table.items():
            if a == act and n != section and words(t)[:15] == mine[:15] and similarity(mine, words(t)) >= AGREE:
                return True
    return False


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
