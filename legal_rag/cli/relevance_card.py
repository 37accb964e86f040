"""What ``eval train-relevance`` and ``finetune train`` share: the default training sets and the model card."""

from __future__ import annotations

import json
import sys
from typing import Any

from legal_rag.cli.common import err, out
from legal_rag.settings import PROJECT_ROOT

DEVELOPMENT_SETS = tuple(PROJECT_ROOT / "data" / "eval" / name for name in ("questions.jsonl", "probe.jsonl",
                                                                              "probe2.jsonl"))
"""The labelled files a relevance model trains on by default (their held-out rows never train)."""


def print_relevance_card(trained: Any, as_json: bool) -> None:
    """The card of a trained relevance model (JSON, or a summary), then where it was written."""
    card = trained.report.model.card
    wrote = f"wrote {trained.path}; answer with it: LEGAL_RAG_WORKFLOW__RELEVANCE_MODEL={trained.path}"
    if as_json:
        sys.stdout.write(json.dumps({**card, "path": str(trained.path)}, ensure_ascii=False) + "\n")
        err.print(wrote, markup=False, soft_wrap=True)
        return
    cv = card["cross_validation"]
    out.print(f"trained on {card['questions']} questions, {card['candidates']} candidates "
              f"({card['relevant_candidates']} relevant); l2 {card['l2']}, threshold {card['threshold']}, "
              f"mode {card['mode']}", markup=False)
    fx = card.get("flag_examples", {})
    if fx.get("answers"):
        out.print(f"  and {fx['answers']} flagged answers: {fx['not_relevant']} provisions not relevant, "
                  f"{fx['relevant']} relevant", markup=False)
    for name in ("model", "hand_weighted"):
        s = cv[name]
        out.print(f"  {name}: covers {s['covered']}/{s['questions']} questions, "
                  f"{s['unexpected_per_question']} unexpected provisions per question, "
                  f"AUC {cv['auc_' + name]}", markup=False)
    for s in trained.skipped:
        out.print(f"  flag {s['flag']} (answer {s['answer']}) not used: {s['reason']}", markup=False, highlight=False)
    err.print(wrote, markup=False, soft_wrap=True)
