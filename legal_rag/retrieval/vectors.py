"""Shipped vectors: the shipped corpus's chunk and heading embeddings, keyed by model and text hash.

Embedding ~12,600 chunks and ~5,300 headings on 2 CPU cores takes 8-16 minutes, and every fresh
clone would redo exactly the same arithmetic. ``data/vectors`` holds the result once: float16 rows
(half the bytes of float32; the ranking effect is measured in ``benchmarks/bench_shipped_vectors.py``)
keyed by the SHA-256 of the exact text embedded (``Chunk.indexed_text`` or a heading), under the
id of the weights that made them (``minilm.model_id``). An index sync looks every text up here
first and embeds only what is missing: a changed text, a data engineer's new Act, or everything
when the model is another one (the manifest's model id does not match, so nothing is used).

``legal-rag index export-vectors`` regenerates the artifact from scratch: it embeds every chunk
and heading of the statutes in the graph (load the shipped corpus alone first) with the current model.
Files: ``manifest.json`` (format, model id, dim, dtype, count), ``keys.npy`` ((n, 32) uint8
digests, sorted) and ``vectors.npy`` ((n, dim) float16, same order).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from graph_schema.errors import ConfigurationError
from legal_rag.retrieval.types import Embedder

__all__ = ["ShippedVectors", "text_key", "vectors_for", "write_shipped_vectors"]

FORMAT = 1
MANIFEST = "manifest.json"


def text_key(text: str) -> bytes:
    """The lookup key of an embedded text: its SHA-256 digest (UTF-8)."""
    return hashlib.sha256(text.encode("utf-8")).digest()


class ShippedVectors:
    """Read-only lookup of precomputed vectors by text (see module docstring).

    Args:
        directory: The artifact directory (``data/vectors``); a missing directory is an empty artifact.
        model_id: The embedder's model id; an artifact made by other weights yields nothing.
    """

    def __init__(self, directory: Path, model_id: str) -> None:
        self.directory = Path(directory)
        self.model_id = model_id
        self._keys: npt.NDArray[np.uint8] | None = None
        self._vectors: npt.NDArray[np.float16] | None = None
        self.mismatch: str | None = None
        """Why the artifact is not used (another model, unreadable), for the ingest report."""

    def _load(self) -> None:
        if self._keys is not None:
            return
        empty_k, empty_v = np.zeros((0, 32), np.uint8), np.zeros((0, 1), np.float16)
        self._keys, self._vectors = empty_k, empty_v
        manifest = self.directory / MANIFEST
        if not manifest.is_file():
            self.mismatch = f"no shipped vectors in {self.directory}"
            return
        try:
            meta = json.loads(manifest.read_text(encoding="utf-8"))
            if meta.get("format") != FORMAT:
                self.mismatch = f"shipped vectors are format {meta.get('format')}, expected {FORMAT}"
                return
            if meta.get("model_id") != self.model_id:
                self.mismatch = f"shipped vectors are from {meta.get('model_id')}, the embedder is {self.model_id}"
                return
            keys = np.load(self.directory / "keys.npy", mmap_mode="r")
            vectors = np.load(self.directory / "vectors.npy", mmap_mode="r")
        except (OSError, ValueError, json.JSONDecodeError) as exc:
            raise ConfigurationError(f"shipped vectors in {self.directory} are unreadable: {exc}") from exc
        if keys.ndim != 2 or keys.shape[1] != 32 or len(keys) != len(vectors) or len(keys) != meta.get("count"):
            raise ConfigurationError(
                f"shipped vectors in {self.directory} are inconsistent: keys {keys.shape}, vectors {vectors.shape}, "
                f"manifest count {meta.get('count')}"
            )
        self._keys, self._vectors = keys, vectors

    def __len__(self) -> int:
        self._load()
        assert self._keys is not None
        return len(self._keys)

    def lookup(self, texts: Sequence[str], *, normalise: bool = True) -> tuple[list[int], npt.NDArray[np.float32]]:
        """Which of ``texts`` have a shipped vector, and those vectors (float32; unit length unless ``normalise``
        is False, which gives the stored rows exactly, for rewriting the artifact without drift).

        Returns:
            ``(positions, vectors)``: indexes into ``texts`` that were found, and their rows in that order.
        """
        self._load()
        assert self._keys is not None and self._vectors is not None
        if not len(self._keys) or not texts:
            return [], np.zeros((0, self._vectors.shape[1]), np.float32)
        # Keys are sorted byte strings: view each 32-byte row as one void scalar and binary-search.
        table = np.ascontiguousarray(self._keys).view(np.dtype((np.void, 32))).ravel()
        wanted = np.frombuffer(b"".join(text_key(t) for t in texts), dtype=np.uint8).reshape(-1, 32)
        probe = wanted.view(np.dtype((np.void, 32))).ravel()
        at = np.searchsorted(table, probe)
        at_c = np.minimum(at, len(table) - 1)
        hit = table[at_c] == probe
        positions = [int(i) for i in np.flatnonzero(hit)]
        rows = np.asarray(self._vectors[at_c[hit]], dtype=np.float32)
        if not normalise:
            return positions, rows
        norms = np.linalg.norm(rows, axis=1, keepdims=True)
        unit: npt.NDArray[np.float32] = (rows / np.where(norms > 0, norms, 1.0)).astype(np.float32)
        return positions, unit


def write_shipped_vectors(
    directory: Path, model_id: str, items: Iterable[tuple[str, npt.NDArray[np.float32]]] | Mapping[str, object]
) -> int:
    """Write the artifact from ``(text, vector)`` pairs (duplicates by text are kept once).

    Files are written under temporary names and renamed, manifest last, so a reader never sees a
    manifest that describes other files.

    Returns:
        The number of vectors written.
    """
    pairs = items.items() if isinstance(items, Mapping) else items
    table: dict[bytes, npt.NDArray[np.float32]] = {}
    for text, vec in pairs:
        table[text_key(text)] = np.asarray(vec, dtype=np.float32)
    keys = sorted(table)
    dim = len(next(iter(table.values()))) if table else 0
    k_arr = np.frombuffer(b"".join(keys), dtype=np.uint8).reshape(-1, 32) if keys else np.zeros((0, 32), np.uint8)
    v_arr = np.stack([table[k] for k in keys]).astype(np.float16) if keys else np.zeros((0, dim), np.float16)
    directory.mkdir(parents=True, exist_ok=True)
    for name, arr in (("keys.npy", k_arr), ("vectors.npy", v_arr)):
        tmp = directory / f".{name}.tmp"
        with tmp.open("wb") as fh:
            np.save(fh, arr)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, directory / name)
    meta = {"format": FORMAT, "model_id": model_id, "dim": dim, "dtype": "float16", "count": len(keys),
            "key": "sha256(utf-8 text embedded)"}
    tmp = directory / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, directory / MANIFEST)
    return len(keys)


def vectors_for(
    texts: Sequence[str], embedder: Embedder, shipped: ShippedVectors | None, *, batch: int = 64,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[npt.NDArray[np.float32], int]:
    """Unit vectors for ``texts`` (input order): the shipped ones where the text matches, the model for the rest, in
    batches of ``batch`` (``progress(done, total)`` over those). Returns the vectors and how many the model computed."""
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    found: list[int] = []
    if shipped is not None and texts:
        found, rows = shipped.lookup(texts)
        if found:
            out[found] = rows
    missing = sorted(set(range(len(texts))) - set(found))
    if progress:
        progress(0, len(missing))
    for i in range(0, len(missing), batch):
        part = missing[i : i + batch]
        out[part] = embedder.embed([texts[j] for j in part])
        if progress:
            progress(i + len(part), len(missing))
    return out, len(missing)
