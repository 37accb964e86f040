"""Curation records that correct or date what the statute sources carry (``data/corpus/curation``).

Every row names its ``authority``: the source that has it right and why. A row without one is a
reject, never applied. See ``data/corpus/curation/README.md`` for the files and their rows.

* ``section_corrections.jsonl``: a section's text or title replaced (BNSS 58 carries the text of
  s.59 in two sources), or supplied where every source has none (IPC 304B);
* ``commencement.jsonl``: when a section came into force, or that a sub-section is not in force
  (BNS 106(2), excepted from S.O. 850(E));
* ``reviewed.jsonl``: audit findings checked against a source and left as they are, with why
  (read by the audit only).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graph_schema.errors import InvalidSectionNumberError
from graph_schema.numbering import canonical_section
from ingestion.dates import parse_date
from ingestion.report import Reject
from ingestion.sources.base import read_jsonl, text_or_none

__all__ = [
    "Commencement",
    "Review",
    "SectionCorrection",
    "read_commencements",
    "read_reviews",
    "read_section_corrections",
]


@dataclass(frozen=True, slots=True)
class SectionCorrection:
    """Replace a section's ``text`` and/or ``title`` (None leaves that field as the source has it)."""

    act: str
    section: str
    text: str | None
    title: str | None
    findings: tuple[str, ...]
    authority: str
    line: int

    @property
    def source(self) -> str:
        return f"curation/section_corrections.jsonl line {self.line}"


@dataclass(frozen=True, slots=True)
class Commencement:
    """A section's own commencement (``in_force_from``), the day a court struck it down (``in_force_to``,
    exclusive: the day of the judgment), or a sub-unit not in force (``not_in_force``)."""

    act: str
    section: str
    sub: tuple[str, ...]
    in_force_from: str | None
    not_in_force: bool
    authority: str
    line: int
    in_force_to: str | None = None
    struck_down_by: str | None = None
    """The judgment that struck the section down on ``in_force_to`` ("Joseph Shine v. Union of India, (2019) 3 SCC
    39"): recorded as the section's struck-down amendment, as an India Code footnote would be."""


@dataclass(frozen=True, slots=True)
class Review:
    """An audit finding checked and left as the sources have it."""

    kind: str
    act: str
    section: str | None
    detail: str | None
    authority: str
    line: int


class _Bad(Exception):
    pass


def _common(r: dict[str, Any]) -> tuple[str, str, str]:
    act = text_or_none(r.get("act"))
    authority = text_or_none(r.get("authority"))
    if not act:
        raise _Bad("missing 'act'")
    if not authority:
        raise _Bad("missing 'authority' (which source has it right, and why)")
    try:
        section = canonical_section(str(r.get("section") or ""))
    except InvalidSectionNumberError as exc:
        raise _Bad(str(exc)) from exc
    return act.upper(), section, authority


def read_section_corrections(path: Path) -> tuple[list[SectionCorrection], list[Reject]]:
    rejects: list[Reject] = []
    out: list[SectionCorrection] = []
    for n, r in read_jsonl(path, rejects):
        try:
            act, section, authority = _common(r)
            text, title = text_or_none(r.get("text")), text_or_none(r.get("title"))
            if text is None and title is None:
                raise _Bad("a correction needs 'text' or 'title'")
            findings = r.get("findings") or []
            if not isinstance(findings, list):
                raise _Bad("'findings' must be a list of finding kinds")
            out.append(SectionCorrection(act, section, text, title, tuple(map(str, findings)), authority, n))
        except _Bad as exc:
            rejects.append(Reject(path.name, n, str(exc), r.get("act") if isinstance(r.get("act"), str) else None))
    return out, rejects


def read_commencements(path: Path) -> tuple[list[Commencement], list[Reject]]:
    rejects: list[Reject] = []
    out: list[Commencement] = []
    for n, r in read_jsonl(path, rejects):
        try:
            act, section, authority = _common(r)
            sub = r.get("sub") or []
            if not isinstance(sub, list) or not all(isinstance(s, str) and s for s in sub):
                raise _Bad("'sub' must be a list of sub-unit labels, e.g. [\"2\"]")
            not_in_force = r.get("not_in_force") is True
            raw = r.get("in_force_from")
            start = parse_date(str(raw)) if raw else None
            if raw and start is None:
                raise _Bad(f"in_force_from {raw!r} is not a date (use YYYY-MM-DD)")
            raw_end = r.get("in_force_to")
            end = parse_date(str(raw_end)) if raw_end else None
            if raw_end and end is None:
                raise _Bad(f"in_force_to {raw_end!r} is not a date (use YYYY-MM-DD)")
            dated = start is not None or end is not None
            if not_in_force == dated:
                raise _Bad("give 'in_force_from' or 'in_force_to' (or both), or 'not_in_force': true, not both")
            if start and end and end <= start:
                raise _Bad(f"in_force_to {end} is not after in_force_from {start}")
            if dated and sub:
                raise _Bad("a sub-unit's own commencement date is not supported; date the section")
            if not_in_force and not sub:
                raise _Bad("'not_in_force' needs 'sub' (a section not in force is dated, not flagged)")
            struck = text_or_none(r.get("struck_down_by"))
            if struck and end is None:
                raise _Bad("'struck_down_by' needs 'in_force_to', the day of the judgment")
            out.append(Commencement(act, section, tuple(sub), start, not_in_force, authority, n, end, struck))
        except _Bad as exc:
            rejects.append(Reject(path.name, n, str(exc), r.get("act") if isinstance(r.get("act"), str) else None))
    return out, rejects


def read_reviews(path: Path) -> tuple[list[Review], list[Reject]]:
    rejects: list[Reject] = []
    out: list[Review] = []
    for n, r in read_jsonl(path, rejects):
        kind = text_or_none(r.get("kind"))
        authority = text_or_none(r.get("authority"))
        act = text_or_none(r.get("act"))
        if not kind or not act or not authority:
            rejects.append(Reject(path.name, n, "a review needs 'kind', 'act' and 'authority'"))
            continue
        section = text_or_none(r.get("section"))
        out.append(Review(kind, act.upper(), section, text_or_none(r.get("detail")), authority, n))
    return out, rejects
