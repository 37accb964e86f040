"""The lay channel: a story told in a client's words matched to situations written for each provision.

A client tells what happened ("two boys on a bike pulled the gold chain from my mother's neck"); the statute says it in
its own words ("suddenly or quickly or forcibly seizes or secures or grabs or takes away from any person ... any
movable property"). Neither BM25 nor the small sentence model bridges the two: on the development sets' client stories
the provision that decides the question was not among retrieval's first 40 in 39 of 96.

``data/retrieval/lay_cards.jsonl`` holds, for 3,123 sections of the BNS, BNSS, BSA and 40 other Acts, one to three
situations told the way a client, a victim or a relative would tell them (``LayCard``). They were written once, Act by
Act, from each section's heading and text alone, by writers who saw no evaluation question and no code, for every
section an ordinary person could need (formal, administrative and repealed sections have none); see
``data/retrieval/README.md``. They are document expansion (the provision's situations, in lay words), not a query
lexicon: nothing in them was written for a question that missed.

``LayChannel`` scores each situation against the story: the cosine of its vector with the closest of the query's
sentence vectors (the ones the heading channel already computed), plus ``BM25_SHARE`` of its BM25 score over the
situations relative to the best one; a section scores its best situation. Only the part above ``FLOOR`` counts, so a
question that tells no story (a lawyer's "punishment for extortion?") takes little from it, while "pulled the gold
chain from my mother's neck" puts snatching first. A card written for a new-code section also speaks for the old-code
sections it replaced (``related``), so a story told of 2022 finds the IPC's provision.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from graph_schema.errors import IngestError
from legal_rag.retrieval.asked import AskedQuestion, LeaveOut
from legal_rag.retrieval.jsonlines import json_objects
from legal_rag.retrieval.lexical import BM25Index
from legal_rag.retrieval.tokenize import ASK_VOCABULARY, legal_tokens
from legal_rag.retrieval.types import Embedder, Hit
from legal_rag.retrieval.vectors import ShippedVectors, vectors_for

log = logging.getLogger(__name__)

__all__ = ["BM25_SHARE", "FLOOR", "LayCard", "LayChannel", "LayHit", "read_lay_cards"]

BM25_SHARE = 0.3
"""Weight of a situation's BM25 score (over the best situation's) beside its cosine. On the development sets' client
stories (probe2-4, 84 whose deciding Act has cards) the deciding provision was the channel's first for 37 by the
cosine alone, 41 by BM25 alone and 45 by both with 0.3."""
FLOOR = 0.5
"""A section's score counts only above this: the cosine of a story with situations of another subject stays below
it, so a question telling no story gets little from the channel."""
ASKING = frozenset(legal_tokens(ASK_VOCABULARY + " must can could would should shall may will how many"))
"""Terms left out of the channel's BM25 query: what the question asks for ("how many days", "punishment") is no fact
of the story, and situations written as a client's question share it with every other such question ("how many
days do I have to appeal" beside "within how many days must police finish investigation")."""
SHAPE = '{"act": ..., "section": ..., "lay": [situation, ...]}'
MAX_WORDS = 40
"""A situation is a sentence or two (the writers' limit was 35 words)."""


@dataclass(frozen=True, slots=True)
class LayCard:
    """The situations, in lay words, in which one section governs."""

    act: str
    section: str
    situations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LayHit(Hit):
    """A hit on a section's first chunk (or that of an old-code section it replaced), scored by its best situation
    above ``FLOOR``."""

    told: str = ""
    """That situation: what in the story made the provision come up."""


def read_lay_cards(path: Path) -> list[LayCard]:
    """The cards in ``path`` (JSON Lines ``{"act", "section", "lay": [situation, ...]}``); a missing file has none.

    Raises:
        IngestError: a line that is not such an object, names no section, or has no situation, naming the file
            and line.
    """
    if not path.is_file():
        log.warning("no lay cards at %s: the lay channel has only the questions asked before, if any", path)
        return []
    cards: list[LayCard] = []
    seen: set[tuple[str, str]] = set()
    for n, row in json_objects(path, SHAPE):
        where = f"{path}:{n}"
        if set(row) != {"act", "section", "lay"}:
            raise IngestError(f'{where}: expected an object with exactly "act", "section" and "lay"')
        act, section, lay = row["act"], row["section"], row["lay"]
        if not (isinstance(act, str) and act.strip() and isinstance(section, str) and section.strip()):
            raise IngestError(f"{where}: act and section must be non-empty strings")
        if not isinstance(lay, list) or not lay or not all(isinstance(s, str) and s.strip() for s in lay):
            raise IngestError(f'{where}: "lay" must be a non-empty list of non-empty strings')
        if too_long := [s for s in lay if len(s.split()) > MAX_WORDS]:
            raise IngestError(f"{where}: a situation runs past {MAX_WORDS} words: {too_long[0][:60]!r}")
        key = (act.strip().upper(), section.strip())
        if key in seen:
            raise IngestError(f"{where}: a second card for {key[0]} {key[1]}")
        seen.add(key)
        cards.append(LayCard(key[0], key[1], tuple(" ".join(s.split()) for s in lay)))
    return cards


class LayChannel:
    """Situations matched against a story (module docstring).

    Args:
        cards: The lay cards.
        first_chunk: (act, section) -> the id of the section's first chunk in the index, or None when it has no text
            there (its card is then unused).
        related: (act, section) -> first chunk ids of the old-code sections a new-code section replaced (empty for
            any other, and for an offence the new code created: snatching, BNS 304, replaced no IPC section); asked
            when the section first scores and the date filter excludes it, and remembered once it names any.
        embedder: Embeds the situations that ``shipped`` does not hold.
        shipped: The shipped vectors (``data/vectors``), consulted first.
        asked: Questions asked before (``asked.py``), each a situation of every provision it cites.
    """

    def __init__(
        self,
        cards: Sequence[LayCard],
        first_chunk: Callable[[str, str], str | None],
        related: Callable[[str, str], Sequence[str]],
        embedder: Embedder,
        shipped: ShippedVectors | None = None,
        asked: Sequence[AskedQuestion] = (),
    ) -> None:
        self._related = related
        self._related_ids: dict[tuple[str, str], tuple[str, ...]] = {}
        owners: list[int] = []
        texts: list[str] = []
        self._asked: list[AskedQuestion | None] = []  # per situation: the question asked before it is, or None
        self._keys: list[tuple[str, str]] = []
        self._chunk: list[str] = []
        owner_of: dict[tuple[str, str], int | None] = {}

        def owner(act: str, section: str) -> int | None:
            if (act, section) not in owner_of:
                cid = first_chunk(act, section)
                owner_of[(act, section)] = None if cid is None else len(self._keys)
                if cid is not None:
                    self._keys.append((act, section))
                    self._chunk.append(cid)
            return owner_of[(act, section)]

        for card in cards:
            if (o := owner(card.act, card.section)) is not None:
                for s in card.situations:
                    owners.append(o)
                    texts.append(s)
                    self._asked.append(None)
        for q in asked:
            for act, section in q.cited:
                if (o := owner(act, section)) is not None:
                    owners.append(o)
                    texts.append(q.question)
                    self._asked.append(q)
        if dropped := sum(1 for o in owner_of.values() if o is None):
            log.info("%d sections of the lay cards and questions asked before have no text in the index: not used",
                     dropped)
        self._owner = np.asarray(owners, dtype=np.intp)
        self._texts = texts
        self._vectors, _ = vectors_for(texts, embedder, shipped)
        self._bm25 = self._lexical(np.zeros(len(texts), dtype=bool))
        self._left_out: tuple[LeaveOut, npt.NDArray[np.bool_], BM25Index] | None = None
        self._scope_lock = threading.Lock()

    def __len__(self) -> int:
        """Situations held."""
        return len(self._texts)

    def search(
        self, query: str, vectors: npt.NDArray[np.float32], k: int, allow: Collection[str] | None = None,
        leave_out: LeaveOut | None = None,
    ) -> list[LayHit]:
        """The ``k`` best sections for a story (``vectors``: unit rows of its sentences and of the whole), as hits on
        their first chunks that ``allow`` admits, or on the old-code sections they replaced when it admits those.
        ``leave_out``: questions asked before that take no part (``asked.LeaveOut``)."""
        if not self._texts or k <= 0:
            return []
        # a question left out takes no part at all: not in the cosines, nor in the BM25 index whose best score the
        # others are measured against (its own row would always be a labelled question's best match)
        mask, bm25 = self._scope(leave_out) if leave_out is not None else (None, self._bm25)
        cos = (self._vectors @ np.asarray(vectors, dtype=np.float32).T).max(axis=1)
        lexical = np.zeros(len(self._texts), dtype=np.float32)
        hits = bm25.search_terms([t for t in legal_tokens(query) if t not in ASKING], len(self._texts))
        if hits and hits[0].score > 0:
            top = hits[0].score
            for h in hits:
                lexical[int(h.chunk_id)] = h.score / top
        score = cos + BM25_SHARE * lexical
        if mask is not None:
            score[mask] = -np.inf
        best: dict[int, int] = {}  # section -> its best situation
        for i in np.argsort(-score, kind="stable"):
            if score[i] <= FLOOR:
                break
            best.setdefault(int(self._owner[i]), int(i))
        out: list[LayHit] = []
        taken: set[str] = set()
        for owner, i in best.items():
            ids, share = self._ids(owner, allow)
            for cid in ids:
                if cid not in taken:
                    taken.add(cid)
                    out.append(LayHit(cid, round((float(score[i]) - FLOOR) * share, 6), self._texts[i]))
            if len(out) >= k:
                break
        return sorted(out, key=lambda h: -h.score)[:k]

    def _scope(self, leave_out: LeaveOut) -> tuple[npt.NDArray[np.bool_], BM25Index]:
        """The situations ``leave_out`` covers, and a BM25 index of the others (as if those had never been held);
        remembered for the last ``leave_out``: a run asks many questions under one."""
        with self._scope_lock:
            held = self._left_out
            if held is None or held[0] != leave_out:
                mask = np.asarray([q is not None and leave_out.covers(q) for q in self._asked], dtype=bool)
                held = (leave_out, mask, self._lexical(mask) if mask.any() else self._bm25)
                self._left_out = held
            return held[1], held[2]

    def _lexical(self, left_out: npt.NDArray[np.bool_]) -> BM25Index:
        """A BM25 index of the situations not ``left_out``, each under its position."""
        index = BM25Index(None).open()
        index.upsert([(str(i), t) for i, t in enumerate(self._texts) if not left_out[i]])
        return index

    def asked(self) -> list[AskedQuestion]:
        """The questions asked before that the channel holds (each once)."""
        return list({id(q): q for q in self._asked if q is not None}.values())

    def _ids(self, owner: int, allow: Collection[str] | None) -> tuple[tuple[str, ...], float]:
        """The chunk ids a section's situations speak for under ``allow``, and the share of its score each gets: all
        of it for the section itself; for the n old-code sections it replaced, 1/sqrt(n) each (house-breaking, BNS
        331, replaced ten IPC sections, and a story of one of them should not fill the first ten places)."""
        cid = self._chunk[owner]
        if allow is None or cid in allow:
            return (cid,), 1.0
        key = self._keys[owner]
        ids = self._related_ids.get(key)
        if ids is None:
            ids = tuple(self._related(*key))
            if ids:  # none may mean the graph did not answer: asked again next time (a new offence costs a read)
                self._related_ids[key] = ids
        return tuple(c for c in ids if c in allow), 1 / math.sqrt(len(ids)) if ids else 1.0


def situations(cards: Sequence[LayCard]) -> list[str]:
    """Every situation of ``cards`` (for the shipped-vectors export)."""
    return [s for c in cards for s in c.situations]
