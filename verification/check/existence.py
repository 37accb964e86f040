"""Existence and date-aware checks of cited provisions, statutes and precedents against the graph.

Every check takes ``as_of``, the date of the offence or event. A graph that cannot be reached gives
``UNCHECKED``, never ``VERIFIED`` or ``NOT_FOUND``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from graph_schema.acts import INCOMPLETE_SUBUNITS, ActResolver
from graph_schema.citations import case_citations
from graph_schema.errors import LegalRagError, StoreUnavailableError
from graph_schema.model import (
    NEW_CRIMINAL_CODES_IN_FORCE,
    Act,
    CitationKey,
    ProvisionRef,
    SectionRecord,
    SectionStatus,
    StatusOnDate,
    refs_for_unit,
)
from graph_schema.store import GraphReader
from graph_schema.temporal import status_on, struck_down
from verification.model import CitationStatus

_INSTRUMENT = re.compile(r"\b(?:Rules|Regulations)\b")
"""The title of subordinate legislation loaded as an instrument of its own: its units are its rules."""
_ORDER_NUMBER = re.compile(r"O\d+")
"""How an Order of the CPC's First Schedule is numbered in its Act ("O39R1", as ``provision_keys`` writes it)."""


def unit_label(kind: str, key: CitationKey) -> str:
    """ "Order 39 Rule 1", "Order 9", "Rule 3(1)(b)", "Regulation 16"."""
    subs = "".join(f"({s})" for s in key.sub)
    m = re.fullmatch(r"O(\w+?)(?:R(\w+))?", key.section) if kind == "order" else None
    if m is not None:
        return f"Order {m.group(1)}" + (f" Rule {m.group(2)}" if m.group(2) else "") + subs
    return f"{kind.capitalize()} {key.section}{subs}"


# The repealing-and-savings provision of each new code (BNS s.358, BNSS s.531, BSA s.170): offences
# committed, and proceedings pending, before 2024-07-01 continue under the old code.
SAVINGS = {"IPC": ("BNS", "358"), "CRPC": ("BNSS", "531"), "IEA": ("BSA", "170")}
NEW_CODES = {new: old for old, (new, _) in SAVINGS.items()}
PENAL_CODE = "IPC"
"""The old penal code: an offence committed while it was in force is tried under it (BNS 358(2))."""


@dataclass(frozen=True, slots=True)
class Verdict:
    status: CitationStatus
    message: str
    act: str | None = None
    act_title: str | None = None
    section: str | None = None
    successors: tuple[ProvisionRef, ...] = ()
    predecessors: tuple[ProvisionRef, ...] = ()
    text: str | None = None
    """The cited unit's text when it was found (for quote checks)."""
    unreachable: bool = False
    """``UNCHECKED`` because the graph or registry could not be reached (the report is incomplete)."""


@dataclass
class CitationChecker:
    """Checks citations against one ``GraphReader``; caches nothing that can change between calls
    except the Act resolver (rebuild the checker after ingesting)."""

    store: GraphReader
    resolver: ActResolver | None = None
    _sections: dict[str, int] = field(default_factory=dict)
    _prefetched: dict[str, SectionRecord | None] = field(default_factory=dict)

    def prefetch(self, keys: list[CitationKey]) -> None:
        """Fetch every cited section in one round trip before checking them one by one."""
        wanted = [(k.act, k.section) for k in keys if k.act]
        self._prefetched = {}
        if not wanted:
            return
        try:
            found = self.store.get_sections(wanted)
        except StoreUnavailableError:
            return  # each check will ask again and report UNCHECKED
        self._prefetched = {f"{a}:{n}": found.get(f"{a}:{n}") for a, n in wanted}

    def _resolver(self) -> ActResolver:
        if self.resolver is None:
            self.resolver = ActResolver(self.store.all_acts())
        return self.resolver

    # -- provisions --

    def check_provision(self, key: CitationKey, as_of: str, cited_as: str = "") -> Verdict:
        """Verdict on ``key`` (act code, section, sub-units) for facts on ``as_of``."""
        label = key.label
        if not key.act:
            return Verdict(
                CitationStatus.UNRESOLVED,
                f"{cited_as or label}: no statute is named for this provision, so it could not be checked",
                section=label,
            )
        try:
            resolver = self._resolver()
            if key.act not in resolver:
                return Verdict(
                    CitationStatus.UNKNOWN_ACT,
                    f"{key.act} is not an Act in the statute graph (state Acts, "
                    "rules and the Constitution are not loaded): could not verify",
                    act=key.act,
                    section=label,
                )
            title = resolver.title(key.act)
            pk = f"{key.act}:{key.section}"
            record = self._prefetched[pk] if pk in self._prefetched else self.store.get_section(key.act, key.section)
        except StoreUnavailableError as exc:
            return Verdict(
                CitationStatus.UNCHECKED,
                f"{key}: the statute graph could not be reached, so this citation was NOT checked ({exc})",
                act=key.act,
                section=label,
                unreachable=True,
            )
        if record is None and _name_only(resolver.act(key.act)):
            return Verdict(
                CitationStatus.UNCHECKED,
                f"{key}: the statute graph holds {title} by name only (a statute names it), not its sections, "
                "so this provision was not checked",
                act=key.act,
                act_title=title,
                section=label,
            )
        if record is None:
            return Verdict(
                CitationStatus.NOT_FOUND,
                f"{title} has no section {key.section}{self._range(key.act)}",
                act=key.act,
                act_title=title,
                section=label,
            )
        return self._on_record(record, key, title, as_of, f"{key.act} s.{key.section}")

    def _on_record(self, record: SectionRecord, key: CitationKey, title: str, as_of: str, cite: str) -> Verdict:
        """Verdict on ``key`` (its sub-units, then its dates) given its section's ``record``; ``cite`` names the
        section in messages ("BNS s.103", "CPC Order 39 Rule 1")."""
        text = record.text
        if key.sub:
            path = "/".join(key.sub)
            unit = "".join(f"({s})" for s in key.sub)
            if path in record.subunits:
                text = record.subunits[path]
            elif record.subunits and key.act in INCOMPLETE_SUBUNITS:
                return Verdict(
                    CitationStatus.UNRESOLVED,
                    f"{cite} exists, but {unit} could not be checked: our copy of this repealed code is "
                    "divided without it (its labels were restored from the layout, and some amendments "
                    "are missing)",
                    act=key.act,
                    act_title=title,
                    section=key.label,
                )
            elif record.subunits:
                return Verdict(
                    CitationStatus.NOT_FOUND,
                    f"{cite} exists but has no {unit}",
                    act=key.act,
                    act_title=title,
                    section=key.label,
                )
            else:  # our copy is not divided into sub-units: the section is real, the unit unchecked
                return Verdict(
                    CitationStatus.UNRESOLVED,
                    f"{cite} exists, but {unit} could not "
                    "be checked: our copy of the section is not divided into sub-units",
                    act=key.act,
                    act_title=title,
                    section=key.label,
                )
        if record.unit_not_in_force(key.sub):
            # BNS 106(2): excepted from the BNS commencement notification (S.O. 850(E)); never in force yet.
            unit = cite + "".join(f"({s})" for s in key.sub)
            note = f" ({record.commencement_note})" if record.commencement_note else ""
            return Verdict(CitationStatus.NOT_YET_IN_FORCE, f"{unit} has not been brought into force{note}",
                           act=key.act, act_title=title, section=key.label, text=text)  # fmt: skip
        return self._temporal(record, key, title, as_of, text, cite + "".join(f"({s})" for s in key.sub))

    # -- rules, regulations and the CPC's Orders --

    def check_unit(self, kind: str, key: CitationKey, as_of: str, cited_as: str = "") -> Verdict:
        """Verdict on a cited unit that is not a section: an Order of the Code of Civil Procedure ("O39R1",
        kind "order"), or a rule or regulation of some Rules or Regulations (kind "rule", "regulation").

        Checked like a section where the graph holds it: an Order under its "O39R1" number in its Act, a rule
        under its number in Rules loaded as an instrument of their own. Where the graph does not hold that
        kind of unit at all (no Orders of the Act, rules made under an Act, Rules not loaded) the verdict is
        ``UNCHECKED``: never verified, and never "not found" for what was simply not loaded.
        """
        label = unit_label(kind, key)
        if not key.act:
            return Verdict(CitationStatus.UNCHECKED,
                           f"{cited_as or label}: not checked: it is not tied to an Act or Rules the statute graph "
                           "holds (rules and regulations are not loaded)", section=label)  # fmt: skip
        try:
            resolver = self._resolver()
            if key.act not in resolver:
                return Verdict(CitationStatus.UNCHECKED,
                               f"{label} of {key.act}: not in the statute graph, so it was not checked",
                               act=key.act, section=label)
            title = resolver.title(key.act)
            if kind != "order" and not _INSTRUMENT.search(title):
                return Verdict(CitationStatus.UNCHECKED,
                               f"{label} under {title}: rules and regulations made under an Act are not in the "
                               "statute graph, so it was not checked",
                               act=key.act, act_title=title, section=label)  # fmt: skip
            record = self.store.get_section(key.act, key.section)
            if record is None:
                held = self.store.section_numbers(key.act)
                holds_kind = any(_ORDER_NUMBER.match(n) for n in held) if kind == "order" else bool(held)
                if holds_kind:
                    return Verdict(CitationStatus.NOT_FOUND, f"{title} has no {label}", act=key.act, act_title=title,
                                   section=label)
                return Verdict(CitationStatus.UNCHECKED,
                               f"{label} of {title} was not checked: the statute graph holds its sections, not the "
                               "Orders and Rules of its First Schedule",
                               act=key.act, act_title=title, section=label)  # fmt: skip
        except StoreUnavailableError as exc:
            return Verdict(CitationStatus.UNCHECKED,
                           f"{label}: the statute graph could not be reached, so this citation was NOT checked ({exc})",
                           act=key.act, section=label, unreachable=True)  # fmt: skip
        verdict = self._on_record(record, key, title, as_of, f"{key.act} {label.partition('(')[0]}")
        return replace(verdict, section=label)

    def _range(self, act: str) -> str:
        if act not in self._sections:
            numbers = [int("".join(c for c in n if c.isdigit()) or 0) for n in self.store.section_numbers(act)]
            self._sections[act] = max(numbers, default=0)
        top = self._sections[act]
        return f" (its sections run to {top})" if top else ""

    def _temporal(
        self, rec: SectionRecord, key: CitationKey, title: str, as_of: str, text: str | None, cite: str
    ) -> Verdict:
        on = status_on(rec, as_of)
        struck = struck_down(rec, as_of)
        common = {
            "act": key.act,
            "act_title": title,
            "section": key.label,
            "text": text,
            "successors": refs_for_unit(rec.successors, key),
            "predecessors": refs_for_unit(rec.predecessors, key),
        }
        if struck is not None and on is not StatusOnDate.NOT_YET_IN_FORCE:
            # India Code records the judgment in a footnote; the statute book may still print the text.
            msg = (f"{cite} is not law: the Supreme Court struck it down on {struck['effective']} "
                   f"({struck['amending_act']})")
            if not common["successors"]:
                msg += "; it has no successor"
            return Verdict(CitationStatus.OMITTED, msg, **common)  # type: ignore[arg-type]
        if on is StatusOnDate.IN_FORCE:
            msg = f"{cite} exists and was in force on {as_of}"
            if key.act in SAVINGS:
                new, sav = SAVINGS[key.act]
                msg += (
                    f" (before {new} came into force on {NEW_CRIMINAL_CODES_IN_FORCE}; {new} s.{sav} keeps it "
                    "applicable to offences committed and proceedings pending before that date)"
                )
                if common["successors"]:
                    msg += f"; for later facts: {_refs(common['successors'])}"  # type: ignore[arg-type]
            if not (rec.has_text or key.sub):
                msg += "; we hold its existence from the India Code index but not its text"
            return Verdict(CitationStatus.VERIFIED, msg, **common)  # type: ignore[arg-type]
        if on is StatusOnDate.REPEALED:
            succ = common["successors"]
            msg = f"{cite} was repealed" + (f" with effect from {rec.in_force_to}" if rec.in_force_to else "")
            if key.act in SAVINGS:
                new, sav = SAVINGS[key.act]
                msg += f" by {new} s.{sav}"
            if succ:
                msg += f"; for facts on {as_of} cite {_refs(succ)}"  # type: ignore[arg-type]
            elif rec.no_successor:
                msg += f"; it has no successor: {rec.no_successor}"
            return Verdict(CitationStatus.REPEALED, msg, **common)  # type: ignore[arg-type]
        if on is StatusOnDate.OMITTED:
            when = f" with effect from {rec.in_force_to}" if rec.in_force_to else ""
            note = next((str(a["text"]) for a in rec.amendments if a.get("kind") == "omitted"), "")
            msg = f"{cite} was omitted{when}" + (f" ({note})" if note else "")
            return Verdict(CitationStatus.OMITTED, msg, **common)  # type: ignore[arg-type]
        msg = f"{cite} came into force on {rec.in_force_from}, after {as_of}"
        if common["predecessors"]:
            msg += f"; for facts on {as_of} the law was {_refs(common['predecessors'])}"  # type: ignore[arg-type]
        return Verdict(CitationStatus.NOT_YET_IN_FORCE, msg, **common)  # type: ignore[arg-type]

    # -- statutes --

    def check_statute(self, act: str | None, cited_as: str, as_of: str) -> Verdict:
        if act is None:
            return Verdict(
                CitationStatus.UNKNOWN_ACT, f"'{cited_as}' is not an Act in the statute graph: could not verify"
            )
        try:
            resolver = self._resolver()
        except StoreUnavailableError as exc:
            return Verdict(
                CitationStatus.UNCHECKED, f"{cited_as}: the statute graph could not be reached ({exc})", act=act,
                unreachable=True,
            )
        if act not in resolver:
            return Verdict(
                CitationStatus.UNKNOWN_ACT,
                f"'{cited_as}' is not an Act in the statute graph (state Acts, "
                "rules and the Constitution are not loaded): could not verify",
                act=act,
            )
        title = resolver.title(act)
        held = _held_only_by_name(resolver.act(act), title)
        if held is not None:
            return replace(held, act=act, act_title=title)

        def name(code: str) -> str:
            return resolver.title(code) if code in resolver else code

        if act in SAVINGS and as_of >= NEW_CRIMINAL_CODES_IN_FORCE:
            new, sav = SAVINGS[act]
            return Verdict(
                CitationStatus.REPEALED,
                f"{title} was repealed with effect from "
                f"{NEW_CRIMINAL_CODES_IN_FORCE} by {new} s.{sav}; for facts on {as_of} cite {name(new)}",
                act=act,
                act_title=title,
            )
        if act in NEW_CODES and as_of < NEW_CRIMINAL_CODES_IN_FORCE:
            old = NEW_CODES[act]
            return Verdict(
                CitationStatus.NOT_YET_IN_FORCE,
                f"{title} came into force on "
                f"{NEW_CRIMINAL_CODES_IN_FORCE}; for facts on {as_of} the law was {name(old)}",
                act=act,
                act_title=title,
            )
        return Verdict(CitationStatus.VERIFIED, f"{title} is in the statute graph", act=act, act_title=title)

    # -- precedents --

    def check_precedent(self, cited_as: str) -> Verdict:
        cits = case_citations(cited_as)
        if not cits:
            return Verdict(
                CitationStatus.NOT_IN_REGISTRY,
                f"'{cited_as}' gives no reporter or neutral citation: "
                "could not verify (this does not mean it is fabricated)",
            )
        try:
            found = self.store.find_cases(cits)
        except StoreUnavailableError as exc:
            return Verdict(
                CitationStatus.UNCHECKED, f"{cits[0]}: the case registry could not be reached ({exc})",
                section=cits[0], unreachable=True,
            )
        hit = next((found[c] for c in cits if c in found), None)
        if hit is None:
            return Verdict(
                CitationStatus.NOT_IN_REGISTRY,
                f"{cits[0]} is not in our case registry: could not verify (this does not mean it is fabricated)",
                section=cits[0],
            )
        if not _names_agree(cited_as, str(hit["parties"])):
            return Verdict(
                CitationStatus.MISMATCH,
                f"{cits[0]} is {hit['parties']} in the case registry, which does not match the case name cited",
                section=cits[0],
            )
        return Verdict(
            CitationStatus.VERIFIED,
            f"{cits[0]}: {hit['parties']} ({hit['court']}" + (f", {hit['date']}" if hit.get("date") else "") + ")",
            section=cits[0],
        )


_NAMED_SOURCE = "curation/named_acts.jsonl: "


def _name_only(act: Act) -> bool:
    """The graph holds this Act by name only, not its sections."""
    return act.status in (SectionStatus.AMENDING, SectionStatus.NAMED) or (
        act.status is SectionStatus.REPEALED and (act.source or "").startswith(_NAMED_SOURCE))


def _held_only_by_name(act: Act, title: str) -> Verdict | None:
    """Verdict on an Act the graph holds only because a statute names it (``curation/named_acts.jsonl``):
    "the Motor Vehicles Act, 1939" is repealed (MVA 1988 s.217), "the Marriage Laws (Amendment) Act,
    1976" is an amending Act. None for an Act whose sections the graph holds."""
    by = (act.source or "").removeprefix(_NAMED_SOURCE)
    if not _name_only(act):
        return None
    if act.status is SectionStatus.REPEALED:
        return Verdict(CitationStatus.REPEALED, f"{title} was {by}; the statute graph holds its name, not its text")
    if act.status is SectionStatus.AMENDING:
        return Verdict(CitationStatus.VERIFIED, f"{title} is in the statute graph as an amending Act: its "
                       "amendments are part of the Acts it amended, and its own text is not held")
    if act.status is SectionStatus.NAMED:
        return Verdict(CitationStatus.UNCHECKED, f"{title} is named by a statute in the graph, but its own status "
                       "is not held: not checked")
    return None


def _refs(refs: tuple[ProvisionRef, ...]) -> str:
    parts = []
    for p in refs:
        note = f": {p.note}" if p.note else ""
        parts.append(f"{p.act} s.{p.section} [{p.relation}{note}]")
    return "; ".join(parts)


_NAME_STOP = {"v", "vs", "versus", "and", "others", "ors", "anr", "the", "of", "state", "union", "india", "in", "re"}


def _names_agree(cited: str, registered: str) -> bool:
    """True when the cited text names no parties, or shares a distinctive party word with the registry."""
    import re

    head = re.split(r"[\(\[,]|\breported\b|\bAIR\b|\b\d{4}\b", cited, maxsplit=1)[0]
    words = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", head)} - _NAME_STOP
    if not words:
        return True
    reg = {w.lower() for w in re.findall(r"[A-Za-z]{3,}", registered)} - _NAME_STOP
    return bool(words & reg)


def resolve_or_none(resolver: ActResolver, name: str) -> str | None:
    try:
        return resolver.resolve(name)
    except LegalRagError:
        return None
