"""``AskService``: settings -> every collaborator, built once; ``ask(question, as_of)`` -> an ``AskResult``.

The only place that picks the generator, classifier and aligner: offline by default (extractive
generator, rule classifier, offline aligner); Claude when an Anthropic key is configured (and
``llm.use_claude_judge`` for classification and claim judging); an OpenAI-compatible server when
``llm.provider`` says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from graph_schema.dates import day_or_today
from graph_schema.errors import ConfigurationError
from graph_schema.model import CitationKey
from graph_schema.numbering import parse_reference
from graph_schema.store import GraphStore
from legal_rag.retrieval.offences import makes_offence
from legal_rag.settings import Settings
from legal_rag.workflow.context import WorkflowContext
from legal_rag.workflow.facts import Lapsed, act_name
from legal_rag.workflow.graph import StageDone, build_workflow
from legal_rag.workflow.results import AskResult, CitationOut, ClaimOut, ClassificationOut
from legal_rag.workflow.state import WorkflowState
from legal_rag.workflow.types import Usage
from verification.model import CitationStatus, Label

__all__ = ["AskResult", "AskService", "StageCallback", "build_service", "to_result"]

StageCallback = Callable[[str, float], None]
"""``on_stage(stage, elapsed_ms)``: called as each workflow node finishes; raising stops the workflow."""


@dataclass
class AskService:
    context: WorkflowContext
    graph: Any = None

    def __post_init__(self) -> None:
        if self.graph is None:
            self.graph = build_workflow()

    def ask(self, question: str, as_of: str | None = None, on_stage: StageCallback | None = None) -> AskResult:
        """Answer ``question`` for facts on ``as_of`` (ISO date; default today).

        ``on_stage(stage, elapsed_ms)`` is called as each node finishes (a stage that loops is
        reported once per run), before the next one starts. Whatever it raises propagates out of
        ``ask`` and no further stage runs: a server cancels the work for a client that went away.

        Raises:
            ValueError: an empty question or a malformed date.
        """
        if not question or not question.strip():
            raise ValueError("the question is empty")
        day = day_or_today(as_of)
        inputs: WorkflowState = {"question": question.strip(), "as_of": day, "warnings": [], "timings_ms": {}}
        t = time.perf_counter()
        state: WorkflowState = inputs
        events = self.graph.stream(inputs, context=self.context, stream_mode=["custom", "values"])
        with closing(events):  # a raising callback leaves the run suspended: end it now
            for mode, event in events:
                if mode == "values":
                    state = event
                elif on_stage is not None and isinstance(event, StageDone):
                    on_stage(event.stage, event.elapsed_ms)
        total = (time.perf_counter() - t) * 1000
        return to_result(state, total)


def to_result(state: WorkflowState, total_ms: float) -> AskResult:
    cls = state["classification"]
    gen = state.get("generation")
    kept = state.get("kept", [])
    kept_texts = {c.text for c in kept}
    facts = state.get("facts")
    unknown = set(facts.unknown_acts) if facts is not None else set()
    # The question's provisions, and the Acts it names that the graph does not hold ("under the Payment of Gratuity
    # Act, 1972"): a citation of the question nobody could verify is reported as one, not only said in the answer.
    citations = [CitationOut.of(c, "question") for c in state.get("question_checks", [])
                 if c.label is Label.PROVISION or (c.label is Label.STATUTE and c.status is CitationStatus.UNKNOWN_ACT
                                                   and act_name(c.text) in unknown)]  # fmt: skip
    seen = set()
    for claim in kept:
        for c in claim.citations:
            key = (c.act, c.section, c.text)
            if c.label in (Label.PROVISION, Label.PRECEDENT) and key not in seen:
                seen.add(key)
                citations.append(CitationOut.of(c, "answer"))
    claims = [
        ClaimOut(text=c.text, verdict=c.verdict, evidence=c.evidence, cited=c.chunk_ids, reasons=c.reasons,
                 kept=c.text in kept_texts)
        for c in state.get("claims", [])
    ]  # fmt: skip
    timings = dict(state.get("timings_ms", {}))
    timings["total"] = round(total_ms, 2)
    return AskResult(
        question=state["question"], as_of=state["as_of"], answer=state["answer"], complexity=cls.complexity,
        classification=ClassificationOut.of(cls), citations=citations, sources=state.get("sources", []),
        claims=claims, warnings=list(dict.fromkeys(state.get("warnings", []))), confidence=state["confidence"],
        verification_summary=state["summary"], generator=gen.generator if gen else "none",
        model=gen.model if gen else None, usage=gen.usage if gen else Usage(), timings_ms=timings,
    )  # fmt: skip


def build_service(settings: Settings, store: GraphStore, retriever: Any, embedder: Any,
                  verifier: Any = None, titles: Mapping[str, str] | None = None) -> AskService:
    """Wire the configured implementations around an open graph store and retriever (and the process's
    ``verifier``, whose citation pipeline is then shared; a new one is built on ``store`` otherwise)."""
    from legal_rag.workflow.classify import RuleClassifier
    from legal_rag.workflow.generators.extractive import ExtractiveGenerator
    from legal_rag.workflow.mixups import embedding_similarity
    from verification.claims.align import OfflineAligner
    from verification.verify import Verifier

    if titles is None:
        titles = {a.code: a.title for a in store.all_acts()}
    relevance = None
    if settings.workflow.relevance_model is not None:
        from legal_rag.workflow.relevance import LinearRelevance

        relevance = LinearRelevance.load(settings.workflow.relevance_model)
    extractive = ExtractiveGenerator(
        titles, weak=settings.workflow.weak_retrieval, terms=getattr(retriever, "terms", None), relevance=relevance
    )
    classifier: Any = RuleClassifier()
    aligner: Any = OfflineAligner(embedder)
    generator: Any = extractive
    provider = settings.llm.resolved_provider()
    if provider == "anthropic":
        from legal_rag.workflow.generators.anthropic_gen import AnthropicGenerator
        from legal_rag.workflow.generators.claude import ClaudeClient

        if settings.llm.anthropic_api_key is None:
            raise ConfigurationError("llm.provider is anthropic but no key is set: export ANTHROPIC_API_KEY")
        client = ClaudeClient(settings.llm)
        generator = AnthropicGenerator(settings.llm, client)
        if settings.llm.use_claude_judge:
            from legal_rag.workflow.align import ClaudeAligner
            from legal_rag.workflow.classify import ClaudeClassifier

            classifier = ClaudeClassifier(client, fallback=classifier)
            aligner = ClaudeAligner(client, fallback=aligner)
    elif provider == "openai-compatible":
        from legal_rag.workflow.generators.openai_gen import OpenAICompatibleGenerator

        if not settings.llm.openai_base_url:
            raise ConfigurationError(
                "llm.provider is openai-compatible but llm.openai_base_url is not set "
                "(LEGAL_RAG_LLM__OPENAI_BASE_URL=http://localhost:8080/v1)"
            )
        generator = OpenAICompatibleGenerator(settings.llm)
    if verifier is None:
        verifier = Verifier(store, fuzzy_threshold=settings.verification.fuzzy_threshold)
    lapsed = [Lapsed(act=str(r["act"]), section=str(r["section"]), title=r["title"], reason=str(r["reason"]),
                     authority=r["authority"], offence=makes_offence(r["title"], r["text"] or ""),
                     today=tuple(_today_key(t) for t in r.get("today") or ()))
              for r in store.lapsed_sections()]
    ctx = WorkflowContext(
        retriever=retriever,
        generator=generator,
        verifier=verifier,
        aligner=aligner,
        classifier=classifier,
        settings=settings.workflow,
        fallback_generator=extractive if generator is not extractive else None,
        act_titles=titles,
        lapsed=lapsed,
        similarity=embedding_similarity(embedder),
        section_record=store.get_section,
    )
    return AskService(ctx)


def _today_key(provision: Any) -> CitationKey:
    """ "HMA 13(1)(i)", as the graph stores a no-successor record's ``today`` provisions (ingestion wrote it from
    ``parse_reference``) -> ``CitationKey("HMA", "13", ("1", "i"))``."""
    act, _, reference = str(provision).partition(" ")
    return parse_reference(reference, act)
