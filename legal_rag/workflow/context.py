"""What the workflow's nodes are given: every client, built once outside the graph."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from graph_schema.model import SectionRecord
from legal_rag.retrieval.hybrid import Retrieved
from legal_rag.retrieval.types import Chunk
from legal_rag.settings import WorkflowSettings
from legal_rag.workflow.facts import Lapsed
from legal_rag.workflow.mixups import Similarity
from legal_rag.workflow.types import Aligner, Classifier, Generator
from verification.claims.types import Pin
from verification.model import VerificationReport


class Retriever(Protocol):
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
    ) -> list[Retrieved]: ...

    def retrieve_many(self, queries: Sequence[str], k: int = 10, *, as_of: str | None = None) -> list[list[Retrieved]]:
        """``retrieve`` for several queries at once (one embedding call)."""

    def section_chunks(self, act: str, section: str) -> list[Chunk]: ...

    def indexed_acts(self) -> frozenset[str]:
        """The Acts the index holds text of."""

    def counterparts(self, act: str, section: str) -> list[tuple[Pin, Chunk]]:
        """(SUCCESSOR | PREDECESSOR, chunk) across the 2024 criminal-law replacement, any date."""

    def offence_partner(self, act: str, section: str) -> tuple[str, str] | None:
        """The section that punishes the offence this one defines, or defines the one it punishes."""


class Verifier(Protocol):
    def verify(
        self, text: str, context_chunks: Sequence[Mapping[str, object]] = (), as_of: str | None = None,
        *, offence_on: str | None = None, proceedings_on: str | None = None, adjacent: bool = False,
        saved: bool = False,
    ) -> VerificationReport: ...


@dataclass
class WorkflowContext:
    """The LangGraph context object: nodes read their collaborators from here and build none."""

    retriever: Retriever
    generator: Generator
    verifier: Verifier
    aligner: Aligner
    classifier: Classifier
    settings: WorkflowSettings = field(default_factory=WorkflowSettings)
    fallback_generator: Generator | None = None
    """Used when ``generator`` fails for good (the answer then carries a warning saying so)."""
    act_titles: Mapping[str, str] = field(default_factory=dict)
    lapsed: Sequence[Lapsed] = ()
    """Provisions that are not law today and have no successor (the graph's ``no_successor`` records)."""
    similarity: Similarity | None = None
    """Meaning similarity (the embedder), for telling a section named by the other code's number from one named
    right (``mixups.py``); by shared words alone when None."""
    section_record: Callable[[str, str], SectionRecord | None] | None = None
    """The graph's record of a section (its heading), for a named provision whose text the index does not hold."""
