"""The provision relevance model: which of the retrieved provisions bear on the question.

The offline generator quotes, after the provisions a question names, the best of the first retrieved ones. Which
are best was a hand-weighted sum (``ExtractiveGenerator``'s ``fit``): how much of the question a provision's best
sentence and heading cover, its retrieval relevance and rank, a bonus for offence provisions when an offence is
asked about. Hand-read answers showed 2.3 provisions per answer that bear on no ask, picked for one shared word
("charge" in a mortgage section for "which section will police charge him under").

``LinearRelevance`` is a logistic model over the same evidence (``FEATURES``), trained on CPU
(``legal-rag eval train-relevance``) from questions whose deciding provisions are known, chosen by cross-validation
over folds that hold out whole Acts (a model that learnt "the Consumer Protection Act is relevant" would not
carry to a question about another Act), and shipped as a small JSON file with its card. The generator ranks the
candidates by its probability and leaves out those below its threshold.

Every feature is a property of the question and a provision that any Act has (no Act or section is named in a
weight), so the model applies to questions and Acts it never saw.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from graph_schema.errors import ConfigurationError
from legal_rag.model_files import building, read_model, write_model

FEATURES: tuple[str, ...] = (
    "sentence_cover",  # best sentence: share of the question's content words it (with its heading) holds, + precision
    "heading_recall",  # share of the question's content words in the heading
    "heading_precision",  # share of the heading's content words in the question
    "dense",  # the best passage's dense similarity to the question
    "fused",  # the best passage's fused retrieval score, over the best candidate's
    "rank",  # 1 / (retrieval rank + 1)
    "offence_asked",  # the question asks about an offence and the provision makes out one
    "punishes_asked",  # ... and it punishes it (or its punishing partner was retrieved)
    "procedure_act",  # the provision is in a procedure or evidence code (CrPC, BNSS, IEA, BSA, CPC)
    "offence_q_procedure",  # an offence is asked about and the provision is procedure
    "act_share",  # share of the candidates from the provision's Act
    "same_act_as_first",  # the provision is in the Act of the best-ranked candidate
    "text_cover",  # share of the question's content words anywhere in the provision's retrieved text
    "counterpart",  # brought as the other side of the 2024 replacement (comparisons)
    "log_length",  # log of the provision's retrieved text length
)


MODES = ("gate", "rank")
"""How the generator uses the model (``choose``): "gate" keeps the hand-weighted order and quotes, after its first,
only candidates at or above the threshold; "rank" orders by the model, then gates the same way."""


class RelevanceModel(Protocol):
    """Scores a candidate provision's ``FEATURES`` vector: the probability that it bears on an ask."""

    name: str
    threshold: float
    mode: str

    def probability(self, features: Sequence[float]) -> float: ...


@dataclass(frozen=True, slots=True)
class Candidate:
    """One retrieved provision the generator could quote, with its features (for training and audit)."""

    act: str
    section: str
    features: tuple[float, ...]
    hand_score: float
    """The hand-weighted ``fit`` it would be ranked by without a model."""


@dataclass(frozen=True, slots=True)
class Decision:
    """The candidates of one generation: the places ``n`` left after the provisions placed first (named in the
    question, comparison sides, one per ask), and the keys of those."""

    question: str
    candidates: tuple[Candidate, ...]
    places: int
    first: tuple[tuple[str, str], ...] = ()


@dataclass(slots=True)
class LinearRelevance:
    """A logistic model over standardised ``FEATURES``: ``p = sigmoid(bias + sum(w * (x - mean) / scale))``."""

    weights: tuple[float, ...]
    bias: float
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    threshold: float
    features: tuple[str, ...] = FEATURES
    mode: str = "gate"
    version: str = "1"
    card: dict[str, Any] = field(default_factory=dict)
    name: str = "linear-relevance"

    def __post_init__(self) -> None:
        n = len(self.features)
        if not (len(self.weights) == len(self.mean) == len(self.scale) == n):
            raise ConfigurationError(
                f"relevance model: {len(self.weights)} weights, {len(self.mean)} means, {len(self.scale)} scales "
                f"for {n} features"
            )
        if tuple(self.features) != FEATURES:
            raise ConfigurationError(
                f"relevance model was trained on features {list(self.features)}, this version computes "
                f"{list(FEATURES)}: retrain it (legal-rag eval train-relevance)"
            )
        if self.mode not in MODES:
            raise ConfigurationError(f"relevance model mode {self.mode!r} is not one of {list(MODES)}")
        if not 0.0 <= self.threshold <= 1.0:
            raise ConfigurationError(f"relevance model threshold {self.threshold} is not a probability")

    def probability(self, features: Sequence[float]) -> float:
        z = self.bias + sum(w * (x - m) / s for w, x, m, s in zip(self.weights, features, self.mean, self.scale,
                                                                  strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def save(self, path: Path, *, exclusive: bool = False) -> None:
        """Written whole or not at all (``model_files.write_model``); ``exclusive``: never replace a file already
        there (raises ``FileExistsError``).

        Raises:
            FileExistsError: ``exclusive`` and ``path`` exists.
            OSError: the file cannot be written.
        """
        write_model(path, asdict(self), exclusive=exclusive)

    @classmethod
    def load(cls, path: Path) -> LinearRelevance:
        """Raises ``ConfigurationError`` naming the file for a missing, unreadable or malformed model."""
        doc = read_model(path, "relevance model")
        with building(path, "relevance model"):
            return cls(
                weights=tuple(float(x) for x in doc["weights"]), bias=float(doc["bias"]),
                mean=tuple(float(x) for x in doc["mean"]), scale=tuple(float(x) for x in doc["scale"]),
                threshold=float(doc["threshold"]), features=tuple(str(x) for x in doc["features"]),
                mode=str(doc.get("mode", "gate")),
                version=str(doc.get("version", "1")), card=dict(doc.get("card", {})),
            )  # fmt: skip


def choose(hand: Sequence[float], probability: Sequence[float] | None, threshold: float | None, mode: str,
           *, placed_first: bool) -> list[int]:
    """The order in which candidates are quoted (indexes), before the generator's limit.

    Without a model, the hand-weighted order. With one: the order of ``mode`` (``MODES``); a candidate below
    ``threshold`` is left out, except the first in that order when nothing was placed before the candidates (a
    provision the question names, a comparison side, one per ask): an answer always quotes something it found.
    """
    by_hand = sorted(range(len(hand)), key=lambda i: -hand[i])
    if probability is None or threshold is None:
        return by_hand
    order = by_hand if mode == "gate" else sorted(range(len(hand)), key=lambda i: -probability[i])
    head = [] if placed_first or not order else order[:1]
    return head + [i for i in order if i not in head and probability[i] >= threshold]


def as_vector(values: Mapping[str, float]) -> tuple[float, ...]:
    """The features in ``FEATURES`` order; a missing one is an error, not a zero."""
    missing = [f for f in FEATURES if f not in values]
    if missing:
        raise ValueError(f"features missing: {missing}")
    return tuple(float(values[f]) for f in FEATURES)
