"""Exact cosine search over an in-memory (or memory-mapped) float32 matrix, and the embedded ``DenseIndex``.

``VectorMatrix`` holds unit-length rows by chunk id and answers top-k with one matrix-vector product
(why not qdrant-client's local mode: ``dense.py``; the measurements: docs/performance.md).
``MatrixDenseIndex`` is the embedded default's ``DenseIndex``: the same matrix, persisted as two
files in an index version folder (``<name>.npy``, float32 rows, and ``<name>.ids.json``) and
loaded with ``np.load(mmap_mode="r")``, so opening costs no parsing and every process reading the
same version shares one copy of the pages. A loaded matrix is read-only until the first write,
which copies it (copy-on-write), so a writer never changes a published file.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Collection, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from legal_rag.retrieval.types import Hit, IdFilter

__all__ = ["MatrixDenseIndex", "VectorMatrix", "unit_rows"]


class VectorMatrix:
    """Unit-length rows by chunk id, searched exactly with one matrix-vector product.

    Rows live in an over-allocated array so appends are amortised O(dim); deletes move the last
    row into the hole, so row order is arbitrary and ties are broken by chunk id. One lock guards
    every method: a search must not see a row moved by a concurrent delete (API threads).
    """

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._lock = threading.Lock()
        self._mat = np.zeros((0, dim), dtype=np.float32)
        self._ids: list[str] = []
        self._row: dict[str, int] = {}
        self._version = 0

    @classmethod
    def from_arrays(cls, ids: list[str], mat: npt.NDArray[np.float32]) -> VectorMatrix:
        """Wrap stored rows (possibly a read-only memory map) without copying them."""
        if mat.ndim != 2 or len(ids) != mat.shape[0]:
            raise ValueError(f"{len(ids)} ids for a matrix of shape {mat.shape}")
        vm = cls(mat.shape[1])
        vm._mat, vm._ids = mat, list(ids)
        vm._row = dict(zip(vm._ids, range(len(vm._ids)), strict=True))
        return vm

    def arrays(self) -> tuple[list[str], npt.NDArray[np.float32]]:
        """The ids and their rows, in row order (a view; do not modify)."""
        with self._lock:
            return list(self._ids), self._mat[: len(self._ids)]

    def __len__(self) -> int:
        return len(self._ids)

    def ids(self) -> set[str]:
        with self._lock:
            return set(self._ids)

    def upsert(self, ids: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
        with self._lock:
            self._upsert(ids, vectors)

    def delete(self, ids: Collection[str]) -> None:
        with self._lock:
            self._delete(ids)

    def search(self, query: npt.NDArray[np.float32], k: int, allow: Collection[str] | None) -> list[Hit]:
        with self._lock:
            return self._search(query, k, allow)

    def similarity(self, query: npt.NDArray[np.float32], ids: Sequence[str]) -> dict[str, float]:
        with self._lock:
            found = [(cid, self._row[cid]) for cid in ids if cid in self._row]
            if not found:
                return {}
            scores = _matvec(self._mat[[r for _, r in found]], query)
            return {cid: float(s) for (cid, _), s in zip(found, scores, strict=True)}

    def _writable(self) -> None:
        if not self._mat.flags.writeable:  # a memory-mapped published file: copy before the first write
            self._mat = np.array(self._mat[: len(self._ids)], dtype=np.float32)

    def _upsert(self, ids: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
        self._version += 1
        self._writable()
        new = [i for i, cid in enumerate(ids) if cid not in self._row]
        need = len(self._ids) + len(new)
        if need > self._mat.shape[0]:
            grown = np.zeros((max(need, 2 * self._mat.shape[0], 1024), self.dim), dtype=np.float32)
            grown[: len(self._ids)] = self._mat[: len(self._ids)]
            self._mat = grown
        for i, cid in enumerate(ids):
            row = self._row.get(cid)
            if row is None:
                row = len(self._ids)
                self._ids.append(cid)
                self._row[cid] = row
            self._mat[row] = vectors[i]

    def _delete(self, ids: Collection[str]) -> None:
        self._version += 1
        self._writable()
        for cid in ids:
            row = self._row.pop(cid, None)
            if row is None:
                continue
            last = len(self._ids) - 1
            if row != last:
                moved = self._ids[last]
                self._mat[row] = self._mat[last]
                self._ids[row] = moved
                self._row[moved] = row
            self._ids.pop()

    def _search(self, query: npt.NDArray[np.float32], k: int, allow: Collection[str] | None) -> list[Hit]:
        n = len(self._ids)
        if allow is None:
            rows = None
            scores = _matvec(self._mat[:n], query)
        else:
            row = self._row

            def compute() -> npt.NDArray[np.intp]:
                return np.fromiter((r for r in map(row.get, allow) if r is not None), dtype=np.intp)

            rows = allow.positions(self, self._version, compute) if isinstance(allow, IdFilter) else compute()
            # Most rows allowed: one contiguous product, then pick. Few: gather them, multiply only those.
            scores = _matvec(self._mat[:n], query)[rows] if len(rows) * 2 >= n else _matvec(self._mat[rows], query)
        m = len(scores)
        if m == 0 or k <= 0:
            return []
        # k+1 candidates so that a tie at the k-th place can still be broken by id below.
        cand = np.argpartition(-scores, k)[: k + 1] if k < m else np.arange(m)
        picked = [(float(scores[j]), self._ids[int(j) if rows is None else int(rows[j])]) for j in cand]
        picked.sort(key=lambda sc: (-sc[0], sc[1]))
        return [Hit(chunk_id=cid, score=s) for s, cid in picked[:k]]


def _matvec(mat: npt.NDArray[np.float32], vec: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    # Not ``mat @ vec``: OpenBLAS runs gemv on every core it has, and on a 2-core machine that also
    # serves the API, the worker and the embedder its threads wait on each other. Measured here
    # (10k x 384, machine busy): BLAS 2 threads p50 15 ms, BLAS 1 thread 1.0 ms, einsum 1.2 ms.
    # numpy's own einsum loop is single-threaded and needs no process-wide thread setting.
    out: npt.NDArray[np.float32] = np.einsum("ij,j->i", mat, vec)
    return out


def unit_rows(vectors: npt.ArrayLike, dim: int) -> npt.NDArray[np.float32]:
    arr = np.asarray(vectors, dtype=np.float32)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[1] != dim:
        raise ValueError(f"expected vectors of width {dim}, got shape {np.shape(vectors)}")
    norms = np.linalg.norm(arr, axis=1, keepdims=True)
    if not np.all(np.isfinite(norms)) or np.any(norms == 0):
        raise ValueError("vectors must be finite and non-zero (cosine is undefined otherwise)")
    return np.ascontiguousarray(arr / norms, dtype=np.float32)


class MatrixDenseIndex:
    """The embedded ``DenseIndex``: a ``VectorMatrix`` saved in, and loaded from, an index version folder.

    Args:
        dim: Vector width.
        name: File stem inside the version folder (``dense``, ``headings``).
    """

    def __init__(self, dim: int = 384, name: str = "dense") -> None:
        self.dim = dim
        self.name = name
        self._m = VectorMatrix(dim)

    def load(self, folder: Path) -> None:
        """Memory-map the rows saved in ``folder`` (none saved: empty)."""
        ids_path = folder / f"{self.name}.ids.json"
        if not ids_path.is_file():
            self._m = VectorMatrix(self.dim)
            return
        ids = json.loads(ids_path.read_text(encoding="utf-8"))
        mat = np.load(folder / f"{self.name}.npy", mmap_mode="r")
        if mat.ndim != 2 or mat.shape[1] != self.dim:
            raise ValueError(f"{folder / self.name}.npy holds {mat.shape} vectors, expected width {self.dim}")
        self._m = VectorMatrix.from_arrays(ids, mat)

    def save(self, folder: Path) -> None:
        """Write the rows into ``folder`` (the caller fsyncs and publishes the folder)."""
        ids, mat = self._m.arrays()
        with (folder / f"{self.name}.npy").open("wb") as fh:
            np.save(fh, np.ascontiguousarray(mat, dtype=np.float32))
        (folder / f"{self.name}.ids.json").write_text(json.dumps(ids), encoding="utf-8")

    def link_from(self, previous: Path, folder: Path) -> bool:
        """Hard-link the unchanged files of ``previous`` into ``folder``; False if they cannot be linked."""
        try:
            for suffix in (".npy", ".ids.json"):
                os.link(previous / f"{self.name}{suffix}", folder / f"{self.name}{suffix}")
        except OSError:
            for suffix in (".npy", ".ids.json"):
                (folder / f"{self.name}{suffix}").unlink(missing_ok=True)
            return False
        return True

    # -- DenseIndex --

    def upsert(
        self, ids: Sequence[str], vectors: npt.NDArray[np.float32], payloads: Sequence[dict[str, object]]
    ) -> None:
        if len(ids) != len(vectors) or len(ids) != len(payloads):
            raise ValueError(f"{len(ids)} ids, {len(vectors)} vectors and {len(payloads)} payloads")
        if len(set(ids)) != len(ids):
            raise ValueError("chunk ids repeat within one upsert")
        if len(ids):
            self._m.upsert(ids, unit_rows(vectors, self.dim))

    def delete(self, ids: Collection[str]) -> None:
        self._m.delete(ids)

    def set_payloads(self, ids: Sequence[str], payloads: Sequence[dict[str, object]]) -> None:
        """Nothing to do: the matrix keeps no payloads (filters read the chunk metadata)."""
        if len(ids) != len(payloads):
            raise ValueError(f"{len(ids)} ids and {len(payloads)} payloads")

    def search(self, vector: npt.NDArray[np.float32], k: int, allow: Collection[str] | None = None) -> list[Hit]:
        query = unit_rows(vector, self.dim)[0]
        if k <= 0 or (allow is not None and not allow):
            return []
        return self._m.search(query, k, allow)

    def similarity(self, vector: npt.NDArray[np.float32], ids: Sequence[str]) -> dict[str, float]:
        if not ids:
            return {}
        return self._m.similarity(unit_rows(vector, self.dim)[0], ids)

    def ids(self) -> set[str]:
        return self._m.ids()

    def __len__(self) -> int:
        return len(self._m)

    def close(self) -> None:
        self._m = VectorMatrix(self.dim)
