"""Provision lookup: ``legal-rag section ACT NUMBER [--as-of DATE]`` and its JSON form."""

from __future__ import annotations

import re
from typing import Any

from graph_schema.acts import INCOMPLETE_SUBUNITS, ActResolver
from graph_schema.dates import day_or_today
from graph_schema.errors import InvalidSectionNumberError, LegalRagError
from graph_schema.model import StatusOnDate, refs_for_unit
from graph_schema.numbering import parse_reference
from graph_schema.store import GraphReader
from graph_schema.temporal import status_on


class LookupService:
    """Resolves an Act name and a section reference against the graph.

    The Act resolver is built once from the graph's Acts; call ``refresh()`` after ingesting.
    """

    def __init__(self, store: GraphReader, resolver: ActResolver | None = None) -> None:
        self._store = store
        self._resolver: ActResolver | None = resolver

    def refresh(self) -> None:
        self._resolver = ActResolver(self._store.all_acts())

    @property
    def resolver(self) -> ActResolver:
        if self._resolver is None:
            self.refresh()
        assert self._resolver is not None
        return self._resolver

    def lookup(self, act: str, section: str, as_of: str | None = None) -> dict[str, Any]:
        """Look a provision up. A provision that does not exist is ``found: False``, never an error.

        Raises:
            StoreUnavailableError: the graph could not be asked (so we cannot say "not found").
        """
        day = day_or_today(as_of)
        out = empty_result(section, day, found=False)
        try:
            code = self.resolver.resolve(act)
        except LegalRagError as exc:
            out["error"] = str(exc)
            out["suggestions"] = list(getattr(exc, "suggestions", ()))
            return out
        out["act"], out["act_title"] = code, self.resolver.title(code)
        try:
            key = parse_reference(section, code)
        except InvalidSectionNumberError as exc:
            out["error"] = str(exc)
            return out
        out["section"] = key.label
        record = self._store.get_section(code, key.section)
        if record is None:
            out["error"] = f"{code} has no section {key.section}"
            numbers = self._store.section_numbers(code)
            out["suggestions"] = [f"{code} {n}" for n in nearest_sections(key.section, numbers)]
            return out
        sub = "/".join(key.sub)
        text = record.text
        if key.sub:
            if sub in record.subunits:
                text = record.subunits[sub]
            elif record.has_text and record.subunits and code not in INCOMPLETE_SUBUNITS:
                out["error"] = f"{code} s.{key.section} has no sub-unit {''.join(f'({s})' for s in key.sub)}"
                return out
            else:
                why = ("our copy of this repealed code is divided without it (labels restored from the layout, "
                       "some amendments missing)" if record.subunits else
                       "our copy of the section is not divided into sub-units")  # fmt: skip
                out["subunit_checked"] = False
                out["note"] = (f"{code} s.{key.section} exists, but {''.join(f'({s})' for s in key.sub)} could not be "
                               f"checked: {why}")
        out.update(
            found=True,
            title=record.title,
            status_on_date=status_on(record, day).value,
            status=record.status.value,
            in_force_from=record.in_force_from,
            in_force_to=record.in_force_to,
            chapter=record.chapter,
            chapter_title=record.chapter_title,
            has_text=record.has_text,
            successors=[p.as_dict() for p in refs_for_unit(record.successors, key)],
            predecessors=[p.as_dict() for p in refs_for_unit(record.predecessors, key)],
            text=text,
            amendments=list(record.amendments),
        )
        if record.unit_not_in_force(key.sub):
            # A sub-section excepted from its Act's commencement (BNS 106(2), S.O. 850(E)) is not law on any date.
            out["status_on_date"] = StatusOnDate.NOT_YET_IN_FORCE.value
            out["in_force_from"] = None
            out["note"] = f"{code} s.{key.label} has not been brought into force: {record.commencement_note or ''}"
        elif record.not_in_force and not key.sub:
            parts = ", ".join(f"({p.replace('/', ')(')})" for p in record.not_in_force)
            out["note"] = f"sub-section {parts} has not been brought into force: {record.commencement_note or ''}"
        out["previous"], out["next"] = neighbours(key.section, self._store.section_numbers(code))
        if record.no_successor:
            out["no_successor"] = record.no_successor
        repeal = self._store.act_repealed_by(code) if record.in_force_to else None
        if repeal:
            out["repealed_by"] = {"act": repeal[0], "effective": repeal[1], "provision": repeal[2]}
        return out


def section_order(number: str) -> tuple[int, str]:
    """Where a section number stands in its Act: by its leading number, then its letters ("498" < "498A" <
    "498B" < "499"); a number without digits after every numbered one."""
    m = re.match(r"(\d+)(.*)", number)
    return (int(m.group(1)), m.group(2).upper()) if m else (10**9, number.upper())


def neighbours(number: str, numbers: set[str]) -> tuple[str | None, str | None]:
    """The sections just before and after ``number`` in its Act (None at either end)."""
    ordered = sorted(numbers | {number}, key=section_order)
    i = ordered.index(number)
    return (ordered[i - 1] if i > 0 else None, ordered[i + 1] if i + 1 < len(ordered) else None)


def nearest_sections(wanted: str, numbers: set[str], limit: int = 5) -> list[str]:
    """Existing section numbers closest to ``wanted`` ("3021" -> "302", "302A"; "99" -> "98", "99A").

    Ranked by the length of the shared leading characters, then by numeric distance of the leading digits.
    """
    def digits(s: str) -> int:
        m = re.match(r"\d+", s)
        return int(m.group()) if m else 10**9

    def shared(a: str, b: str) -> int:
        n = 0
        for x, y in zip(a.upper(), b.upper(), strict=False):
            if x != y:
                break
            n += 1
        return n

    w = digits(wanted)
    ranked = sorted(numbers, key=lambda n: (-shared(wanted, n), abs(digits(n) - w), n))
    return ranked[:limit]


def empty_result(section: object, as_of: str | None, *, found: bool | None) -> dict[str, Any]:
    """Every key of a lookup answer, nothing found yet (``found: None`` = nothing could be looked up)."""
    return {
        "found": found,
        "act": None,
        "act_title": None,
        "section": None if section is None else str(section),
        "title": None,
        "status_on_date": None,
        "as_of": as_of,
        "in_force_from": None,
        "in_force_to": None,
        "successors": [],
        "predecessors": [],
        "text": None,
    }


