"""The repealed codes' sub-units in the loaded corpus: looked up, quoted and checked at sub-section level, and
an old graph (legacy sections stored whole) upgraded in place by a re-ingest that then writes nothing."""

from __future__ import annotations

import dataclasses
import json

import pytest

from graph_schema.store import FalkorGraphStore
from ingestion.pipeline import ingest
from ingestion.sources.legacy import read_legacy
from legal_rag.lookup import LookupService
from tests.conftest import Loaded, real_corpus_path
from verification.model import CitationStatus as S
from verification.model import QuoteStatus as Q
from verification.verify import Verifier

pytestmark = pytest.mark.integration

CRPC_167_2 = (
    "The Magistrate to whom an accused person is forwarded under this section may, whether he has or has not "
    "jurisdiction to try the case, from time to time, authorise the detention of the accused in such custody as "
    "such Magistrate thinks fit, a term not exceeding fifteen days in the whole"
)
CRPC_438_1 = (
    "Where any person has reason to believe that he may be arrested on accusation of having committed a "
    "non-bailable offence, he may apply to the High Court or the Court of Session for a direction under this section "
    "that in the event of such arrest he shall be released on bail"
)
IEA_65B_4 = (
    "In any proceedings where it is desired to give a statement in evidence by virtue of this section, a "
    "certificate doing any of the following things"
)


@pytest.fixture(scope="module")
def svc(loaded: Loaded) -> LookupService:
    return LookupService(loaded.store)


@pytest.mark.parametrize(
    ("act", "ref", "as_of", "status", "successors", "text_start"),
    [
        ("CrPC", "167(2)", "2023-05-01", "in_force", [("BNSS", "187")], "(2) The Magistrate to whom an accused"),
        # the tables map s.167 as a whole, so the section's successor is the unit's
        ("CrPC", "167(2)", "2025-01-01", "repealed", [("BNSS", "187")], "(2) The Magistrate to whom an accused"),
        ("CrPC", "167(2)(a)(ii)", "2023-05-01", "in_force", [("BNSS", "187")], "(ii) sixty days, where"),
        ("CrPC", "167(2A)", "2023-05-01", "in_force", [("BNSS", "187")], "(2A) Notwithstanding anything"),
        ("Cr.P.C.", "438(1)", "2023-05-01", "in_force", [("BNSS", "482")], "(1) Where any person has reason"),
        ("Evidence Act", "65B(4)", "2023-05-01", "in_force", [("BSA", "63")], "(4) In any proceedings where it"),
    ],
)
def test_a_legacy_subunit_is_looked_up_with_its_own_text(
    svc: LookupService, act: str, ref: str, as_of: str, status: str, successors: list[tuple[str, str]],
    text_start: str,
) -> None:
    r = svc.lookup(act, ref, as_of)
    assert r["found"] is True, r.get("error")
    assert r["status_on_date"] == status
    assert r["text"].startswith(text_start)
    assert "note" not in r  # no "could not be checked": the unit was
    assert [(s["act"], s["section"]) for s in r["successors"]] == successors


@pytest.mark.parametrize("ref", ["2(wa)", "438(1)(ii)", "167(9)"])
def test_a_unit_our_copy_lacks_is_unchecked_not_absent(svc: LookupService, loaded: Loaded, ref: str) -> None:
    # CrPC s.2(wa) "victim" (inserted in 2009) is not in our copy; s.438(1)'s factors, officially (i) to (iv), are
    # read as (a) to (d) from the layout; (9) we cannot tell from a unit our copy lost.
    r = svc.lookup("CrPC", ref, "2023-05-01")
    assert r["found"] is True and r["subunit_checked"] is False
    assert "could not be checked: our copy of this repealed code is divided without it" in r["note"]
    report = Verifier(loaded.store).verify(f"See section {ref} of the Code of Criminal Procedure.", as_of="2023-05-01")
    assert [c.status for c in report.citations if c.label == "PROVISION"] == [S.UNRESOLVED]


def test_a_unit_a_new_code_lacks_is_still_not_found(svc: LookupService) -> None:
    r = svc.lookup("BNSS", "187(11)", "2025-01-01")
    assert r["found"] is False and "has no sub-unit (11)" in r["error"]


@pytest.mark.parametrize(
    ("answer", "provision", "source"),
    [
        (f'Under section 167(2) of the CrPC, "{CRPC_167_2}".', ("CRPC", "167(2)"), "CRPC 167(2)"),
        (f'Section 438(1) of the Code of Criminal Procedure reads: "{CRPC_438_1}".', ("CRPC", "438(1)"),
         "CRPC 438(1)"),
        (f'Under section 65B(4) of the Indian Evidence Act, "{IEA_65B_4}".', ("IEA", "65B(4)"), "IEA 65B(4)"),
    ],
)
def test_a_verbatim_quote_of_a_legacy_subsection_is_verified_at_that_level(
    loaded: Loaded, answer: str, provision: tuple[str, str], source: str
) -> None:
    report = Verifier(loaded.store).verify(answer, as_of="2023-05-01")
    statuses = {(c.act, c.section): c.status for c in report.citations if c.label == "PROVISION"}
    assert statuses[provision] is S.VERIFIED
    assert [(q.source, q.status) for q in report.quotes] == [(source, Q.EXACT)]


def test_a_quote_of_another_subsection_is_misattributed_to_the_right_one(loaded: Loaded) -> None:
    report = Verifier(loaded.store).verify(f'Under section 167(1) of the CrPC, "{CRPC_167_2}".', as_of="2023-05-01")
    assert [(q.source, q.status, q.right_source) for q in report.quotes] == [
        ("CRPC 167(1)", Q.MISATTRIBUTED, "CRPC 167(2)")
    ]


def test_reingest_turns_whole_legacy_sections_into_subunits_then_writes_nothing(
    empty_store: FalkorGraphStore,
) -> None:
    crpc = real_corpus_path("legacy", "crpc.json")
    first = ingest(empty_store, [crpc])
    assert first.totals()["added"] > 500
    # the graph as an earlier version left it: every section whole, its source text, no sub-units
    raw = {str(r["section"]).upper(): r["section_desc"] for r in json.loads(crpc.read_text(encoding="utf-8"))}
    old = [dataclasses.replace(s, text=raw[s.number].strip() or None, subunits=())
           for s in read_legacy(crpc).sections]  # fmt: skip
    empty_store.upsert_sections(old)
    before = empty_store.counts()
    stored = empty_store.get_section("CRPC", "167")
    assert stored is not None and not stored.subunits and stored.chapter == "XII"

    upgrade = ingest(empty_store, [crpc])
    # updated: every divided section, plus the whole ones whose source text the ingestion clean-up
    # (`_untab` in ingestion/sources/legacy.py: tab indentation, blank-line runs) changes
    sections = read_legacy(crpc).sections
    divided = {s.number for s in sections if s.subunits}
    cleaned = {s.number for s, o in zip(sections, old, strict=True) if not s.subunits and s.text != o.text}
    assert len(divided) == 336 and cleaned == {"265C", "320", "321"}
    assert upgrade.updated["CRPC"] == len(divided | cleaned)
    assert upgrade.added["CRPC"] == 0 and not upgrade.rejects
    rec = empty_store.get_section("CRPC", "167")
    assert rec is not None and rec.chapter == "XII" and rec.title == stored.title
    assert rec.subunits["2"].startswith("(2) The Magistrate to whom an accused person is forwarded")
    after = empty_store.counts()
    assert {k: after[k] for k in ("Act", "Section", "Chapter")} == {k: before[k] for k in ("Act", "Section", "Chapter")}

    again = ingest(empty_store, [crpc])
    assert not again.changed
    assert again.totals()["updated"] == 0 and again.totals()["added"] == 0
