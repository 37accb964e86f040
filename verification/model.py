"""Types shared by the verification layer: extracted citations, verdicts, and the report.

Verdicts are enums with an explicit "could not check" member (``UNCHECKED``), so that a failure to
check can never pass for a success.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from pydantic import BaseModel, Field

from graph_schema.model import CitationKey


class Label(StrEnum):
    """InLegalNER labels, plus NOTIFICATION."""

    PROVISION = "PROVISION"
    STATUTE = "STATUTE"
    PRECEDENT = "PRECEDENT"
    NOTIFICATION = "NOTIFICATION"


@dataclass(frozen=True, slots=True)
class Citation:
    """One extracted span. ``text == source[start:end]`` always.

    For PROVISION spans ``keys`` holds every provision the span names ("Sections 302, 307 and 34"
    gives three; "Sections 161 to 164" gives 161, 162, 163, 164 where the numbers are plain), each
    with ``act`` set to the statute it is linked to ('' when no statute could be linked), and
    ``statute`` is the index of that STATUTE citation in the extraction result (or None).
    For STATUTE spans ``act`` is the resolved Act code (None if unknown) and ``said`` is True for
    "the said Act" and similar back-references.
    For PRECEDENT and NOTIFICATION spans ``normalised`` is the citation in a canonical form
    ("(2014) 8 SCC 273", "G.S.R. 1234(E)") used for registry look-ups.
    """

    start: int
    end: int
    text: str
    label: Label
    keys: tuple[CitationKey, ...] = ()
    act: str | None = None
    statute: int | None = None
    said: bool = False
    normalised: str | None = None
    kind: str | None = None
    """PROVISION: "section", "article", "order", "rule", "chapter", "clause", "schedule"...;
    PRECEDENT: "reporter", "neutral", "name" (a case name without a citation)."""
    extra: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    units: tuple[tuple[str, CitationKey], ...] = ()
    """PROVISION: the units that are not sections or articles, as (kind, key): ("order", CPC "O39R1") for
    "Order 39 Rule 1 CPC", ("rule", "3" with sub-units) for "Rule 3(1)(b)" of some Rules."""


class CitationStatus(StrEnum):
    """Verdict on one cited provision or precedent."""

    VERIFIED = "verified"
    NOT_FOUND = "not_found"  # the Act exists, the section does not
    UNKNOWN_ACT = "unknown_act"
    OMITTED = "omitted"
    REPEALED = "repealed"
    NOT_YET_IN_FORCE = "not_yet_in_force"
    # Not checked: the graph could not be reached, or it does not hold that kind of unit (rules made under an
    # Act, the CPC's Orders); never reported as verified or not found.
    UNCHECKED = "unchecked"
    UNRESOLVED = "unresolved"  # a provision with no statute we could link it to
    NOT_IN_REGISTRY = "not_in_registry"  # a precedent we do not hold: "could not verify", not "fabricated"
    MISMATCH = "mismatch"  # the citation is in the registry under a different case name


class QuoteStatus(StrEnum):
    EXACT = "exact"
    NORMALISED = "normalised"
    FUZZY = "fuzzy"
    MISQUOTED = "misquoted"
    MISATTRIBUTED = "misattributed"
    UNCHECKED = "unchecked"  # the cited source could not be fetched


class SuccessorOut(BaseModel):
    act: str
    section: str
    relation: str
    note: str | None = None


class CitationCheck(BaseModel):
    start: int
    end: int
    text: str
    label: Label
    act: str | None = None
    act_title: str | None = None
    section: str | None = None
    status: CitationStatus
    successors: list[SuccessorOut] = Field(default_factory=list)
    message: str
    key: str | None = None


class QuoteCheck(BaseModel):
    text: str
    start: int
    end: int
    source: str | None
    status: QuoteStatus
    score: float
    closest: str | None = None
    right_source: str | None = None
    message: str


class VerificationReport(BaseModel):
    as_of: str
    citations: list[CitationCheck]
    quotes: list[QuoteCheck]
    summary: dict[str, int]
    unchecked: bool = False
    """True when anything could not be checked because the graph or registry could not be reached: the report
    is incomplete. (A rule the graph does not hold is an ``unchecked`` citation but not an incomplete report.)"""
