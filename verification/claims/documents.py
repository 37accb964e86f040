"""How passages are shown to a model: ``<document>`` blocks, then the as-of date and the question.

One rendering for every prompt that puts statute text before a model: the workflow's LLM generators and
aligner, and the fine-tuning rows ``finetune`` writes (training on the product's own delimiters is the
point). It lives here, beside :class:`~verification.claims.types.Passage`, so both can import it without
``finetune`` importing the application.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from enum import StrEnum

from verification.claims.types import Passage

__all__ = ["Complexity", "question_text", "render_document", "render_documents"]


class Complexity(StrEnum):
    SIMPLE = "SIMPLE"
    """A direct lookup: "what does s.138 NI Act say"."""
    STANDARD = "STANDARD"
    """One legal issue needing one or two provisions."""
    COMPLEX = "COMPLEX"
    """Several issues, Acts or parties."""
    ANALYTICAL = "ANALYTICAL"
    """Compare, analyse implications, change over time."""


_LENGTH = {
    Complexity.SIMPLE: "Answer in one to three sentences.",
    Complexity.STANDARD: "Answer in a short paragraph.",
    Complexity.COMPLEX: "Take each issue in turn.",
    Complexity.ANALYTICAL: "Analyse each issue in turn and compare the provisions where the question asks.",
}

# A document's text must not be able to close its own block or open a forged one.
_TAG = re.compile(r"<(/?\s*document)", re.IGNORECASE)


def render_document(p: Passage) -> str:
    """``<document id=.. act=.. section=.. status=..>heading\\ntext</document>``, tags in text escaped."""
    attrs = {"id": p.chunk_id, "act": p.act, "section": p.section, "status": p.status}
    if p.in_force_from:
        attrs["in_force_from"] = p.in_force_from
    if p.in_force_to:
        attrs["in_force_to"] = p.in_force_to
    head = " ".join(f'{k}="{html.escape(v, quote=True)}"' for k, v in attrs.items())
    body = _TAG.sub(r"&lt;\1", f"{p.heading}\n{p.text}")
    return f"<document {head}>{body}</document>"


def render_documents(passages: Sequence[Passage]) -> str:
    return "<documents>\n" + "\n".join(render_document(p) for p in passages) + "\n</documents>"


def question_text(question: str, *, as_of: str, complexity: Complexity) -> str:
    return f"As-of date of the facts: {as_of}\n\nQuestion: {question}\n\n{_LENGTH[complexity]}"
