"""The shared chunk index: versions published atomically, readers in other processes, shipped vectors.

Real statute text, the real numpy encoder, real files and real processes; no fakes.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graph_schema.errors import IndexBusyError
from legal_rag.retrieval.index import ChunkIndex
from legal_rag.retrieval.onnx_minilm import OnnxMiniLMEmbedder
from legal_rag.retrieval.snapshot import IndexDirectory
from legal_rag.retrieval.types import Chunk
from legal_rag.retrieval.vectors import ShippedVectors, write_shipped_vectors
from legal_rag.settings import PROJECT_ROOT

SECTIONS_FILE = PROJECT_ROOT / "data" / "corpus" / "indiacode" / "sections_fulltext_subset.jsonl"


def _real_chunks(act_slug: str, code: str, limit: int) -> list[Chunk]:
    out: list[Chunk] = []
    with SECTIONS_FILE.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if rec["act_slug"] != act_slug or not rec.get("text"):
                continue
            s = rec["section_no"]
            out.append(Chunk(id=f"{code}:{s}:-:0", act=code, section=s, sub=None, part=0, title=rec["title"],
                             heading=f"{code} s.{s} {rec['title']}", text=rec["text"][:1500], status="in_force",
                             in_force_from="2024-07-01", in_force_to=None, source="test"))
            if len(out) >= limit:
                break
    assert len(out) == limit, f"the corpus subset has fewer than {limit} sections of {act_slug}"
    return out


@pytest.fixture(scope="module")
def embedder() -> OnnxMiniLMEmbedder:
    return OnnxMiniLMEmbedder()


@pytest.fixture(scope="module")
def bns() -> list[Chunk]:
    return _real_chunks("the-bharatiya-nyaya-sanhita-2023", "BNS", 40)


@pytest.fixture
def index(tmp_path: Path, embedder: OnnxMiniLMEmbedder) -> Iterator[ChunkIndex]:
    ix = ChunkIndex(tmp_path / "ix", embedder).open()
    yield ix
    ix.close()


def test_sync_publishes_a_version_that_a_reader_picks_up(tmp_path: Path, embedder: OnnxMiniLMEmbedder,
                                                         bns: list[Chunk]) -> None:
    writer = ChunkIndex(tmp_path / "ix", embedder).open()
    reader = ChunkIndex(tmp_path / "ix", embedder).open()
    assert len(reader) == 0 and reader.snapshot == 0
    report = writer.sync(bns[:20])
    assert report.version == 1 and report.added == 20 and report.embedded == 20
    assert len(reader) == 0, "a reader keeps the version it loaded until it refreshes"
    assert reader.refresh() is True
    assert len(reader) == 20 and reader.snapshot == 1
    assert reader.refresh() is False
    top = reader.dense.search(embedder.embed([bns[3].indexed_text])[0], 1)
    assert top[0].chunk_id == bns[3].id
    assert reader.lexical.search("Whoever", 3), "BM25 was published with the vectors"
    assert reader.headings is not None and len(reader.headings) == 20


def test_unchanged_sync_publishes_nothing(index: ChunkIndex, bns: list[Chunk]) -> None:
    index.sync(bns[:10])
    again = index.sync(bns[:10])
    assert again.version == 0 and again.embedded == 0 and again.unchanged == 10
    assert index.dir.current() is not None and index.dir.current()[0] == 1  # type: ignore[index]


def test_the_headings_a_chunk_refers_to_are_searched_lexically_and_follow_a_retitle(
        index: ChunkIndex, bns: list[Chunk]) -> None:
    """BM25 indexes the headings of the sections a chunk refers to; a retitled section re-indexes the chunk's words
    without re-embedding it (its text, and so its vector, is unchanged)."""
    plain = bns[:10]
    index.sync(plain)
    assert not index.lexical.search("zyxwheading", 3)
    referring = [replace(plain[0], refers="Zyxwheading of the rule")] + plain[1:]
    report = index.sync(referring)
    assert report.embedded == 0 and report.relabelled == 1
    assert [h.chunk_id for h in index.lexical.search("zyxwheading", 3)] == [plain[0].id]
    reader = ChunkIndex(index.dir.root, index.embedder).open()
    assert [h.chunk_id for h in reader.lexical.search("zyxwheading", 3)] == [plain[0].id], "published, not only held"
    index.sync(plain)
    assert not index.lexical.search("zyxwheading", 3)


def test_an_index_written_with_a_field_this_version_does_not_know_still_opens(index: ChunkIndex,
                                                                             bns: list[Chunk]) -> None:
    index.sync(bns[:3])
    cur = index.dir.current()
    assert cur is not None
    path = cur[1] / "chunks.json"
    rows = json.loads(path.read_text(encoding="utf-8"))
    for row in rows["chunks"]:
        row["a_later_field"] = "x"
    path.write_text(json.dumps(rows), encoding="utf-8")
    reader = ChunkIndex(index.dir.root, index.embedder).open()
    assert len(reader) == 3 and reader.get(bns[0].id) == bns[0]


def test_old_versions_are_collected_but_the_previous_one_is_kept(index: ChunkIndex, bns: list[Chunk]) -> None:
    for n in (5, 10, 15, 20):
        index.sync(bns[:n])
    kept = sorted(p.name for p in index.dir.versions_dir.iterdir())
    assert kept == ["v000003", "v000004"]


def test_reader_holding_a_collected_version_keeps_answering(tmp_path: Path, embedder: OnnxMiniLMEmbedder,
                                                            bns: list[Chunk]) -> None:
    writer = ChunkIndex(tmp_path / "ix", embedder).open()
    writer.sync(bns[:10])
    reader = ChunkIndex(tmp_path / "ix", embedder).open()
    q = embedder.embed([bns[2].indexed_text])[0]
    for n in (15, 20, 25):  # v1 is removed from disk while the reader still maps its files
        writer.sync(bns[:n])
    assert not (writer.dir.versions_dir / "v000001").exists()
    assert reader.dense.search(q, 1)[0].chunk_id == bns[2].id
    reader.refresh()
    assert len(reader) == 25


def test_a_writer_that_died_mid_publish_leaves_the_old_version(tmp_path: Path, embedder: OnnxMiniLMEmbedder,
                                                               bns: list[Chunk]) -> None:
    ix = ChunkIndex(tmp_path / "ix", embedder).open()
    ix.sync(bns[:10])
    d = IndexDirectory(tmp_path / "ix")
    staged = d.stage()  # as if a writer (pid below) crashed after staging half a version
    (staged / "chunks.json").write_text("{truncated", encoding="utf-8")
    dead = staged.parent / ".tmp-999999-deadbeef"
    staged.rename(dead)
    fresh = ChunkIndex(tmp_path / "ix", embedder).open()
    assert len(fresh) == 10
    ix.sync(bns[:12])
    assert not dead.exists(), "the dead writer's folder is removed by the next writer"


def test_second_writer_waits_for_the_lock_and_then_times_out(tmp_path: Path) -> None:
    d = IndexDirectory(tmp_path / "ix")
    # flock is per open file description: a second open in this process contends like another process.
    other = IndexDirectory(tmp_path / "ix").write_lock(timeout_s=0.2)
    with d.write_lock(), pytest.raises(IndexBusyError, match="being written by another process"), other:
        pass


def test_shipped_vectors_are_used_and_only_changed_texts_embedded(tmp_path: Path, embedder: OnnxMiniLMEmbedder,
                                                                 bns: list[Chunk]) -> None:
    chunks = bns[:12]
    heads = [" ".join((c.title or "").split()) for c in chunks]
    texts = [c.indexed_text for c in chunks] + heads
    write_shipped_vectors(tmp_path / "vectors", embedder.model_id, zip(texts, embedder.embed(texts), strict=True))
    shipped = ShippedVectors(tmp_path / "vectors", embedder.model_id)
    ix = ChunkIndex(tmp_path / "ix", embedder, shipped=shipped).open()
    changed = Chunk(**{**{f: getattr(chunks[0], f) for f in Chunk.__slots__}, "text": chunks[0].text + " (amended)"})
    report = ix.sync([changed, *chunks[1:]])
    assert report.embedded == 1 and report.reused == 11
    assert report.headings_embedded == 0 and report.headings_reused == 12
    # The shipped (float16) and computed vectors rank alike: each chunk's own text finds it first.
    for c in chunks[1:]:
        assert ix.dense.search(embedder.embed([c.indexed_text])[0], 1)[0].chunk_id == c.id


def test_shipped_vectors_of_another_model_are_never_used(tmp_path: Path, embedder: OnnxMiniLMEmbedder,
                                                         bns: list[Chunk]) -> None:
    texts = [c.indexed_text for c in bns[:3]]
    write_shipped_vectors(tmp_path / "vectors", "other-model@0000", zip(texts, embedder.embed(texts), strict=True))
    shipped = ShippedVectors(tmp_path / "vectors", embedder.model_id)
    assert shipped.lookup(texts)[0] == []
    assert shipped.mismatch is not None and "other-model@0000" in shipped.mismatch


def test_shipped_lookup_returns_unit_rows_in_input_order(tmp_path: Path) -> None:
    rng = np.random.default_rng(7)
    vecs = rng.normal(size=(50, 8)).astype(np.float32)
    texts = [f"text {i}" for i in range(50)]
    write_shipped_vectors(tmp_path / "v", "m@1", zip(texts, vecs, strict=True))
    found, rows = ShippedVectors(tmp_path / "v", "m@1").lookup(["absent", "text 7", "text 0", "text 49"])
    assert found == [1, 2, 3]
    want = vecs[[7, 0, 49]] / np.linalg.norm(vecs[[7, 0, 49]], axis=1, keepdims=True)
    np.testing.assert_allclose(rows, want, atol=2e-3)


def test_shipped_rows_rewritten_unnormalised_are_unchanged(tmp_path: Path) -> None:
    # ``index export-vectors --reuse`` keeps the stored rows and embeds only new texts: the rewrite must not drift.
    rng = np.random.default_rng(3)
    vecs = rng.normal(size=(20, 8)).astype(np.float32)
    texts = [f"text {i}" for i in range(20)]
    write_shipped_vectors(tmp_path / "v", "m@1", zip(texts, vecs, strict=True))
    found, rows = ShippedVectors(tmp_path / "v", "m@1").lookup(texts, normalise=False)
    assert found == list(range(20))
    np.testing.assert_array_equal(rows, vecs.astype(np.float16).astype(np.float32))  # the stored rows, as stored
    kept = {texts[i]: r for i, r in zip(found, rows, strict=True)}
    write_shipped_vectors(tmp_path / "v", "m@1", {**kept, "new text": np.ones(8, np.float32)})
    shipped = ShippedVectors(tmp_path / "v", "m@1")
    assert len(shipped) == 21
    _, again = shipped.lookup(texts, normalise=False)
    np.testing.assert_array_equal(again, rows)


# -- many processes ---------------------------------------------------------------------------------


def _reader(root: str, act: str, written: Any, queue: mp.Queue) -> None:  # type: ignore[type-arg]
    """Query in a loop until the new Act is found; report errors and what was seen.

    ``written`` is set by the parent once the writer's ``sync`` has returned: a query that starts
    after that must see the new Act (``stale`` otherwise). The short sleep between queries leaves
    the writer CPU on a 2-core machine; the deadline only bounds a hung run.
    """
    try:
        emb = OnnxMiniLMEmbedder()
        ix = ChunkIndex(Path(root), emb).open()
        q = emb.embed(["Whoever commits theft shall be punished"])[0]
        queries, versions = 0, {ix.snapshot}
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            after_write = written.is_set()
            ix.refresh()
            versions.add(ix.snapshot)
            hits = ix.dense.search(q, 50)
            ix.lexical.search("theft punished", 50)
            queries += 1
            seen = {ix.get(h.chunk_id).act for h in hits if ix.get(h.chunk_id) is not None}  # type: ignore[union-attr]
            if act in seen:
                queue.put(("found", queries, sorted(versions)))
                return
            if after_write:
                queue.put(("stale", queries, sorted(versions)))
                return
            time.sleep(0.02)
        queue.put(("timeout", queries, sorted(versions)))
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which fails the test
        queue.put(("error", repr(exc), []))


def test_four_reader_processes_while_a_writer_adds_an_act(tmp_path: Path, embedder: OnnxMiniLMEmbedder,
                                                          bns: list[Chunk]) -> None:
    root = tmp_path / "ix"
    writer = ChunkIndex(root, embedder).open()
    writer.sync(bns)
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    written = ctx.Event()
    readers = [ctx.Process(target=_reader, args=(str(root), "IPC", written, queue)) for _ in range(4)]
    for p in readers:
        p.start()
    time.sleep(3)  # readers are querying the first version (not needed for correctness)
    ipc = _real_chunks("the-indian-penal-code", "IPC", 30) if _has("the-indian-penal-code") else [
        Chunk(**{**{f: getattr(c, f) for f in Chunk.__slots__}, "id": c.id.replace("BNS", "IPC"), "act": "IPC"})
        for c in bns[:30]
    ]
    report = writer.sync(ipc, scope_acts={"IPC"})
    written.set()
    assert report.version == 2
    results = [queue.get(timeout=600) for _ in readers]
    for p in readers:
        p.join(timeout=30)
    assert all(r[0] == "found" for r in results), results
    assert all(max(r[2]) == 2 for r in results), "every reader ended on the version the writer published"
    assert all(p.exitcode == 0 for p in readers)
    assert os.path.exists(root / "CURRENT")


def _has(slug: str) -> bool:
    with SECTIONS_FILE.open(encoding="utf-8") as fh:
        return any(json.loads(line)["act_slug"] == slug for line in fh)
