"""A stored answer as a lawyer reads it: the direct answer first, then the deciding provisions, one row per
cited provision, the numbered sources, confidence in words, and the claims with their evidence named by
provision (never by chunk id). The research page, the Markdown export and the .docx export all read this view,
so they say the same thing.

Built from the stored answer document alone (``AskResult.model_dump`` plus the provenance the records add), so
an answer stored months ago renders the same way; nothing is re-derived from the graph here.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from legal_rag.workflow.generators.extractive import sub_of

__all__ = ["AnswerView", "build_view", "to_markdown", "to_docx"]

_MARK = re.compile(r"\s*\[(\d+)\]")
_QUOTED = re.compile(r'provides: "(.+)"')

STATUS_WORDS = {
    "verified": "in force on the date",
    "repealed": "repealed by the date",
    "omitted": "omitted by the date",
    "not_yet_in_force": "not yet in force on the date",
    "not_found": "not found in the statute",
    "unknown_act": "Act not known",
    "unchecked": "could not be checked",
    "unresolved": "Act not named: could not be checked",
    "not_in_registry": "judgment not in the registry: could not be checked",
    "mismatch": "citation belongs to another case",
}
"""Each citation status as the page says it. "could not check" is never said as "verified"."""

FACTOR_WORDS = {
    "question_coverage": ("how much of the question's subject the quoted text mentions", True),
    "names_provision": ("the question names a provision (lookups are usually answered exactly)", True),
    "question_length": ("length of the question (long fact patterns raise several issues)", False),
    "old_code_facts": ("facts dated before 2024-07-01 (the repealed codes apply)", False),
    "question_parts": ("several asks in one question (each needs its own provision)", False),
}
"""Each confidence factor in words, and whether a higher value raises confidence."""

VERDICT_WORDS = {
    "SUPPORTED": "supported by the quoted text",
    "PARTIALLY_SUPPORTED": "only partly supported",
    "UNSUPPORTED": "not supported: removed from the answer",
    "CONTRADICTED": "contradicted by the statute: removed from the answer",
}


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the answer text with its place in it (code points, as flag offsets count) and its sources."""

    text: str
    start: int
    end: int
    sources: list[int]
    part: str
    """``answer`` (the direct answer and what the question's premises and dates were read as) or ``provision``."""


@dataclass(frozen=True, slots=True)
class CitationRow:
    """One cited provision: duplicates (the same Act, section and status) merged into one row."""

    act: str | None
    act_title: str | None
    section: str | None
    label: str
    status: str
    status_words: str
    date: str
    message: str
    successors: list[dict[str, Any]]
    where: list[str]


@dataclass(frozen=True, slots=True)
class SourceRow:
    n: int
    act: str
    section: str
    """The provision with its sub-unit: ``308(2)``."""
    label: str
    heading: str | None
    status: str | None


@dataclass(frozen=True, slots=True)
class ClaimRow:
    text: str
    verdict: str
    verdict_words: str
    evidence: list[str]
    """The provisions the claim was judged on, named as a lawyer cites them: ``[1] BNS s.308(2) Extortion``."""
    kept: bool


@dataclass(frozen=True, slots=True)
class FactorRow:
    name: str
    words: str
    value: float
    weight: float
    effect: str
    """``raises``, ``lowers`` or ``none``: what this factor did to the score of this answer."""


@dataclass(frozen=True, slots=True)
class ConfidenceView:
    label: str
    score: float
    words: str
    factors: list[FactorRow]


@dataclass(frozen=True, slots=True)
class AnswerView:
    id: str
    question: str
    as_of: str
    created_at: str
    key_name: str
    text: str
    lines: list[Line]
    citations: list[CitationRow]
    sources: list[SourceRow]
    confidence: ConfidenceView
    claims: list[ClaimRow]
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def direct(self) -> list[Line]:
        return [ln for ln in self.lines if ln.part == "answer"]

    @property
    def provisions(self) -> list[Line]:
        return [ln for ln in self.lines if ln.part == "provision"]


def build_view(doc: dict[str, Any]) -> AnswerView:
    """The view of a stored answer document (``StoredAnswer.model_dump(mode="json")``)."""
    text = str(doc.get("answer", ""))
    sources = [_source(s) for s in doc.get("sources") or []]
    by_chunk = {s.get("chunk_id"): row for s, row in zip(doc.get("sources") or [], sources, strict=True)}
    return AnswerView(
        id=str(doc.get("id", "")), question=str(doc.get("question", "")), as_of=str(doc.get("as_of", "")),
        created_at=str(doc.get("created_at", "")), key_name=str(doc.get("key_name", "")), text=text,
        lines=_lines(text), citations=_citations(doc.get("citations") or [], str(doc.get("as_of", ""))),
        sources=sources, confidence=_confidence(doc),
        claims=[_claim(c, by_chunk) for c in doc.get("claims") or []],
        warnings=[str(w) for w in doc.get("warnings") or []])


def _lines(text: str) -> list[Line]:
    """The answer's lines, split into the direct answer and the provisions that decide it.

    The answer part is: the lines before the first cited one (a false premise corrected, how the question's
    dates were read), the first cited line (the direct answer, or the deciding clause the answer opens with),
    and after it each line that puts first a clause the answer quotes again later (``workflow.direct``'s
    answer per ask, then the provisions it came from).
    """
    raw = text.split("\n")
    out: list[Line] = []
    pos = 0
    answer_open = True
    seen_cited = False
    for i, line in enumerate(raw):
        marks = [int(n) for n in _MARK.findall(line)]
        if answer_open and seen_cited and not _repeated_later(line, raw[i + 1:]):
            answer_open = False
        part = "answer" if answer_open else "provision"
        seen_cited = seen_cited or bool(marks)
        out.append(Line(text=line, start=pos, end=pos + len(line), sources=marks, part=part))
        pos += len(line) + 1
    return out


def _repeated_later(line: str, later: list[str]) -> bool:
    m = _QUOTED.search(_MARK.sub("", line))
    if m is None:
        return False
    clause = m.group(1).strip()
    return len(clause) > 20 and any(clause in other for other in later)


def _label(act: str | None, section: str | None) -> str:
    if not act:
        return section or "?"
    return f"{act} s.{section}" if section else act


def _citations(rows: list[dict[str, Any]], as_of: str) -> list[CitationRow]:
    merged: dict[tuple[Any, ...], CitationRow] = {}
    for c in rows:
        key = (c.get("act"), c.get("section") or c.get("text"), c.get("status"))
        where = str(c.get("where", "answer"))
        if key in merged:
            if where not in merged[key].where:
                merged[key].where.append(where)
            continue
        status = str(c.get("status", "unchecked"))
        merged[key] = CitationRow(
            act=c.get("act"), act_title=c.get("act_title"), section=c.get("section"),
            label=_label(c.get("act"), c.get("section")) if c.get("act") else str(c.get("text", "")),
            status=status, status_words=STATUS_WORDS.get(status, status.replace("_", " ")), date=as_of,
            message=str(c.get("message", "")), successors=list(c.get("successors") or []), where=[where])
    return list(merged.values())


def _source(s: dict[str, Any]) -> SourceRow:
    section = f"{s.get('section', '')}{sub_of(str(s.get('chunk_id', '')))}"
    return SourceRow(n=int(s.get("n", 0)), act=str(s.get("act", "")), section=section,
                     label=_label(str(s.get("act", "")), section), heading=s.get("heading"), status=s.get("status"))


def _evidence_name(chunk_id: str, by_chunk: dict[Any, SourceRow]) -> str:
    row = by_chunk.get(chunk_id)
    if row is not None:
        return f"[{row.n}] {row.heading or row.label}"
    parts = chunk_id.split(":")  # a passage re-retrieval found that the answer does not cite
    return _label(parts[0], parts[1] + sub_of(chunk_id)) if len(parts) >= 2 else chunk_id


def _claim(c: dict[str, Any], by_chunk: dict[Any, SourceRow]) -> ClaimRow:
    verdict = str(c.get("verdict", ""))
    return ClaimRow(text=_MARK.sub("", str(c.get("text", ""))), verdict=verdict,
                    verdict_words=VERDICT_WORDS.get(verdict, verdict.replace("_", " ").lower()),
                    evidence=[_evidence_name(str(e), by_chunk) for e in c.get("evidence") or []],
                    kept=bool(c.get("kept", False)))


def _confidence(doc: dict[str, Any]) -> ConfidenceView:
    c = doc.get("confidence") or {}
    label = str(c.get("label", "Low"))
    factors = []
    for f in c.get("factors") or []:
        name = str(f.get("name", ""))
        words, _ = FACTOR_WORDS.get(name, (name.replace("_", " "), True))
        contribution = float(f.get("weight", 0.0)) * float(f.get("value", 0.0))
        effect = "raises" if contribution > 0 else "lowers" if contribution < 0 else "none"
        factors.append(FactorRow(name=name, words=words, value=float(f.get("value", 0.0)),
                                 weight=float(f.get("weight", 0.0)), effect=effect))
    return ConfidenceView(label=label, score=float(c.get("score", 0.0)), words=_confidence_words(doc, label),
                          factors=factors)


def _confidence_words(doc: dict[str, Any], label: str) -> str:
    """What the label means for this answer, in one sentence a lawyer can act on."""
    about = _short(str(doc.get("question", "")), 90)
    values = {f.get("name"): float(f.get("value", 0.0)) for f in (doc.get("confidence") or {}).get("factors") or []}
    statuses = {str(c.get("status")) for c in doc.get("citations") or [] if c.get("where") == "answer"}
    if label == "High":
        return "High: the quoted provisions answer the question and every citation was checked for the date."
    reasons = []
    if values.get("question_coverage", 1.0) < 0.5:
        reasons.append(f"the quoted provisions may not answer the question about {about}")
    if statuses & {"not_found", "unknown_act", "unchecked", "unresolved"}:
        reasons.append("a cited provision could not be found or checked")
    if any(str(w).startswith("This answer states no") or str(w).startswith("The statutes cannot answer")
           for w in doc.get("warnings") or []):
        reasons.append("one of the question's asks is left unanswered")
    if values.get("question_parts", 0.0) > 0:
        reasons.append("the question has several asks, and each needs its own provision")
    if values.get("old_code_facts", 0.0) > 0:
        reasons.append("the facts are dated before 2024-07-01, when the old codes applied")
    if not reasons:
        reasons.append(f"the quoted provisions may not fully answer the question about {about}")
    check = "check them before relying on this answer" if label == "Low" else "check the provisions it relies on"
    return f"{label}: {reasons[0]}" + "".join(f"; {r}" for r in reasons[1:3]) + f". {check[0].upper()}{check[1:]}."


def _short(text: str, limit: int) -> str:
    text = " ".join(text.split()).rstrip("?.! ")
    return f"“{text}”" if len(text) <= limit else f"“{text[:limit].rsplit(' ', 1)[0]}…”"


# -- exports --------------------------------------------------------------------------------------


def to_markdown(view: AnswerView) -> str:
    """The answer with its citations and sources as Markdown (what "Copy" and "Export .md" give)."""
    out = [f"# {view.question}", "", f"*Facts as of {view.as_of}; answered {view.created_at[:10]}; "
           f"answer {view.id}*", "", "## Answer", ""]
    out += [_md_line(ln.text) for ln in view.direct] + [""]
    if view.provisions:
        out += ["## Deciding provisions", ""] + [f"- {_md_line(ln.text)}" for ln in view.provisions] + [""]
    out += ["## Confidence", "", view.confidence.words, ""]
    if view.warnings:
        out += ["## Warnings", ""] + [f"- {w}" for w in view.warnings] + [""]
    out += ["## Citations", "", "| Provision | Act | Status | On |", "|---|---|---|---|"]
    out += [f"| {c.label} | {c.act_title or c.act or ''} | {c.status_words} | {c.date} |" for c in view.citations]
    out += ["", "## Sources", ""] + [f"{s.n}. {s.label}: {s.heading or ''}".rstrip(": ") for s in view.sources]
    return "\n".join(out).rstrip() + "\n"


def _md_line(text: str) -> str:
    return _MARK.sub(lambda m: f" [{m.group(1)}]", text).replace("|", "\\|")


def to_docx(view: AnswerView) -> bytes:
    """The same content as :func:`to_markdown` as a Word document (python-docx)."""
    import io

    from docx import Document

    doc = Document()
    doc.core_properties.title = view.question[:200]
    doc.add_heading(view.question, level=1)
    doc.add_paragraph(f"Facts as of {view.as_of}; answered {view.created_at[:10]}; answer {view.id}")
    doc.add_heading("Answer", level=2)
    for ln in view.direct:
        doc.add_paragraph(ln.text)
    if view.provisions:
        doc.add_heading("Deciding provisions", level=2)
        for ln in view.provisions:
            doc.add_paragraph(ln.text, style="List Bullet")
    doc.add_heading("Confidence", level=2)
    doc.add_paragraph(view.confidence.words)
    if view.warnings:
        doc.add_heading("Warnings", level=2)
        for w in view.warnings:
            doc.add_paragraph(w, style="List Bullet")
    doc.add_heading("Citations", level=2)
    table = doc.add_table(rows=1, cols=4)
    for cell, title in zip(table.rows[0].cells, ("Provision", "Act", "Status", "On"), strict=True):
        cell.text = title
    for c in view.citations:
        cells = table.add_row().cells
        for cell, value in zip(cells, (c.label, c.act_title or c.act or "", c.status_words, c.date), strict=True):
            cell.text = value
    doc.add_heading("Sources", level=2)
    for s in view.sources:
        doc.add_paragraph(f"[{s.n}] {s.label}: {s.heading or ''}".rstrip(": "))
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()
