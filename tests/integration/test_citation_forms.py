"""The everyday citation forms on the shipped corpus: the grid of ``benchmarks/citation_forms.py`` resolves, and
the verifier flags what it resolves (a repealed CrPC section cited "u/s 438 crpc") or says it could not check it
(the Constitution, the CPC's Orders: not in the graph)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from graph_schema.acts import ActResolver
from tests.conftest import Loaded
from verification.extract import CitationExtractor
from verification.model import CitationStatus as S
from verification.verify import Verifier

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import citation_forms as grid  # noqa: E402

pytestmark = pytest.mark.integration


def test_the_grid_of_forms_resolves_to_the_right_provisions(loaded: Loaded) -> None:
    units = grid.graph_units(loaded.store)
    assert set(units) == set(grid.ACT_NAMES)  # every Act of the grid is in the graph, with its sections
    cases = grid.build_grid(units)
    assert len(cases) >= 2000
    assert {c.form for c in cases} == set(grid.FORMS)
    extractor = CitationExtractor(ActResolver(loaded.store.all_acts()).resolve)
    misses = grid.score(extractor, cases)
    assert len(misses) <= 0.01 * len(cases), [(c.text, sorted(got)) for c, got in misses[:20]]


def test_grid_sections_and_sub_sections_are_held_by_the_graph(loaded: Loaded) -> None:
    units = grid.graph_units(loaded.store)
    for case in grid.build_grid(units):
        for act, section, sub in case.expected:
            if act in ("", "COI"):
                continue
            key = section + "".join(f"({s})" for s in sub)
            assert key in loaded.store.act_texts(act) if sub else loaded.store.get_section(act, section), case.text


@pytest.fixture(scope="module")
def verifier(loaded: Loaded) -> Verifier:
    return Verifier(loaded.store)


@pytest.mark.parametrize(("text", "cited", "status", "says"), [
    # A repealed section of the old codes, written as lawyers write it, is flagged (it was "no statute is named").
    ("Anticipatory bail was sought u/s 438 crpc.", "s 438", S.REPEALED, "repealed"),
    ("The discovery is admissible under s.27 IEA.", "s.27", S.REPEALED, "repealed"),
    ("Under the Indian Penal Code, the punishment in section 420 is seven years.", "section 420", S.REPEALED,
     "repealed"),
    ("Cognizance was taken u/s. 4 pocso.", "s. 4", S.VERIFIED, "POCSO"),
    # Not in the graph: never verified, and said so.
    ("Art. 21 guarantees personal liberty.", "Art. 21", S.UNKNOWN_ACT, "Constitution are not loaded"),
    ("Article 21 of the Constitution guarantees personal liberty.", "Article 21", S.UNKNOWN_ACT,
     "Constitution are not loaded"),
    ("An injunction was sought under O. 39 R. 1 CPC.", "O. 39 R. 1", S.UNCHECKED, "not checked"),
    ("An injunction was sought under Order XXXIX Rule 1 CPC.", "Order XXXIX Rule 1", S.UNCHECKED, "not checked"),
    # Nothing named: nothing guessed.
    ("Under section 5 the delay may be condoned.", "section 5", S.UNRESOLVED, "no statute is named"),
])  # fmt: skip
def test_verifier_on_everyday_forms(verifier: Verifier, text: str, cited: str, status: S, says: str) -> None:
    report = verifier.verify(text, as_of="2025-03-01")
    got = [c for c in report.citations if c.text == cited]
    assert [c.status for c in got] == [status], [(c.text, c.status, c.message) for c in report.citations]
    assert says in got[0].message
