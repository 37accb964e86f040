"""The chunk index: chunk metadata plus a lexical and a dense index, kept in step, shared by processes.

State lives in an ``IndexDirectory`` as immutable versions (``snapshot.py``): any number of
processes read the newest version at once (the dense matrices memory-mapped, so they share the
pages), while one writer at a time builds the next version and publishes it atomically. A reader
calls :meth:`ChunkIndex.refresh` before searching (one ``stat``) and picks a newer version up.
With a Qdrant server (production), vectors live in the server's collections and each version holds
the chunk metadata and BM25 only.

``sync`` is incremental and idempotent: a chunk whose content hash is unchanged is never
re-embedded or re-indexed (one whose metadata alone changed is relabelled). A text that needs a
vector is looked up in the shipped vectors first (``vectors.py``) and embedded only when absent.
``sync`` works on a private copy of the newest version and publishes it in one step, so a crash
mid-sync leaves the previous version in place, and readers never see a half-written index.

Besides one vector per chunk, the index keeps one vector per section *heading* ("Punishment for
murder"), stored under the id of the section's first chunk. Fact descriptions rarely share words
with statute text but one of their sentences usually names the offence the heading names; the
retriever matches each query sentence against the headings (see ``hybrid.query_vectors``).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

import numpy as np
import numpy.typing as npt

from graph_schema.errors import LexicalIndexError
from legal_rag.retrieval.lexical import BM25Index
from legal_rag.retrieval.matrix import MatrixDenseIndex
from legal_rag.retrieval.snapshot import IndexDirectory
from legal_rag.retrieval.types import Chunk, DenseIndex, Embedder
from legal_rag.retrieval.vectors import ShippedVectors, vectors_for

Progress = Callable[[str, int, int], None]

FORMAT = 2
CHUNKS_FILE = "chunks.json"
MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class SyncReport:
    added: int
    updated: int
    unchanged: int
    removed: int
    embedded: int
    """Chunk vectors computed by the embedding model (not found in the shipped vectors)."""
    relabelled: int = 0
    """Chunks whose text is unchanged but whose metadata (title, status, dates) changed: rewritten, not re-embedded."""
    headings_embedded: int = 0
    reused: int = 0
    """Chunk vectors taken from the shipped vectors instead of the model."""
    headings_reused: int = 0
    version: int = 0
    """The index version this sync published (0: nothing changed, nothing published)."""

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


@dataclass
class _State:
    """One loaded version: everything a search reads. Replaced whole, never mutated once published."""

    number: int
    chunks: dict[str, Chunk]
    hashes: dict[str, str]
    heading_hashes: dict[str, str]
    lexical: BM25Index
    dense: DenseIndex
    headings: DenseIndex | None
    by_section: dict[tuple[str, str], list[Chunk]] | None = field(default=None)
    lexical_rebuilt: bool = False
    """BM25 was rebuilt from the chunk texts on load (another tokeniser): the next sync saves it."""


class ChunkIndex:
    """All chunks by id, searchable lexically and densely, shared between processes.

    Args:
        root: The index folder (versions are kept under it).
        embedder: Embeds chunk texts, headings and queries.
        dense, headings: Server-side vector stores (Qdrant in production). ``None`` keeps the
            vectors in the version folders (the embedded default). ``headings=None`` with
            ``dense`` given means no heading channel.
        shipped: Precomputed vectors consulted before the embedder.
        with_headings: Keep heading vectors (embedded mode).
    """

    def __init__(
        self,
        root: Path,
        embedder: Embedder,
        *,
        dense: DenseIndex | None = None,
        headings: DenseIndex | None = None,
        shipped: ShippedVectors | None = None,
        with_headings: bool = True,
    ) -> None:
        self.dir = IndexDirectory(Path(root))
        self.embedder = embedder
        self._remote_dense = dense
        self._remote_headings = headings
        self._with_headings = with_headings if dense is None else headings is not None
        self.shipped = shipped
        self._state: _State | None = None
        self._stamp: tuple[int, int] | None = None
        self._lock = threading.Lock()
        self.version = 0
        """Bumped whenever the loaded state changes, so readers can cache derived columns."""

    # -- lifecycle -----------------------------------------------------------------------------

    def open(self) -> ChunkIndex:
        """Load the newest published version (an empty index when none is)."""
        with self._lock:
            self._load_latest()
        return self

    def close(self) -> None:
        self._state = None
        for d in (self._remote_dense, self._remote_headings):
            if d is not None:
                d.close()

    def refresh(self) -> bool:
        """Pick up a version published since this one was loaded (by any process). True if it changed."""
        if self.dir.current_stamp() == self._stamp and self._state is not None:
            return False
        with self._lock:
            if self.dir.current_stamp() == self._stamp and self._state is not None:
                return False
            before = self._state.number if self._state else -1
            self._load_latest()
            return self._s.number != before

    @property
    def snapshot(self) -> int:
        """The published version number loaded (0: nothing published yet)."""
        return self._s.number

    def _load_latest(self) -> None:
        for _ in range(5):  # the version may be collected between reading CURRENT and opening it
            stamp = self.dir.current_stamp()
            cur = self.dir.current()
            try:
                state = self._read(cur)
            except FileNotFoundError:
                continue
            self._state, self._stamp = state, stamp
            self.version += 1
            return
        raise LexicalIndexError(f"the index at {self.dir.root} kept changing while it was being read; try again")

    def _read(self, cur: tuple[int, Path] | None) -> _State:
        if cur is None:
            lexical = BM25Index(None).open()
            return _State(0, {}, {}, {}, lexical, self._dense_for(None, "dense"), self._headings_for(None))
        number, folder = cur
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        if manifest.get("format") != FORMAT:
            raise LexicalIndexError(f"{folder}: index format {manifest.get('format')!r}, expected {FORMAT}: re-index")
        rows = json.loads((folder / CHUNKS_FILE).read_text(encoding="utf-8"))
        chunks: dict[str, Chunk] = {}
        hashes: dict[str, str] = {}
        known = {f.name for f in fields(Chunk)}
        for row in rows["chunks"]:
            h = row.pop("hash")
            # a field a later version added is left out, not a TypeError (an older reader of a newer index)
            c = Chunk(**{k: v for k, v in row.items() if k in known})
            chunks[c.id] = c
            hashes[c.id] = h
        rebuilt = False
        try:
            lexical = BM25Index(folder).open()
        except LexicalIndexError:
            # Saved under another tokeniser (or unreadable): rebuild BM25 from the stored chunk
            # texts. Vectors are unaffected, so nothing is re-embedded; the next sync saves it.
            lexical = BM25Index(None).open()
            lexical.upsert([(c.id, c.lexical_text) for c in chunks.values()])
            rebuilt = True
        return _State(number, chunks, hashes, dict(rows["headings"]), lexical,
                      self._dense_for(folder, "dense"), self._headings_for(folder), lexical_rebuilt=rebuilt)

    def _dense_for(self, folder: Path | None, name: str) -> DenseIndex:
        if self._remote_dense is not None:
            return self._remote_dense
        m = MatrixDenseIndex(self.embedder.dim if folder is None else _dim_of(folder, name), name)
        if folder is not None:
            m.load(folder)
        return m

    def _headings_for(self, folder: Path | None) -> DenseIndex | None:
        if self._remote_dense is not None:
            return self._remote_headings
        return self._dense_for(folder, "headings") if self._with_headings else None

    # -- reading -------------------------------------------------------------------------------

    @property
    def _s(self) -> _State:
        if self._state is None:
            raise LexicalIndexError(f"the index at {self.dir.root} is not open (ChunkIndex.open() first)")
        return self._state

    @property
    def lexical(self) -> BM25Index:
        return self._s.lexical

    @property
    def dense(self) -> DenseIndex:
        return self._s.dense

    @property
    def headings(self) -> DenseIndex | None:
        """Heading vectors keyed by the id of each section's first chunk (None: no heading channel)."""
        return self._s.headings

    def __len__(self) -> int:
        return len(self._s.chunks)

    def get(self, chunk_id: str) -> Chunk | None:
        return self._s.chunks.get(chunk_id)

    def chunks(self) -> Iterable[Chunk]:
        return self._s.chunks.values()

    def ids_for(self, act: str, section: str, sub: Sequence[str] = ()) -> list[str]:
        """Chunk ids of a section, or of one of its sub-units (and that unit's own sub-units)."""
        state = self._s
        if state.by_section is None:
            groups: dict[tuple[str, str], list[Chunk]] = {}
            for c in state.chunks.values():
                groups.setdefault((c.act, c.section), []).append(c)
            state.by_section = groups
        path = "/".join(sub)
        out = [c.id for c in state.by_section.get((act, section), [])
               if not path or c.sub == path or (c.sub or "").startswith(path + "/")]
        if path and not out:  # the unit is not chunked on its own: fall back to the whole section
            return self.ids_for(act, section)
        return sorted(out, key=lambda i: (state.chunks[i].sub or "", state.chunks[i].part))

    def heading_ids(self) -> dict[str, str]:
        """The heading wanted for each section: first chunk id -> heading text."""
        return _heading_ids(self._s.chunks)

    # -- writing -------------------------------------------------------------------------------

    def sync(
        self,
        chunks: Iterable[Chunk],
        *,
        scope_acts: Collection[str] | None = None,
        progress: Progress | None = None,
        batch: int = 256,
        lock_timeout_s: float = 600.0,
    ) -> SyncReport:
        """Make the index hold exactly ``chunks`` for the Acts in ``scope_acts`` (all Acts if None).

        Chunks of those Acts that are no longer produced are removed; other Acts are untouched.
        Runs under the index's write lock on a private copy of the newest version, then publishes
        the result as a new version (nothing is published when nothing changed).

        Raises:
            IndexBusyError: another process held the write lock for ``lock_timeout_s``.
        """
        wanted = {c.id: c for c in chunks}
        with self.dir.write_lock(lock_timeout_s):
            cur = self.dir.current()
            state = self._read(cur)  # private: the published files are never modified
            report, changed = _apply(self, state, wanted, scope_acts, progress, batch)
            if not changed:
                with self._lock:
                    self._state, self._stamp = state, self.dir.current_stamp()
                    self.version += 1
                return report
            number = self._publish(state, cur, changed)
        with self._lock:
            state.number = number
            self._state, self._stamp = state, self.dir.current_stamp()
            self.version += 1
        return SyncReport(**{**report.as_dict(), "version": number})

    def _publish(self, state: _State, previous: tuple[int, Path] | None, changed: set[str]) -> int:
        staged = self.dir.stage()
        try:
            rows = {"chunks": [{**asdict(c), "hash": state.hashes[cid]} for cid, c in state.chunks.items()],
                    "headings": state.heading_hashes}
            (staged / CHUNKS_FILE).write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
            _save_or_link_lexical(state.lexical, previous, staged, "lexical" in changed)
            if self._remote_dense is None:
                for part, index in (("dense", state.dense), ("headings", state.headings)):
                    if not isinstance(index, MatrixDenseIndex):
                        continue
                    if part in changed or previous is None or not index.link_from(previous[1], staged):
                        index.save(staged)
            manifest = {"format": FORMAT, "chunks": len(state.chunks), "headings": len(state.heading_hashes),
                        "model_id": self.embedder.model_id, "dim": self.embedder.dim,
                        "vectors": "server" if self._remote_dense is not None else "files"}
            (staged / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
            return self.dir.publish(staged)
        except BaseException:
            self.dir.discard(staged)
            raise

    def _vectors(self, texts: Sequence[str], stage: str, progress: Progress | None,
                 batch: int) -> tuple[npt.NDArray[np.float32], int]:
        """Vectors for ``texts``: shipped ones where the text matches, the model for the rest (``vectors_for``).

        Returns the vectors (input order) and how many the model computed.
        """
        report = (lambda done, total: progress(stage, done, total)) if progress else None
        return vectors_for(texts, self.embedder, self.shipped, batch=batch, progress=report)


def _apply(
    index: ChunkIndex, state: _State, wanted: dict[str, Chunk], scope_acts: Collection[str] | None,
    progress: Progress | None, batch: int,
) -> tuple[SyncReport, set[str]]:
    """Bring ``state`` to ``wanted``; returns the report and which parts changed."""
    changed: set[str] = {"meta", "lexical"} if state.lexical_rebuilt else set()
    todo = [c for c in wanted.values() if state.hashes.get(c.id) != c.content_hash]
    relabel = [c for c in wanted.values() if state.hashes.get(c.id) == c.content_hash and state.chunks[c.id] != c]
    added = sum(1 for c in todo if c.id not in state.hashes)
    gone = [cid for cid, c in state.chunks.items() if cid not in wanted and (scope_acts is None or c.act in scope_acts)]
    if gone:
        state.dense.delete(gone)
        state.lexical.delete(gone)
        for g in gone:
            state.chunks.pop(g, None)
            state.hashes.pop(g, None)
        changed |= {"meta", "lexical", "dense"}
    if relabel:
        # A chunk whose text is unchanged keeps its vectors; the sections it refers to may have been retitled.
        reworded = [c for c in relabel if c.lexical_text != state.chunks[c.id].lexical_text]
        if reworded:
            state.lexical.upsert([(c.id, c.lexical_text) for c in reworded])
            changed.add("lexical")
        state.dense.set_payloads([c.id for c in relabel], [_payload(c) for c in relabel])
        state.chunks.update((c.id, c) for c in relabel)
        heads = [c for c in relabel if c.id in state.heading_hashes]
        if heads and state.headings is not None:
            state.headings.set_payloads([c.id for c in heads], [_payload(c) for c in heads])
        changed.add("meta")
    vectors, embedded = index._vectors([c.indexed_text for c in todo], "embed", progress, batch)
    for i in range(0, len(todo), batch):
        part = todo[i : i + batch]
        state.dense.upsert([c.id for c in part], vectors[i : i + batch], [_payload(c) for c in part])
        for c in part:
            state.chunks[c.id] = c
            state.hashes[c.id] = c.content_hash
    if todo:
        state.lexical.upsert([(c.id, c.lexical_text) for c in todo])
        changed |= {"meta", "lexical", "dense"}
    h_embedded, h_reused = _sync_headings(index, state, progress, batch, changed)
    state.by_section = None
    report = SyncReport(
        added=added,
        updated=len(todo) - added,
        unchanged=len(wanted) - len(todo) - len(relabel),
        removed=len(gone),
        embedded=embedded,
        relabelled=len(relabel),
        headings_embedded=h_embedded,
        reused=len(todo) - embedded,
        headings_reused=h_reused,
    )
    return report, changed


def _sync_headings(index: ChunkIndex, state: _State, progress: Progress | None, batch: int,
                   changed: set[str]) -> tuple[int, int]:
    """Bring the heading vectors in step with the chunks (same hash rule: unchanged, not re-embedded)."""
    if state.headings is None:
        return 0, 0
    wanted = _heading_ids(state.chunks)
    gone = [h for h in state.heading_hashes if h not in wanted]
    if gone:
        state.headings.delete(gone)
        for g in gone:
            del state.heading_hashes[g]
        changed |= {"meta", "headings"}
    todo = [(cid, text) for cid, text in wanted.items() if state.heading_hashes.get(cid) != _sha(text)]
    if not todo:
        return 0, 0
    vectors, embedded = index._vectors([t for _, t in todo], "headings", progress, batch)
    state.headings.upsert([cid for cid, _ in todo], vectors, [_payload(state.chunks[cid]) for cid, _ in todo])
    state.heading_hashes.update((cid, _sha(t)) for cid, t in todo)
    changed |= {"meta", "headings"}
    return embedded, len(todo) - embedded


def heading_texts(chunks: Iterable[Chunk]) -> list[str]:
    """The heading texts the index embeds for these chunks (one per titled section)."""
    return list(_heading_ids({c.id: c for c in chunks}).values())


def _heading_ids(chunks: dict[str, Chunk]) -> dict[str, str]:
    first: dict[tuple[str, str], Chunk] = {}
    for c in chunks.values():
        key = (c.act, c.section)
        if key not in first or (c.sub or "", c.part) < (first[key].sub or "", first[key].part):
            first[key] = c
    return {c.id: " ".join(c.title.split()) for c in first.values() if c.title and c.title.strip()}


def _save_or_link_lexical(lexical: BM25Index, previous: tuple[int, Path] | None, staged: Path,
                          changed: bool) -> None:
    if not changed and previous is not None:
        try:
            os.link(previous[1] / "bm25.npz", staged / "bm25.npz")
            return
        except OSError:
            pass
    lexical.save(staged)


def _dim_of(folder: Path, name: str) -> int:
    try:
        return int(json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["dim"])
    except (OSError, KeyError, ValueError):
        return int(np.load(folder / f"{name}.npy", mmap_mode="r").shape[1])


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _payload(c: Chunk) -> dict[str, object]:
    return {
        "chunk_id": c.id,
        "act": c.act,
        "section": c.section,
        "status": c.status,
        "in_force_from": c.in_force_from,
        "in_force_to": c.in_force_to,
    }
