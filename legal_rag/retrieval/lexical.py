"""BM25 over statute chunks: a persistent, incrementally updated ``LexicalIndex``.

How it works. The index keeps raw term frequencies, not BM25 scores: term-major postings (for each
term, the document slots it occurs in and how often: a CSR matrix terms x slots) plus each document's
length. BM25 is computed at query time for the query's terms only, with N, avgdl and df taken from the
live documents at that moment. Because nothing stored depends on corpus-wide statistics:

- ``upsert``/``delete`` touch only the documents named. New documents go to a small *delta* (postings
  indexed lazily at the next query); a replaced or deleted document is a dead slot masked out of every
  query. When the delta passes ``merge_fraction`` of the base, or dead slots pass it, base and delta
  are merged in one vectorised pass (a counting sort over postings; no document is re-tokenised) that
  also drops dead slots and terms that no longer occur.
- Query-time caches hold what the current statistics fix: each document's length norm
  ``k1 * (1 - b + b * dl / avgdl)`` (O(documents) to refresh after a change) and each base posting's
  ``tf / (tf + norm)``, filled term by term as queries need them (up to 8 bytes a posting).
- k1, b and the query weighting are query-time settings: change them without reindexing.
- ``save`` writes one ``.npz`` file to a temporary name in the index directory, fsyncs it and
  ``os.replace``-s it over the previous file, so a crash mid-save leaves the previous index loadable.
  ``open`` reads the arrays back (no tokenising, no rebuilding) and checks the tokenizer id.

Scoring is Lucene's BM25 (the variant ``bm25s`` calls ``"lucene"``, k1=1.5, b=0.75 by default):
``idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5))`` and ``score = sum idf(t) * tf / (tf + k1 * (1 - b
+ b * dl / avgdl))``, which drops the constant (k1 + 1) factor. On a fresh build the scores equal
``bm25s.BM25(method="lucene")`` given the same tokens (tested to 1e-6; 2e-7 relative in the benchmark).
Only documents that contain at least one query term are returned; equal scores come oldest first.

Long queries weight a term that occurs n times in the query by 1 + ln(n) (``QueryWeighting.LOG``, the
default: best on long fact descriptions under every stemmer tried). Not rank-bm25 (scans every document
in Python, no persistence or updates) nor bm25s (stores every document-term score, so an upsert
re-indexes the whole corpus): this index gives bm25s's scores and makes an ingest of a few chunks
searchable without a rebuild. Measured figures: docs/performance.md.

Concurrency: searches may run concurrently with each other; writers (``upsert``, ``delete``, ``save``)
need the caller's lock, as one ingest worker at a time already provides. Two processes saving the same
directory do not corrupt it (each writes its own temporary file), but the last rename wins.
"""

from __future__ import annotations

import json
import math
import os
import uuid
import zipfile
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import IO

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

from graph_schema.errors import LexicalIndexError
from legal_rag.retrieval.tokenize import TOKENIZER_ID, Tokenizer, legal_tokens
from legal_rag.retrieval.types import Hit, IdFilter

INDEX_FILE = "bm25.npz"
_FORMAT = 1

I32 = npt.NDArray[np.int32]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

class QueryWeighting(Enum):
    """How a term repeated in the query counts."""

    UNIQUE = "unique"
    """Each distinct term once (Lucene's default for a bag of words)."""
    FREQUENCY = "frequency"
    """Each occurrence (what rank-bm25 and bm25s do with a raw token list)."""
    LOG = "log"
    """1 + ln(n) for n occurrences: repetition helps, sublinearly."""


@dataclass(frozen=True, slots=True)
class BM25Params:
    """BM25 settings; all apply at query time, so changing them needs no reindex."""

    k1: float = 1.5
    b: float = 0.75
    weighting: QueryWeighting = QueryWeighting.LOG


@dataclass(frozen=True, slots=True)
class _Postings:
    """Term-major postings: slots and term frequencies of term ``t`` are ``[indptr[t]:indptr[t+1]]``."""

    indptr: npt.NDArray[np.int64]
    slots: I32
    tf: F32

    @classmethod
    def empty(cls) -> _Postings:
        return cls(np.zeros(1, np.int64), np.zeros(0, np.int32), np.zeros(0, np.float32))

    @classmethod
    def from_coo(cls, terms: I32, slots: I32, tf: F32, n_terms: int, n_slots: int) -> _Postings:
        # scipy's COO -> CSR is a linear counting sort; slots end up ascending within each term.
        m = sp.csr_matrix((tf, (terms, slots)), shape=(n_terms, max(n_slots, 1)), dtype=np.float32)
        return cls(m.indptr.astype(np.int64), m.indices.astype(np.int32), m.data.astype(np.float32))

    @property
    def n_terms(self) -> int:
        return len(self.indptr) - 1

    def coo_terms(self) -> I32:
        return np.repeat(np.arange(self.n_terms, dtype=np.int32), np.diff(self.indptr))


class BM25Index:
    """A ``LexicalIndex`` persisted in ``directory`` (``None``: in memory only, ``save`` refuses).

    The constructor does no I/O: call :meth:`open` once to load a saved index (or start empty).
    """

    def __init__(
        self,
        directory: Path | str | None,
        params: BM25Params | None = None,
        tokenizer: Tokenizer = legal_tokens,
        tokenizer_id: str = TOKENIZER_ID,
        merge_fraction: float = 0.1,
    ) -> None:
        self.directory = Path(directory) if directory is not None else None
        self.params = params or BM25Params()
        self._tokenize = tokenizer
        self._tokenizer_id = tokenizer_id
        self._merge_fraction = merge_fraction
        self._reset()

    def _reset(self) -> None:
        self._ids: list[str | None] = []
        self._slot: dict[str, int] = {}
        self._alive = np.zeros(0, dtype=bool)
        self._doc_len = np.zeros(0, dtype=np.int32)
        # Term ids are insertion order, so list(self._vocab) is the id -> term table.
        self._vocab: dict[str, int] = {}
        self._base = _Postings.empty()
        self._n_alive = 0
        self._total_len = 0
        self._n_dead = 0
        # Delta: postings of documents added since the last merge, as flat lists, and their lazy index.
        self._d_terms: list[int] = []
        self._d_slots: list[int] = []
        self._d_tf: list[int] = []
        self._delta: _Postings | None = None
        # Query-time caches, valid for one "stamp" (the data version and k1, b): the length norm
        # k1 * (1 - b + b * dl / avgdl) per slot, and each base posting's tf / (tf + norm), filled
        # term by term as queries need them (``_tfc_stamp`` per term says which are current).
        self._version = 0
        self._stamp_key: tuple[int, float, float] = (-1, 0.0, 0.0)
        self._stamp = 0
        self._norm: F64 = np.zeros(0)
        self._tfc: F64 | None = None
        self._tfc_stamp = np.zeros(0, dtype=np.int64)

    # -- persistence ---------------------------------------------------------------------------

    @property
    def path(self) -> Path | None:
        return self.directory / INDEX_FILE if self.directory is not None else None

    def open(self) -> BM25Index:
        """Load the saved index if there is one (an empty index otherwise). Returns ``self``.

        Raises:
            LexicalIndexError: the file is unreadable, of another format, or was built with another
                tokenizer (re-index: its terms would not match this tokenizer's queries).
        """
        self._reset()
        path = self.path
        if path is None or not path.exists():
            return self
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(bytes(z["meta"]).decode())
                ids = json.loads(bytes(z["ids"]).decode())
                terms = json.loads(bytes(z["terms"]).decode())
                doc_len, indptr, slots, tf = z["doc_len"], z["indptr"], z["slots"], z["tf"]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise LexicalIndexError(f"cannot read BM25 index {path}: {exc}") from exc
        if meta.get("format") != _FORMAT:
            raise LexicalIndexError(f"{path}: format {meta.get('format')!r}, expected {_FORMAT}")
        if meta.get("tokenizer") != self._tokenizer_id:
            raise LexicalIndexError(
                f"{path} was built with tokenizer {meta.get('tokenizer')!r}, this build uses "
                f"{self._tokenizer_id!r}: re-index"
            )
        consistent = (
            len(ids) == len(doc_len)
            and len(indptr) == len(terms) + 1
            and int(indptr[-1]) == len(slots) == len(tf)
            and (len(slots) == 0 or int(slots.max()) < len(ids))
        )
        if not consistent:
            raise LexicalIndexError(f"{path}: arrays do not agree with each other")
        self._ids = ids
        self._slot = dict(zip(ids, range(len(ids)), strict=True))
        self._alive = np.ones(len(ids), dtype=bool)
        self._doc_len = doc_len.astype(np.int32)
        self._vocab = dict(zip(terms, range(len(terms)), strict=True))
        self._base = _Postings(indptr.astype(np.int64), slots.astype(np.int32), tf.astype(np.float32))
        self._n_alive = len(ids)
        self._total_len = int(self._doc_len.sum())
        return self

    def save(self, directory: Path | None = None) -> None:
        """Merge pending changes and write the index atomically (temp file, fsync, rename).

        Args:
            directory: Write there instead of the index's own directory (a new index version).

        Raises:
            LexicalIndexError: the index has no directory and none was given.
        """
        target = Path(directory) if directory is not None else self.directory
        if target is None:
            raise LexicalIndexError("this BM25 index is in memory only (no directory)")
        path = target / INDEX_FILE
        self._merge()
        target.mkdir(parents=True, exist_ok=True)
        tmp = target / f".{INDEX_FILE}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
        try:
            with open(tmp, "wb") as fh:
                self._write_snapshot(fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        _fsync_dir(target)
        for stale in target.glob(f".{INDEX_FILE}.*.tmp"):
            if not _pid_alive(stale.name.split(".")[3]):
                stale.unlink(missing_ok=True)

    def _write_snapshot(self, fh: IO[bytes]) -> None:
        """Write the merged index to ``fh`` (the seam a crash test breaks)."""
        meta = {"format": _FORMAT, "tokenizer": self._tokenizer_id}
        np.savez(
            fh,
            meta=_json_bytes(meta),
            ids=_json_bytes(self._ids),
            terms=_json_bytes(list(self._vocab)),
            doc_len=self._doc_len[: len(self._ids)],
            indptr=self._base.indptr,
            slots=self._base.slots,
            tf=self._base.tf,
        )

    # -- updates -------------------------------------------------------------------------------

    def upsert(self, docs: Sequence[tuple[str, str]]) -> None:
        """Add or replace documents by id (a later duplicate in ``docs`` wins)."""
        tokenized = [(doc_id, Counter(self._tokenize(text))) for doc_id, text in docs]
        self._grow(len(tokenized))
        vocab = self._vocab
        for doc_id, counts in tokenized:
            self._kill(doc_id)
            slot = len(self._ids)
            self._ids.append(doc_id)
            self._slot[doc_id] = slot
            length = counts.total()
            self._alive[slot] = True
            self._doc_len[slot] = length
            self._n_alive += 1
            self._total_len += length
            # setdefault's default is evaluated first: a new term gets the next id.
            self._d_terms.extend([vocab.setdefault(term, len(vocab)) for term in counts])
            self._d_tf.extend(counts.values())
            self._d_slots.extend([slot] * len(counts))
        self._delta = None
        self._version += 1
        self._maybe_merge()

    def delete(self, ids: Collection[str]) -> None:
        """Remove documents by id; unknown ids are ignored."""
        for doc_id in ids:
            self._kill(doc_id)
        self._version += 1
        self._maybe_merge()

    def _kill(self, doc_id: str) -> None:
        slot = self._slot.pop(doc_id, None)
        if slot is None:
            return
        self._ids[slot] = None
        self._alive[slot] = False
        self._n_alive -= 1
        self._total_len -= int(self._doc_len[slot])
        self._n_dead += 1

    def _grow(self, extra: int) -> None:
        need = len(self._ids) + extra
        if need > len(self._alive):
            cap = max(need, 2 * len(self._alive), 1024)
            self._alive = np.concatenate([self._alive, np.zeros(cap - len(self._alive), dtype=bool)])
            self._doc_len = np.concatenate([self._doc_len, np.zeros(cap - len(self._doc_len), dtype=np.int32)])

    def _maybe_merge(self) -> None:
        limit = self._merge_fraction * max(len(self._base.slots), 1)
        if len(self._d_terms) > limit or self._n_dead > self._merge_fraction * max(len(self._ids), 1):
            self._merge()

    def _merge(self) -> None:
        """Fold the delta into the base, dropping dead slots and terms that no longer occur."""
        if not self._d_terms and not self._n_dead and len(self._vocab) == self._base.n_terms:
            return
        n = len(self._ids)
        alive = self._alive[:n]
        terms = np.concatenate([self._base.coo_terms(), np.asarray(self._d_terms, dtype=np.int32)])
        slots = np.concatenate([self._base.slots, np.asarray(self._d_slots, dtype=np.int32)])
        tf = np.concatenate([self._base.tf, np.asarray(self._d_tf, dtype=np.float32)])
        keep = alive[slots]
        terms, slots, tf = terms[keep], slots[keep], tf[keep]
        new_slot = (np.cumsum(alive) - 1).astype(np.int32)
        slots = new_slot[slots]
        used = np.bincount(terms, minlength=len(self._vocab)) > 0
        if not used.all():
            terms = (np.cumsum(used) - 1).astype(np.int32)[terms]
            kept = [t for t, u in zip(self._vocab, used.tolist(), strict=True) if u]
            self._vocab = dict(zip(kept, range(len(kept)), strict=True))
        if self._n_dead:
            live_ids = [doc_id for doc_id in self._ids if doc_id is not None]
            self._slot = dict(zip(live_ids, range(len(live_ids)), strict=True))
            self._ids = list(live_ids)
        n_live = len(self._ids)
        self._doc_len = np.ascontiguousarray(self._doc_len[:n][alive])
        self._alive = np.ones(n_live, dtype=bool)
        self._base = _Postings.from_coo(terms, slots, tf, len(self._vocab), n_live)
        self._n_dead = 0
        self._d_terms, self._d_slots, self._d_tf = [], [], []
        self._delta = self._tfc = None
        self._version += 1

    def _delta_postings(self) -> _Postings | None:
        if not self._d_terms:
            return None
        if self._delta is None or self._delta.n_terms != len(self._vocab):
            self._delta = _Postings.from_coo(
                np.asarray(self._d_terms, dtype=np.int32),
                np.asarray(self._d_slots, dtype=np.int32),
                np.asarray(self._d_tf, dtype=np.float32),
                len(self._vocab),
                len(self._ids),
            )
        return self._delta

    # -- queries -------------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._n_alive

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._slot

    def ids(self) -> set[str]:
        return set(self._slot)

    def search(self, query: str, k: int, allow: Collection[str] | None = None) -> list[Hit]:
        """Top ``k`` documents by BM25 that contain a query term, best first (ties: oldest first).

        With ``allow``, only those ids are eligible (ids not in the index are ignored).
        """
        return self.search_terms(self._tokenize(query), k, allow)

    def search_terms(self, terms: Sequence[str], k: int, allow: Collection[str] | None = None) -> list[Hit]:
        """:meth:`search` for a query already tokenised (a query whose terms the caller selected)."""
        if k <= 0 or self._n_alive == 0:
            return []
        scores = self._scores(terms)
        if scores is None:
            return []
        if allow is not None:
            slot = self._slot

            def compute() -> npt.NDArray[np.intp]:
                return np.fromiter(_slots_of(slot, allow), dtype=np.intp)

            slots = allow.positions(self, self._version, compute) if isinstance(allow, IdFilter) else compute()
            mask = np.zeros(len(scores), dtype=bool)
            mask[slots] = True
            scores[~mask] = 0.0
        ids = self._ids
        return [Hit(str(ids[s]), float(scores[s])) for s in _top_k(scores, k).tolist()]

    def doc_freq(self, terms: Sequence[str]) -> list[int]:
        """How many live documents contain each of ``terms`` (tokenised terms; 0 for unknown ones)."""
        known = [t for t in dict.fromkeys(terms) if t in self._vocab]
        out = dict.fromkeys(terms, 0)
        if known and self._n_alive:
            tids = np.fromiter((self._vocab[t] for t in known), dtype=np.int64, count=len(known))
            slots, _, qidx = self._postings(tids)
            if self._n_dead:
                qidx = qidx[self._alive[slots]]
            out.update(zip(known, np.bincount(qidx, minlength=len(known)).tolist(), strict=True))
        return [out[t] for t in terms]

    def _scores(self, query_terms: Sequence[str]) -> F64 | None:
        """BM25 of every slot for tokenised ``query_terms`` (``None`` when no term is indexed); dead slots 0."""
        counts = Counter(t for t in query_terms if t in self._vocab)
        if not counts or self._n_alive == 0:
            return None
        tids = np.fromiter((self._vocab[t] for t in counts), dtype=np.int64, count=len(counts))
        weights = np.fromiter((_weight(self.params.weighting, n) for n in counts.values()), dtype=np.float64)
        slots, tfc, qidx = self._postings(tids)
        if self._n_dead:
            live = self._alive[slots]
            slots, tfc, qidx = slots[live], tfc[live], qidx[live]
        if len(slots) == 0:
            return None
        n_docs = self._n_alive
        df = np.bincount(qidx, minlength=len(tids)).astype(np.float64)
        idf = np.log1p((n_docs - df + 0.5) / (df + 0.5))
        contrib = tfc * (weights * idf)[qidx]
        scores: F64 = np.bincount(slots, weights=contrib, minlength=len(self._ids)).astype(np.float64, copy=False)
        return scores

    def _postings(self, tids: npt.NDArray[np.int64]) -> tuple[I32, F64, npt.NDArray[np.int64]]:
        """Slots, tf / (tf + norm) and query-term index of every posting of ``tids``, base and delta."""
        stamp = self._current_stamp()
        qpos = np.arange(len(tids))
        base = self._base
        inb = tids < base.n_terms
        b_tids = tids[inb]
        if self._tfc is None:
            self._tfc = np.empty(len(base.slots), dtype=np.float64)  # pages are touched only when filled
            self._tfc_stamp = np.full(base.n_terms, -1, dtype=np.int64)
        stale = b_tids[self._tfc_stamp[b_tids] != stamp]
        if len(stale):
            fill, _ = _ranges(base.indptr, stale, stale)
            self._tfc[fill] = _tfc(base.tf[fill], self._norm[base.slots[fill]])
            self._tfc_stamp[stale] = stamp
        # Contiguous slices, concatenated: cheaper than gathering by a position array.
        bounds = list(zip(base.indptr[b_tids].tolist(), base.indptr[b_tids + 1].tolist(), strict=True))
        slots = [base.slots[a:z] for a, z in bounds]
        tfc = [self._tfc[a:z] for a, z in bounds]
        qidx = [np.repeat(qpos[inb], [z - a for a, z in bounds])]
        delta = self._delta_postings()
        if delta is not None:
            ind = tids < delta.n_terms
            d_idx, d_q = _ranges(delta.indptr, tids[ind], qpos[ind])
            d_slots = delta.slots[d_idx]
            slots.append(d_slots)
            tfc.append(_tfc(delta.tf[d_idx], self._norm[d_slots]))
            qidx.append(d_q)
        if not slots:
            return np.zeros(0, np.int32), np.zeros(0), np.zeros(0, np.int64)
        return np.concatenate(slots), np.concatenate(tfc), np.concatenate(qidx)

    def _current_stamp(self) -> int:
        """The cache stamp for the current data and k1, b; a new one recomputes the length norms."""
        key = (self._version, self.params.k1, self.params.b)
        if key != self._stamp_key:
            k1, b = self.params.k1, self.params.b
            avgdl = self._total_len / self._n_alive if self._total_len else 1.0
            dl = self._doc_len[: len(self._ids)].astype(np.float64)
            self._norm = k1 * (1.0 - b + b * dl / avgdl)
            self._stamp_key = key
            self._stamp += 1
        return self._stamp


def _top_k(scores: F64, k: int) -> npt.NDArray[np.intp]:
    """Slots of the ``k`` best positive scores, best first; equal scores in slot order (oldest first)."""
    if len(scores) > k:
        kth = np.partition(scores, len(scores) - k)[len(scores) - k]
        if kth > 0:
            above = np.flatnonzero(scores > kth)
            ties = np.flatnonzero(scores == kth)[: k - len(above)]
            cand = np.concatenate([above, ties])
        else:
            cand = np.flatnonzero(scores > 0)
    else:
        cand = np.flatnonzero(scores > 0)
    return cand[np.lexsort((cand, -scores[cand]))]


def _tfc(tf: F32, norm: F64) -> F64:
    tf64 = tf.astype(np.float64)
    return tf64 / (tf64 + norm)


def _ranges(
    indptr: npt.NDArray[np.int64], tids: npt.NDArray[np.int64], labels: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Concatenated posting positions ``indptr[t]:indptr[t+1]`` of ``tids``, and each one's label."""
    starts, ends = indptr[tids], indptr[tids + 1]
    lengths = ends - starts
    total = int(lengths.sum())
    offsets = np.cumsum(lengths) - lengths
    positions = np.repeat(starts - offsets, lengths) + np.arange(total)
    return positions, np.repeat(labels, lengths)


def _weight(mode: QueryWeighting, n: int) -> float:
    if mode is QueryWeighting.UNIQUE:
        return 1.0
    if mode is QueryWeighting.FREQUENCY:
        return float(n)
    return 1.0 + math.log(n)


def _slots_of(slot: dict[str, int], ids: Iterable[str]) -> Iterable[int]:
    for doc_id in ids:
        s = slot.get(doc_id)
        if s is not None:
            yield s


def _json_bytes(value: object) -> npt.NDArray[np.uint8]:
    return np.frombuffer(json.dumps(value).encode(), dtype=np.uint8)


def _fsync_dir(directory: Path) -> None:
    # The rename is durable only once the directory entry is on disk (POSIX; a no-op elsewhere).
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _pid_alive(pid: str) -> bool:
    """Whether the process that may still be writing a temp file is running (ours counts as running)."""
    if not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


__all__ = ["INDEX_FILE", "BM25Index", "BM25Params", "LexicalIndexError", "QueryWeighting"]
