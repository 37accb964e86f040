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

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from graph_schema.acts import normalise_alias
from graph_schema.errors import LegalRagError
from graph_schema.model import (
    SECTION_STATUSES,
    Act,
    Amendment,
    AmendmentKind,
    CitationKey,
    Relation,
    Replacement,
    Section,
    SectionStatus,
)
from graph_schema.numbering import canonical_section, parse_reference
from ingestion.dates import parse_date
from ingestion.report import Problem, Reject
from ingestion.sources.base import Parsed, field_columns, read_jsonl_lines, text_or_none
from ingestion.subunits import parse_subunits

Resolve = Callable[[str], str]
_T = TypeVar("_T")


class _Bad(Exception):
    """A record-level validation failure (becomes a Reject): every problem found on the record."""

    def __init__(self, *problems: Problem) -> None:
        super().__init__("; ".join(p.reason for p in problems))
        self.problems = problems


def _bad(reason: str, field: str | None = None) -> _Bad:
    return _Bad(Problem(reason, field))


class _Checks:
    """Runs every check of a record and keeps all their problems, so a reject lists each one
    (a bad status and a bad date both, not the first alone)."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def take(self, check: Callable[..., _T], *args: Any) -> _T | None:
        try:
            return check(*args)
        except _Bad as exc:
            self.problems.extend(exc.problems)
            return None

    def add(self, reason: str, field: str | None = None) -> None:
        self.problems.append(Problem(reason, field))

    def raise_any(self) -> None:
        if self.problems:
            raise _Bad(*self.problems)


def read_generic(path: Path, resolve_act: Resolve, existing: Mapping[str, Act] | None = None) -> Parsed:
    """Parse a generic JSONL file. ``resolve_act`` maps a code/alias to a code or raises;
    ``existing`` (code -> Act) guards Acts already loaded from being taken over by a new record.

    A rejected record lists every problem found on it, each with its field and the column where
    that field starts on the line."""
    existing = existing or {}
    out = Parsed()
    local: dict[str, str] = {}
    seen_sections: dict[tuple[str, str], int] = {}

    def resolve(name: Any, field: str = "act") -> str:
        if not isinstance(name, str) or not name.strip():
            raise _bad(f"missing {field!r}", None)
        key = normalise_alias(name)
        if key in local:
            return local[key]
        try:
            return resolve_act(name)
        except LegalRagError as exc:
            raise _bad(str(exc), field) from exc

    for n, line, r in read_jsonl_lines(path, out.rejects):
        kind = r.get("record", "section")
        try:
            if kind == "act":
                act = _act(r)
                _guard_takeover(act, existing, resolve_act)
                out.acts.append(act)
                for name in (act.code, act.title, *act.aliases):
                    local[normalise_alias(name)] = act.code
            elif kind == "section":
                checks = _Checks()
                code = checks.take(resolve, r.get("act"))
                section = checks.take(_section, r, code or "", path.name, n)
                checks.raise_any()
                assert section is not None
                first = seen_sections.get((section.act, section.number))
                if first is not None:
                    raise _bad(f"duplicate section {section.act} {section.number} (first at line {first})",
                               "section")
                seen_sections[(section.act, section.number)] = n
                out.sections.append(section)
            elif kind == "amendment":
                out.amendments.append(_amendment(r, resolve, n))
            elif kind == "replacement":
                out.replacements.append(_replacement(r, resolve, path, n))
            else:
                raise _bad(f"unknown record type {kind!r} (expected act, section, amendment or replacement)",
                           "record")
        except _Bad as exc:
            act_name = r.get("act") if isinstance(r.get("act"), str) else None
            columns = field_columns(line)
            problems = [dataclasses.replace(p, column=columns.get(p.field)) if p.field else p for p in exc.problems]
            out.rejects.append(Reject.of(path.name, n, problems,
                                         local.get(normalise_alias(act_name or "")) or act_name))
    return out


def _guard_takeover(act: Act, existing: Mapping[str, Act], resolve_act: Resolve) -> None:
    """A file may update an Act it defines, but not rename another Act's code or borrow its aliases:
    ``{"code": "IPC", "title": "Indian Ports Corporation Act"}`` would silently replace the Penal Code."""
    prior = existing.get(act.code)
    if prior is not None and normalise_alias(prior.title) != normalise_alias(act.title):
        raise _bad(f"act code {act.code!r} already names {prior.title!r}; choose another code", "code")
    for name in (act.title, *act.aliases):
        try:
            other = resolve_act(name)
        except LegalRagError:
            continue
        if other != act.code:
            raise _bad(f"{name!r} already names {other}; an alias may name only one Act",
                       "title" if name == act.title else "aliases")


def _date(r: dict[str, Any], field: str) -> str | None:
    raw = r.get(field)
    if raw in (None, ""):
        return None
    d = parse_date(str(raw))
    if d is None:
        raise _bad(f"{field} {raw!r} is not a date (use YYYY-MM-DD)", field)
    return d


def _dates(checks: _Checks, r: dict[str, Any]) -> tuple[str | None, str | None]:
    start = checks.take(_date, r, "in_force_from")
    end = checks.take(_date, r, "in_force_to")
    if start and end and end <= start:
        checks.add(f"in_force_to {end} is not after in_force_from {start}", "in_force_to")
    return start, end


def _act(r: dict[str, Any]) -> Act:
    checks = _Checks()
    code = text_or_none(r.get("code"))
    title = text_or_none(r.get("title"))
    if not code:
        checks.add("an act record needs 'code'", "code" if "code" in r else None)
    elif not code.replace("_", "").isalnum():
        checks.add(f"act code {code!r} must be letters and digits", "code")
    if not title:
        checks.add("an act record needs 'title'", "title" if "title" in r else None)
    aliases = r.get("aliases") or []
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        checks.add("'aliases' must be a list of strings", "aliases")
    year = r.get("year")
    if year is not None and not (isinstance(year, int) or (isinstance(year, str) and year.isdigit())):
        checks.add(f"year {year!r} is not a number", "year")
    start, end = _dates(checks, r)
    status = checks.take(_status, r)
    checks.raise_any()
    assert code and title and status is not None
    return Act(
        code=code.upper(),
        title=title,
        number=text_or_none(r.get("number")),
        year=int(year) if year is not None else None,
        in_force_from=start,
        in_force_to=end,
        status=status,
        aliases=tuple(aliases),
        source=text_or_none(r.get("source")),
    )


def _status(r: dict[str, Any]) -> SectionStatus:
    raw = r.get("status") or "in_force"
    try:
        return SectionStatus(str(raw).lower())
    except ValueError as exc:
        raise _bad(f"status {raw!r} is not one of {', '.join(x.value for x in SectionStatus)}", "status") from exc


def _number(r: dict[str, Any]) -> str:
    try:
        return canonical_section(str(r.get("section") or ""))
    except LegalRagError as exc:
        raise _bad(str(exc), "section" if "section" in r else None) from exc


def _section(r: dict[str, Any], code: str, file: str, line: int) -> Section:
    checks = _Checks()
    number = checks.take(_number, r)
    text = r.get("text")
    if text is not None and not isinstance(text, str):
        checks.add("'text' must be a string", "text")
    title = r.get("title")
    if title is not None and not isinstance(title, str):
        checks.add("'title' must be a string", "title")
    start, end = _dates(checks, r)
    status = checks.take(_status, r)
    if status is not None and status not in SECTION_STATUSES:
        checks.add(f"status {status.value!r} describes an Act; a section is in_force, omitted or repealed", "status")
    checks.raise_any()
    assert number is not None and status is not None
    clean = text.strip() if isinstance(text, str) and text.strip() else None
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


def _amendment(r: dict[str, Any], resolve: Callable[[Any], str], line: int) -> Amendment:
    checks = _Checks()
    code = checks.take(resolve, r.get("act"))
    number = checks.take(_number, r)
    try:
        kind = AmendmentKind(str(r.get("kind", "amended")).lower())
    except ValueError as exc:
        kind = None
        checks.add(f"bad amendment: {exc}", "kind")
    effective = checks.take(_date, r, "effective")
    checks.raise_any()
    assert code is not None and number is not None and kind is not None
    return Amendment(
        act=code,
        section=number,
        footnote=str(r.get("footnote") or f"line{line}"),
        kind=kind,
        amending_act=text_or_none(r.get("amending_act")),
        effective=effective,
        text=str(r.get("text") or ""),
    )


def _reference(r: dict[str, Any], field: str, act: str | None) -> CitationKey | None:
    if act is None:
        return None
    try:
        return parse_reference(str(r.get(field) or ""), act)
    except (LegalRagError, ValueError) as exc:
        raise _bad(f"bad replacement: {exc}", field if field in r else None) from exc


def _replacement(r: dict[str, Any], resolve: Callable[[Any, str], str], path: Path, n: int) -> Replacement:
    checks = _Checks()
    old_act = checks.take(resolve, r.get("old_act"), "old_act")
    new_act = checks.take(resolve, r.get("new_act"), "new_act")
    old = checks.take(_reference, r, "old_section", old_act)
    new = checks.take(_reference, r, "new_section", new_act)
    try:
        relation = Relation(str(r.get("relation", "modified")).lower())
    except ValueError as exc:
        relation = None
        checks.add(f"bad replacement: {exc}", "relation")
    effective = checks.take(_date, r, "effective")
    checks.raise_any()
    assert old is not None and new is not None and relation is not None
    return Replacement(
        old=old,
        new=new,
        relation=relation,
        note=text_or_none(r.get("note")),
        effective=effective or "2024-07-01",
        source=f"{path.name} line {n}",
    )
