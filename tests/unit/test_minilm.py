"""The numpy all-MiniLM-L6-v2 encoder (fp32 weights, the ``[fp32]`` extra) against sentence-transformers
on torch (the ``[torch]`` extra; both are in ``[dev]``), on real statute headings."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from legal_rag.retrieval.minilm import MiniLMEmbedder, model_id
from legal_rag.settings import PROJECT_ROOT

SECTIONS_FILE = PROJECT_ROOT / "data" / "corpus" / "indiacode" / "sections_fulltext_subset.jsonl"


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    emb = MiniLMEmbedder()
    emb.open()
    return emb


def _headings(limit: int = 400) -> list[str]:
    out: list[str] = []
    with SECTIONS_FILE.open(encoding="utf-8") as fh:
        for line in fh:
            title = json.loads(line).get("title") or ""
            text = " ".join(title.split())
            if text and text not in out:
                out.append(text)
            if len(out) >= limit:
                break
    return out


def test_matches_sentence_transformers_directly(embedder: MiniLMEmbedder) -> None:
    from legal_rag.retrieval.dense import SentenceTransformerEmbedder

    texts = _headings(64) + ["What is the punishment for extortion?", "bail " * 400]
    reference = SentenceTransformerEmbedder().embed(texts)
    ours = embedder.embed(texts, batch_size=7)
    assert np.sum(ours * reference, axis=1).min() > 0.99999


def test_batching_and_padding_do_not_change_a_vector(embedder: MiniLMEmbedder) -> None:
    texts = _headings(9) + ["Whoever commits murder shall be punished with death or imprisonment for life."]
    alone = np.vstack([embedder.embed([t]) for t in texts])
    together = embedder.embed(texts, batch_size=4)
    np.testing.assert_allclose(together, alone, atol=2e-6)
    np.testing.assert_allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)


def test_text_past_the_window_is_ignored(embedder: MiniLMEmbedder) -> None:
    long = "The court may grant bail to the accused person. " * 80  # far past 256 tokens
    assert embedder.max_seq_length == 256
    np.testing.assert_allclose(embedder.embed([long]), embedder.embed([long + " Robbery and dacoity."]), atol=1e-6)


def test_different_texts_differ(embedder: MiniLMEmbedder) -> None:
    a, b = embedder.embed(["punishment for murder", "registration of a marriage"])
    assert float(a @ b) < 0.6


def test_model_id_names_the_weights() -> None:
    mid = model_id()
    assert mid.startswith("all-MiniLM-L6-v2@") and len(mid.split("@")[1]) == 16


def test_query_path_never_imports_torch() -> None:
    """What a ``retrieve`` or ``ask`` process loads: the commands, the workflow, citation extraction
    (spaCy, whose thinc imports torch when it can) and the default encoder. torch is installed here
    (the [dev] extra), so an import of it anywhere on this path fails the test."""
    code = (
        "import sys\n"
        "import legal_rag.cli, legal_rag.app, legal_rag.workflow.service, legal_rag.retrieval.build\n"
        "from verification import CitationExtractor, Verifier\n"
        "assert CitationExtractor().extract('punishable under Section 302 IPC')\n"
        "from legal_rag.retrieval.build import embedder\n"
        "from legal_rag.settings import Settings\n"
        "v = embedder(Settings()).embed(['anticipatory bail'])\n"
        "assert v.shape == (1, 384)\n"
        "print(sorted(m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]"
