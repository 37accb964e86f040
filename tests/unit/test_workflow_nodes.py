"""Each workflow node on its own, and the compiled graph's loops, with small fakes at the seams
(retriever, generator, verifier, aligner, classifier: the Protocols in ``legal_rag.workflow``)."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from graph_schema.errors import GenerationError
from legal_rag.retrieval.hybrid import Retrieved
from legal_rag.retrieval.types import Chunk
from legal_rag.settings import WorkflowSettings
from legal_rag.workflow import steps as _steps
from legal_rag.workflow.confidence import (
    INFERRED_DATE_CAP,
    INTERCEPT,
    LOW_WARNING,
    NOT_ADDRESSED_CAP,
    PARTLY_ADDRESSED_CAP,
    UNVERIFIED_CAP,
    WEIGHTS,
    label_for,
    score,
)
from legal_rag.workflow.context import WorkflowContext
from legal_rag.workflow.facts import Ask, AskKind, Lapsed, Premise, QuestionFacts, read_facts
from legal_rag.workflow.generators.extractive import INSUFFICIENT, ExtractiveGenerator
from legal_rag.workflow.graph import STAGES, build_workflow
from legal_rag.workflow.parts import question_parts
from legal_rag.workflow.results import (
    AskResult,
    Claim,
    Confidence,
    ConfidenceFactor,
    ConfidenceLabel,
    DraftClaim,
    VerificationMethod,
    VerificationSummary,
)
from legal_rag.workflow.service import AskService
from legal_rag.workflow.types import (
    Alignment,
    AnswerSentence,
    Classification,
    Complexity,
    Generation,
    Passage,
    Pin,
    Verdict,
)
from verification.model import CitationCheck, CitationStatus, Label, QuoteCheck, QuoteStatus, VerificationReport

BNS_308_2 = (
    "(2) Whoever commits extortion shall be punished with imprisonment of either description for a term "
    "which may extend to seven years, or with fine, or with both."
)
BNS_308_1 = (
    "(1) Whoever intentionally puts any person in fear of any injury to that person, or to any other, and "
    "thereby dishonestly induces the person so put in fear to deliver to any person any property, commits "
    "extortion."
)


def chunk(cid: str, text: str, heading: str, status: str = "in_force") -> Chunk:
    act, section, sub, part = cid.split(":")
    return Chunk(
        cid,
        act,
        section,
        None if sub == "-" else sub,
        int(part),
        heading.split(" ", 2)[-1],
        heading,
        text,
        status,
        "2024-07-01",
        None,
        "test",
    )


CHUNKS = {
    "BNS:2:28:0": chunk("BNS:2:28:0", '(28) "public servant" means a person falling under any of the descriptions, '
                        "namely:---", "BNS s.2(28) Definitions"),
    "BNS:2:28/a:0": chunk("BNS:2:28/a:0", "(a) every commissioned officer in the Army, Navy or Air Force;",
                          "BNS s.2(28)(a) Definitions"),
    "BNS:2:2:0": chunk("BNS:2:2:0", '(2) "animal" means any living creature, other than a human being;',
                       "BNS s.2(2) Definitions"),
    "BNS:308:1:0": chunk("BNS:308:1:0", BNS_308_1, "BNS s.308(1) Extortion"),
    "BNS:308:2:0": chunk("BNS:308:2:0", BNS_308_2, "BNS s.308(2) Extortion"),
    "IPC:384:-:0": chunk("IPC:384:-:0", "Whoever commits extortion shall be punished with imprisonment of either "
                         "description for a term which may extend to three years, or with fine, or with both.",
                         "IPC s.384 Punishment for extortion", status="repealed"),
    # Real text: CrPC 167(2) (opening words), BNSS 187(3) and BNSS 531(2) (opening words).
    "CRPC:167:2:0": chunk("CRPC:167:2:0", "(2) The Magistrate to whom an accused person is forwarded under this "
                          "section may, whether he has or has not jurisdiction to try the case, from time to time, "
                          "authorise the detention of the accused in such custody as such Magistrate thinks fit",
                          "CRPC s.167(2) Procedure when investigation cannot be completed in twenty-four hours",
                          status="repealed"),
    "BNSS:187:3:0": chunk("BNSS:187:3:0", "(3) The Magistrate may authorise the detention of the accused person, "
                          "beyond the period of fifteen days, if he is satisfied that adequate grounds exist for "
                          "doing so", "BNSS s.187(3) Procedure when investigation cannot be completed in twenty-four "
                          "hours"),
    "BNSS:531:2:0": chunk("BNSS:531:2:0", "(2) Notwithstanding such repeal--- (a) if, immediately before the date "
                          "on which this Sanhita comes into force, there is any appeal, application, trial, inquiry "
                          "or investigation pending", "BNSS s.531(2) Repeal and savings"),
}


@dataclass
class FakeRetriever:
    results: list[Retrieved]
    queries: list[tuple[str, int]] = field(default_factory=list)
    acts_asked: list[tuple[str, frozenset[str] | None]] = field(default_factory=list)

    def retrieve(
        self,
        query: str,
        k: int = 10,
        *,
        as_of: str | None = None,
        acts: Collection[str] | None = None,
        statuses: Collection[str] | None = None,
        include_repealed: bool = False,
        offence_told: bool = False,
    ) -> list[Retrieved]:
        self.queries.append((query, k))
        self.acts_asked.append((query, frozenset(acts) if acts is not None else None))
        return list(self.results)

    def retrieve_many(self, queries: Sequence[str], k: int = 10, *, as_of: str | None = None) -> list[list[Retrieved]]:
        return [self.retrieve(q, k, as_of=as_of) for q in queries]

    def counterparts(self, act: str, section: str) -> list[tuple[Pin, Chunk]]:
        return [(Pin.PREDECESSOR, c) for c in CHUNKS.values() if c.act == "IPC"] if act == "BNS" else []

    def section_chunks(self, act: str, section: str) -> list[Chunk]:
        return [c for c in CHUNKS.values() if (c.act, c.section) == (act, section)]

    def indexed_acts(self) -> frozenset[str]:
        return frozenset(r.chunk.act for r in self.results) | frozenset(c.act for c in CHUNKS.values())

    def offence_partner(self, act: str, section: str) -> tuple[str, str] | None:
        return None


@dataclass
class FakeGenerator:
    sentences: list[AnswerSentence]
    name: str = "fake"
    fail: bool = False
    questions: list[str] = field(default_factory=list)

    def generate(self, question: str, passages: Sequence[Passage], *, as_of: str, complexity: Complexity) -> Generation:
        self.questions.append(question)
        if self.fail:
            raise GenerationError("model unavailable")
        return Generation(tuple(self.sentences), self.name)


_SECTION = re.compile(r"Section (\d+)(?:\((\d+)\))? of the (BNS|IPC)")


@dataclass
class FakeVerifier:
    """Finds "Section N of the BNS" and gives each the status in ``statuses`` (default verified);
    quotes in ``misquoted`` come back MISQUOTED."""

    statuses: Mapping[str, CitationStatus] = field(default_factory=dict)
    misquoted: Collection[str] = ()
    offence_days: list[str | None] = field(default_factory=list)
    proceedings_days: list[str | None] = field(default_factory=list)

    def verify(
        self, text: str, context_chunks: Sequence[Mapping[str, object]] = (), as_of: str | None = None,
        *, offence_on: str | None = None, proceedings_on: str | None = None, adjacent: bool = False,
        saved: bool = False,
    ) -> VerificationReport:
        self.offence_days.append(offence_on)
        self.proceedings_days.append(proceedings_on)
        cits = []
        for m in _SECTION.finditer(text):
            key = f"{m.group(3)} {m.group(1)}"
            status = self.statuses.get(key, CitationStatus.VERIFIED)
            cits.append(
                CitationCheck(
                    start=m.start(),
                    end=m.end(),
                    text=m.group(0),
                    label=Label.PROVISION,
                    act=m.group(3),
                    act_title=m.group(3),
                    section=m.group(1),
                    status=status,
                    message=f"{key} is {status.value}",
                )
            )
        quotes = []
        for m in re.finditer(r'"([^"]+)"', text):
            status = QuoteStatus.MISQUOTED if m.group(1) in self.misquoted else QuoteStatus.EXACT
            quotes.append(
                QuoteCheck(
                    text=m.group(1),
                    start=m.start(),
                    end=m.end(),
                    source=None,
                    status=status,
                    score=1.0,
                    message=f"quote {status.value}",
                )
            )
        return VerificationReport(as_of=as_of or "2025-01-01", citations=cits, quotes=quotes, summary={})


@dataclass
class FakeAligner:
    verdicts: Mapping[str, Verdict] = field(default_factory=dict)
    name: str = "fake"
    seen: list[tuple[str, list[str]]] = field(default_factory=list)

    def align(self, claim: str, evidence: Sequence[Passage]) -> Alignment:
        self.seen.append((claim, [p.chunk_id for p in evidence]))
        v = next((v for k, v in self.verdicts.items() if k in claim), Verdict.SUPPORTED)
        return Alignment(v, 0.9, (f"fake {v.value}",), evidence[0].chunk_id if evidence else None)


@dataclass
class FakeClassifier:
    complexity: Complexity = Complexity.STANDARD

    def classify(self, question: str) -> Classification:
        return Classification(self.complexity, "fake")


def retrieved(cid: str, dense: float = 0.6, pinned: Pin | None = None) -> Retrieved:
    return Retrieved(CHUNKS[cid], 1.0, {"dense": dense, "fused": 1.0}, pinned)


def ctx(**kw: Any) -> WorkflowContext:
    base: dict[str, Any] = dict(
        retriever=FakeRetriever([retrieved("BNS:308:2:0")]),
        generator=FakeGenerator(
            [AnswerSentence(f'Section 308(2) of the BNS provides: "{BNS_308_2}"', ("BNS:308:2:0",))]
        ),
        verifier=FakeVerifier(),
        aligner=FakeAligner(),
        classifier=FakeClassifier(),
        settings=WorkflowSettings(),
    )
    base.update(kw)
    return WorkflowContext(**base)


@dataclass
class Runtime:
    context: WorkflowContext


def understood(state: Any) -> Any:
    """``state`` with the ``QuestionFacts`` the ``understand`` step makes, as every later step reads them (read
    with a context of its own, so that the verifier calls a test counts are the step's own)."""
    if "facts" in state:
        return state
    if "question" not in state:
        return {**state, "facts": QuestionFacts(as_of=state.get("as_of", "2025-03-01"))}
    base = {"as_of": "2025-03-01", "classification": Classification(Complexity.STANDARD, "f"), **state}
    return {**state, "facts": steps.understand(base, Runtime(ctx()))["facts"]}


class _Steps:
    """The workflow's steps, each given a state that has been understood (``understood``) first."""

    def __getattr__(self, name: str) -> Any:
        fn = getattr(_steps, name)
        if name in ("retrieve", "generate", "verify_citations", "verify_claims", "reconstruct", "score_confidence"):
            return lambda state, runtime: fn(understood(state), runtime)
        return fn


steps: Any = _Steps()


def check(label: str, status: str, message: str) -> CitationCheck:
    """A citation check as the verifier returns it (the span itself does not matter here)."""
    return CitationCheck(
        start=0, end=0, text=message, label=Label(label), status=CitationStatus(status), message=message
    )


def quote(status: str, message: str, source: str | None = None) -> QuoteCheck:
    return QuoteCheck(text=message, start=0, end=0, source=source, status=QuoteStatus(status), score=1.0,
                      message=message)  # fmt: skip


def run_graph(context: WorkflowContext, question: str = "What is the punishment for extortion?") -> dict[str, Any]:
    return build_workflow().invoke(
        {"question": question, "as_of": "2025-03-01", "warnings": [], "timings_ms": {}}, context=context
    )


# -- nodes --


def test_understand_warns_on_a_repealed_provision_and_routes_missing_ones_to_finalise() -> None:
    c = ctx(verifier=FakeVerifier({"IPC 447": CitationStatus.REPEALED, "BNS 999": CitationStatus.NOT_FOUND}))
    simple = Classification(Complexity.SIMPLE, "fake")
    out = steps.understand({"question": "Section 447 of the IPC", "as_of": "2025-03-01",  # type: ignore[arg-type]
                                "classification": simple}, Runtime(c))  # fmt: skip
    assert out["warnings"] == ["IPC 447 is repealed"]
    state = {
        "question_checks": steps.understand({"question": "Section 999 of the BNS", "as_of": "2025-03-01",  # type: ignore[arg-type]
                                                 "classification": simple}, Runtime(c))["question_checks"],  # fmt: skip
        "classification": Classification(Complexity.SIMPLE, "fake"),
    }
    assert steps.after_understand(state, Runtime(c)) == "finalise"  # type: ignore[arg-type]
    state["classification"] = Classification(Complexity.COMPLEX, "fake")
    assert steps.after_understand(state, Runtime(c)) == "retrieve"  # type: ignore[arg-type]


def test_retrieve_sets_relevance_and_brings_the_whole_section() -> None:
    c = ctx(retriever=FakeRetriever([retrieved("BNS:308:1:0", dense=0.42)]))
    out = steps.retrieve(
        {
            "question": "extortion",
            "as_of": "2025-03-01",  # type: ignore[arg-type]
            "classification": Classification(Complexity.SIMPLE, "fake"),
        },
        Runtime(c),
    )
    ids = [p.chunk_id for p in out["passages"]]
    assert ids == ["BNS:308:1:0", "BNS:308:2:0"]  # 308(2), where the punishment is, came with its section
    assert [p.relevance for p in out["passages"]] == [0.42, 0.42]
    pinned = steps.to_passage(retrieved("BNS:308:2:0", dense=0.1, pinned=Pin.CITED))
    assert pinned.relevance == 1.0


def test_a_defining_clause_brings_its_own_sub_clauses_not_the_rest_of_its_definitions_section() -> None:
    state = {"question": "What is the meaning of public servant?", "as_of": "2025-03-01",
             "classification": Classification(Complexity.SIMPLE, "fake")}  # fmt: skip
    c = ctx(retriever=FakeRetriever([retrieved("BNS:2:28:0", pinned=Pin.DEFINITION)]))
    ids = [p.chunk_id for p in steps.retrieve(state, Runtime(c))["passages"]]  # type: ignore[arg-type]
    assert ids == ["BNS:2:28:0", "BNS:2:28/a:0"]  # not 2(2), "animal"
    c = ctx(retriever=FakeRetriever([retrieved("BNS:2:2:0", pinned=Pin.DEFINITION)]))
    ids = [p.chunk_id for p in steps.retrieve(state, Runtime(c))["passages"]]  # type: ignore[arg-type]
    assert ids == ["BNS:2:2:0"]  # not 2(28), though its id starts "BNS:2:2"
    # found by ordinary retrieval, the section comes whole
    c = ctx(retriever=FakeRetriever([retrieved("BNS:2:28:0")]))
    ids = [p.chunk_id for p in steps.retrieve(state, Runtime(c))["passages"]]  # type: ignore[arg-type]
    assert set(ids) == {"BNS:2:28:0", "BNS:2:28/a:0", "BNS:2:2:0"}


def test_a_clause_brings_its_lead_in_and_a_sub_section_does_not() -> None:
    c = ctx()
    clause = steps.to_passage(retrieved("BNS:2:28/a:0", dense=0.5))
    out = steps._with_lead_ins(c, [clause])
    assert [(p.chunk_id, p.relevance) for p in out] == [("BNS:2:28/a:0", 0.5), ("BNS:2:28:0", 0.5)]
    assert steps._with_lead_ins(c, out) == out  # already there: nothing added twice
    sub_section = [steps.to_passage(retrieved("BNS:308:2:0"))]
    assert steps._with_lead_ins(c, sub_section) == sub_section


def test_analytical_questions_bring_the_other_side_of_the_2024_replacement() -> None:
    c = ctx(retriever=FakeRetriever([retrieved("BNS:308:2:0")]))
    state = {"question": "how did extortion change", "as_of": "2025-03-01"}
    plain = steps.retrieve({**state, "classification": Classification(Complexity.STANDARD, "f")}, Runtime(c))  # type: ignore[arg-type]
    assert "IPC:384:-:0" not in [p.chunk_id for p in plain["passages"]]
    out = steps.retrieve({**state, "classification": Classification(Complexity.ANALYTICAL, "f")}, Runtime(c))  # type: ignore[arg-type]
    ipc = [p for p in out["passages"] if p.chunk_id == "IPC:384:-:0"]
    assert ipc and ipc[0].pinned is Pin.COUNTERPART


def test_generate_falls_back_when_the_model_fails_and_feeds_back_failures() -> None:
    broken = FakeGenerator([], fail=True)
    offline = FakeGenerator([AnswerSentence("offline", ("BNS:308:2:0",))], name="extractive")
    c = ctx(generator=broken, fallback_generator=offline)
    state = {
        "question": "q",
        "as_of": "2025-03-01",
        "passages": [],
        "feedback": "fix Section 999",
        "classification": Classification(Complexity.STANDARD, "fake"),
    }
    out = steps.generate(state, Runtime(c))  # type: ignore[arg-type]
    assert out["generation"].generator == "extractive" and "model unavailable" in out["warnings"][0]
    assert broken.questions == ["q\n\nfix Section 999"]  # the failed check was named to the model
    with pytest.raises(GenerationError):
        steps.generate(state, Runtime(ctx(generator=broken)))  # type: ignore[arg-type]


def test_verify_citations_maps_checks_to_sentences_and_ignores_numbers_inside_quotes() -> None:
    gen = Generation(
        (
            AnswerSentence(
                'Section 308 of the BNS provides: "see Section 309 of the BNS for robbery"', ("BNS:308:2:0",)
            ),
            AnswerSentence("Section 999 of the BNS punishes it with death.", ()),
        ),
        "fake",
    )
    c = ctx(verifier=FakeVerifier({"BNS 999": CitationStatus.NOT_FOUND}))
    state = {"question": "punishment for extortion", "generation": gen, "passages": [], "as_of": "2025-03-01",
             "classification": Classification(Complexity.STANDARD, "f")}  # fmt: skip
    out = steps.verify_citations(state, Runtime(c))  # type: ignore[arg-type]
    first, second = out["drafts"]
    assert [x.section for x in first.citations] == ["308"]  # 309 is the statute quoting itself
    assert [x.status for x in second.citations] == [CitationStatus.NOT_FOUND]
    assert "BNS 999 is not_found" in out["feedback"]  # a model draft is sent back
    extractive = Generation(gen.sentences, "extractive")
    out = steps.verify_citations({**state, "generation": extractive}, Runtime(c))  # type: ignore[arg-type]
    assert out["feedback"] is None  # regenerating verbatim quotes would give the same draft
    assert c.verifier.offence_days == [None, None]  # type: ignore[attr-defined]


@dataclass
class ByActRetriever(FakeRetriever):
    """Gives ``old`` to a search among the IPC only, ``results`` otherwise."""

    old: list[Retrieved] = field(default_factory=list)
    old_days: list[str | None] = field(default_factory=list)

    def retrieve(self, query: str, k: int = 10, **kw: Any) -> list[Retrieved]:
        found = super().retrieve(query, k, **kw)
        if kw.get("acts") is not None and set(kw["acts"]) == {"IPC"}:
            self.old_days.append(kw.get("as_of"))
            return list(self.old)
        return found


PENDING_CHEATING = ("He cheated the complainant of Rs 2 lakh in February 2024; the FIR was lodged in September 2024. "
                    "Under which law can he be charged?")


def test_an_offence_committed_before_the_new_codes_is_answered_and_checked_under_the_ipc() -> None:
    c = ctx(retriever=ByActRetriever([retrieved("BNS:308:2:0")], old=[retrieved("IPC:384:-:0")]))
    state = {"question": PENDING_CHEATING, "as_of": "2024-10-01", "classification": Classification(
        Complexity.STANDARD, "f")}  # fmt: skip
    ids = [p.chunk_id for p in steps.retrieve(state, Runtime(c))["passages"]]  # type: ignore[arg-type]
    assert ids[0] == "IPC:384:-:0"  # the IPC section, searched as in force on the day of the offence
    assert c.retriever.old_days == ["2024-02-29"]  # type: ignore[attr-defined]
    assert not any(i.startswith("BNS:308") for i in ids)  # the BNS cannot punish an act done before it
    gen = Generation((AnswerSentence("Section 384 of the IPC punishes extortion.", ("IPC:384:-:0",)),), "extractive")
    steps.verify_citations({**state, "generation": gen, "passages": []}, Runtime(c))  # type: ignore[arg-type]
    assert c.verifier.offence_days == ["2024-02-29"]  # type: ignore[attr-defined]
    steps.understand(state, Runtime(c))  # type: ignore[arg-type]
    assert c.verifier.offence_days[-1] == "2024-02-29"  # type: ignore[attr-defined]  # the question's own citations
    # A comparison asks how the law changed: both codes stay, each checked for the date of the facts.
    analytical = {**state, "classification": Classification(Complexity.ANALYTICAL, "f")}
    assert steps.understand(analytical, Runtime(c))["facts"].offence_on is None  # type: ignore[arg-type]
    # The same facts with no date before 2024-07-01 are read for the day of the proceedings.
    later = {**state, "question": PENDING_CHEATING.replace("February 2024", "August 2024")}
    ids = [p.chunk_id for p in steps.retrieve(later, Runtime(c))["passages"]]  # type: ignore[arg-type]
    assert "IPC:384:-:0" not in ids and "BNS:308:2:0" in ids


@dataclass
class TableRetriever(ByActRetriever):
    """The correspondence table's predecessor of a BNS section: IPC 384, in force until 2024-07-01."""

    def counterparts(self, act: str, section: str) -> list[tuple[Pin, Chunk]]:
        ipc = dataclasses.replace(CHUNKS["IPC:384:-:0"], in_force_from="1860-10-06", in_force_to="2024-07-01")
        return [(Pin.PREDECESSOR, ipc)] if act == "BNS" else []


def test_the_old_code_gets_what_the_tables_say_the_new_codes_best_section_replaced() -> None:
    # the search of the IPC alone finds nothing; the BNS section retrieval ranked first brings its predecessor
    c = ctx(retriever=TableRetriever([retrieved("BNS:308:2:0")], old=[]))
    state = {"question": PENDING_CHEATING, "as_of": "2024-10-01", "classification": Classification(
        Complexity.STANDARD, "f")}  # fmt: skip
    ids = [p.chunk_id for p in steps.retrieve(state, Runtime(c))["passages"]]  # type: ignore[arg-type]
    assert ids[0] == "IPC:384:-:0" and not any(i.startswith("BNS:308") for i in ids), ids


def test_what_the_tables_say_the_new_codes_best_section_replaced_comes_before_the_old_codes_own_search() -> None:
    # the whole index's search (with its lay situations) found extortion; the IPC's own words ranked theft first
    theft = Retrieved(_PARTNERED["IPC:379:-:0"], 1.0, {"dense": 0.6, "fused": 1.0})
    c = ctx(retriever=TableRetriever([retrieved("BNS:308:2:0")], old=[theft]))
    state = {"question": PENDING_CHEATING, "as_of": "2024-10-01", "classification": Classification(
        Complexity.STANDARD, "f")}  # fmt: skip
    ids = [p.chunk_id for p in steps.retrieve(state, Runtime(c))["passages"]]  # type: ignore[arg-type]
    assert ids.index("IPC:384:-:0") < ids.index("IPC:379:-:0"), ids


def test_two_rankings_are_taken_in_turn_each_section_whole_and_once() -> None:
    def p(cid: str) -> Passage:
        return _steps._passage(CHUNKS[cid], score=1.0, pinned=None, relevance=0.5)

    first = [p("BNS:308:2:0"), p("CRPC:167:2:0"), p("BNS:308:2:0")]
    second = [p("IPC:384:-:0"), p("CRPC:167:2:0"), p("BNSS:187:3:0")]
    assert [x.chunk_id for x in _steps._interleaved(first, second)] == [
        "BNS:308:2:0", "IPC:384:-:0", "CRPC:167:2:0", "BNSS:187:3:0"]


def test_verify_claims_simple_uses_cited_passages_other_routes_re_retrieve() -> None:
    p = steps.to_passage(retrieved("BNS:308:2:0"))
    claim = DraftClaim(text="Extortion is punishable.", chunk_ids=["BNS:308:2:0"])
    retriever = FakeRetriever([retrieved("BNS:308:1:0")])
    c = ctx(retriever=retriever)
    base = {"passages": [p], "drafts": [claim], "as_of": "2025-03-01", "generation": Generation((), "fake")}
    simple = steps.verify_claims({**base, "classification": Classification(Complexity.SIMPLE, "f")}, Runtime(c))  # type: ignore[arg-type]
    assert simple["claims"][0].evidence == ["BNS:308:2:0"] and retriever.queries == []
    assert simple["summary"].method is VerificationMethod.GROUNDED_REFINEMENT
    gg = steps.verify_claims({**base, "classification": Classification(Complexity.COMPLEX, "f")}, Runtime(c))  # type: ignore[arg-type]
    assert retriever.queries == [("Extortion is punishable.", 5)]  # the claim retrieved its own evidence
    assert gg["claims"][0].evidence == ["BNS:308:2:0", "BNS:308:1:0"]
    assert gg["claims"][0].agreement == 1.0 and gg["summary"].method is VerificationMethod.GENGROUND


@pytest.mark.parametrize(
    ("citations", "quotes", "verdict"),
    [
        ([check("PROVISION", "not_found", "no such section")], [], "UNSUPPORTED"),
        ([], [quote("misquoted", "differs")], "CONTRADICTED"),
        ([], [quote("misattributed", "elsewhere")], "UNSUPPORTED"),
        ([check("PROVISION", "repealed", "repealed")], [], "SUPPORTED"),  # kept, warned
    ],
)
def test_failed_checks_decide_the_claim_before_the_aligner(
    citations: list[CitationCheck], quotes: list[QuoteCheck], verdict: str
) -> None:
    claim = DraftClaim(text="x", chunk_ids=[], citations=citations, quotes=quotes)
    c = ctx()
    state = {
        "passages": [steps.to_passage(retrieved("BNS:308:2:0"))],
        "drafts": [claim],
        "as_of": "2025-03-01",
        "generation": Generation((), "fake"),
        "classification": Classification(Complexity.SIMPLE, "f"),
    }
    assert steps.verify_claims(state, Runtime(c))["claims"][0].verdict is Verdict(verdict)  # type: ignore[arg-type]


def test_reconstruct_drops_caveats_numbers_and_warns() -> None:
    def mk(t: str, v: str, ids: list[str], cits: Sequence[CitationCheck] = ()) -> Claim:
        return Claim(text=t, verdict=Verdict(v), chunk_ids=ids, citations=list(cits), reasons=["r"])

    claims = [
        mk("A.", "SUPPORTED", ["BNS:308:2:0"]),
        mk("B.", "PARTIALLY_SUPPORTED", ["BNS:308:1:0"]),
        mk("C.", "CONTRADICTED", ["BNS:308:2:0"]),
        mk("D.", "SUPPORTED", ["BNS:308:2:0"], [check("PROVISION", "repealed", "gone")]),
    ]
    state = {
        "claims": claims,
        "passages": [steps.to_passage(retrieved(c)) for c in CHUNKS],
        "summary": VerificationSummary(method=VerificationMethod.GENGROUND),
    }
    out = steps.reconstruct(state, Runtime(ctx()))  # type: ignore[arg-type]
    assert out["answer"] == (
        "A. [1]\nB. [2] (only partly supported by the cited text: verify before relying on it)\nD. [1]"
    )
    assert [s.chunk_id for s in out["sources"]] == ["BNS:308:2:0", "BNS:308:1:0"]
    assert (
        out["summary"].model_dump().items()
        >= {"claims": 4, "supported": 2, "partial": 1, "removed": 1, "contradicted": 1}.items()
    )
    assert any("1 statement(s) removed" in w for w in out["warnings"]) and "gone" in out["warnings"]


@pytest.mark.parametrize(
    ("label", "status"),
    [("PROVISION", "unresolved"), ("PROVISION", "unchecked"), ("PROVISION", "not_yet_in_force"),
     ("PRECEDENT", "not_in_registry"), ("PRECEDENT", "mismatch"), ("STATUTE", "repealed")],
)
def test_every_citation_the_graph_did_not_verify_is_warned_about(label: str, status: str) -> None:
    cit = check(label, status, f"{label} {status}: could not verify")
    claim = Claim(text="A.", verdict=Verdict.SUPPORTED, chunk_ids=["BNS:308:2:0"], citations=[cit])
    summary = VerificationSummary(method=VerificationMethod.GENGROUND)
    out = steps.reconstruct({"claims": [claim], "passages": [], "summary": summary}, Runtime(ctx()))  # type: ignore[arg-type]
    assert cit.message in out["warnings"]


def confidence_of(**kw: Any) -> Confidence:
    base: dict[str, Any] = dict(
        question="What is the punishment for extortion?", as_of="2025-03-01",
        names_provision=False, coverage=1.0, citation_statuses=[CitationStatus.VERIFIED],
    )
    base.update(kw)
    return score(**base)


def test_confidence_is_the_fitted_logistic_model_with_its_caps() -> None:
    on_point = confidence_of()
    z = INTERCEPT + sum(WEIGHTS[f.name] * f.value for f in on_point.factors)
    assert on_point.score == pytest.approx(1 / (1 + math.exp(-z)), abs=1e-4)
    assert on_point.factor("question_coverage").value == 1.0 and on_point.factor("question_parts").value == 0.0
    # each factor moves the score the way its weight says
    assert confidence_of(coverage=0.6).score < on_point.score
    assert confidence_of(names_provision=True).score > on_point.score
    assert confidence_of(as_of="2023-01-01").score < on_point.score
    two_asks = confidence_of(
        question="What is the punishment for extortion, and when may the police arrest without warrant?"
    )
    assert two_asks.factor("question_parts").value == 0.5 and two_asks.score < on_point.score
    # evidence that does not address the question, or a citation nobody could check: never Medium or High
    assert confidence_of(coverage=0.4, names_provision=True).score <= NOT_ADDRESSED_CAP
    # a question naming no provision, partly addressed: never High (a named provision quoted answers what it asks)
    assert confidence_of(coverage=0.65).score <= PARTLY_ADDRESSED_CAP < 0.8
    assert confidence_of(coverage=0.75).score <= PARTLY_ADDRESSED_CAP  # three of the blind sets' wrong High were here
    assert confidence_of(coverage=0.75, names_provision=True).score >= 0.8
    # a story whose words only the lay situation of the quoted provision holds: Medium at most, never High
    story = confidence_of(coverage=0.3, story_coverage=0.9)
    assert NOT_ADDRESSED_CAP < story.score <= PARTLY_ADDRESSED_CAP < 0.8
    assert confidence_of(coverage=0.3, story_coverage=0.4).score <= NOT_ADDRESSED_CAP
    eight = confidence_of(coverage=0.8)
    z8 = INTERCEPT + sum(WEIGHTS[f.name] * f.value for f in eight.factors)
    assert eight.score == pytest.approx(1 / (1 + math.exp(-z8)), abs=1e-4)
    unchecked = confidence_of(names_provision=True, citation_statuses=[CitationStatus.UNCHECKED])
    assert unchecked.score <= UNVERIFIED_CAP and unchecked.label is ConfidenceLabel.LOW
    # a repealed citation is flagged by a warning, not by the score: it is the right answer to "under IPC 384..."
    assert confidence_of(citation_statuses=[CitationStatus.REPEALED]).score == on_point.score
    assert confidence_of(coverage=0.0).label is ConfidenceLabel.LOW  # nothing supports it
    assert [label_for(x) for x in (0.8, 0.79, 0.6, 0.59)] == ["High", "Medium", "Medium", "Low"]
    low = run_graph(
        ctx(
            verifier=FakeVerifier({"BNS 308": CitationStatus.REPEALED}),
            retriever=FakeRetriever([retrieved("BNS:308:2:0", dense=0.25)]),
        ),
        question="What is the punishment for bribery?",
    )
    # extortion evidence for a bribery question: it says so, and the score stays below Medium
    assert low["confidence"].label is ConfidenceLabel.LOW and low["answer"].startswith(LOW_WARNING)
    assert any('do not mention "bribery"' in w for w in low["warnings"])


def test_a_question_naming_a_provision_is_addressed_by_quoting_it() -> None:
    """ "Text of section 308 of the BNS please" has subject words ("text", "please") no statute uses: the answer
    quoting BNS 308 addresses it all the same, so no "may not answer" warning and no cap on the score."""
    out = run_graph(ctx(), question="Text of Section 308 of the BNS please")
    assert out["confidence"].factor("question_coverage").value == 1.0
    assert out["confidence"].score > NOT_ADDRESSED_CAP
    assert not any("may not answer" in w for w in out["warnings"])
    # the same words without the provision named: nothing says what they are about
    vague = run_graph(ctx(), question="Text please, the one about property and fear")
    assert vague["confidence"].factor("question_coverage").value < 1.0
    # naming a provision does not cover what else is asked: BNS 308(2) says nothing of bail or the trial court
    more = run_graph(ctx(), question="Is the offence under Section 308 of the BNS bailable, and which court tries it?")
    assert more["confidence"].factor("question_coverage").value < 0.5
    assert more["confidence"].score <= NOT_ADDRESSED_CAP and any("may not answer" in w for w in more["warnings"])


# -- the compiled graph: loops are bounded --


TWO_ASKS = "What is the punishment for extortion, and when may the police arrest without warrant?"


def test_each_ask_of_a_multi_part_question_is_retrieved_among_the_acts_the_question_found() -> None:
    retriever = FakeRetriever([retrieved("BNS:308:2:0", dense=0.6)])
    run_graph(ctx(retriever=retriever), question=TWO_ASKS)
    asks = [(q, a) for q, a in retriever.acts_asked if q in question_parts(TWO_ASKS)]
    assert asks == [("What is the punishment for extortion", frozenset({"BNS"})),
                    ("when may the police arrest without warrant", frozenset({"BNS"}))]  # fmt: skip
    assert all(k == steps.PART_K for q, k in retriever.queries if q in question_parts(TWO_ASKS))


def test_an_ask_with_nothing_relevant_among_those_acts_is_retrieved_over_every_act() -> None:
    retriever = FakeRetriever([retrieved("BNS:308:2:0", dense=0.05)])
    run_graph(ctx(retriever=retriever, settings=WorkflowSettings(max_retrievals=1)), question=TWO_ASKS)
    ask = "when may the police arrest without warrant"
    assert [a for q, a in retriever.acts_asked if q == ask] == [frozenset({"BNS"}), None]


def test_weak_retrieval_widens_once_then_stops() -> None:
    retriever = FakeRetriever([retrieved("BNS:308:2:0", dense=0.05)])
    out = run_graph(ctx(retriever=retriever, settings=WorkflowSettings(max_retrievals=2)))
    assert out["retrieval_round"] == 2 and [k for _, k in retriever.queries][:2] == [8, 16]


def test_failed_checks_regenerate_at_most_max_generations() -> None:
    gen = FakeGenerator([AnswerSentence("Section 999 of the BNS says so.", ())])
    out = run_graph(
        ctx(
            generator=gen,
            verifier=FakeVerifier({"BNS 999": CitationStatus.NOT_FOUND}),
            settings=WorkflowSettings(max_generations=3),
        )
    )
    assert out["generation_round"] == 3 and len(gen.questions) == 3
    assert out["answer"] == steps.NO_ANSWER and out["summary"].removed == 1


def test_graph_records_every_stage_time() -> None:
    out = run_graph(ctx())
    assert set(out["timings_ms"]) == set(STAGES)


# -- AskService: the stage callback and the result model --

QUESTION = "What is the punishment for extortion?"


class ClientGone(Exception):
    """What a server's stage callback raises when its client disconnected."""


def test_on_stage_reports_every_stage_in_order_with_its_time() -> None:
    seen: list[tuple[str, float]] = []
    r = AskService(ctx()).ask(QUESTION, "2025-03-01", on_stage=lambda stage, ms: seen.append((stage, ms)))
    assert [stage for stage, _ in seen] == list(STAGES)
    assert all(ms >= 0 for _, ms in seen)
    assert {stage: round(ms, 2) for stage, ms in seen} == {k: v for k, v in r.timings_ms.items() if k != "total"}


def test_on_stage_reports_each_run_of_a_loop() -> None:
    retriever = FakeRetriever([retrieved("BNS:308:2:0", dense=0.05)])  # weak: retrieved again, widened
    seen: list[str] = []
    c = ctx(retriever=retriever, settings=WorkflowSettings(max_retrievals=2))
    AskService(c).ask(QUESTION, "2025-03-01", on_stage=lambda stage, ms: seen.append(stage))
    assert seen[:5] == ["classify", "understand", "retrieve", "retrieve", "generate"]
    assert seen[5:] == list(STAGES[4:])


def test_a_callback_that_raises_stops_the_workflow_and_the_error_propagates() -> None:
    generator = FakeGenerator([AnswerSentence("Extortion is punishable.", ("BNS:308:2:0",))])
    retriever = FakeRetriever([retrieved("BNS:308:2:0")])
    seen: list[str] = []

    def on_stage(stage: str, elapsed_ms: float) -> None:
        seen.append(stage)
        if stage == "retrieve":
            raise ClientGone(stage)

    with pytest.raises(ClientGone) as raised:
        AskService(ctx(generator=generator, retriever=retriever)).ask(QUESTION, "2025-03-01", on_stage=on_stage)
    assert raised.value.args == ("retrieve",)
    assert seen == ["classify", "understand", "retrieve"]
    assert len(retriever.queries) == 1 and generator.questions == []  # nothing after retrieval ran


@pytest.mark.parametrize(
    ("question", "method"),
    [(QUESTION, VerificationMethod.GROUNDED_REFINEMENT),
     ("What does Section 999 of the BNS say?", VerificationMethod.NONE)],  # no such section: finalise at once
)  # fmt: skip
def test_ask_result_round_trips_through_its_json(question: str, method: VerificationMethod) -> None:
    c = ctx(verifier=FakeVerifier({"BNS 999": CitationStatus.NOT_FOUND}), classifier=FakeClassifier(Complexity.SIMPLE))
    r = AskService(c).ask(question, "2025-03-01")
    assert r.verification_summary.method is method and r.citations
    obj = r.model_dump(mode="json")
    assert AskResult.model_validate(obj) == r
    assert AskResult.model_validate_json(r.model_dump_json()) == r
    assert list(obj) == [
        "question", "as_of", "answer", "complexity", "classification", "citations", "sources", "claims", "warnings",
        "confidence", "verification_summary", "generator", "model", "usage", "timings_ms",
    ]  # fmt: skip
    assert set(obj["confidence"]) == {"score", "label", "factors"}
    assert set(obj["citations"][0]) == {
        "text", "act", "act_title", "section", "status", "successors", "message", "where"
    }  # fmt: skip


def test_confidence_factors_are_typed_with_their_weights() -> None:
    r = AskService(ctx()).ask(QUESTION, "2025-03-01")
    factors = r.confidence.factors
    assert all(isinstance(f, ConfidenceFactor) for f in factors)
    assert [(f.name, f.weight) for f in factors] == list(WEIGHTS.items())
    assert all(0.0 <= f.value <= 1.0 for f in factors)
    assert r.confidence.label is label_for(r.confidence.score)
    assert r.model_dump(mode="json")["confidence"]["factors"][-1] == {
        "name": "question_parts",
        "weight": WEIGHTS["question_parts"],
        "value": 0.0,
    }


# -- the extractive generator --


def test_extractive_quotes_verbatim_with_the_provision_and_declines_when_weak() -> None:
    g = ExtractiveGenerator({"BNS": "The Bharatiya Nyaya Sanhita, 2023"})
    passages = [steps.to_passage(retrieved(c)) for c in ("BNS:308:1:0", "BNS:308:2:0")]
    gen = g.generate(
        "What is the punishment for extortion?", passages, as_of="2025-03-01", complexity=Complexity.SIMPLE
    )
    quoted = {s.text: s.chunk_ids for s in gen.sentences}
    assert quoted[f'Section 308(2) of the Bharatiya Nyaya Sanhita, 2023 provides: "{BNS_308_2}"'] == ("BNS:308:2:0",)
    assert all(s.text.startswith("Section 308(") for s in gen.sentences)
    weak = [steps.to_passage(retrieved("BNS:308:2:0", dense=0.1))]
    none = g.generate("capital of France", weak, as_of="2025-03-01", complexity=Complexity.SIMPLE)
    assert none.insufficient and none.sentences[0].text == INSUFFICIENT


def test_a_checked_verbatim_quotation_needs_no_aligner_but_an_unchecked_one_does() -> None:
    text = f'Section 308(2) of the BNS provides: "{BNS_308_2}"'
    cit = check("PROVISION", "verified", "ok").model_copy(update={"act": "BNS", "section": "308(2)"})
    exact = quote("exact", "exact", source="BNS:308:2:0")
    aligner = FakeAligner({"Section": Verdict.CONTRADICTED})
    c = ctx(aligner=aligner)
    state = {"passages": [steps.to_passage(retrieved("BNS:308:2:0"))], "as_of": "2025-03-01",
             "generation": Generation((), "fake"), "classification": Classification(Complexity.SIMPLE, "f")}
    claim = DraftClaim(text=text, chunk_ids=["BNS:308:2:0"], citations=[cit], quotes=[exact])
    out = steps.verify_claims({**state, "drafts": [claim]}, Runtime(c))  # type: ignore[arg-type]
    assert out["claims"][0].verdict is Verdict.SUPPORTED and aligner.seen == []
    fuzzy = claim.model_copy(update={"quotes": [exact.model_copy(update={"status": QuoteStatus.FUZZY})]})
    out = steps.verify_claims({**state, "drafts": [fuzzy]}, Runtime(c))  # type: ignore[arg-type]
    assert out["claims"][0].verdict is Verdict.CONTRADICTED and len(aligner.seen) == 1
    added = claim.model_copy(update={"text": text + " It also applies to attempts."})
    out = steps.verify_claims({**state, "drafts": [added]}, Runtime(c))  # type: ignore[arg-type]
    assert out["claims"][0].verdict is Verdict.CONTRADICTED  # more than the quote: the aligner decides


def _quotation_claim(quotes: list[tuple[QuoteStatus, str]], provisions: int = 1) -> DraftClaim:
    cit = CitationCheck(start=0, end=14, text="Section 144(1)", label=Label.PROVISION, act="BNSS", section="144(1)",
                        status=CitationStatus.VERIFIED, message="ok")  # fmt: skip
    text = ('Section 144(1) of the Bharatiya Nagarik Suraksha Sanhita, 2023 provides: "(1) If any person ... '
            'maintain\u2014" \u2026 "(a) his wife, unable to maintain herself; or"')
    return DraftClaim(text=text, chunk_ids=["BNSS:144:1:0", "BNSS:144:1/a:0"], citations=[cit] * provisions,
                      quotes=[QuoteCheck(text="q", start=0, end=1, source=src, status=st, score=1.0, message="")
                              for st, src in quotes])  # fmt: skip


def test_a_quotation_of_several_quotes_is_verbatim_only_when_every_quote_is_of_the_one_provision() -> None:
    both = [(QuoteStatus.EXACT, "BNSS 144(1)"), (QuoteStatus.EXACT, "BNSS 144(1)")]
    assert steps._verbatim_source(_quotation_claim(both)) == "BNSS 144(1)"
    assert steps._verbatim_source(_quotation_claim([(QuoteStatus.EXACT, "BNSS 144(1)"),
                                                    (QuoteStatus.MISATTRIBUTED, "BNSS 144(1)")])) is None
    assert steps._verbatim_source(_quotation_claim([(QuoteStatus.EXACT, "BNSS 144(1)"),
                                                    (QuoteStatus.EXACT, "BNSS 145")])) is None
    assert steps._verbatim_source(_quotation_claim(both, provisions=2)) is None
    # Exact, but in another Act's chunk than the one the sentence cites: the aligner judges it.
    assert steps._verbatim_source(_quotation_claim([(QuoteStatus.EXACT, "BNSS:144:1:0"),
                                                    (QuoteStatus.EXACT, "JJA:2:14/ix:0")])) is None
    assert steps._verbatim_source(_quotation_claim([(QuoteStatus.EXACT, "GWA:4:3:0")])) is None
    assert steps._verbatim_source(_quotation_claim([(QuoteStatus.EXACT, "BNSS:144:1/a:0")])) == "BNSS:144:1/a:0"


def test_a_quotation_with_words_of_its_own_is_left_to_the_aligner() -> None:
    cit = CitationCheck(start=0, end=11, text="Section 302", label=Label.PROVISION, act="IPC", section="302",
                        status=CitationStatus.VERIFIED, message="ok")  # fmt: skip
    exact = [QuoteCheck(text="q", start=0, end=1, source="IPC 302", status=QuoteStatus.EXACT, score=1.0, message="")]
    plain = 'Section 302 of the Indian Penal Code, 1860 provides: "Whoever commits murder shall be punished with death"'
    assert steps._verbatim_source(DraftClaim(text=plain, chunk_ids=[], citations=[cit], quotes=exact)) == "IPC 302"
    for text in (
        # Wording between two exact quotes is a claim of its own.
        'Section 302 of the Indian Penal Code provides: "Whoever commits murder shall be punished with death" but '
        'this section was struck down in 2019 and "shall also be liable to fine."',
        # So is an aside in the Act's name.
        'Section 302 of the Indian Penal Code, under which a mob lynching is always punished by death, provides: '
        '"Whoever commits murder shall be punished with death"',
    ):
        claim = DraftClaim(text=text, chunk_ids=[], citations=[cit], quotes=exact * 2)
        assert steps._verbatim_source(claim) is None



def test_proceedings_pending_on_the_cutover_are_answered_from_the_crpc_as_it_was_then() -> None:
    @dataclass
    class CrpcRetriever(FakeRetriever):
        days: list[str | None] = field(default_factory=list)

        def retrieve(self, query: str, k: int = 10, **kw: Any) -> list[Retrieved]:
            if kw.get("acts") is not None and set(kw["acts"]) == {"CRPC"}:
                self.days.append(kw.get("as_of"))
                return [retrieved("CRPC:167:2:0")]
            return super().retrieve(query, k, **kw)

    c = ctx(retriever=CrpcRetriever([retrieved("BNSS:187:3:0"), retrieved("BNSS:531:2:0")]))
    state = {"question": "My son was arrested on 20 June 2024 and no charge sheet has been filed yet. Default bail?",
             "as_of": "2024-09-01", "classification": Classification(Complexity.STANDARD, "f")}
    state = {**state, **_steps.understand(state, Runtime(c))}  # type: ignore[arg-type]
    ids = [p.chunk_id for p in steps.retrieve(state, Runtime(c))["passages"]]
    assert ids[0] == "CRPC:167:2:0" and c.retriever.days == ["2024-06-30"]  # type: ignore[attr-defined]
    assert "BNSS:531:2:0" in ids and not any(i.startswith("BNSS:187") for i in ids)
    gen = Generation((AnswerSentence("Section 167(2) of the CrPC applies.", ("CRPC:167:2:0",)),), "extractive")
    steps.verify_citations({**state, "generation": gen, "passages": []}, Runtime(c))
    assert c.verifier.proceedings_days[-1] == "2024-06-30"  # type: ignore[attr-defined]  # the CrPC on its eve


def test_a_question_naming_its_acts_is_answered_from_them() -> None:
    facts = QuestionFacts(as_of="2025-03-01", acts_named=("IEA", "BSA"))
    mva = _steps._passage(chunk("MVA:157:1:0", "(1) Where a person in whose favour the certificate of insurance ...",
                                "MVA s.157(1) Transfer of certificate of insurance"), score=1.0, pinned=None,
                          relevance=0.5)
    bsa = dataclasses.replace(_steps._passage(CHUNKS["BNS:308:2:0"], score=1.0, pinned=None, relevance=0.5),
                              act="BSA")  # an unpinned passage of a named Act
    iea = _steps._passage(CHUNKS["IPC:384:-:0"], score=1.0, pinned=Pin.CITED, relevance=1.0)
    kept = _steps._of_named_acts([mva, bsa, iea], facts)
    assert [p.act for p in kept] == ["BSA", "IPC"]  # the Motor Vehicles Act's "certificate" leaves; pinned stays
    # the other criminal codes count as named (an offence under the BNS is tried and bailed under the BNSS); a
    # question naming no Act keeps everything
    assert [p.act for p in _steps._of_named_acts([mva, bsa], QuestionFacts(as_of="x", acts_named=("BNS",)))] == [
        "BSA"]
    assert len(_steps._of_named_acts([mva, bsa], QuestionFacts(as_of="x"))) == 2
    # nothing but pinned passages of the named Acts: everything stays (the named Acts retrieved nothing)
    assert len(_steps._of_named_acts([mva, iea], facts)) == 2


def test_a_question_resting_only_on_a_provision_that_is_not_law_is_answered_beyond_its_act() -> None:
    """"Can I get him arrested under section 66A of the IT Act?": the IT Act is where the question looked, not where
    the answer is."""
    struck = Lapsed("ITA", "66A", "Punishment for sending offensive messages", "struck down")
    ita = dataclasses.replace(_steps._passage(CHUNKS["IPC:384:-:0"], score=1.0, pinned=Pin.CITED, relevance=1.0),
                              act="ITA")
    bns = dataclasses.replace(_steps._passage(CHUNKS["BNS:308:2:0"], score=1.0, pinned=None, relevance=0.5))
    other = dataclasses.replace(ita, pinned=None)
    resting = QuestionFacts(as_of="2025-03-01", acts_named=("ITA",), provisions_named=(("ITA", "66A"),),
                            premises=(Premise(struck, "section 66A of the IT Act"),))
    assert [p.act for p in _steps._of_named_acts([ita, other, bns], resting)] == ["ITA", "ITA", "BNS"]
    # another provision of the Act named beside it keeps the question in its Act
    both = dataclasses.replace(resting, provisions_named=(("ITA", "66A"), ("ITA", "66D")))
    assert [p.act for p in _steps._of_named_acts([ita, other, bns], both)] == ["ITA", "ITA"]


def test_a_matter_over_before_the_new_codes_is_answered_as_of_the_day_it_was_over_and_never_high() -> None:
    question = "The trial for a 2019 offence ended in 2022. Were the printouts of the chats admissible then?"
    simple = Classification(Complexity.SIMPLE, "fake")
    verifier = FakeVerifier()
    out = steps.understand({"question": question, "as_of": "2025-03-01",  # type: ignore[arg-type]
                            "classification": simple}, Runtime(ctx(verifier=verifier)))  # fmt: skip
    assert out["as_of"] == "2022-12-31" and out["facts"].closed_on == "2022-12-31"
    assert out["facts"].as_of == "2022-12-31" and [e.end.isoformat() for e in out["facts"].dates][-1] == "2022-12-31"
    whole = run_graph(ctx(), question=question)
    assert whole["as_of"] == "2022-12-31" and whole["confidence"].score <= INFERRED_DATE_CAP
    # an open matter keeps the day asked for
    assert run_graph(ctx(), question="The trial for a 2019 offence is pending. Were the printouts admissible?"
                     )["as_of"] == "2025-03-01"


def test_an_offence_dated_by_its_story_is_checked_on_that_day_and_never_high() -> None:
    question = "In 2022 a stranger in a crowded bus grabbed my daughter's hand. What offence is it?"
    verifier = FakeVerifier()
    whole = run_graph(ctx(verifier=verifier), question=question)
    assert whole["facts"].offence_on == "2022-12-31" and "2022-12-31" in verifier.offence_days
    assert whole["confidence"].score <= INFERRED_DATE_CAP


@pytest.mark.parametrize("reading", [{"offence_by_story": True}, {"closed_on": "2022-12-31"}])
def test_a_code_read_from_the_story_caps_the_answers_confidence(reading: dict[str, Any]) -> None:
    from legal_rag.workflow.coverage import Coverage

    question = "What is the punishment for extortion?"
    facts = QuestionFacts(as_of="2025-03-01")
    kept = [Claim(text=f'Section 308(2) of the BNS provides: "{BNS_308_2}"', verdict=Verdict.SUPPORTED,
                  chunk_ids=["BNS:308:2:0"], citations=[])]  # fmt: skip
    state: dict[str, Any] = {"question": question, "as_of": "2025-03-01", "facts": facts, "question_checks": []}
    plain = steps._confidence(state, kept, Coverage(1.0, ()))  # type: ignore[arg-type]
    read = steps._confidence({**state, "facts": dataclasses.replace(facts, **reading)}, kept,  # type: ignore[arg-type]
                             Coverage(1.0, ()))
    assert plain.score >= 0.8 > INFERRED_DATE_CAP >= read.score


def test_a_question_naming_a_lapsed_provision_does_not_count_as_naming_what_it_asks() -> None:
    # "No-fault compensation under section 140 of the Motor Vehicles Act" for 2025 facts: s.140 is not law and nothing
    # took its place, so what governs instead was found by retrieval, not looked up, and is scored as such.
    from legal_rag.workflow.facts import Lapsed, Premise

    mva_140 = check("PROVISION", "omitted", "MVA s.140 omitted").model_copy(update={"act": "MVA", "section": "140"})
    bns_303 = check("PROVISION", "verified", "BNS s.303").model_copy(update={"act": "BNS", "section": "303(2)"})
    lapsed = Premise(Lapsed("MVA", "140", "Liability to pay compensation in certain cases on the principle of no "
                            "fault", "Omitted by Act 32 of 2019"), named_as="section 140 of the Motor Vehicles Act")
    facts = QuestionFacts(as_of="2025-03-01", premises=(lapsed,))
    assert not _steps._names_provision({"facts": facts, "question_checks": [mva_140]})  # type: ignore[typeddict-item]
    assert _steps._names_provision({"facts": facts, "question_checks": [mva_140, bns_303]})  # type: ignore[typeddict-item]
    assert _steps._names_provision({"facts": QuestionFacts(as_of="2025-03-01"),  # type: ignore[typeddict-item]
                                    "question_checks": [mva_140]})


# Real headings (data/corpus/indiacode): HMA 19, SMA 31, and a neighbour of each that decides nothing of a forum.
FORUMS = {
    "HMA:19:-:0": chunk("HMA:19:-:0", "Every petition under this Act shall be presented to the district court within "
                        "the local limits of whose ordinary original civil jurisdiction--", "HMA s.19 Court to which "
                        "petition shall be presented"),
    "HMA:13:1:0": chunk("HMA:13:1:0", "(1) Any marriage solemnized ... may, on a petition presented by either the "
                        "husband or the wife, be dissolved by a decree of divorce", "HMA s.13(1) Divorce"),
    "SMA:31:1:0": chunk("SMA:31:1:0", "(1) Every petition under Chapter V or Chapter VI shall be presented to the "
                        "district court within the local limits of whose original civil jurisdiction--", "SMA s.31(1) "
                        "Court to which petition should be made"),
    "SMA:27:1:0": chunk("SMA:27:1:0", "(1) Subject to the provisions of this Act ... a petition for divorce may be "
                        "presented to the district court", "SMA s.27(1) Divorce"),
    "HMA:21:-:0": chunk("HMA:21:-:0", "Subject to the other provisions contained in this Act ... all proceedings "
                        "under this Act shall be regulated, as far as may be, by the Code of Civil Procedure",
                        "HMA s.21 Application of Act 5 of 1908"),
    # a second provision of an Act already served, and a third Act's, both headed as deciding a forum
    "HMA:21A:-:0": chunk("HMA:21A:-:0", "Where a petition under this Act has been presented to a district court ...",
                         "HMA s.21A Power to transfer petitions in certain cases: court to which petition shall be "
                         "presented"),
    "IDA:3:-:0": chunk("IDA:3:-:0", "In this Act, unless there be something repugnant ... District Court",
                       "IDA s.3 Court to which petition shall be presented"),
}  # fmt: skip


def test_a_forum_left_open_between_two_acts_gets_each_ones_deciding_provision() -> None:
    """"Can she file the divorce petition in Lucknow?" tells no religion or form of marriage: the Hindu Marriage Act
    and the Special Marriage Act both retrieved, each one's "Court to which petition ..." is quoted; a second provision
    of an Act already served, or a third Act, is not."""
    found = [Retrieved(c, 1.0, {"dense": 0.6, "fused": 1.0}) for c in FORUMS.values()]
    retriever = FakeRetriever([found[1], found[3], found[0], found[4], found[5], found[2], found[6]])
    passages = [steps.to_passage(r) for r in found]
    facts = QuestionFacts(as_of="2026-01-10", asks=(Ask("Can she file the divorce petition in Lucknow?",
                                                         (AskKind.FORUM,)),))
    out = steps._with_ask_forms(ctx(retriever=retriever), passages, facts)
    assert {(p.act, p.section) for p in out if p.pinned is Pin.ASK} == {("HMA", "19"), ("SMA", "31")}
    # one Act at hand: its one deciding provision
    only = steps._with_ask_forms(ctx(retriever=FakeRetriever([found[0], found[2]])), passages[:2], facts)
    assert {(p.act, p.section) for p in only if p.pinned is Pin.ASK} == {("HMA", "19")}


SET_UP = {
    "NDPS:36:1:0": chunk("NDPS:36:1:0", "(1) The Government may, for the purpose of providing speedy trials of the "
                         "offences under this Act, constitute as many Special Courts as may be necessary",
                         "NDPS s.36(1) Constitution of Special Courts"),
    "NDPS:21:-:0": chunk("NDPS:21:-:0", "Whoever, in contravention of any provision of this Act ... possesses ... any "
                         "manufactured drug", "NDPS s.21 Punishment for contravention in relation to manufactured "
                         "drugs"),
    "MWPSCA:6:1:0": chunk("MWPSCA:6:1:0", "(1) The proceedings under section 5 may be taken against any children or "
                          "relative in any district", "MWPSCA s.6(1) Jurisdiction and procedure"),
    "MWPSCA:7:1:0": chunk("MWPSCA:7:1:0", "(1) The State Government shall ... constitute for each Sub-division one or "
                          "more Tribunals", "MWPSCA s.7(1) Constitution of Maintenance Tribunal"),
}  # fmt: skip


def test_the_court_an_act_sets_up_decides_a_forum_ask_but_after_where_a_matter_is_brought() -> None:
    found = {k: Retrieved(c, 1.0, {"dense": 0.6, "fused": 1.0}) for k, c in SET_UP.items()}
    # no word of "where is a heroin case tried?" is in the heading or the Act's title: the court it sets up answers
    heroin = [found["NDPS:21:-:0"], found["NDPS:36:1:0"]]
    facts = QuestionFacts(as_of="2026-01-10", asks=(Ask("Where is a heroin case tried?", (AskKind.FORUM,)),))
    out = steps._with_ask_forms(ctx(retriever=FakeRetriever(heroin)), [steps.to_passage(r) for r in heroin], facts)
    assert {(p.act, p.section) for p in out if p.pinned is Pin.ASK} == {("NDPS", "36")}
    # where the Act says where to file, that comes first, though retrieval ranked the tribunal's constitution first
    parents = [found["MWPSCA:7:1:0"], found["MWPSCA:6:1:0"]]
    facts = QuestionFacts(as_of="2026-01-10", acts_named=("MWPSCA",), asks=(
        Ask("Where can my mother file her maintenance application?", (AskKind.FORUM,)),))
    titles = {"MWPSCA": "The Maintenance and Welfare of Parents and Senior Citizens Act, 2007"}
    out = steps._with_ask_forms(ctx(retriever=FakeRetriever(parents), act_titles=titles),
                                [steps.to_passage(r) for r in parents], facts)
    assert {(p.act, p.section) for p in out if p.pinned is Pin.ASK} == {("MWPSCA", "6")}


def test_a_named_act_is_searched_first_for_what_it_says_not_for_what_other_law_decides() -> None:
    """"Penalty ... under the Motor Vehicles Act" is searched inside that Act too; an ask that other law may decide
    (anticipatory bail after a notice under the NI Act), a provision that is not law, and the criminal codes alone are
    not."""
    def scoped(question: str, **facts_kw: Any) -> list[frozenset[str] | None]:
        retriever = FakeRetriever([retrieved("BNS:308:2:0")])
        facts = QuestionFacts(as_of="2026-01-10", **facts_kw)
        state: Any = {"question": question, "as_of": "2026-01-10", "facts": facts, "warnings": [],
                      "classification": Classification(Complexity.SIMPLE, "fake")}
        steps.retrieve(state, Runtime(ctx(retriever=retriever)))
        return [a for _, a in retriever.acts_asked if a is not None]

    punishment = (Ask("What is the penalty for drunk driving under the Motor Vehicles Act?", (AskKind.PUNISHMENT,)),)
    assert frozenset({"MVA"}) in scoped(punishment[0].text, asks=punishment, acts_named=("MVA",))
    bail = (Ask("Legal notice under section 138 of the NI Act. Can I get anticipatory bail?", (AskKind.PROCEDURE,)),)
    assert frozenset({"NIA"}) not in scoped(bail[0].text, asks=bail, acts_named=("NIA",))
    assert scoped("Punishment for theft under the BNS?", acts_named=("BNS",),
                  asks=(Ask("Punishment for theft under the BNS?", (AskKind.PUNISHMENT,)),)) == []


@dataclass
class ActsRetriever(FakeRetriever):
    """Gives the results of the Acts a search is confined to, in the order given."""

    def retrieve(self, query: str, k: int = 10, **kw: Any) -> list[Retrieved]:
        found = super().retrieve(query, k, **kw)
        acts = kw.get("acts")
        return [r for r in found if acts is None or r.chunk.act in acts]


EARLY = {
    "SMA:27:1:0": chunk("SMA:27:1:0", "(1) ... a petition for divorce may be presented to the district court",
                        "SMA s.27(1) Divorce"),
    "IDA:10:1:0": chunk("IDA:10:1:0", "(1) Any marriage solemnized ... may, on a petition presented ... be dissolved",
                        "IDA s.10(1) Grounds for dissolution of marriage"),
    "IDA:2:-:0": chunk("IDA:2:-:0", "Nothing hereinafter contained shall authorise any Court to grant any relief ... "
                       "divorce", "IDA s.2 Extent of Act"),
    "HMA:13:1:0": chunk("HMA:13:1:0", "(1) Any marriage solemnized ... be dissolved by a decree of divorce",
                        "HMA s.13(1) Divorce"),
    "HMA:14:1:0": chunk("HMA:14:1:0", "(1) ... no court shall be competent to entertain any petition for dissolution "
                        "of a marriage by a decree of divorce, unless ... one year has elapsed since the date of the "
                        "marriage", "HMA s.14(1) No petition for divorce to be presented within one year of marriage"),
}  # fmt: skip
TITLES = {"SMA": "The Special Marriage Act, 1954", "IDA": "The Divorce Act, 1869",
          "HMA": "The Hindu Marriage Act, 1955", "HSA": "The Hindu Succession Act, 1956",
          "HAMA": "The Hindu Adoptions and Maintenance Act, 1956", "DMMA": "The Dissolution of Muslim Marriages Act"}


def test_an_act_a_title_word_names_decides_an_ask_that_the_leading_acts_do_not() -> None:
    """"Can a Hindu couple file for divorce this early?": retrieval ranks the Special Marriage Act and the Divorce Act
    first; neither has a provision headed for a time bar; the Hindu Marriage Act, retrieved lower and named by a word
    of its title that few titles have ("Hindu"), has one."""
    found = [Retrieved(c, 1.0, {"dense": 0.6, "fused": 1.0}) for c in EARLY.values()]
    facts = QuestionFacts(as_of="2026-01-10", asks=(Ask("Can a Hindu couple file for divorce this early?",
                                                         (AskKind.TIME_LIMIT,)),))
    c = ctx(retriever=ActsRetriever(found), act_titles=TITLES)
    out = steps._with_ask_forms(c, [steps.to_passage(r) for r in found], facts)
    assert {(p.act, p.section) for p in out if p.pinned is Pin.ASK} == {("HMA", "14")}
    # a question without the word: the leading Acts only, and nothing of them decides it
    facts = QuestionFacts(as_of="2026-01-10", asks=(Ask("Can a couple file for divorce this early?",
                                                         (AskKind.TIME_LIMIT,)),))
    out = steps._with_ask_forms(c, [steps.to_passage(r) for r in found], facts)
    assert {(p.act, p.section) for p in out if p.pinned is Pin.ASK} == set()


def test_an_act_the_question_names_is_what_its_forum_ask_is_about() -> None:
    """"a DV Act application - which Magistrate's court should it go to?" shares no word with "Jurisdiction" or the
    Act's title; the Act named is the subject, and "Jurisdiction" is where any matter of the Act goes."""
    jurisdiction = chunk("PWDVA:27:1:0", "(1) The court of Judicial Magistrate of the first class ... within the local "
                         "limits of which ... the person aggrieved permanently or temporarily resides",
                         "PWDVA s.27(1) Jurisdiction")
    found = [Retrieved(jurisdiction, 1.0, {"dense": 0.6, "fused": 1.0})]
    ask = Ask("Drafting a DV Act application - which Magistrate's court should it go to?", (AskKind.FORUM,))
    titles = {"PWDVA": "The Protection of Women from Domestic Violence Act, 2005"}
    named = QuestionFacts(as_of="2026-01-10", acts_named=("PWDVA",), asks=(ask,))
    out = steps._with_ask_forms(ctx(retriever=ActsRetriever(found), act_titles=titles),
                                [steps.to_passage(r) for r in found], named)
    assert {(p.act, p.section) for p in out if p.pinned is Pin.ASK} == {("PWDVA", "27")}
    # unnamed, the Act retrieval points to decides it all the same: "Jurisdiction" alone names no matter, so it is
    # where every application under its Act goes (``forms.names_no_matter``)
    unnamed = QuestionFacts(as_of="2026-01-10", asks=(ask,))
    out = steps._with_ask_forms(ctx(retriever=ActsRetriever(found), act_titles=titles),
                                [steps.to_passage(r) for r in found], unnamed)
    assert {(p.act, p.section) for p in out if p.pinned is Pin.ASK} == {("PWDVA", "27")}
    # but a forum heading that names its own matter must share a word of the ask's
    commission = chunk("CPA:34:1:0", "(1) Subject to the other provisions of this Act, the District Commission "
                       "shall have jurisdiction to entertain complaints ...",
                       "CPA s.34(1) Jurisdiction of District Commission")
    found = [Retrieved(commission, 1.0, {"dense": 0.6, "fused": 1.0})]
    cpa = {"CPA": "The Consumer Protection Act, 2019"}
    out = steps._with_ask_forms(ctx(retriever=ActsRetriever(found), act_titles=cpa),
                                [steps.to_passage(r) for r in found], unnamed)
    assert {(p.act, p.section) for p in out if p.pinned is Pin.ASK} == set()


# Real text: IPC 378 (opening words) and IPC 379; MVA 185 (its opening words, clause (b) and the punishment).
_PARTNERED = {
    "IPC:378:-:0": chunk("IPC:378:-:0", "Whoever, intending to take dishonestly any movable property out of the "
                         "possession of any person without that person's consent, moves that property in order to "
                         "such taking, is said to commit theft.", "IPC s.378 Theft", status="repealed"),
    "IPC:379:-:0": chunk("IPC:379:-:0", "Whoever commits theft shall be punished with imprisonment of either "
                         "description for a term which may extend to three years, or with fine, or with both.",
                         "IPC s.379 Punishment for theft", status="repealed"),
    "MVA:185:-:0": chunk("MVA:185:-:0", "Whoever, while driving, or attempting to drive, a motor vehicle,--",
                         "MVA s.185 Driving by a drunken person or by a person under the influence of drugs"),
    "MVA:185:b:0": chunk("MVA:185:b:0", "(b) is under the influence of a drug to such an extent as to be incapable "
                         "of exercising proper control over the vehicle.\n\nshall be punishable for the first offence "
                         "with imprisonment for a term which may extend to six months",
                         "MVA s.185 Driving by a drunken person or by a person under the influence of drugs"),
}


@dataclass
class PartnerRetriever(FakeRetriever):
    def section_chunks(self, act: str, section: str) -> list[Chunk]:
        return [c for c in _PARTNERED.values() if (c.act, c.section) == (act, section)]

    def offence_partner(self, act: str, section: str) -> tuple[str, str] | None:
        return {("IPC", "378"): ("IPC", "379"), ("IPC", "379"): ("IPC", "378")}.get((act, section))


def _partnered(cid: str, dense: float, told_score: float = 0.0) -> Passage:
    p = steps.to_passage(Retrieved(_PARTNERED[cid], 1.0, {"dense": dense, "fused": 1.0}, None))
    return replace(p, told="a story", told_score=told_score)


def test_a_punishing_partner_retrieved_lower_down_is_as_relevant_as_the_definition() -> None:
    c = ctx(retriever=PartnerRetriever([]))
    out = steps._with_partners(c, [_partnered("IPC:378:-:0", 0.7), _partnered("IPC:379:-:0", 0.2)], top=1)
    assert [(p.chunk_id, p.relevance) for p in out] == [("IPC:378:-:0", 0.7), ("IPC:379:-:0", 0.7)]
    # beyond the top, nothing is raised
    out = steps._with_partners(c, [_partnered("IPC:378:-:0", 0.7), _partnered("IPC:379:-:0", 0.2)], top=0)
    assert [p.relevance for p in out] == [0.7, 0.2]


def test_a_section_retrieved_by_its_opening_words_alone_comes_whole_with_its_story() -> None:
    c = ctx(retriever=PartnerRetriever([]))
    opening = _partnered("MVA:185:-:0", 0.28, told_score=0.18)
    out = steps._with_siblings(c, [_partnered("IPC:378:-:0", 0.7), opening], top=1)
    added = [p for p in out if p.chunk_id == "MVA:185:b:0"]
    assert len(added) == 1 and added[0].told_score == 0.18 and added[0].relevance == 0.28
    # inside the top too (found by review: in its place, not moved after the others)
    out = steps._with_siblings(c, [opening, _partnered("IPC:378:-:0", 0.7)], top=2)
    assert [p.chunk_id for p in out] == ["MVA:185:-:0", "IPC:378:-:0", "MVA:185:b:0"]
    assert out[2].told_score == 0.18
    # a section retrieved by a clause that can be quoted stays as it was below the top
    out = steps._with_siblings(c, [_partnered("IPC:378:-:0", 0.7), _partnered("MVA:185:b:0", 0.3)], top=1)
    assert [p.chunk_id for p in out] == ["IPC:378:-:0", "MVA:185:b:0"]


def test_a_section_ranked_first_for_a_shared_word_does_not_lead_a_forum_search() -> None:
    from legal_rag.workflow.types import Passage as P

    def p(act: str, section: str, relevance: float) -> P:
        return P(f"{act}:{section}:-:0", act, section, f"{act} s.{section} Heading", "text", "in_force",
                 relevance=relevance)

    # "deposited it in my account" ranks the Arbitration Act's "Deposits" first, far less relevant than the cheque Act
    shared_word = [p("ACA", "38", 0.35), p("ACA", "79", 0.33), p("NIA", "142", 0.55), p("NIA", "126", 0.59)]
    assert _steps._leading_acts(shared_word) == {"NIA"}
    # two Acts about as relevant both lead; the most relevant leads though it holds one section of the first four
    close = [p("HMA", "13", 0.62), p("SMA", "27", 0.58), p("SMA", "28", 0.55), p("HMA", "19", 0.5)]
    assert _steps._leading_acts(close) == {"HMA", "SMA"}
    # the first ranked but far less relevant does not lead; one section of another Act is a shared word
    single = [p("BNS", "130", 0.24), p("POCSO", "28", 0.49), p("BNSS", "525", 0.51), p("BNSS", "362", 0.46)]
    assert _steps._leading_acts(single) == {"BNSS"}


def test_a_number_used_as_a_section_s_name_is_retrieved_as_the_provision_it_was_read_as() -> None:
    from verification.model import CitationCheck, CitationStatus, Label

    def read_as(question: str, number: str, act: str) -> CitationCheck:
        at = question.index(number)
        return CitationCheck(start=at, end=at + len(number), text=number, label=Label.PROVISION, act=act,
                             act_title=act, section=number, status=CitationStatus.VERIFIED, message="")

    q = "My tenant's cheque bounced. Can I file a 138 case against him?"
    assert _steps._numbers_named(q, [read_as(q, "138", "NIA")]) == (
        "My tenant's cheque bounced. Can I file a section 138 NIA case against him?")
    # its Act already named beside it, or a check of other words: the question as written
    q = "Can I get bail in a 318 BNS case?"
    assert _steps._numbers_named(q, [read_as(q, "318", "BNS")]) == q
    q = "What does section 420 of the IPC say?"
    named = read_as(q, "420", "IPC").model_copy(update={"text": "section 420 of the IPC", "start": 10, "end": 32})
    assert _steps._numbers_named(q, [named]) == q


@dataclass
class SavingsRetriever(FakeRetriever):
    """Every savings section's chunk, by (Act, section)."""

    def section_chunks(self, act: str, section: str) -> list[Chunk]:
        text = "(2) Notwithstanding such repeal ... shall be dealt with ... as if this had not come into force."
        return [chunk(f"{act}:{section}:2:0", text, f"{act} s.{section}(2) Repeal and savings")]


def test_a_civil_matter_s_evidence_takes_the_evidence_act_s_savings_alone() -> None:
    # a partition suit pending since 2020, the Evidence Act named with "pending": BSA 170(2) saves what may prove it;
    # the CrPC never governed it, so BNSS 531 is not quoted (second review)
    q = "My partition suit has been pending in the civil court since 2020. Will the court apply the Evidence Act to it?"
    facts = read_facts(q, "2026-11-29", comparison=False, checks_for=lambda *_: [])
    assert facts.civil_evidence and facts.pending_since is None
    out = steps._with_savings(ctx(retriever=SavingsRetriever([])), [], q, facts)
    assert {(p.act, p.section) for p in out if p.pinned is Pin.SAVINGS} == {("BSA", "170")}


def test_what_may_prove_a_civil_matter_pending_on_the_cutover_is_checked_as_the_law_stood_on_its_eve() -> None:
    # the Evidence Act's sections brought for it are the law of the matter, not repealed citations (second review)
    c = ctx(retriever=FakeRetriever([retrieved("BNS:308:2:0")]))
    q = "My divorce case has been pending since 2021. Can my husband's WhatsApp chats be used as evidence?"
    state = {"question": q, "as_of": "2026-11-29", "classification": Classification(Complexity.STANDARD, "f")}
    state = {**state, **steps.understand(state, Runtime(c))}  # type: ignore[arg-type]
    assert state["facts"].civil_evidence
    gen = Generation((AnswerSentence("Section 65B of the Evidence Act governs.", ("BNS:308:2:0",)),), "extractive")
    steps.verify_citations({**state, "generation": gen, "passages": []}, Runtime(c))  # type: ignore[arg-type]
    assert c.verifier.proceedings_days[-1] == "2024-06-30"  # type: ignore[attr-defined]
