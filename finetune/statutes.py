"""What the dataset builder reads of the statute graph: chunks, sections, replacement families.

Chunks are cut exactly as the retrieval index cuts them (``graph_schema.chunking``), so the
ids in a training prompt are ids the product retrieves. A *family* is a provision together with
its predecessors and successors (IPC 379 and BNS 303, ...), closed transitively: the unit of the
train/eval split, so that no provision, its predecessor or its successor is seen on both sides.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from graph_schema.chunking import Chunk, SectionText, chunk_sections
from graph_schema.model import SectionRecord, SectionStatus
from graph_schema.store import GraphReader

NEW_CODES_FROM = "2024-07-01"
OLD_TO_NEW = {"IPC": "BNS", "CRPC": "BNSS", "IEA": "BSA"}
NEW_TO_OLD = {v: k for k, v in OLD_TO_NEW.items()}
HORIZON = "2026-01-01"
"""Latest as-of date the builder picks (a constant, not today: the same seed must give the same files)."""
EARLIEST = "2005-01-01"

LEGACY_TEXT_AS_OF = {"IPC": "2018-04-21", "CRPC": "2018-04-21", "IEA": "2018-04-21"}
"""The IPC, CrPC and Evidence Act texts of ``data/corpus/legacy`` are as last amended before their repeal, and
their source records no amendment history: the Criminal Law (Amendment) Act, 2018 (in force from 21 April
2018, amending all three) is the last amendment the builder dates their words from."""

_BASE = re.compile(r"[^(\s]+")


def base_section(label: str) -> str:
    """ "303(2)" -> "303"; "13(1)(ia)" -> "13"."""
    m = _BASE.match(label)
    return m.group(0) if m else label


def label_of(chunk: Chunk) -> str:
    """ "303(2)" for BNS:303:2:0, "35(1)(c)" for BNSS:35:1/c:0."""
    return chunk.section + "".join(f"({p})" for p in chunk.sub.split("/")) if chunk.sub else chunk.section


def chunk_provision(chunk_id: str) -> tuple[str, str]:
    """(act, base section) of a chunk id ("BNS:303:2:0" -> ("BNS", "303"))."""
    parts = chunk_id.split(":")
    return (parts[0], parts[1]) if len(parts) >= 2 else (chunk_id, "")


def section_key(act: str, label: str) -> str:
    return f"{act}:{base_section(label)}"


@dataclass
class StatuteView:
    """The graph as the builder needs it, read once (about 3 s for the shipped corpus)."""

    chunks: dict[str, Chunk]
    records: dict[str, SectionRecord]
    act_titles: dict[str, str]
    families: dict[str, str] = field(default_factory=dict)
    """Section key ("IPC:379") -> family id (the smallest key of its family)."""
    _subs: dict[str, list[Chunk]] = field(default_factory=dict, repr=False)
    act_amended: dict[str, str] = field(default_factory=dict)
    """Act -> the latest day an amendment recorded for any of its sections took effect (or, for the repealed
    codes whose sources carry no amendment history, :data:`LEGACY_TEXT_AS_OF`)."""

    @classmethod
    def read(cls, store: GraphReader) -> StatuteView:
        rows = store.text_sections()
        chunks = {c.id: c for c in chunk_sections(
            SectionText(r["act"], r["number"], r["title"], r["text"], r["status"], r["in_force_from"],
                        r["in_force_to"], r["source"], r["units"]) for r in rows)}  # fmt: skip
        records = store.get_sections(sorted({(r["act"], r["number"]) for r in rows}))
        titles = {a.code: a.title for a in store.all_acts()}
        view = cls(chunks=chunks, records=records, act_titles=titles)
        view.families = _families(records)
        view.act_amended = dict(LEGACY_TEXT_AS_OF)
        for rec in records.values():
            day = last_amended(rec)
            if day and day > view.act_amended.get(rec.act, ""):
                view.act_amended[rec.act] = day
        return view

    def subsections(self, act: str, section: str) -> list[Chunk]:
        """First parts of the section's top-level sub-units ("BNS:303:1:0", "BNS:303:2:0"), indexed on first use."""
        if not self._subs:
            for c in self.chunks.values():
                if c.part == 0 and c.sub and "/" not in c.sub:
                    self._subs.setdefault(f"{c.act}:{c.section}", []).append(c)
        return self._subs.get(f"{act}:{section}", [])

    def family(self, act: str, label: str) -> str:
        key = section_key(act, label)
        return self.families.get(key, key)

    def chunk_family(self, chunk_id: str) -> str:
        act, sec = chunk_provision(chunk_id)
        return self.family(act, sec)

    def record_of(self, chunk: Chunk) -> SectionRecord | None:
        return self.records.get(f"{chunk.act}:{chunk.section}")

    def title_of(self, act: str) -> str:
        """ "Bharatiya Nyaya Sanhita, 2023" (no leading "The"), as a lawyer names an Act after "of the"."""
        title = self.act_titles.get(act, act)
        return title[4:] if title.lower().startswith("the ") else title

    def cite(self, act: str, label: str) -> str:
        return f"Section {label} of the {self.title_of(act)}"

    def chunk_for(self, act: str, label: str) -> Chunk | None:
        """The first chunk of a provision label ("303(2)" -> BNS:303:2:0; the longest sub-unit path that
        matches, else the section's first chunk)."""
        subs = re.findall(r"\(([^)]+)\)", label)
        number = base_section(label)
        for k in range(len(subs), -1, -1):
            path = "/".join(subs[:k]) or "-"
            c = self.chunks.get(f"{act}:{number}:{path}:0")
            if c is not None:
                return c
        return None

    def version(self) -> str:
        """A digest of what the builder reads: every chunk's id, text, status and dates, every replacement edge."""
        h = hashlib.sha256()
        for cid in sorted(self.chunks):
            c = self.chunks[cid]
            h.update(f"{cid}\x1f{c.text}\x1f{c.status}\x1f{c.in_force_from}\x1f{c.in_force_to}\x1e".encode())
        for key in sorted(self.records):
            for p in self.records[key].successors:
                h.update(f"{key}->{p.act}:{p.section}:{p.relation}\x1e".encode())
        return h.hexdigest()[:16]

    def text_window(self, chunk: Chunk) -> tuple[str, str] | None:
        """[from, to) of dates on which the chunk's section applied *in the words it has now*.

        The graph keeps today's text, so an earlier day would put later words in the mouth of the law as it then
        stood (HAMA s.8 in its 2010 wording for facts of 2005). The window starts when the Act's last recorded
        amendment took effect, not only the section's own: a section's footnotes can be missing from its source
        (HAMA s.8's substitution by Act 30 of 2010 is) while its Act's amendments of the same day are recorded.
        A section with an amendment of unknown date has no window (could not check is not checked)."""
        window = self.in_force_window(chunk)
        rec = self.record_of(chunk)
        if window is None or rec is None or any(not a.get("effective") for a in rec.amendments):
            return None
        lo = max(window[0], self.act_amended.get(chunk.act, window[0]))
        return (lo, window[1]) if lo < window[1] else None

    def in_force_window(self, chunk: Chunk) -> tuple[str, str] | None:
        """[from, to) of dates on which the chunk's section applied, clipped to [EARLIEST, HORIZON)."""
        rec = self.record_of(chunk)
        if rec is None or rec.status is SectionStatus.OMITTED:
            return None
        lo = max(rec.in_force_from or EARLIEST, EARLIEST)
        hi = min(rec.in_force_to or HORIZON, HORIZON)
        return (lo, hi) if lo < hi else None


def last_amended(rec: SectionRecord) -> str | None:
    """The latest date an amendment recorded for the section took effect (None: none recorded with a date)."""
    days = [str(a["effective"]) for a in rec.amendments if a.get("effective")]
    return max(days) if days else None


def _families(records: dict[str, SectionRecord]) -> dict[str, str]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            lo, hi = sorted((ra, rb))
            parent[hi] = lo  # the smallest key is the root: family ids do not depend on visiting order

    for key in sorted(records):
        find(key)
        rec = records[key]
        for p in (*rec.successors, *rec.predecessors):
            union(key, section_key(p.act, p.section))
    return {k: find(k) for k in sorted(parent)}


def families_of(view: StatuteView, provisions: Iterable[tuple[str, str]]) -> set[str]:
    return {view.family(a, s) for a, s in provisions}
