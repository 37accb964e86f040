"""The legal ontology as frozen value types.

Dates are ISO-8601 strings (``"2024-07-01"``) everywhere: they compare correctly as strings in
Python and in every Cypher engine, and FalkorDB has no safe temporal type over its native client.

Date intervals are half-open: a provision is in force on day ``d`` when
``in_force_from <= d`` and (``in_force_to`` is None or ``d < in_force_to``). ``in_force_to`` is
therefore the first day the provision no longer applies (for IPC, CrPC and the Evidence Act:
``"2024-07-01"``, the day BNS, BNSS and BSA came into force).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from enum import StrEnum

NEW_CRIMINAL_CODES_IN_FORCE = "2024-07-01"
"""BNS, BNSS and BSA came into force, and IPC, CrPC and IEA were repealed, on this day."""


class SectionStatus(StrEnum):
    """What the text of the statute book says about a provision today."""

    IN_FORCE = "in_force"
    OMITTED = "omitted"
    REPEALED = "repealed"
    AMENDING = "amending"
    """Acts only: an amending Act ("the Marriage Laws (Amendment) Act, 1976"); its text lives on in the
    Acts it amended, and the graph holds its name, not its sections."""
    NAMED = "named"
    """Acts only: an Act the graph knows because a statute names it; its own status is not held."""


SECTION_STATUSES = (SectionStatus.IN_FORCE, SectionStatus.OMITTED, SectionStatus.REPEALED)
"""The statuses a section can have (the others describe Acts)."""


class StatusOnDate(StrEnum):
    """A provision's status on a given date."""

    IN_FORCE = "in_force"
    REPEALED = "repealed"
    OMITTED = "omitted"
    NOT_YET_IN_FORCE = "not_yet_in_force"


class Relation(StrEnum):
    """How a new provision relates to the old one it replaced (correspondence tables)."""

    SAME = "same"
    MODIFIED = "modified"
    MERGED = "merged"
    SPLIT = "split"
    PARTIAL = "partial"


class AmendmentKind(StrEnum):
    """Kinds of amendment recorded in India Code footnotes."""

    INSERTED = "inserted"
    SUBSTITUTED = "substituted"
    OMITTED = "omitted"
    REPEALED = "repealed"
    ADDED = "added"
    RENUMBERED = "renumbered"
    AMENDED = "amended"
    STRUCK_DOWN = "struck_down"
    """Not an amendment but a judgment India Code records beside them ("Section 66A has been struck down by Supreme
    Court's Order dated 24th March, 2015 in the Shreya Singhal vs. Union of India"): ``amending_act`` is the case."""


@dataclass(frozen=True, slots=True)
class CitationKey:
    """A resolved reference to a provision: ``CitationKey("BNS", "103", ("1",))``."""

    act: str
    section: str
    sub: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``"103(1)"``-style section label with its sub-units."""
        return self.section + "".join(f"({s})" for s in self.sub)

    def __str__(self) -> str:
        return f"{self.act} {self.label}"


@dataclass(frozen=True, slots=True)
class Act:
    """A statute."""

    code: str
    title: str
    number: str | None = None
    year: int | None = None
    in_force_from: str | None = None
    in_force_to: str | None = None
    status: SectionStatus = SectionStatus.IN_FORCE
    aliases: tuple[str, ...] = ()
    slug: str | None = None
    source: str | None = None

    def row(self) -> dict[str, object]:
        """Flat property map for the graph, with the hash used for idempotent writes."""
        d: dict[str, object] = asdict(self)
        d["status"] = self.status.value
        d["aliases"] = list(self.aliases)
        d["row_hash"] = _hash(d)
        return d


@dataclass(frozen=True, slots=True)
class SubUnit:
    """An addressable part of a section: sub-section, clause, sub-clause, Explanation."""

    path: tuple[str, ...]
    text: str


@dataclass(frozen=True, slots=True)
class Section:
    """A section of an Act, keyed by (act code, canonical number)."""

    act: str
    number: str
    title: str | None
    text: str | None
    status: SectionStatus = SectionStatus.IN_FORCE
    in_force_from: str | None = None
    in_force_to: str | None = None
    chapter: str | None = None
    order: int | None = None
    source: str | None = None
    subunits: tuple[SubUnit, ...] = field(default=())
    existence_only: bool = False
    """From an index that proves the section exists but holds no text; never overwrites a primary record."""
    not_in_force: tuple[str, ...] = ()
    """Sub-unit paths ("2") excepted from the Act's commencement and not yet in force (BNS 106(2))."""
    commencement_note: str | None = None
    """The instrument behind ``not_in_force`` or a section's own ``in_force_from``, for display."""

    @property
    def key(self) -> str:
        return section_key(self.act, self.number)

    @property
    def has_text(self) -> bool:
        return bool(self.text and self.text.strip())

    @property
    def content_hash(self) -> str | None:
        """SHA-256 of the section text (None when we hold no text)."""
        if not self.has_text:
            return None
        assert self.text is not None
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def row(self) -> dict[str, object]:
        """Flat property map for the graph; ``row_hash`` covers every stored field."""
        d: dict[str, object] = {
            "key": self.key,
            "act": self.act,
            "number": self.number,
            "title": self.title,
            "text": self.text,
            "has_text": self.has_text,
            "content_hash": self.content_hash,
            "status": self.status.value,
            "in_force_from": self.in_force_from,
            "in_force_to": self.in_force_to,
            "chapter": self.chapter,
            "order": self.order,
            "source": self.source,
            "existence_only": self.existence_only,
            "subunits": [{"path": "/".join(u.path), "text": u.text} for u in self.subunits],
        }
        # Only when set, so that sections without them keep the row hash they always had.
        if self.not_in_force:
            d["not_in_force"] = list(self.not_in_force)
        if self.commencement_note:
            d["commencement_note"] = self.commencement_note
        d["row_hash"] = _hash(d)
        return d


@dataclass(frozen=True, slots=True)
class Chapter:
    act: str
    number: str
    title: str

    @property
    def key(self) -> str:
        return f"{self.act}:CH:{self.number}"

    def row(self) -> dict[str, object]:
        d: dict[str, object] = {"key": self.key, "act": self.act, "number": self.number, "title": self.title}
        d["row_hash"] = _hash(d)
        return d


@dataclass(frozen=True, slots=True)
class Replacement:
    """An edge from an old provision to the new provision that replaced it."""

    old: CitationKey
    new: CitationKey
    relation: Relation
    note: str | None
    effective: str = NEW_CRIMINAL_CODES_IN_FORCE
    source: str | None = None

    def row(self) -> dict[str, object]:
        d: dict[str, object] = {
            "old_key": section_key(self.old.act, self.old.section),
            "new_key": section_key(self.new.act, self.new.section),
            "old_label": self.old.label,
            "new_label": self.new.label,
            "relation": self.relation.value,
            "note": self.note,
            "effective": self.effective,
            "source": self.source,
        }
        d["edge_key"] = f"{d['old_key']}|{self.old.label}->{d['new_key']}|{self.new.label}"
        d["row_hash"] = _hash(d)
        return d


@dataclass(frozen=True, slots=True)
class Amendment:
    """A dated event parsed from an India Code footnote."""

    act: str
    section: str
    footnote: str
    kind: AmendmentKind
    amending_act: str | None
    effective: str | None
    text: str

    def row(self) -> dict[str, object]:
        d: dict[str, object] = {
            "section_key": section_key(self.act, self.section),
            "key": f"{section_key(self.act, self.section)}:fn{self.footnote}",
            "footnote": self.footnote,
            "kind": self.kind.value,
            "amending_act": self.amending_act,
            "effective": self.effective,
            "text": self.text,
        }
        d["row_hash"] = _hash(d)
        return d


class CourtLevel(StrEnum):
    SUPREME_COURT = "supreme_court"
    HIGH_COURT = "high_court"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Case:
    """A judgment in the case registry, keyed by its first canonical citation."""

    citations: tuple[str, ...]
    parties: str
    court: str
    date: str | None = None
    source: str | None = None

    @property
    def key(self) -> str:
        return self.citations[0]

    @property
    def court_level(self) -> CourtLevel:
        c = self.court.lower()
        if "supreme court" in c:
            return CourtLevel.SUPREME_COURT
        if "high court" in c:
            return CourtLevel.HIGH_COURT
        return CourtLevel.OTHER

    def row(self) -> dict[str, object]:
        d: dict[str, object] = {
            "key": self.key,
            "citations": list(self.citations),
            "parties": self.parties,
            "court": self.court,
            "court_level": self.court_level.value,
            "date": self.date,
            "source": self.source,
        }
        d["row_hash"] = _hash(d)
        return d


@dataclass(frozen=True, slots=True)
class ProvisionRef:
    """One end of a replacement edge as shown to users."""

    act: str
    section: str
    relation: str
    note: str | None
    via: str | None = None
    """The label on this provision's own side of the edge (``"103(1)"`` when looking up BNS 103)."""

    def as_dict(self) -> dict[str, object]:
        return {"act": self.act, "section": self.section, "relation": self.relation, "note": self.note,
                "from": self.via}


@dataclass(frozen=True, slots=True)
class SectionRecord:
    """A section as read back from the graph, with its Act and neighbours."""

    act: str
    act_title: str
    number: str
    title: str | None
    text: str | None
    has_text: bool
    status: SectionStatus
    in_force_from: str | None
    in_force_to: str | None
    chapter: str | None
    subunits: dict[str, str]
    successors: tuple[ProvisionRef, ...]
    predecessors: tuple[ProvisionRef, ...]
    amendments: tuple[dict[str, object], ...] = ()
    no_successor: str | None = None
    chapter_title: str | None = None
    not_in_force: tuple[str, ...] = ()
    """Sub-unit paths not yet in force (see ``Section.not_in_force``)."""
    commencement_note: str | None = None

    def unit_not_in_force(self, sub: tuple[str, ...]) -> bool:
        """Whether sub-unit ``sub`` (("2",) or ("2", "a")) lies in a part not yet in force."""
        path = "/".join(sub)
        return bool(sub) and any(path == p or path.startswith(p + "/") for p in self.not_in_force)


def refs_for_unit(refs: tuple[ProvisionRef, ...], key: CitationKey) -> tuple[ProvisionRef, ...]:
    """Replacement edges that concern the unit cited: all of them for a whole section; for
    "103(1)" those drawn from 103(1), from its own sub-units, or from the whole of 103."""
    if not key.sub:
        return refs
    label = key.label
    return tuple(p for p in refs if p.via in (None, key.section, label) or (p.via or "").startswith(label + "("))


_MAIN_SECTION = re.compile(r"^\d+[A-Z]*")


def main_section(label: str) -> str:
    """The section number of a provision label: ``"303(2)"`` -> ``"303"``, ``"498A"`` -> ``"498A"``; a label
    that does not start with a number is returned as it is."""
    m = _MAIN_SECTION.match(label)
    return m.group(0) if m else label


def section_key(act: str, number: str) -> str:
    """Graph key of a section: ``"IPC:498A"``."""
    return f"{act}:{number}"


def _hash(d: dict[str, object]) -> str:
    payload = json.dumps({k: v for k, v in d.items() if k != "row_hash"}, sort_keys=True, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
