"""What claim alignment works on: evidence passages, verdicts, and the aligner and embedder seams.

The workflow (``legal_rag.workflow.types``) uses these same types for what it retrieves and generates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

import numpy as np
import numpy.typing as npt


class Pin(StrEnum):
    """Why a passage is in the evidence whatever its retrieval score."""

    CITED = "cited"
    """The question names the provision."""
    SUCCESSOR = "successor"
    """What replaced an old-code provision the question names."""
    PREDECESSOR = "predecessor"
    """What a new-code provision the question names replaced."""
    DEFINITION = "definition"
    """The clause defining the term a definition question asks about."""
    SAVINGS = "savings"
    """The repeal-and-savings provision for a case pending across 2024-07-01."""
    ATTEMPT = "attempt"
    """The general attempt provision, for an attempt to commit an offence with no attempt provision of its own."""
    MEANT = "meant"
    """What answers the subject of a section the question names by the other code's number ("murder under section
    302 BNS": IPC 302, now BNS 103)."""
    COUNTERPART = "counterpart"
    """The other side of the 2024 replacement, added for ANALYTICAL questions; it competes for a place."""
    ASK = "ask"
    """The provision of a retrieved Act whose heading names what an ask wants (its jurisdiction, its time limit:
    ``legal_rag.workflow.forms``); quoted after the provisions the question names and before the rest."""
    STORY = "story"
    """The offence the question's story tells, for an ask that turns on it but does not name it (within what time,
    or where, it is prosecuted: the period runs by its punishment); quoted with the provisions an ask wants."""
    TODAY = "today"
    """What governs today the subject of a provision the question rests on that is no longer law and has no successor
    (its curated no-successor record names it: IPC 309, attempt to suicide -> BNS 226)."""


PUT_FORWARD = frozenset({Pin.ASK, Pin.STORY})
"""Pins that put a passage forward for what an ask turns on, not for what the question names: quoted before the rest,
but usable only when relevant enough, like any retrieved passage."""


@dataclass(frozen=True, slots=True)
class Passage:
    """A retrieved chunk as the generator and aligner see it."""

    chunk_id: str
    act: str
    section: str
    heading: str
    """ "BNS s.103(1) Punishment for murder"."""
    text: str
    status: str
    score: float = 0.0
    """Fused retrieval score (``inf`` for a provision named in the question)."""
    pinned: Pin | None = None
    """Why the passage is evidence whatever its score (``Pin``); None for one retrieval ranked in."""
    in_force_from: str | None = None
    in_force_to: str | None = None
    relevance: float = 0.0
    """0..1 closeness to the question on an absolute scale (the dense cosine; 1.0 when named in it)."""
    told: str = ""
    """The situation in lay words by which retrieval matched the question's story to this provision (the lay channel,
    ``legal_rag/retrieval/lay.py``); empty when it did not."""
    told_score: float = 0.0
    """How closely that situation matched the story: the lay channel's score, above its floor (0 without one)."""


class Verdict(StrEnum):
    SUPPORTED = "SUPPORTED"
    PARTIALLY_SUPPORTED = "PARTIALLY_SUPPORTED"
    UNSUPPORTED = "UNSUPPORTED"
    CONTRADICTED = "CONTRADICTED"


@dataclass(frozen=True, slots=True)
class Alignment:
    verdict: Verdict
    score: float
    """0..1, how well the best evidence supports the claim."""
    reasons: tuple[str, ...] = ()
    best_chunk_id: str | None = None
    method: str = "offline"


class Aligner(Protocol):
    """Does the evidence support the claim? Hard contradictions (numbers, durations, negation,
    shall/may, a different Act or section) must come back CONTRADICTED, not merely low-scored."""

    name: str

    def align(self, claim: str, evidence: Sequence[Passage]) -> Alignment: ...


class Embedder(Protocol):
    """Texts to L2-normalised float32 vectors (``legal_rag.retrieval`` has the real one)."""

    def embed(
        self, texts: Sequence[str], batch_size: int = 32, progress: Callable[[int, int], None] | None = None
    ) -> npt.NDArray[np.float32]: ...
