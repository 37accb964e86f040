"""What the two all-MiniLM-L6-v2 encoders share: batching by token length, padding, mean pooling, file ids.

``minilm.py`` (fp32 weights in numpy) and ``onnx_minilm.py`` (int8 weights in ONNX Runtime) differ only in
the forward pass from token ids to hidden states.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from graph_schema.errors import ConfigurationError

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]
ProgressCallback = Callable[[int, int], None]


def embed_by_length(
    tokenizer: Any,
    texts: Sequence[str],
    dim: int,
    forward: Callable[[list[list[int]]], F32],
    batch_size: int,
    progress: ProgressCallback | None = None,
    around: Callable[[], AbstractContextManager[Any]] = nullcontext,
) -> F32:
    """Unit rows for ``texts`` in input order: tokenised first, batched longest first so each batch pads
    little; ``forward`` maps a batch of token-id lists to unit vectors, run inside ``around()``.

    Raises:
        ValueError: ``batch_size`` under 1.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    total = len(texts)
    out = np.zeros((total, dim), dtype=np.float32)
    if not total:
        return out
    encs = tokenizer.encode_batch(list(texts))
    order = sorted(range(total), key=lambda i: -len(encs[i].ids))
    for start in range(0, total, batch_size):
        rows = order[start : start + batch_size]
        with around():
            out[rows] = forward([encs[i].ids for i in rows])
        if progress is not None:
            progress(min(start + batch_size, total), total)
    return out


def padded(batch: list[list[int]]) -> tuple[I64, F32]:
    """Token ids right-padded with 0, and the attention mask (1.0 on real tokens)."""
    b, n = len(batch), max(len(ids) for ids in batch)
    ids = np.zeros((b, n), dtype=np.int64)
    mask = np.zeros((b, n), dtype=np.float32)
    for i, row in enumerate(batch):
        ids[i, : len(row)] = row
        mask[i, : len(row)] = 1.0
    return ids, mask


def mean_pool_unit(hidden: npt.NDArray[Any], mask: F32) -> F32:
    """Mean of the hidden states over real tokens, L2-normalised (sentence-transformers' pooling)."""
    pooled = (hidden * mask[:, :, None]).sum(axis=1) / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
    norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
    unit: F32 = np.asarray(pooled / norms, dtype=np.float32)
    return unit


def file_sha256(path: Path) -> str:
    """Raises: ConfigurationError if the file cannot be read."""
    h = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError as exc:
        raise ConfigurationError(f"cannot read the embedding model {path}: {exc}") from exc
    return h.hexdigest()
