"""Retrieval value types and the seams between retrievers (small Protocols)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from graph_schema.chunking import Chunk as Chunk  # lives in graph_schema so finetune can share it


class IdFilter(frozenset[str]):
    """An allow-set of chunk ids that remembers its translation into each index's row positions.

    Filters repeat (today's date, the same Act), and turning 50k ids into rows costs more than the
    search itself; an index asks :meth:`positions` and computes the rows once per (index, version).
    """

    def positions(
        self, owner: object, version: int, compute: Callable[[], npt.NDArray[np.intp]]
    ) -> npt.NDArray[np.intp]:
        memo: dict[tuple[int, int], npt.NDArray[np.intp]] = self.__dict__.setdefault("_memo", {})
        key = (id(owner), version)
        if key not in memo:
            if len(memo) > 8:
                memo.clear()
            memo[key] = compute()
        return memo[key]


@dataclass(frozen=True, slots=True)
class Hit:
    chunk_id: str
    score: float


class LexicalIndex(Protocol):
    """A persistent BM25 index over (id, text) documents, updated incrementally."""

    def upsert(self, docs: Sequence[tuple[str, str]]) -> None:
        """Add or replace documents by id."""

    def delete(self, ids: Collection[str]) -> None: ...

    def search(self, query: str, k: int, allow: Collection[str] | None = None) -> list[Hit]:
        """Top ``k`` by BM25; with ``allow`` only those ids are eligible."""

    def save(self) -> None:
        """Persist to the directory given at construction."""

    def __len__(self) -> int: ...


class Embedder(Protocol):
    """Texts to L2-normalised float32 vectors."""

    @property
    def dim(self) -> int: ...

    @property
    def model_id(self) -> str:
        """Names the weights (shipped vectors are keyed by it)."""

    def embed(
        self, texts: Sequence[str], batch_size: int = 32, progress: Callable[[int, int], None] | None = None
    ) -> npt.NDArray[np.float32]: ...


class DenseIndex(Protocol):
    """Vectors by chunk id, searched by cosine similarity."""

    def upsert(
        self, ids: Sequence[str], vectors: npt.NDArray[np.float32], payloads: Sequence[dict[str, object]]
    ) -> None: ...

    def delete(self, ids: Collection[str]) -> None: ...

    def set_payloads(self, ids: Sequence[str], payloads: Sequence[dict[str, object]]) -> None:
        """Replace the payloads of stored vectors (metadata changed, text did not: no re-embedding)."""

    def search(self, vector: npt.NDArray[np.float32], k: int, allow: Collection[str] | None = None) -> list[Hit]:
        """Top ``k`` by cosine; with ``allow`` only those ids are eligible (must stay fast at 50k)."""

    def similarity(self, vector: npt.NDArray[np.float32], ids: Sequence[str]) -> dict[str, float]:
        """Cosine of ``vector`` with each stored id (absent ids are left out), however far down the ranking."""

    def ids(self) -> set[str]: ...

    def close(self) -> None: ...
