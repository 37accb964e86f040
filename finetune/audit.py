"""Surface-feature audit: can a shallow rule tell the chosen answer from the rejected one without the law?

For each category and each surface feature of an answer (its length, its citation markers, the dates it frames
the facts with, the provisions it names, its negation words, a quotation opening with a sub-unit label that
contradicts the section it is attributed to), the rule "pick the answer with more of it" and the rule "pick the
one with less" are scored on every preference pair (a tie scores a half). A category whose best rule picks the
chosen answer far above half the time teaches the feature, not the law; the target is at most 70%.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from finetune.rows import SPLITS

_CITE = re.compile(r"\[[A-Z][A-Za-z0-9]*:[^\]\s]+\]")
_DATE = re.compile(r"\b\d{1,2} (?:January|February|March|April|May|June|July|August|September|October|November|"
                   r"December) \d{4}\b|\b\d{4}-\d{2}-\d{2}\b")
_PROVISION = re.compile(r"\bSection \d+[A-Z]*(?:\([^)\s]+\))*")
_NEGATION = re.compile(r"\b(?:not|no|never|cannot|none|nothing|neither|nor|without)\b", re.I)
_LABELLED_QUOTE = re.compile(r"Section (\d+[A-Z]*(?:\([^)\s]+\))*)[^\"]{0,160}?: \"\((\w{1,6})\)")


def contradicting_labels(text: str) -> int:
    """Quotations that open with a sub-unit label ("(2) ...") which the cited section's label does not end with."""
    return sum(1 for m in _LABELLED_QUOTE.finditer(text) if not m.group(1).endswith(f"({m.group(2)})"))


FEATURES: dict[str, Callable[[str], float]] = {
    "length": lambda t: float(len(t)),
    "citation markers": lambda t: float(len(_CITE.findall(t))),
    "date framing": lambda t: float(len(_DATE.findall(t))),
    "provisions named": lambda t: float(len(_PROVISION.findall(t))),
    "negation words": lambda t: float(len(_NEGATION.findall(t))),
    "contradicting label": lambda t: float(contradicting_labels(t)),
}


@dataclass(frozen=True, slots=True)
class FeatureScore:
    category: str
    feature: str
    direction: str
    """ "more" or "less": which answer the rule picks."""
    rate: float
    pairs: int


def score_pairs(pairs: Iterable[tuple[str, str, str]]) -> list[FeatureScore]:
    """(category, chosen, rejected) -> the best single-feature rule per category and feature, best first."""
    by_cat: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for cat, chosen, rejected in pairs:
        by_cat[cat].append((chosen, rejected))
    out = []
    for cat in sorted(by_cat):
        rows = by_cat[cat]
        for name, f in FEATURES.items():
            more = sum(1.0 if f(c) > f(r) else 0.5 if f(c) == f(r) else 0.0 for c, r in rows) / len(rows)
            less = 1.0 - more
            out.append(FeatureScore(cat, name, "more" if more >= less else "less", max(more, less), len(rows)))
    return sorted(out, key=lambda s: (s.category, -s.rate, s.feature))


def best_per_category(scores: Iterable[FeatureScore]) -> dict[str, FeatureScore]:
    best: dict[str, FeatureScore] = {}
    for s in scores:
        if s.category not in best or s.rate > best[s.category].rate:
            best[s.category] = s
    return best


def audit_dataset(root: Path, splits: Iterable[str] = SPLITS) -> list[FeatureScore]:
    """Scores for the preference rows under ``root`` (``dpo/{split}.jsonl``)."""
    pairs = []
    for split in splits:
        path = root / "dpo" / f"{split}.jsonl"
        if not path.is_file():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            pairs.append((str(row["category"]), row["chosen"][0]["content"], row["rejected"][0]["content"]))
    return score_pairs(pairs)
