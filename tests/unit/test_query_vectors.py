"""Query sentences and vectors for the two dense channels (whole query vs chunk text, sentence vs heading)."""

from __future__ import annotations

import numpy as np
import pytest

from legal_rag.retrieval.hybrid import query_sentences, query_vectors
from legal_rag.retrieval.onnx_minilm import OnnxMiniLMEmbedder

FACTS = (
    "The appellant was a clerk in the District Court. On 3 March 1998 he prepared a sale deed in the name of "
    "the deceased owner and signed it himself. He then produced the deed before the Sub-Registrar as if it were "
    "genuine; the registration was refused. Ok."
)


def test_sentences_split_on_stops_and_drop_fragments() -> None:
    got = query_sentences(FACTS)
    assert got[0] == "The appellant was a clerk in the District Court."
    assert "Ok." not in got  # under three words: no offence is described in it
    assert any(s.startswith("He then produced the deed") for s in got)
    assert query_sentences("murder") == []


def test_sentence_limit_keeps_the_longest_in_order() -> None:
    text = " ".join(f"Sentence number {i} {'word ' * (i % 7)}." for i in range(100))
    got = query_sentences(text, limit=10)
    assert len(got) == 10
    assert got == sorted(got, key=lambda s: int(s.split()[2]))  # original order kept
    assert all(len(s.split()) >= 9 for s in got)


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder()


def test_one_sentence_query_uses_one_vector_for_both_channels(embedder: OnnxMiniLMEmbedder) -> None:
    qv = query_vectors(embedder, "punishment for using a forged document as genuine")
    assert qv.sentences.shape == (1, embedder.dim)
    assert np.allclose(qv.sentences[0], qv.whole)


def test_long_query_has_a_vector_per_sentence_and_a_unit_whole(embedder: OnnxMiniLMEmbedder) -> None:
    long = " ".join([FACTS] * 5)  # past one 180-word window
    qv = query_vectors(embedder, long)
    assert qv.sentences.shape == (len(query_sentences(long)), embedder.dim)
    assert abs(float(np.linalg.norm(qv.whole)) - 1.0) < 1e-5
