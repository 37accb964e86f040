"""Existence and date-aware checks on the shipped corpus (real FalkorDB), both sides of 2024-07-01."""

from __future__ import annotations

import pytest

from graph_schema.embedded import EmbeddedFalkorDB
from graph_schema.model import CitationKey
from graph_schema.store import FalkorGraphStore
from tests.conftest import Loaded
from verification.check.existence import CitationChecker
from verification.model import CitationStatus as S

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def checker(loaded: Loaded) -> CitationChecker:
    return CitationChecker(loaded.store)


@pytest.mark.parametrize(
    ("key", "as_of", "status", "in_message", "successors"),
    [
        (CitationKey("IPC", "302"), "2025-01-01", S.REPEALED, "by BNS s.358; for facts on 2025-01-01 cite BNS s.103(1)",
         ["BNS 103(1)"]),
        (CitationKey("IPC", "302"), "2023-05-01", S.VERIFIED, "BNS s.358 keeps it applicable", ["BNS 103(1)"]),
        (CitationKey("IPC", "447"), "2024-08-01", S.REPEALED, "BNS s.329(3)", ["BNS 329(3)"]),
        (CitationKey("CRPC", "438"), "2024-07-01", S.REPEALED, "BNSS s.531", ["BNSS 482"]),
        (CitationKey("IEA", "65B"), "2020-01-01", S.VERIFIED, "BSA s.170", ["BSA 63"]),
        (CitationKey("IPC", "124A"), "2025-01-01", S.REPEALED, "it has no successor: Sedition", []),
        (CitationKey("BNS", "103", ("1",)), "2023-05-01", S.NOT_YET_IN_FORCE, "the law was IPC s.302", []),
        (CitationKey("BNS", "103", ("1",)), "2024-07-01", S.VERIFIED, "was in force on 2024-07-01", []),
        (CitationKey("BNSS", "482"), "2024-06-30", S.NOT_YET_IN_FORCE, "CRPC s.438", []),
        (CitationKey("BNS", "377"), "2025-01-01", S.NOT_FOUND, "has no section 377 (its sections run to 358)", []),
        (CitationKey("IPC", "545"), "2020-01-01", S.NOT_FOUND, "has no section 545 (its sections run to 511)", []),
        (CitationKey("BNS", "103", ("5",)), "2025-01-01", S.NOT_FOUND, "exists but has no (5)", []),
        (CitationKey("HMA", "6"), "1990-01-01", S.OMITTED, "omitted with effect from 1978-10-01", []),
        (CitationKey("HMA", "6"), "1970-01-01", S.VERIFIED, "in force on 1970-01-01", []),
        (CitationKey("HMA", "13", ("1", "ia")), "2025-01-01", S.VERIFIED, "HMA s.13(1)(ia) exists", []),
        (CitationKey("NIA", "138"), "1985-01-01", S.NOT_YET_IN_FORCE, "came into force on 1989-04-01", []),
        (CitationKey("COI", "21"), "2025-01-01", S.UNKNOWN_ACT, "could not verify", []),
        (CitationKey("", "302"), "2025-01-01", S.UNRESOLVED, "no statute is named", []),
        (CitationKey("CA2013", "2"), "2025-01-01", S.VERIFIED, "existence from the India Code index", []),
        (CitationKey("IPC", "302", ("5",)), "2020-01-01", S.UNRESOLVED, "could not be checked", []),
    ],
)
def test_provisions(
    checker: CitationChecker, key: CitationKey, as_of: str, status: S, in_message: str, successors: list[str]
) -> None:
    v = checker.check_provision(key, as_of)
    assert v.status is status, v.message
    assert in_message in v.message
    if status is S.REPEALED or successors:
        assert [f"{p.act} {p.section}" for p in v.successors] == successors


def test_repeal_message_carries_the_tables_note(checker: CitationChecker) -> None:
    v = checker.check_provision(CitationKey("IPC", "302"), "2025-01-01")
    assert "No Change, except IPC section is included as subsection in BNS." in v.message


@pytest.mark.parametrize(
    ("act", "as_of", "status", "in_message"),
    [
        ("IPC", "2025-01-01", S.REPEALED, "repealed with effect from 2024-07-01 by BNS s.358"),
        ("IPC", "2023-01-01", S.VERIFIED, "in the statute graph"),
        ("BNS", "2023-01-01", S.NOT_YET_IN_FORCE, "the law was The Indian Penal Code, 1860"),
        ("HMA", "2025-01-01", S.VERIFIED, "The Hindu Marriage Act, 1955"),
        (None, "2025-01-01", S.UNKNOWN_ACT, "could not verify"),
        ("COI", "2025-01-01", S.UNKNOWN_ACT, "could not verify"),
    ],
)
def test_statutes(checker: CitationChecker, act: str | None, as_of: str, status: S, in_message: str) -> None:
    v = checker.check_statute(act, act or "Bombay Rents Act", as_of)
    assert v.status is status
    assert in_message in v.message


@pytest.mark.parametrize(
    ("cited", "status", "in_message"),
    [
        ("Arnesh Kumar v. State of Bihar, (2014) 8 SCC 273", S.VERIFIED, "Supreme Court of India, 2014-07-02"),
        ("Arnesh Kumar v. State of Bihar, (2014)8 S.C.C. 273", S.VERIFIED, "Arnesh Kumar"),
        ("Kesavananda Bharati v. State of Kerala, reported in AIR 1973 SC 1461", S.VERIFIED, "Kesavananda"),
        ("Maneka Gandhi v. Union of India, (2014) 8 SCC 273", S.MISMATCH, "does not match the case name cited"),
        ("Ramesh v. State of Goa, (2023) 5 SCC 999", S.NOT_IN_REGISTRY, "this does not mean it is fabricated"),
        ("Municipal Corporation of Delhi v. Gurnam Kaur", S.NOT_IN_REGISTRY, "gives no reporter or neutral citation"),
    ],
)
def test_precedents(checker: CitationChecker, cited: str, status: S, in_message: str) -> None:
    v = checker.check_precedent(cited)
    assert v.status is status
    assert in_message in v.message


def test_graph_stopped_mid_run_gives_unchecked_never_verified(
    stoppable_store: tuple[EmbeddedFalkorDB, FalkorGraphStore],
) -> None:
    server, store = stoppable_store
    checker = CitationChecker(store)
    assert checker.check_provision(CitationKey("IPC", "302"), "2023-01-01").status is S.VERIFIED
    server.stop()
    for v in (
        checker.check_provision(CitationKey("IPC", "302"), "2023-01-01"),
        checker.check_provision(CitationKey("IPC", "999"), "2023-01-01"),
        checker.check_precedent("Arnesh Kumar v. State of Bihar, (2014) 8 SCC 273"),
    ):
        assert v.status is S.UNCHECKED
        assert "could not be reached" in v.message