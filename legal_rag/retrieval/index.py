"""The chunk index: chunk metadata (SQLite) plus a lexical and a dense index, kept in step.

``sync`` is incremental and idempotent: a chunk whose content hash is unchanged is never
re-embedded or re-indexed (one whose metadata alone changed is relabelled). Vectors and BM25
entries are written before the metadata row that records their hash, so a crash mid-sync leaves
chunks that the next sync sees as changed and redoes - never a hash claiming work that was not done.

Besides one vector per chunk, the index keeps one vector per section *heading* ("Punishment for
murder"), stored under the id of the section's first chunk. Fact descriptions rarely share words
with statute text but one of their sentences usually names the offence the heading names; the
retriever matches each query sentence against the headings (see ``hybrid.query_vectors``).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from legal_rag.retrieval.types import Chunk, DenseIndex, Embedder, LexicalIndex

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True, slots=True)
class SyncReport:
    added: int
    updated: int
    unchanged: int
    removed: int
    embedded: int
    relabelled: int = 0
    """Chunks whose text is unchanged but whose metadata (title, status, dates) changed: rewritten, not re-embedded."""
    headings_embedded: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


class ChunkIndex:
    """All chunks by id, searchable lexically and densely."""

    def __init__(
        self,
        meta_path: Path,
        lexical: LexicalIndex,
        dense: DenseIndex,
        embedder: Embedder,
        headings: DenseIndex | None = None,
    ) -> None:
        self._path = Path(meta_path)
        self.lexical = lexical
        self.dense = dense
        self.headings = headings
        """Heading vectors keyed by the id of each section's first chunk (None: no heading channel)."""
        self.embedder = embedder
        self._chunks: dict[str, Chunk] = {}
        self._hash: dict[str, str] = {}
        self._heading_hash: dict[str, str] = {}
        self._db: sqlite3.Connection | None = None
        self.version = 0
        """Bumped by every change, so readers can cache derived columns."""
        self._by_section: tuple[int, dict[tuple[str, str], list[Chunk]]] | None = None

    def open(self) -> None:
        self._path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self._path, check_same_thread=False)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS chunks (id TEXT PRIMARY KEY, hash TEXT NOT NULL, data TEXT NOT NULL)"
        )
        self._db.execute("CREATE TABLE IF NOT EXISTS headings (id TEXT PRIMARY KEY, hash TEXT NOT NULL)")
        self._db.commit()
        for cid, h, data in self._db.execute("SELECT id, hash, data FROM chunks"):
            self._chunks[cid] = Chunk(**json.loads(data))
            self._hash[cid] = h
        self._heading_hash = dict(self._db.execute("SELECT id, hash FROM headings"))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        self.dense.close()
        if self.headings is not None:
            self.headings.close()

    def __len__(self) -> int:
        return len(self._chunks)

    def get(self, chunk_id: str) -> Chunk | None:
        return self._chunks.get(chunk_id)

    def chunks(self) -> Iterable[Chunk]:
        return self._chunks.values()

    def ids_for(self, act: str, section: str, sub: Sequence[str] = ()) -> list[str]:
        """Chunk ids of a section, or of one of its sub-units (and that unit's own sub-units)."""
        path = "/".join(sub)
        out = []
        if self._by_section is None or self._by_section[0] != self.version:
            groups: dict[tuple[str, str], list[Chunk]] = {}
            for c in self._chunks.values():
                groups.setdefault((c.act, c.section), []).append(c)
            self._by_section = (self.version, groups)
        for c in self._by_section[1].get((act, section), []):
            if not path or c.sub == path or (c.sub or "").startswith(path + "/"):
                out.append(c.id)
        if path and not out:  # the unit is not chunked on its own: fall back to the whole section
            return self.ids_for(act, section)
        return sorted(out, key=lambda i: (self._chunks[i].sub or "", self._chunks[i].part))

    def sync(
        self,
        chunks: Iterable[Chunk],
        *,
        scope_acts: Collection[str] | None = None,
        progress: Progress | None = None,
        batch: int = 256,
    ) -> SyncReport:
        """Make the index hold exactly ``chunks`` for the Acts in ``scope_acts`` (all Acts if None).

        Chunks of those Acts that are no longer produced are removed; other Acts are untouched.
        """
        assert self._db is not None, "ChunkIndex.open() first"
        wanted = {c.id: c for c in chunks}
        todo = [c for c in wanted.values() if self._hash.get(c.id) != c.content_hash]
        relabel = [c for c in wanted.values() if self._hash.get(c.id) == c.content_hash and self._chunks[c.id] != c]
        added = sum(1 for c in todo if c.id not in self._hash)
        gone = [
            cid for cid, c in self._chunks.items() if cid not in wanted and (scope_acts is None or c.act in scope_acts)
        ]
        if gone:
            self.dense.delete(gone)
            self.lexical.delete(gone)
            self._db.executemany("DELETE FROM chunks WHERE id = ?", [(g,) for g in gone])
            self._db.commit()
            for g in gone:
                self._chunks.pop(g, None)
                self._hash.pop(g, None)
        if gone or todo or relabel:
            self.version += 1
        for i in range(0, len(relabel), batch):
            part = relabel[i : i + batch]
            self.dense.set_payloads([c.id for c in part], [_payload(c) for c in part])
            self._db.executemany("UPDATE chunks SET data = ? WHERE id = ?",
                                 [(json.dumps(asdict(c)), c.id) for c in part])
            self._db.commit()
            self._chunks.update((c.id, c) for c in part)
            heads = [c for c in part if c.id in self._heading_hash]
            if heads and self.headings is not None:
                self.headings.set_payloads([c.id for c in heads], [_payload(c) for c in heads])
        done = 0
        if progress:
            progress("embed", 0, len(todo))
        for i in range(0, len(todo), batch):
            part = todo[i : i + batch]
            vectors = self.embedder.embed([c.indexed_text for c in part])
            self.dense.upsert([c.id for c in part], vectors, [_payload(c) for c in part])
            self.lexical.upsert([(c.id, c.indexed_text) for c in part])
            self._db.executemany(
                "INSERT OR REPLACE INTO chunks (id, hash, data) VALUES (?, ?, ?)",
                [(c.id, c.content_hash, json.dumps(asdict(c))) for c in part],
            )
            self._db.commit()
            for c in part:
                self._chunks[c.id] = c
                self._hash[c.id] = c.content_hash
            done += len(part)
            if progress:
                progress("embed", done, len(todo))
        if todo or gone:
            self.lexical.save()
        return SyncReport(
            added=added,
            updated=len(todo) - added,
            unchanged=len(wanted) - len(todo) - len(relabel),
            removed=len(gone),
            embedded=len(todo),
            relabelled=len(relabel),
            headings_embedded=self._sync_headings(progress, batch),
        )

    def heading_ids(self) -> dict[str, str]:
        """The heading wanted for each section: first chunk id -> heading text."""
        first: dict[tuple[str, str], Chunk] = {}
        for c in self._chunks.values():
            key = (c.act, c.section)
            if key not in first or (c.sub or "", c.part) < (first[key].sub or "", first[key].part):
                first[key] = c
        return {c.id: " ".join(c.title.split()) for c in first.values() if c.title and c.title.strip()}

    def _sync_headings(self, progress: Progress | None, batch: int) -> int:
        """Bring the heading vectors in step with the chunks (same hash rule: unchanged, not re-embedded)."""
        if self.headings is None:
            return 0
        assert self._db is not None
        wanted = self.heading_ids()
        gone = [h for h in self._heading_hash if h not in wanted]
        if gone:
            self.headings.delete(gone)
            self._db.executemany("DELETE FROM headings WHERE id = ?", [(g,) for g in gone])
            self._db.commit()
            for g in gone:
                del self._heading_hash[g]
        todo = [(cid, text) for cid, text in wanted.items() if self._heading_hash.get(cid) != _sha(text)]
        for i in range(0, len(todo), batch):
            part = todo[i : i + batch]
            vectors = self.embedder.embed([t for _, t in part])
            self.headings.upsert([cid for cid, _ in part], vectors, [_payload(self._chunks[cid]) for cid, _ in part])
            self._db.executemany("INSERT OR REPLACE INTO headings (id, hash) VALUES (?, ?)",
                                 [(cid, _sha(t)) for cid, t in part])
            self._db.commit()
            self._heading_hash.update((cid, _sha(t)) for cid, t in part)
            if progress:
                progress("headings", i + len(part), len(todo))
        return len(todo)


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
