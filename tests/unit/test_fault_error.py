"""A fault that cannot be injected is an error of the project's tree, not a bare ValueError."""

from __future__ import annotations

import random

import pytest

from graph_schema.errors import LegalRagError
from legal_rag.evaluation.faults import FaultError, FaultInjector, GraphFacts
from legal_rag.workflow.types import AnswerSentence, Generation


def test_an_answer_without_a_quoted_provision_raises_a_legal_rag_error() -> None:
    injector = FaultInjector(GraphFacts(titles={}, sections={}, texts={}, predecessors={}, successors={}))
    gen = Generation(sentences=(AnswerSentence("Theft is a crime.", ("BNS:303:2:0",)),), generator="extractive")
    with pytest.raises(LegalRagError) as caught:
        injector.inject("misquote", gen, "2025-01-01", random.Random(0))
    assert isinstance(caught.value, FaultError) and isinstance(caught.value, ValueError)
