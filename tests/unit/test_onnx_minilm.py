"""The default encoder: all-MiniLM-L6-v2 with int8 weights through ONNX Runtime.

Checked against the fp32 weights run by the numpy encoder (the ``[fp32]`` extra, in ``[dev]``) on real
statute headings, section text and lawyers' questions, and against the shipped vectors, which it made.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from graph_schema.errors import ConfigurationError
from legal_rag.retrieval.minilm import MiniLMEmbedder
from legal_rag.retrieval.onnx_minilm import OnnxMiniLMEmbedder
from legal_rag.retrieval.vectors import ShippedVectors
from legal_rag.settings import PROJECT_ROOT, Settings

SECTIONS_FILE = PROJECT_ROOT / "data" / "corpus" / "indiacode" / "sections_fulltext_subset.jsonl"
QUESTIONS = PROJECT_ROOT / "tests" / "data" / "ask_questions.jsonl"


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    emb = OnnxMiniLMEmbedder()
    emb.open()
    return emb


def _sections(limit: int) -> tuple[list[str], list[str]]:
    headings: list[str] = []
    texts: list[str] = []
    with SECTIONS_FILE.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            title = " ".join((row.get("title") or "").split())
            if title and title not in headings:
                headings.append(title)
            if row.get("text") and len(texts) < limit:
                texts.append(row["text"])
            if len(headings) >= limit and len(texts) >= limit:
                break
    return headings[:limit], texts


def test_it_is_the_default_and_names_its_weights() -> None:
    s = Settings()
    assert s.retrieval.embedder.value == "minilm-int8"
    mid = OnnxMiniLMEmbedder().model_id
    assert mid.startswith("all-MiniLM-L6-v2-onnx-int8@") and len(mid.split("@")[1]) == 16


def test_agrees_with_the_fp32_weights(embedder: OnnxMiniLMEmbedder) -> None:
    headings, texts = _sections(150)
    questions = [json.loads(x)["question"] for x in QUESTIONS.read_text(encoding="utf-8").splitlines() if x.strip()]
    sample = headings + texts + questions
    fp32 = MiniLMEmbedder().embed(sample)
    cos = np.sum(embedder.embed(sample) * fp32, axis=1)
    # int8 weights move a vector by ~5e-4 of cosine (measured: min 0.9983, mean 0.9995 on 600 texts);
    # a wrong pooling, mask or tokenizer setting moves it by > 1e-2.
    assert cos.min() > 0.997, f"worst cosine {cos.min():.5f}"
    assert cos.mean() > 0.999


def test_matches_the_shipped_vectors(embedder: OnnxMiniLMEmbedder) -> None:
    shipped = ShippedVectors(PROJECT_ROOT / "data" / "vectors", embedder.model_id)
    headings, _ = _sections(400)
    found, rows = shipped.lookup(headings)
    assert len(found) >= 100, "too few real section headings found in the shipped vectors to compare"
    cos = np.sum(embedder.embed([headings[i] for i in found]) * rows, axis=1)
    assert cos.min() > 0.9995, f"worst cosine {cos.min():.6f}"  # float16 storage costs ~1e-4


def test_batching_padding_and_truncation(embedder: OnnxMiniLMEmbedder) -> None:
    headings, _ = _sections(9)
    texts = headings + ["Whoever commits murder shall be punished with death or imprisonment for life."]
    alone = np.vstack([embedder.embed([t]) for t in texts])
    together = embedder.embed(texts, batch_size=4)
    np.testing.assert_allclose(together, alone, atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    long = "The court may grant bail to the accused person. " * 80  # far past 256 tokens
    np.testing.assert_allclose(embedder.embed([long]), embedder.embed([long + " Robbery and dacoity."]), atol=1e-6)
    a, b = embedder.embed(["punishment for murder", "registration of a marriage"])
    assert float(a @ b) < 0.6
    assert embedder.embed([]).shape == (0, 384)


def test_a_missing_or_foreign_model_file_is_a_configuration_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="cannot load the embedding model"):
        OnnxMiniLMEmbedder(model_path=str(tmp_path / "none.onnx")).embed(["x"])
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not an onnx graph")
    with pytest.raises(ConfigurationError, match="bad.onnx"):
        OnnxMiniLMEmbedder(model_path=str(bad)).open()
    with pytest.raises(ValueError, match="batch_size"):
        OnnxMiniLMEmbedder().embed(["x"], batch_size=0)
