"""The research workflow as a LangGraph ``StateGraph``.

classify -> understand (``QuestionFacts``: dates, asks, named provisions checked, premises) -> retrieve
(-> retrieve again, widened, when weak; at most ``max_retrievals`` rounds) -> generate (a direct answer per
ask first) -> verify_citations (-> generate again with the failures named; at most ``max_generations``
rounds) -> verify_claims (SIMPLE: one grounded-refinement pass over the passages each claim cites; otherwise
GenGround: each claim re-retrieves its own evidence) -> reconstruct -> score -> finalise.

Nodes read their collaborators from ``runtime.context`` (a ``WorkflowContext``) and build none.
Every node records its wall time in ``timings_ms`` and, when the graph is streamed with
``stream_mode="custom"``, emits a ``StageDone`` as it finishes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from legal_rag.workflow import steps
from legal_rag.workflow.context import WorkflowContext
from legal_rag.workflow.state import WorkflowState

Node = Callable[[WorkflowState, Runtime[WorkflowContext]], WorkflowState]


@dataclass(frozen=True, slots=True)
class StageDone:
    """The custom stream event a node emits when it finishes (once per run: loops emit again)."""

    stage: str
    elapsed_ms: float
    """This run of the node alone (``timings_ms`` adds up the runs of a loop)."""


def timed(name: str, fn: Node) -> Node:
    def run(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> WorkflowState:
        t = time.perf_counter()
        out = fn(state, runtime)
        spent = (time.perf_counter() - t) * 1000
        prev = state.get("timings_ms", {}).get(name, 0.0)  # loops add up
        out["timings_ms"] = {name: round(prev + spent, 2)}
        runtime.stream_writer(StageDone(name, spent))  # a no-op unless streamed with "custom"
        return out

    return run


def _after_retrieve(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> str:
    if (
        steps.retrieval_is_weak(state["passages"], runtime.context.settings.weak_retrieval)
        and state.get("retrieval_round", 1) < runtime.context.settings.max_retrievals
    ):
        return "retrieve"
    return "generate"


def _after_verify_citations(state: WorkflowState, runtime: Runtime[WorkflowContext]) -> str:
    if state.get("feedback") and state.get("generation_round", 1) < runtime.context.settings.max_generations:
        return "generate"
    return "verify_claims"


NODES: tuple[tuple[str, Node], ...] = (
    ("classify", steps.classify),
    ("understand", steps.understand),
    ("retrieve", steps.retrieve),
    ("generate", steps.generate),
    ("verify_citations", steps.verify_citations),
    ("verify_claims", steps.verify_claims),
    ("reconstruct", steps.reconstruct),
    ("score", steps.score_confidence),
    ("finalise", steps.finalise),
)
STAGES = tuple(name for name, _ in NODES)
"""The stage names, as they appear in ``timings_ms``."""


def build_workflow() -> Any:
    """The compiled graph; invoke with ``{"question", "as_of"}`` and ``context=WorkflowContext(...)``."""
    g = StateGraph(WorkflowState, context_schema=WorkflowContext)
    for name, fn in NODES:
        g.add_node(name, timed(name, fn))  # type: ignore[call-overload]
    g.add_edge(START, "classify")
    g.add_edge("classify", "understand")
    g.add_conditional_edges("understand", steps.after_understand, ["retrieve", "finalise"])
    g.add_conditional_edges("retrieve", _after_retrieve, ["retrieve", "generate"])
    g.add_edge("generate", "verify_citations")
    g.add_conditional_edges("verify_citations", _after_verify_citations, ["generate", "verify_claims"])
    g.add_edge("verify_claims", "reconstruct")
    g.add_edge("reconstruct", "score")
    g.add_edge("score", "finalise")
    g.add_edge("finalise", END)
    return g.compile()
