"""``legal-rag eval faults``: faults injected into verified answers on the real graph and index, and the
production workflow's verification judged on them (no fakes: the extractive generator, the graph, the
aligner)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from graph_schema.errors import FaultError
from legal_rag.evaluation.fault_run import DEV_QUESTIONS, BaseQuestion, load_questions, run_faults
from legal_rag.evaluation.faults import FAULT_TYPES, QUOTED, FaultInjector, GraphFacts, change_words, graph_facts
from legal_rag.workflow.service import AskService
from legal_rag.workflow.types import AnswerSentence, Generation
from tests.conftest import Loaded

pytestmark = [pytest.mark.integration, pytest.mark.slow]

THEFT = ('Section 303(2) of the Bharatiya Nyaya Sanhita, 2023 provides: "(2) Whoever commits theft shall be punished '
         'with imprisonment of either description for a term which may extend to three years, or with fine, or with '
         'both."')  # fmt: skip


@pytest.fixture(scope="module")
def facts(loaded: Loaded) -> GraphFacts:
    return graph_facts(loaded.store, acts_with_text=["BNS", "IPC", "BNSS", "CRPC", "BSA", "IEA", "NIA"])



def draft(*texts: str) -> Generation:
    return Generation(tuple(AnswerSentence(t, ("BNS:303:2:0",)) for t in texts), "extractive")


def test_each_fault_changes_one_sentence_as_its_type_says(facts: GraphFacts) -> None:
    inj = FaultInjector(facts)
    rng = random.Random(1)
    gen, f = inj.inject("fabricated_section", draft(THEFT), "2025-01-01", rng)
    assert f.act == "BNS" and f.section not in facts.sections["BNS"] and int(f.section) > 358
    assert gen.sentences[0].text.startswith(f"Section {f.section}(2) of the Bharatiya Nyaya Sanhita")
    _, f = inj.inject("repealed_section", draft(THEFT), "2025-01-01", rng)
    assert (f.act, f.section) == ("IPC", "379") and "of the Indian Penal Code, 1860 provides" in f.after
    _, f = inj.inject("wrong_act", draft(THEFT), "2025-01-01", rng)
    assert f.act != "BNS" and "303" in facts.sections[f.act] and "of the The" not in f.after
    _, f = inj.inject("misquote", draft(THEFT), "2025-01-01", rng)
    assert QUOTED.match(f.after) and f.after != THEFT and f.after[:60] == THEFT[:60]
    _, f = inj.inject("misattributed_quote", draft(THEFT), "2025-01-01", rng)
    assert f.act == "BNS" and f.section != "303" and QUOTED.match(f.after)["quote"] == QUOTED.match(THEFT)["quote"]
    gen, f = inj.inject("unsupported_claim", draft(THEFT), "2025-01-01", rng)
    assert f.appended and len(gen.sentences) == 2 and gen.sentences[0].text == THEFT
    with pytest.raises(FaultError):
        inj.inject("misquote", draft("Theft is a crime."), "2025-01-01", rng)
    with pytest.raises(ValueError, match="unknown fault type"):
        inj.inject("typo", draft(THEFT), "2025-01-01", rng)


def test_word_changes_are_substantive() -> None:
    rng = random.Random(0)
    text = "shall be punished with imprisonment for a term which may extend to seven years, and fine of 500 rupees"
    seen = {change_words(text, rng) for _ in range(40)}
    assert text not in seen and len(seen) >= 4
    assert all(s is not None and s != text for s in seen)
    assert change_words("The Act extends to the whole of India", rng) is None


def test_verification_catches_the_faults_and_leaves_verified_answers_alone(
    loaded: Loaded, service: AskService
) -> None:
    qs = load_questions(DEV_QUESTIONS)[:14]
    report = run_faults(loaded.store, service, n=35, seed=5, questions=qs)
    d = report.detection
    assert report.base_answers >= 8
    assert set(d) == set(FAULT_TYPES) and all(v is not None for v in d.values()), report.counts
    for kind in ("fabricated_section", "wrong_act", "repealed_section", "misquote", "misattributed_quote"):
        assert d[kind] == 1.0, (kind, [m for m in report.missed if m["kind"] == kind])
    assert d["unsupported_claim"] >= 0.8 and d["contradicted_claim"] >= 0.6, report.missed
    assert report.false_alarm_rate is not None and report.false_alarm_rate <= 0.05, report.false_alarms
    again = run_faults(loaded.store, service, n=35, seed=5, questions=qs)
    assert again.as_dict() == report.as_dict()  # deterministic for a seed


def test_bad_questions_file_is_named(tmp_path: Path) -> None:
    p = tmp_path / "q.jsonl"
    p.write_text('{"id": "a", "question": "x", "as_of": "2025-01-01"}\n{"id": "b"}\n')
    with pytest.raises(ValueError, match=r"q.jsonl:2"):
        load_questions(p)


def test_too_few_faults_are_refused(loaded: Loaded, service: AskService) -> None:
    with pytest.raises(ValueError, match="at least 7"):
        run_faults(loaded.store, service, n=3, questions=[BaseQuestion("a", "What is theft?", "2025-01-01")])
