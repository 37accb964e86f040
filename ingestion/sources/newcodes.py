"""Secondary sources for BNS, BNSS and BSA.

* ``new-codes-structured/legal_chunks.json``: the only source with the chapter hierarchy of the new
  codes; used for Chapter nodes and section->chapter edges.
* ``new-codes-sections/{BNS,BNSS,BSA}_sections.json``: a second copy of the text, used only to fill
  the sections India Code holds without text (BNS 114, BNSS 79, BSA 145; see indiacode/SOURCE.md).
"""

from __future__ import annotations

import re
from pathlib import Path

from graph_schema.errors import IngestError, InvalidSectionNumberError
from graph_schema.model import Chapter
from graph_schema.numbering import canonical_section
from ingestion.report import Reject
from ingestion.sources.base import ChapterAssignment, Parsed, TextFill, read_json_array, text_or_none

NEW_CODES = ("BNS", "BNSS", "BSA")
_CHAPTER = re.compile(r"^CHAPTER\s+([IVXLC]+[A-Z]?)\s*$", re.I)


def read_structured_chapters(path: Path) -> Parsed:
    """Chapter of every BNS/BNSS/BSA section from ``legal_chunks.json``.

    Chunks without a section number (chapter preambles, SOP and NALSA material) are skipped, not
    rejected: they carry no section to place.
    """
    out = Parsed()
    placed: dict[tuple[str, str], tuple[int, Chapter]] = {}
    for i, chunk in enumerate(read_json_array(path), start=1):
        md = chunk.get("metadata") if isinstance(chunk, dict) else None
        if not isinstance(md, dict) or md.get("law") not in NEW_CODES or md.get("section") is None:
            continue
        act = str(md["law"])
        m = _CHAPTER.match(str(md.get("chapter") or ""))
        if not m:
            out.rejects.append(Reject(path.name, i, f"chunk without a chapter heading: {md.get('chapter')!r}", act))
            continue
        try:
            number = canonical_section(str(md["section"]))
        except InvalidSectionNumberError as exc:
            out.rejects.append(Reject(path.name, i, str(exc), act))
            continue
        title = _title_case(text_or_none(md.get("chapter_title")) or "")
        chapter = Chapter(act=act, number=m.group(1).upper(), title=title)
        prior = placed.get((act, number))
        if prior and prior[1].number != chapter.number:
            out.rejects.append(
                Reject(path.name, i, f"{act} {number} placed in chapter {chapter.number}, "
                       f"but chunk {prior[0]} put it in {prior[1].number}", act)
            )
            continue
        placed.setdefault((act, number), (i, chapter))
    for (act, number), (_, chapter) in placed.items():
        out.chapters.append(ChapterAssignment(act, number, chapter))
    return out


def read_section_copies(path: Path) -> Parsed:
    """``BNS_sections.json`` etc.: text chunks per section, joined in chunk order, as text fills."""
    act = path.name.split("_", 1)[0].upper()
    if act not in NEW_CODES:
        raise IngestError(f"{path.name}: expected BNS_sections.json, BNSS_sections.json or BSA_sections.json")
    out = Parsed()
    parts: dict[str, list[tuple[int, str]]] = {}
    for i, r in enumerate(read_json_array(path), start=1):
        try:
            number = canonical_section(str(r.get("section_number")))
        except (InvalidSectionNumberError, AttributeError) as exc:
            out.rejects.append(Reject(path.name, i, str(exc), act))
            continue
        content = text_or_none(r.get("content"))
        if content:
            parts.setdefault(number, []).append((int(r.get("chunk_number") or 0), content))
    for number, chunks in parts.items():
        text = " ".join(c for _, c in sorted(chunks))
        out.fills.append(TextFill(act, number, text, f"new-codes-sections/{path.name}"))
    return out


def _title_case(s: str) -> str:
    """Chapter titles arrive in mixed case ("OF PUNISHMENTS", "Of offences affecting the human body")."""
    if s.isupper():
        s = s.capitalize()
    return s[:1].upper() + s[1:]


def read_structured_texts(path: Path) -> dict[tuple[str, str], tuple[str | None, str]]:
    """``legal_chunks.json`` as ``(act, section) -> (title, text)``: each section's chunks joined in
    file order, their header lines (Act, CHAPTER, "Section N - Title", "Sub-section (1)") dropped.

    For the audit only: ingestion takes the text of the new codes from India Code. A chunk's body
    is what follows its first blank line; markdown bold marks are removed.
    """
    out: dict[tuple[str, str], tuple[str | None, list[str]]] = {}
    for chunk in read_json_array(path):
        md = chunk.get("metadata") if isinstance(chunk, dict) else None
        if not isinstance(md, dict) or md.get("law") not in NEW_CODES or md.get("section") is None:
            continue
        try:
            number = canonical_section(str(md["section"]))
        except InvalidSectionNumberError:
            continue
        raw = str(chunk.get("text") or "")
        body = raw.split("\n\n", 1)[1] if "\n\n" in raw else raw
        body = re.sub(r"\*\*|(?<!\w)_|_(?!\w)", "", body).strip()
        title, parts = out.setdefault((str(md["law"]), number), (text_or_none(md.get("section_title")), []))
        if body:
            parts.append(body)
    return {k: (title, " ".join(parts)) for k, (title, parts) in out.items()}
