"""Dense retrieval on real statute text: the real all-MiniLM-L6-v2 embedder and the Qdrant index.

The index tests run against every backend we can reach: the local on-disk store always, and a
Qdrant server when ``QDRANT_URL`` is set (``QDRANT_API_KEY`` optional), each in its own collection.
The model is loaded once per session.
"""

from __future__ import annotations

import json
import os
import socket
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from graph_schema.errors import ConfigurationError, IndexUnavailableError, RetryableError
from legal_rag.retrieval.dense import QdrantDenseIndex, SearchPath, point_id
from legal_rag.retrieval.onnx_minilm import OnnxMiniLMEmbedder
from legal_rag.retrieval.types import DenseIndex, Embedder
from legal_rag.settings import PROJECT_ROOT

SECTIONS_FILE = PROJECT_ROOT / "data" / "corpus" / "indiacode" / "sections_fulltext_subset.jsonl"

# BNS provisions indexed by the tests: offences with distinct subjects, so that each paraphrase
# below has one right answer.
BNS_SECTIONS = (
    "64", "69", "74", "79", "80", "85", "101", "103", "105", "106", "108", "115", "117", "118", "126",
    "127", "137", "140", "303", "305", "308", "309", "310", "314", "316", "318", "319", "324", "329",
    "336", "340", "351", "356",
)  # fmt: skip

# (query in a lay person's words, the BNS section it describes, a section it must rank below)
PARAPHRASES = [
    ("He knowingly used a forged document as if it were genuine", "340", "103"),
    ("She relied on a fake electronic record, aware that it was forged, to pass it off as real", "340", "103"),
    ("Whoever commits murder shall be punished with death or imprisonment for life", "103", "340"),
    ("He threatened to harm her reputation unless she did what he wanted", "351", "103"),
    ("Taking movable property out of someone's possession dishonestly without consent", "303", "340"),
    ("Deceiving a person to make him hand over property", "318", "103"),
]

BACKENDS = ["local"] + (["server"] if os.environ.get("QDRANT_URL") else [])


@dataclass(frozen=True)
class Corpus:
    ids: list[str]
    texts: list[str]
    vectors: npt.NDArray[np.float32]
    payloads: list[dict[str, object]]

    def vec(self, section: str) -> npt.NDArray[np.float32]:
        row: npt.NDArray[np.float32] = self.vectors[self.ids.index(f"BNS:{section}:-:0")]
        return row


def _bns_texts() -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    with SECTIONS_FILE.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if rec["act_slug"] == "the-bharatiya-nyaya-sanhita-2023" and rec["section_no"] in BNS_SECTIONS:
                out[rec["section_no"]] = (rec["title"], rec["text"])
    return out


@pytest.fixture(scope="session")
def embedder() -> OnnxMiniLMEmbedder:
    emb = OnnxMiniLMEmbedder()
    emb.open()
    return emb


@pytest.fixture(scope="session")
def bns(embedder: OnnxMiniLMEmbedder) -> Corpus:
    """BNS sections from the India Code subset, embedded once with a heading prefix like the chunker's."""
    texts = _bns_texts()
    assert set(texts) == set(BNS_SECTIONS), "the corpus subset no longer holds every section the tests use"
    ids = [f"BNS:{s}:-:0" for s in BNS_SECTIONS]
    bodies = [f"BNS s.{s} {texts[s][0]}\n{texts[s][1]}" for s in BNS_SECTIONS]
    payloads: list[dict[str, object]] = [
        {"act": "BNS", "section": s, "title": texts[s][0], "status": "in_force", "in_force_from": "2024-07-01"}
        for s in BNS_SECTIONS
    ]
    return Corpus(ids, bodies, embedder.embed(bodies), payloads)


@pytest.fixture(scope="session")
def paraphrase_vecs(embedder: OnnxMiniLMEmbedder) -> dict[str, npt.NDArray[np.float32]]:
    queries = [p[0] for p in PARAPHRASES]
    return dict(zip(queries, embedder.embed(queries), strict=True))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


IndexFactory = Callable[[], QdrantDenseIndex]


@pytest.fixture(params=BACKENDS)
def make_index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[IndexFactory]:
    """Opens indexes over one storage location (a fresh local dir or a fresh server collection)."""
    opened: list[QdrantDenseIndex] = []
    collection = f"test_dense_{uuid.uuid4().hex[:12]}"

    def factory() -> QdrantDenseIndex:
        if request.param == "server":
            ix = QdrantDenseIndex(
                url=os.environ["QDRANT_URL"], api_key=os.environ.get("QDRANT_API_KEY"), collection=collection
            )
        else:
            ix = QdrantDenseIndex(path=str(tmp_path / "qdrant"), collection=collection)
        ix.open()
        opened.append(ix)
        return ix

    yield factory
    for ix in opened:
        ix.close()
    if request.param == "server":
        from qdrant_client import QdrantClient

        client = QdrantClient(url=os.environ["QDRANT_URL"], api_key=os.environ.get("QDRANT_API_KEY"))
        client.delete_collection(collection)
        client.close()


def _brute_force(corpus: Corpus, query: npt.NDArray[np.float32], allow: set[str] | None, k: int) -> list[str]:
    scores = corpus.vectors @ (query / np.linalg.norm(query))
    ranked = sorted(range(len(corpus.ids)), key=lambda i: -scores[i])
    return [corpus.ids[i] for i in ranked if allow is None or corpus.ids[i] in allow][:k]


# -- embedder --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("query", "section", "other"), PARAPHRASES)
def test_paraphrase_is_closer_to_its_provision(
    paraphrase_vecs: dict[str, npt.NDArray[np.float32]], bns: Corpus, query: str, section: str, other: str
) -> None:
    q = paraphrase_vecs[query]
    assert float(q @ bns.vec(section)) > float(q @ bns.vec(other))


def test_forgery_paraphrase_finds_bns_340_among_all(
    paraphrase_vecs: dict[str, npt.NDArray[np.float32]], bns: Corpus
) -> None:
    q = paraphrase_vecs["He knowingly used a forged document as if it were genuine"]
    assert _brute_force(bns, q, None, 3)[0] == "BNS:340:-:0"


def test_embed_is_normalised_float32_in_input_order(embedder: OnnxMiniLMEmbedder, bns: Corpus) -> None:
    # Five sections cut to different lengths, so that sorting by length reorders them.
    texts = [t[:n] for t, n in zip(bns.texts[:5], (120, 600, 60, 400, 250), strict=True)]
    seen: list[tuple[int, int]] = []
    e: Embedder = embedder
    assert e.dim == 384
    batched = embedder.embed(texts, batch_size=2, progress=lambda done, total: seen.append((done, total)))
    assert batched.dtype == np.float32
    assert batched.shape == (5, 384)
    np.testing.assert_allclose(np.linalg.norm(batched, axis=1), 1.0, atol=1e-5)
    # Batching sorts by length internally; every row must still belong to its own text.
    one_by_one = np.vstack([embedder.embed([t]) for t in texts])
    np.testing.assert_allclose(batched, one_by_one, atol=1e-4)
    assert seen == [(2, 5), (4, 5), (5, 5)]
    assert embedder.embed([]).shape == (0, 384)


def test_embedder_loads_lazily_and_reports_a_missing_model(tmp_path: Path) -> None:
    emb = OnnxMiniLMEmbedder(model_path=str(tmp_path / "no-model"))  # constructing does no I/O
    with pytest.raises(ConfigurationError, match="cannot load the embedding model"):
        emb.embed(["text"])


# -- index: every backend ---------------------------------------------------------------------------


def test_upsert_search_delete_ids_round_trip(make_index: IndexFactory, bns: Corpus) -> None:
    ix: DenseIndex = make_index()
    assert ix.ids() == set()
    ix.upsert(bns.ids, bns.vectors, bns.payloads)
    assert ix.ids() == set(bns.ids)

    hits = ix.search(bns.vec("340"), 5)
    assert [h.chunk_id for h in hits] == _brute_force(bns, bns.vec("340"), None, 5)
    assert hits[0].chunk_id == "BNS:340:-:0"
    assert hits[0].score == pytest.approx(1.0, abs=1e-4)
    assert all(a.score >= b.score for a, b in zip(hits, hits[1:], strict=False))

    ix.delete(["BNS:340:-:0", "BNS:999:-:0"])  # an unknown id is ignored
    assert ix.ids() == set(bns.ids) - {"BNS:340:-:0"}
    assert "BNS:340:-:0" not in {h.chunk_id for h in ix.search(bns.vec("340"), len(bns.ids))}
    assert len(ix.search(bns.vec("340"), 100)) == len(bns.ids) - 1


def test_upsert_replaces_by_chunk_id(make_index: IndexFactory, bns: Corpus) -> None:
    ix = make_index()
    ix.upsert(bns.ids, bns.vectors, bns.payloads)
    # Re-embed BNS 340 as if its text had become the murder provision's: one point, new vector.
    ix.upsert(["BNS:340:-:0"], bns.vec("103")[None, :], [bns.payloads[bns.ids.index("BNS:340:-:0")]])
    assert len(ix.ids()) == len(bns.ids)
    top2 = ix.search(bns.vec("103"), 2)
    assert {h.chunk_id for h in top2} == {"BNS:103:-:0", "BNS:340:-:0"}
    assert min(h.score for h in top2) == pytest.approx(1.0, abs=1e-4)
    assert ix.search(bns.vec("340"), 1)[0].chunk_id != "BNS:340:-:0"


def test_reopen_finds_the_vectors_without_re_embedding(make_index: IndexFactory, bns: Corpus) -> None:
    ix = make_index()
    ix.upsert(bns.ids, bns.vectors, bns.payloads)
    before = ix.search(bns.vec("318"), 10)
    ix.close()
    # A new process start: no embedder, no upsert, only the stored collection.
    again = make_index()
    assert again.ids() == set(bns.ids)
    after = again.search(bns.vec("318"), 10)
    assert [h.chunk_id for h in after] == [h.chunk_id for h in before]
    assert [h.score for h in after] == pytest.approx([h.score for h in before], abs=1e-5)


def test_allow_restricts_results(make_index: IndexFactory, bns: Corpus) -> None:
    ix = make_index()
    ix.upsert(bns.ids, bns.vectors, bns.payloads)
    q = bns.vec("340")
    allow = {i for i in bns.ids if i != "BNS:340:-:0"}
    hits = ix.search(q, 5, allow=allow)
    assert [h.chunk_id for h in hits] == _brute_force(bns, q, allow, 5)

    few = {"BNS:103:-:0", "BNS:351:-:0", "BNS:64:-:0", "BNS:404:-:0"}  # the last is not indexed
    assert {h.chunk_id for h in ix.search(q, 10, allow=few)} == few - {"BNS:404:-:0"}
    assert ix.search(q, 10, allow=set()) == []
    assert ix.search(q, 10, allow={"BNS:404:-:0"}) == []


# -- index: local store ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "allow",
    [None, set(f"BNS:{s}:-:0" for s in BNS_SECTIONS[::2]), {"BNS:103:-:0", "BNS:318:-:0", "BNS:340:-:0"}],
    ids=["all", "half", "three"],
)
def test_matrix_ranks_exactly_as_qdrant(
    tmp_path: Path, paraphrase_vecs: dict[str, npt.NDArray[np.float32]], bns: Corpus, allow: set[str] | None
) -> None:
    ix = QdrantDenseIndex(path=str(tmp_path / "qdrant"))
    ix.open()
    try:
        # Unnormalised inputs: both paths must rank by cosine, not by raw dot product.
        scale = np.linspace(0.2, 5.0, len(bns.ids), dtype=np.float32)[:, None]
        ix.upsert(bns.ids, bns.vectors * scale, bns.payloads)
        queries = list(bns.vectors) + list(paraphrase_vecs.values())
        for q in queries:
            fast = ix.search(q * 3.0, 8, allow=allow, via=SearchPath.MATRIX)
            ref = ix.search(q * 3.0, 8, allow=allow, via=SearchPath.QDRANT)
            assert [h.chunk_id for h in fast] == [h.chunk_id for h in ref]
            assert [h.score for h in fast] == pytest.approx([h.score for h in ref], abs=1e-5)
    finally:
        ix.close()


def test_local_index_searches_the_matrix_by_default(tmp_path: Path) -> None:
    assert QdrantDenseIndex(path=str(tmp_path / "q")).search_path is SearchPath.MATRIX
    assert QdrantDenseIndex(url="http://127.0.0.1:6333").search_path is SearchPath.QDRANT


def test_constructor_does_no_io(tmp_path: Path) -> None:
    QdrantDenseIndex(path=str(tmp_path / "qdrant"))
    QdrantDenseIndex(url=f"http://127.0.0.1:{_free_port()}")  # nothing listens there; no error yet
    assert not (tmp_path / "qdrant").exists()


def test_used_before_open_is_unavailable(tmp_path: Path, bns: Corpus) -> None:
    ix = QdrantDenseIndex(path=str(tmp_path / "qdrant"))
    with pytest.raises(IndexUnavailableError, match="before open"):
        ix.upsert(bns.ids[:1], bns.vectors[:1], bns.payloads[:1])


def test_unreachable_server_is_retryable() -> None:
    ix = QdrantDenseIndex(url=f"http://127.0.0.1:{_free_port()}", timeout=2)
    with pytest.raises(IndexUnavailableError) as info:
        ix.open()
    assert isinstance(info.value, RetryableError)


def test_local_store_held_by_another_instance_is_retryable(tmp_path: Path) -> None:
    first = QdrantDenseIndex(path=str(tmp_path / "qdrant"))
    first.open()
    try:
        with pytest.raises(IndexUnavailableError, match="in use"):
            QdrantDenseIndex(path=str(tmp_path / "qdrant")).open()
    finally:
        first.close()


def test_reopening_with_another_width_is_a_configuration_error(tmp_path: Path) -> None:
    ix = QdrantDenseIndex(path=str(tmp_path / "qdrant"))
    ix.open()
    ix.close()
    with pytest.raises(ConfigurationError, match="384-d"):
        QdrantDenseIndex(path=str(tmp_path / "qdrant"), dim=8).open()


def test_exactly_one_of_path_or_url() -> None:
    with pytest.raises(ConfigurationError):
        QdrantDenseIndex()
    with pytest.raises(ConfigurationError):
        QdrantDenseIndex(path="x", url="http://127.0.0.1:6333")


def test_upsert_rejects_malformed_input(tmp_path: Path, bns: Corpus) -> None:
    ix = QdrantDenseIndex(path=str(tmp_path / "qdrant"))
    ix.open()
    try:
        with pytest.raises(ValueError, match="ids"):
            ix.upsert(bns.ids[:2], bns.vectors[:1], bns.payloads[:2])
        with pytest.raises(ValueError, match="non-zero"):
            ix.upsert(bns.ids[:1], np.zeros((1, 384), dtype=np.float32), bns.payloads[:1])
        with pytest.raises(ValueError, match="width"):
            ix.upsert(bns.ids[:1], np.ones((1, 8), dtype=np.float32), bns.payloads[:1])
        with pytest.raises(ValueError, match="repeat"):
            ix.upsert([bns.ids[0]] * 2, bns.vectors[:2], bns.payloads[:2])
        with pytest.raises(ValueError, match="names chunk_id"):
            ix.upsert(bns.ids[:1], bns.vectors[:1], [{"chunk_id": "BNS:1:-:0"}])
        assert ix.ids() == set()
    finally:
        ix.close()


def test_point_ids_are_stable_uuids() -> None:
    # Changing the namespace would orphan every stored vector; pin one value.
    assert point_id("BNS:103:1:0") == str(uuid.UUID(point_id("BNS:103:1:0")))
    assert point_id("BNS:103:1:0") == point_id("BNS:103:1:0") != point_id("BNS:103:2:0")
    assert point_id("BNS:103:1:0") == "9640f4a5-d320-5298-9ecd-8a36f7a9cd98"
