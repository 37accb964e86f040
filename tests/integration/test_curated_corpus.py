"""What the curation records (data/corpus/curation) change in the loaded graph, and what users then see:
BNSS 58's own text, IPC 304B's text, CrPC 156's full title, the NI Act sections dated by the Acts that
inserted them, BNS 106(2) not in force, and Acts the statutes name held by name."""

from __future__ import annotations

import pytest

from graph_schema.acts import ActResolver
from graph_schema.model import CitationKey
from ingestion.sources.newcodes import read_section_copies
from legal_rag.lookup import LookupService
from legal_rag.retrieval.build import graph_chunks
from tests.conftest import CORPUS, Loaded
from verification.check.existence import CitationChecker
from verification.model import CitationStatus as S
from verification.verify import Verifier

pytestmark = pytest.mark.integration

# MVA 1988 s.217(1) and HMA s.13(1) Explanation, as India Code prints them.
MVA_217 = ("The Motor Vehicles Act, 1939 (4 of 1939) and any law corresponding to that Act in force in any State "
           "immediately before the commencement of this Act in that State")
HMA_13 = ("whether the marriage was solemnized before or after the commencement of the Marriage Laws (Amendment) "
          "Act, 1976")


@pytest.fixture(scope="module")
def svc(loaded: Loaded) -> LookupService:
    return LookupService(loaded.store)


def test_bnss_58_has_its_own_text(loaded: Loaded) -> None:
    s58, s59 = loaded.store.get_section("BNSS", "58"), loaded.store.get_section("BNSS", "59")
    assert s58 is not None and s59 is not None
    fills = read_section_copies(CORPUS / "new-codes-sections" / "BNSS_sections.json").fills
    copies = {f.section: f.text for f in fills}
    assert s58.text == copies["58"]
    assert "twenty-four hours" in (s58.text or "") and s58.text != s59.text
    assert (s59.text or "").startswith("Officers in charge of police stations shall report")


def test_search_chunks_follow_the_graph(loaded: Loaded) -> None:
    chunks = {c.id: c for c in graph_chunks(loaded.store) if c.act in ("BNSS", "BNS")}
    assert "twenty-four hours" in chunks["BNSS:58:-:0"].text
    pending = chunks["BNS:106:2:0"]
    assert pending.status == "not_yet_in_force" and pending.in_force_from is None
    assert chunks["BNS:106:1:0"].status == "in_force" and chunks["BNS:106:1:0"].in_force_from == "2024-07-01"


@pytest.mark.parametrize(
    ("act", "section", "as_of", "status", "title_or_text"),
    [
        ("IPC", "304B", "2020-01-01", "in_force", "such death shall be called \"dowry death\""),
        ("CRPC", "156", "2020-01-01", "in_force", "Police officer's power to investigate cognizable case"),
        ("NIA", "139", "1988-12-31", "not_yet_in_force", None),  # Chapter XVII, Act 66 of 1988, w.e.f. 1-4-1989
        ("NIA", "139", "1989-04-01", "in_force", None),
        ("NIA", "143", "2003-02-05", "not_yet_in_force", None),  # Act 55 of 2002, w.e.f. 6-2-2003
        ("NIA", "147", "2003-02-06", "in_force", None),
        ("NIA", "143A", "2018-08-31", "not_yet_in_force", None),  # Act 20 of 2018, w.e.f. 1-9-2018
        ("NIA", "148", "2018-09-01", "in_force", None),
        ("BNS", "106(2)", "2025-01-01", "not_yet_in_force", "escapes without reporting"),
        ("BNS", "106(1)", "2025-01-01", "in_force", None),
        # struck down: law until the judgment's day, not after it, though the Code stood until 2024-07-01
        ("IPC", "497", "2018-09-26", "in_force", "Adultery"),
        ("IPC", "497", "2018-09-27", "omitted", None),  # struck down, not repealed: the BNS came later
        ("ITA", "66A", "2009-10-26", "not_yet_in_force", None),  # inserted by Act 10 of 2009, w.e.f. 27-10-2009
        ("ITA", "66A", "2014-06-01", "in_force", None),  # Shreya Singhal, 24-03-2015 (India Code's footnote)
        ("ITA", "66A", "2015-03-24", "omitted", None),
        ("SCSTA", "18A", "2017-06-01", "not_yet_in_force", None),  # Act 27 of 2018, w.e.f. 20-08-2018
        ("SCSTA", "18A", "2018-08-20", "in_force", None),
        ("IPC", "303", "1983-04-06", "in_force", "life-convict"),  # Mithu v. State of Punjab, 07-04-1983
        ("IPC", "303", "2020-01-01", "omitted", None),
        ("PCA", "17A", "2018-07-25", "not_yet_in_force", None),  # Act 16 of 2018, w.e.f. 26-07-2018
        ("PCA", "17A", "2018-07-26", "in_force", None),
        ("SCSTA", "14A", "2016-01-25", "not_yet_in_force", None),  # Act 1 of 2016, w.e.f. 26-01-2016
        ("SCSTA", "15A", "2016-01-26", "in_force", None),
        ("MVA", "199A", "2019-08-31", "not_yet_in_force", None),  # Act 32 of 2019, w.e.f. 01-09-2019
        ("MVA", "199A", "2019-09-01", "in_force", None),
    ],
)
def test_lookups(svc: LookupService, act: str, section: str, as_of: str, status: str,
                 title_or_text: str | None) -> None:
    r = svc.lookup(act, section, as_of)
    assert r["found"] and r["status_on_date"] == status, r
    if title_or_text:
        assert title_or_text in f"{r['title']} {r['text']}"


def test_a_section_struck_down_is_verified_only_before_the_judgment(loaded: Loaded) -> None:
    checker = CitationChecker(loaded.store)
    after = checker.check_provision(CitationKey("IPC", "497", ()), "2019-06-01")
    assert after.status is S.OMITTED
    assert after.message.startswith("IPC s.497 is not law: the Supreme Court struck it down on 2018-09-27")
    assert "Joseph Shine" in after.message
    assert checker.check_provision(CitationKey("IPC", "497", ()), "2017-06-01").status is S.VERIFIED
    assert checker.check_provision(CitationKey("ITA", "66A", ()), "2014-06-01").status is S.VERIFIED
    assert checker.check_provision(CitationKey("ITA", "66A", ()), "2016-06-01").status is S.OMITTED


def test_bns_106_2_is_never_verified_as_law(loaded: Loaded) -> None:
    checker = CitationChecker(loaded.store)
    v = checker.check_provision(CitationKey("BNS", "106", ("2",)), "2025-06-01")
    assert v.status is S.NOT_YET_IN_FORCE and "S.O. 850(E)" in v.message
    assert checker.check_provision(CitationKey("BNS", "106", ("1",)), "2025-06-01").status is S.VERIFIED


def test_acts_the_statutes_name_are_no_longer_unknown(loaded: Loaded) -> None:
    verifier = Verifier(loaded.store)
    report = verifier.verify(f'Section 217 of the Motor Vehicles Act, 1988 repeals "{MVA_217}". Section 13 of the '
                             f'Hindu Marriage Act, 1955 applies "{HMA_13}".', as_of="2025-01-01")
    by_text = {c.text: c for c in report.citations}
    old_mva = next(c for t, c in by_text.items() if t.startswith("Motor Vehicles Act, 1939"))
    assert old_mva.status is S.REPEALED and "repealed by MVA s.217" in old_mva.message
    mla = next(c for t, c in by_text.items() if t.startswith("Marriage Laws (Amendment) Act, 1976"))
    assert mla.status is S.VERIFIED and "amending Act" in mla.message
    assert not [c for c in report.citations if c.status is S.UNKNOWN_ACT]


def test_a_provision_of_an_act_held_by_name_is_unchecked_not_missing(loaded: Loaded) -> None:
    checker = CitationChecker(loaded.store)
    code = ActResolver(loaded.store.all_acts()).resolve("Motor Vehicles Act, 1939")
    v = checker.check_provision(CitationKey(code, "64A"), "1980-01-01")
    assert v.status is S.UNCHECKED and "by name only" in v.message


@pytest.mark.parametrize(("old", "new"), [(("IPC", "139"), "167"), (("CRPC", "39"), "33")])
def test_relation_corrections_replace_the_tables_no_change(svc: LookupService, old: tuple[str, str], new: str) -> None:
    """The table says "No change." for IPC 139 -> BNS 167 and CrPC 39 -> BNSS 33; the texts differ (the audit's
    no_change_differs), and relation_corrections.jsonl makes the edge "modified"."""
    r = svc.lookup(old[0], old[1], "2025-01-01")
    assert [(p["section"], p["relation"]) for p in r["successors"]] == [(new, "modified")]
