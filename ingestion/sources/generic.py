"""The documented generic format, for Acts we do not ship (see README "Loading your own Acts").

JSON Lines, one record per line. ``record`` defaults to ``"section"``::

    {"record": "act", "code": "KRA", "title": "The Karnataka Rent Act, 1999", "year": 1999,
     "in_force_from": "2001-12-31", "aliases": ["Karnataka Rent Act", "KRA 1999"]}
    {"act": "KRA", "section": "27", "title": "Recovery of possession", "text": "(1) No order ...",
     "in_force_from": "2001-12-31", "status": "in_force"}
    {"record": "amendment", "act": "KRA", "section": "27", "kind": "substituted",
     "amending_act": "Act 5 of 2010", "effective": "2010-04-01", "text": "Subs. by Act 5 of 2010"}
    {"record": "replacement", "old_act": "IPC", "old_section": "302", "new_act": "BNS",
     "new_section": "103(1)", "relation": "same", "note": "...", "effective": "2024-07-01"}

``act`` may be a code or any alias of an Act in the graph or defined earlier in the file. Dates are
ISO ``YYYY-MM-DD`` (or D-M-YYYY). ``status`` is ``in_force`` (default), ``omitted`` or ``repealed``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from graph_schema.acts import normalise_alias
from graph_schema.errors import LegalRagError
from graph_schema.model import (
    SECTION_STATUSES,
    Act,
    Amendment,
    AmendmentKind,
    Relation,
    Replacement,
    Section,
    SectionStatus,
)
from graph_schema.numbering import canonical_section, parse_reference
from ingestion.dates import parse_date
from ingestion.report import Reject
from ingestion.sources.base import Parsed, read_jsonl, text_or_none
from ingestion.subunits import parse_subunits

Resolve = Callable[[str], str]


class _Bad(Exception):
    """A record-level validation failure (becomes a Reject)."""


def read_generic(path: Path, resolve_act: Resolve, existing: Mapping[str, Act] | None = None) -> Parsed:
    """Parse a generic JSONL file. ``resolve_act`` maps a code/alias to a code or raises;
    ``existing`` (code -> Act) guards Acts already loaded from being taken over by a new record."""
    existing = existing or {}
    out = Parsed()
    local: dict[str, str] = {}
    seen_sections: dict[tuple[str, str], int] = {}

    def resolve(name: Any) -> str:
        if not isinstance(name, str) or not name.strip():
            raise _Bad("missing 'act'")
        key = normalise_alias(name)
        if key in local:
            return local[key]
        try:
            return resolve_act(name)
        except LegalRagError as exc:
            raise _Bad(str(exc)) from exc

    for n, r in read_jsonl(path, out.rejects):
        kind = r.get("record", "section")
        try:
            if kind == "act":
                act = _act(r)
                _guard_takeover(act, existing, resolve_act)
                out.acts.append(act)
                for name in (act.code, act.title, *act.aliases):
                    local[normalise_alias(name)] = act.code
            elif kind == "section":
                code = resolve(r.get("act"))
                section = _section(r, code, path.name, n)
                first = seen_sections.get((code, section.number))
                if first is not None:
                    raise _Bad(f"duplicate section {code} {section.number} (first at line {first})")
                seen_sections[(code, section.number)] = n
                out.sections.append(section)
            elif kind == "amendment":
                out.amendments.append(_amendment(r, resolve(r.get("act")), n))
            elif kind == "replacement":
                out.replacements.append(_replacement(r, resolve(r.get("old_act")), resolve(r.get("new_act")), path, n))
            else:
                raise _Bad(f"unknown record type {kind!r} (expected act, section, amendment or replacement)")
        except _Bad as exc:
            act_name = r.get("act") if isinstance(r.get("act"), str) else None
            out.rejects.append(Reject(path.name, n, str(exc), local.get(normalise_alias(act_name or "")) or act_name))
    return out


def _guard_takeover(act: Act, existing: Mapping[str, Act], resolve_act: Resolve) -> None:
    """A file may update an Act it defines, but not rename another Act's code or borrow its aliases:
    ``{"code": "IPC", "title": "Indian Ports Corporation Act"}`` would silently replace the Penal Code."""
    prior = existing.get(act.code)
    if prior is not None and normalise_alias(prior.title) != normalise_alias(act.title):
        raise _Bad(f"act code {act.code!r} already names {prior.title!r}; choose another code")
    for name in (act.title, *act.aliases):
        try:
            other = resolve_act(name)
        except LegalRagError:
            continue
        if other != act.code:
            raise _Bad(f"{name!r} already names {other}; an alias may name only one Act")


def _date(r: dict[str, Any], field: str) -> str | None:
    raw = r.get(field)
    if raw in (None, ""):
        return None
    d = parse_date(str(raw))
    if d is None:
        raise _Bad(f"{field} {raw!r} is not a date (use YYYY-MM-DD)")
    return d


def _act(r: dict[str, Any]) -> Act:
    code = text_or_none(r.get("code"))
    title = text_or_none(r.get("title"))
    if not code or not title:
        raise _Bad("an act record needs 'code' and 'title'")
    if not code.replace("_", "").isalnum():
        raise _Bad(f"act code {code!r} must be letters and digits")
    aliases = r.get("aliases") or []
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise _Bad("'aliases' must be a list of strings")
    year = r.get("year")
    if year is not None and not (isinstance(year, int) or (isinstance(year, str) and year.isdigit())):
        raise _Bad(f"year {year!r} is not a number")
    return Act(
        code=code.upper(),
        title=title,
        number=text_or_none(r.get("number")),
        year=int(year) if year is not None else None,
        in_force_from=_date(r, "in_force_from"),
        in_force_to=_date(r, "in_force_to"),
        status=_status(r),
        aliases=tuple(aliases),
        source=text_or_none(r.get("source")),
    )


def _status(r: dict[str, Any]) -> SectionStatus:
    raw = r.get("status") or "in_force"
    try:
        return SectionStatus(str(raw).lower())
    except ValueError as exc:
        raise _Bad(f"status {raw!r} is not one of {', '.join(x.value for x in SectionStatus)}") from exc


def _section(r: dict[str, Any], code: str, file: str, line: int) -> Section:
    try:
        number = canonical_section(str(r.get("section") or ""))
    except LegalRagError as exc:
        raise _Bad(str(exc)) from exc
    text = r.get("text")
    if text is not None and not isinstance(text, str):
        raise _Bad("'text' must be a string")
    title = r.get("title")
    if title is not None and not isinstance(title, str):
        raise _Bad("'title' must be a string")
    start, end = _date(r, "in_force_from"), _date(r, "in_force_to")
    if start and end and end <= start:
        raise _Bad(f"in_force_to {end} is not after in_force_from {start}")
    status = _status(r)
    if status not in SECTION_STATUSES:
        raise _Bad(f"status {status.value!r} describes an Act; a section is in_force, omitted or repealed")
    clean = text.strip() if text and text.strip() else None
    return Section(
        act=code,
        number=number,
        title=text_or_none(title),
        text=clean,
        status=status,
        in_force_from=start,
        in_force_to=end,
        source=text_or_none(r.get("source")) or f"{file}:{line}",
        subunits=parse_subunits(clean) if clean else (),
    )


def _amendment(r: dict[str, Any], code: str, line: int) -> Amendment:
    try:
        number = canonical_section(str(r.get("section") or ""))
        kind = AmendmentKind(str(r.get("kind", "amended")).lower())
    except (LegalRagError, ValueError) as exc:
        raise _Bad(f"bad amendment: {exc}") from exc
    return Amendment(
        act=code,
        section=number,
        footnote=str(r.get("footnote") or f"line{line}"),
        kind=kind,
        amending_act=text_or_none(r.get("amending_act")),
        effective=_date(r, "effective"),
        text=str(r.get("text") or ""),
    )


def _replacement(r: dict[str, Any], old_act: str, new_act: str, path: Path, n: int) -> Replacement:
    try:
        old = parse_reference(str(r.get("old_section") or ""), old_act)
        new = parse_reference(str(r.get("new_section") or ""), new_act)
        relation = Relation(str(r.get("relation", "modified")).lower())
    except (LegalRagError, ValueError) as exc:
        raise _Bad(f"bad replacement: {exc}") from exc
    return Replacement(
        old=old,
        new=new,
        relation=relation,
        note=text_or_none(r.get("note")),
        effective=_date(r, "effective") or "2024-07-01",
        source=f"{path.name} line {n}",
    )
