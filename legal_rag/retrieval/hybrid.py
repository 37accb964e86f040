"""Hybrid retrieval: BM25 + dense, fused; filters by Act, status and in-force date; citation-aware.

A query that names a provision ("Section 420 IPC", "u/s 138 N.I. Act") gets that provision first,
resolved through the graph, then its successor (old code cited for facts on/after 2024-07-01) or
predecessor (new code cited for earlier facts); the rest of the query still goes through hybrid
search. A definition question ("Define 'cognizable offence'") gets the clause in force that defines its
term first (``definitions.py``). ``offence_partner`` pairs the section that defines an offence with the
one that punishes it (IPC 405 and 406, ``offences.offence_partners``).

The dense run has two channels: the whole query against chunk text, and each query sentence
against section headings (a section scores the better of the two). Fact descriptions also get the
offence channel (``offences.py``: BM25 over offence provisions, for the query's offence words).
Fusion is min-max score
normalisation (``sum_r w_r * (s - min) / (max - min)``) in the product's settings, with reciprocal
rank fusion (``score = sum_r w_r / (k + rank_r)``) as the measured alternative (``legal-rag eval
retrieval`` reports both); the weights depend on the query's length (``FusionConfig.weights_for``).
Filters are computed once per (filter, index version) and memoised by the indexes (``IdFilter``).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from graph_schema.dates import day_or_today
from graph_schema.errors import ConfigurationError, StoreUnavailableError
from graph_schema.model import NEW_CRIMINAL_CODES_IN_FORCE, CitationKey
from graph_schema.store import GraphReader
from legal_rag.retrieval.asked import AskedQuestion, LeaveOut
from legal_rag.retrieval.definitions import Definition, asked_terms, defined_terms
from legal_rag.retrieval.expand import TermsOfArt
from legal_rag.retrieval.index import ChunkIndex
from legal_rag.retrieval.lay import LayCard, LayChannel, LayHit
from legal_rag.retrieval.offences import OffenceChannel, offence_cards, offence_partners
from legal_rag.retrieval.rerank import DEPTH as RANK_DEPTH
from legal_rag.retrieval.rerank import SectionEvidence, SectionRanker, features
from legal_rag.retrieval.tokenize import light_stem
from legal_rag.retrieval.types import Chunk, Embedder, Hit, IdFilter
from legal_rag.retrieval.vectors import ShippedVectors
from verification.claims.types import Pin

OLD_TO_NEW = {"IPC": "BNS", "CRPC": "BNSS", "IEA": "BSA"}
NEW_TO_OLD = {v: k for k, v in OLD_TO_NEW.items()}


class Fusion(StrEnum):
    RRF = "rrf"
    MINMAX = "minmax"


@dataclass(frozen=True, slots=True)
class FusionConfig:
    """How the runs are fused: the product's defaults (``RetrievalSettings`` holds the same numbers). The
    long-query weights were chosen by cross-validation on the AILA 2019 training queries (``legal-rag eval
    retrieval --cv 10``); the README's retrieval section has the candidates and their held-out-fold MAP."""

    method: Fusion = Fusion.MINMAX
    rrf_k: int = 60
    weights: dict[str, float] = field(default_factory=lambda: {"bm25": 1.0, "dense": 0.5, "lay": 3.0})
    depth: int = 100
    """How many candidates each retriever contributes before fusion."""
    long_weights: dict[str, float] | None = field(
        default_factory=lambda: {"bm25": 1.0, "dense": 2.0, "offence": 2.0, "lay": 3.0})
    """Weights for long queries (fact descriptions); None: ``weights`` for every query."""
    long_query_words: int = 100
    absolute: frozenset[str] = frozenset({"lay"})
    """Runs whose scores are on an absolute scale and are added as they are (times the weight), not min-max
    normalised: the lay channel's best situation counts by how close it is, not by being the best of a weak lot."""

    story_words: int = 15
    """Questions of fewer words (as the user typed them) take no part of the "lay" run (``lay.py``): a story takes
    words, and a lawyer's short question names its subject in the statute's terms ("attempt to commit theft"), which
    the lay situations of every Act's attempt provision share. A gate on a person told of ("my", "he", "someone")
    as well was tried on the development sets and dropped: it lost 7 right answers of 250 (stories of "a car driver",
    "an accused") and added a wrong one at High."""

    def weights_for(self, query: str) -> dict[str, float]:
        """BM25 sums over every query term, so on a narrative of hundreds of words the incidental
        terms (names, places, dates) outweigh the few that name the offence; long queries lean on
        the dense run instead."""
        if self.long_weights is not None and len(query.split()) >= self.long_query_words:
            return self.long_weights
        return self.weights


@dataclass(frozen=True, slots=True)
class NamedInQuery:
    """What a query names: its provisions (character span and key, in order) and the Acts it names by title,
    short title or abbreviation, with those of its provisions."""

    provisions: list[tuple[int, int, CitationKey]]
    acts: frozenset[str]


@dataclass(frozen=True, slots=True)
class Retrieved:
    chunk: Chunk
    score: float
    scores: dict[str, float]
    """Per retriever ("bm25", "dense") and "fused". "bm25" is absent when BM25 did not return the chunk;
    "dense" is always there (the cosine, filled in for chunks the dense run did not reach). When the section ranker
    ordered the search (``retrieve(rank=True)``), "ranker" is its score there (higher first; a log-odds)."""
    pinned: Pin | None = None
    """CITED, SUCCESSOR or PREDECESSOR for provisions named in the query; DEFINITION for the clause defining
    the term a definition question asks about."""
    told: str = ""
    """The lay situation (``lay.py``) by which the story came to this provision, when the lay channel found it."""


@dataclass(frozen=True, slots=True)
class RankingCandidates:
    """``HybridRetriever.ranking_candidates``: the ranker's candidate sections with their features, in fused order,
    and the sections the query names (pinned before any ranking)."""

    candidates: tuple[tuple[str, dict[str, float]], ...]
    pinned: frozenset[str]


def fuse(runs: dict[str, list[Hit]], cfg: FusionConfig, query: str = "") -> list[tuple[str, float]]:
    """Fuse ranked runs into one ranking of (chunk id, fused score), best first (weights for ``query``;
    a run the weights do not name takes no part)."""
    fused: dict[str, float] = {}
    weights = cfg.weights_for(query)
    for name, hits in runs.items():
        w = weights.get(name, 0.0)
        if not hits or w == 0:
            continue
        if name in cfg.absolute:
            for h in hits:
                fused[h.chunk_id] = fused.get(h.chunk_id, 0.0) + w * h.score
        elif cfg.method is Fusion.RRF:
            for rank, h in enumerate(hits, start=1):
                fused[h.chunk_id] = fused.get(h.chunk_id, 0.0) + w / (cfg.rrf_k + rank)
        else:
            lo, hi = min(h.score for h in hits), max(h.score for h in hits)
            span = (hi - lo) or 1.0
            for h in hits:
                fused[h.chunk_id] = fused.get(h.chunk_id, 0.0) + w * (h.score - lo) / span
    return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))


_SENTENCE = re.compile(r"(?<=[.?!;])\s+|\n+")


def query_sentences(query: str, min_words: int = 3, limit: int = 64) -> list[str]:
    """The query's sentences (of at least ``min_words`` words; at most ``limit``, longest kept)."""
    parts = [" ".join(p.split()) for p in _SENTENCE.split(query)]
    parts = [p for p in parts if len(p.split()) >= min_words]
    if len(parts) > limit:
        keep = set(sorted(range(len(parts)), key=lambda i: -len(parts[i]))[:limit])
        parts = [p for i, p in enumerate(parts) if i in keep]
    return parts


@dataclass(frozen=True, slots=True)
class QueryVectors:
    whole: npt.NDArray[np.float32]
    """The whole query (long queries: the mean of 180-word windows), matched against chunk text."""
    sentences: npt.NDArray[np.float32]
    """One row per sentence (the whole query when it has one), matched against section headings."""


def query_vectors(embedder: Embedder, query: str, window: int = 180) -> QueryVectors:
    """Embed a query of any length in one model call: fact descriptions run past the model's
    256-token limit, so long queries are embedded in windows of ``window`` words and the unit
    vectors averaged; each sentence is embedded too, for the heading channel."""
    return query_vectors_many(embedder, [query], window)[0]


def query_vectors_many(
    embedder: Embedder, queries: Sequence[str], window: int = 180, *, per_sentence: bool = True
) -> list[QueryVectors]:
    """:func:`query_vectors` for several queries in one model call (``per_sentence=False``: the
    whole-query vector also serves the heading channel, one text per query)."""
    plans = []
    texts: list[str] = []
    for query in queries:
        words = query.split()
        windows = [" ".join(words[i : i + window]) for i in range(0, max(len(words), 1), window)] or [query]
        sentences = query_sentences(query) if per_sentence else []
        if len(sentences) <= 1 and len(windows) == 1:
            sentences = []
        plans.append((len(texts), len(windows), len(sentences)))
        texts.extend(windows + sentences)
    vecs = embedder.embed(texts) if texts else np.zeros((0, 0), dtype=np.float32)
    out = []
    for start, nw, ns in plans:
        v = vecs[start : start + nw].mean(axis=0)
        whole = (v / (float(np.linalg.norm(v)) or 1.0)).astype(np.float32)
        rows = vecs[start + nw : start + nw + ns] if ns else whole[None, :]
        out.append(QueryVectors(whole, np.asarray(rows, dtype=np.float32)))
    return out


class HybridRetriever:
    """Retrieval over a ``ChunkIndex``; the graph (optional) resolves provisions named in queries."""

    def __init__(
        self,
        index: ChunkIndex,
        *,
        graph: GraphReader | None = None,
        find_named: Callable[[str], NamedInQuery] | None = None,
        fusion: FusionConfig | None = None,
        terms: TermsOfArt | None = None,
        lay: Sequence[LayCard] = (),
        shipped: ShippedVectors | None = None,
        ranker: SectionRanker | None = None,
        asked: Sequence[AskedQuestion] = (),
    ) -> None:
        self.index = index
        self.ranker = ranker
        self.terms = terms
        self._lay_cards = tuple(lay)
        self._asked = tuple(asked)
        self._leave_out: LeaveOut | None = None
        self._shipped = shipped
        self._lay: tuple[int, LayChannel] | None = None
        self._lay_lock = threading.Lock()
        self.graph = graph
        self.fusion = fusion or FusionConfig()
        self._find = find_named
        self._last_named: tuple[str, NamedInQuery] | None = None
        self._heading_table: tuple[int, dict[str, frozenset[str]]] | None = None
        self._partners: tuple[int, dict[str, str]] | None = None
        self._definitions: tuple[int, dict[str, list[Definition]]] | None = None
        self._offences: tuple[int, OffenceChannel] | None = None
        self._cols: tuple[npt.NDArray[np.str_], npt.NDArray[np.str_], npt.NDArray[np.int32],
                          npt.NDArray[np.int32], npt.NDArray[np.str_]] | None = None
        self._n = -1
        self._filters: dict[tuple[object, ...], IdFilter | None] = {}

    # -- filters --

    def _columns(self) -> tuple[npt.NDArray[np.str_], npt.NDArray[np.str_], npt.NDArray[np.int32],
                                npt.NDArray[np.int32], npt.NDArray[np.str_]]:
        if self._cols is None or self._n != self.index.version:
            chunks = list(self.index.chunks())
            self._cols = (
                np.array([c.id for c in chunks]),
                np.array([c.act for c in chunks]),
                np.array([_day(c.in_force_from, 0) for c in chunks], dtype=np.int32),
                np.array([_day(c.in_force_to, 99991231) for c in chunks], dtype=np.int32),
                np.array([c.status for c in chunks]),
            )
            self._n = self.index.version
        return self._cols

    def indexed_acts(self) -> frozenset[str]:
        """The Acts the index holds text of."""
        return frozenset(self._columns()[1].tolist())

    def allowed(
        self,
        *,
        as_of: str | None,
        acts: Collection[str] | None = None,
        statuses: Collection[str] | None = None,
        include_repealed: bool = False,
    ) -> IdFilter | None:
        """Ids passing the filters, or None when nothing is filtered out. The same filters on an
        unchanged index give the same ``IdFilter`` object, whose row positions the indexes memoise."""
        key = (self.index.version, as_of if not include_repealed else None,
               frozenset(acts or ()), frozenset(statuses or ()))
        if key in self._filters:
            return self._filters[key]
        ids, act, start, end, status = self._columns()
        mask = np.ones(len(ids), dtype=bool)
        if acts:
            mask &= np.isin(act, list(acts))
        if statuses:
            mask &= np.isin(status, list(statuses))
        if as_of and not include_repealed:
            d = _day(as_of, 0)
            mask &= (start <= d) & (d < end)
        result = None if mask.all() else IdFilter(ids[mask].tolist())
        if len(self._filters) >= 64:
            self._filters.clear()
        self._filters[key] = result
        return result

    # -- search --

    def search_runs(
        self, query: str, allow: Collection[str] | None, depth: int, qv: QueryVectors | None = None,
        *, offence: bool | None = None, lay: bool = True,
    ) -> dict[str, list[Hit]]:
        """The per-retriever runs that fusion combines: "bm25", "dense" and, when the fusion weights
        for ``query`` give it a weight (or ``offence`` is True), "offence" (``offences.py``); "lay" (``lay.py``,
        ``LayHit``s) when there are lay cards, ``lay`` is True and the weights give it one.

        The dense run scores each chunk by the better of two cosines: the whole query against the
        chunk text, and the best query sentence against its section's heading (held under the
        section's first chunk id). A heading names the offence in a few words ("Using as genuine a
        forged document"); one sentence of a fact description usually describes it, while the
        whole description, averaged, is far from any one provision.
        """
        qv = qv or query_vectors(self.index.embedder, query)
        dense = self.index.dense.search(qv.whole, depth, allow)
        headings = self.index.headings
        if headings is not None:
            best = {h.chunk_id: h.score for h in dense}
            for row in qv.sentences:
                for h in headings.search(row, depth, allow):
                    if h.score > best.get(h.chunk_id, -2.0):
                        best[h.chunk_id] = h.score
            dense = [Hit(c, s) for c, s in sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))][:depth]
        runs = {"bm25": self.index.lexical.search(query, depth, allow), "dense": dense}
        wanted = offence if offence is not None else self.fusion.weights_for(query).get("offence", 0.0) > 0
        if wanted:
            runs["offence"] = self._offence_channel().search(query, depth, allow)
        if lay and (self._lay_cards or self._asked) and self.fusion.weights_for(query).get("lay", 0.0) > 0:
            story = np.vstack([qv.sentences, qv.whole[None, :]])
            runs["lay"] = list(self._lay_channel().search(query, story, depth, allow, self._leave_out))
        return runs

    @contextmanager
    def leaving_out(self, leave_out: LeaveOut) -> Iterator[None]:
        """Searches inside take no part of the questions asked before that ``leave_out`` covers: what asks labelled
        questions (scoring, training) never answers one from itself. The scope holds for every search of this
        retriever, in any thread, so a run that asks labelled questions owns its retriever; a second scope at once
        raises ``ConfigurationError``."""
        with self._lay_lock:
            if self._leave_out is not None:
                raise ConfigurationError("questions asked before are already being left out by another run of this "
                                         "retriever: one leaving_out scope at a time")
            self._leave_out = leave_out
        try:
            yield
        finally:
            self._leave_out = None

    def asked(self) -> list[AskedQuestion]:
        """The questions asked before that the lay channel holds (those citing a section the index has text of)."""
        return self._lay_channel().asked() if self._asked else []

    def _lay_channel(self) -> LayChannel:
        """The lay channel over the current index version (built on first use: its vectors are shipped)."""
        version = self.index.snapshot
        with self._lay_lock:  # the API's threads ask at once on the first request: one builds, the others wait
            if self._lay is None or self._lay[0] != version:
                self._lay = (version, self._build_lay())
            return self._lay[1]

    def _build_lay(self) -> LayChannel:
        def first(act: str, section: str) -> str | None:
            ids = self.index.ids_for(act, section)
            return ids[0] if ids else None

        def replaced(act: str, section: str) -> list[str]:
            if act not in NEW_TO_OLD:
                return []
            keys = self._related(CitationKey(act, section, ()), None, False)
            return list(dict.fromkeys(ids[0] for _, key in keys if (ids := self.index.ids_for(key.act, key.section))))

        return LayChannel(self._lay_cards, first, replaced, self.index.embedder, self._shipped, self._asked)

    def _offence_channel(self) -> OffenceChannel:
        """The offence channel over the current index version (built on first use: about 0.4 s)."""
        version = self.index.snapshot
        if self._offences is None or self._offences[0] != version:
            self._offences = (version, OffenceChannel(offence_cards(self.index.chunks()), self.index.lexical))
        return self._offences[1]

    def retrieve(
        self,
        query: str,
        k: int = 10,
        *,
        as_of: str | None = None,
        acts: Collection[str] | None = None,
        statuses: Collection[str] | None = None,
        include_repealed: bool = False,
        vectors: QueryVectors | None = None,
        offence_told: bool = False,
        lay: bool = True,
        rank: bool = False,
    ) -> list[Retrieved]:
        """The ``k`` best chunks for ``query`` (provisions it names pinned first), on the newest
        index version: a version published by another process since the last call is picked up.
        ``offence_told``: the caller knows ``query`` tells of an offence, so the statutes' wording for the story it
        tells is searched whatever it asks (``TermsOfArt.matches``). ``rank``: the section ranker (``rerank.py``), when
        there is one, re-orders the first fused sections of a search like those it was trained on: the whole index
        (no ``acts`` or ``statuses``), on a day the new criminal codes were in force, history not included. The ask
        workflow does not rank (docs/evaluation.md, twentieth session)."""
        self.index.refresh()
        day = day_or_today(as_of)
        pinned = self._pinned(query, day)
        allow = self.allowed(as_of=day, acts=acts, statuses=statuses, include_repealed=include_repealed)
        text = self.search_text(query, offence_told=offence_told, acts=acts)
        qv = vectors or query_vectors(self.index.embedder, text)
        runs, sections, best, fused = self._searched(query, text, allow, qv, lay=lay)
        told = {h.chunk_id: h.told for h in runs.get("lay", ()) if isinstance(h, LayHit)}
        per = {name: {h.chunk_id: h.score for h in hits} for name, hits in runs.items()}
        out: list[Retrieved] = []
        seen: set[str] = set()
        for cid, why in pinned:
            c = self.index.get(cid)
            if c is not None and cid not in seen:
                out.append(Retrieved(c, float("inf"), _scores(per, cid, None), pinned=why))
                seen.add(cid)
        ranked: dict[str, float] = {}
        if rank and self.ranker is not None and not acts and not statuses and not include_repealed \
                and day >= NEW_CRIMINAL_CODES_IN_FORCE:
            fused, ranked = self._ranked(fused, sections, runs, best, query,
                                         {o.chunk.act + ":" + o.chunk.section for o in out})
        for skey, score in fused:
            if len(out) >= k + len(pinned):
                break
            cid = best[skey]
            c = self.index.get(cid)
            if c is not None and cid not in seen and not any(f"{o.chunk.act}:{o.chunk.section}" == skey for o in out):
                scores = _scores(per, cid, score)
                if skey in ranked:
                    scores["ranker"] = ranked[skey]
                out.append(Retrieved(c, score, scores, told=told.get(cid, "")))
                seen.add(cid)
        out = out[: max(k, len(pinned))]
        # Every result gets its dense cosine, however far down the dense run it was: callers use it
        # as an absolute relevance (fused scores are only relative).
        missing = [r.chunk.id for r in out if "dense" not in r.scores]
        if missing:
            sims = self.index.dense.similarity(qv.whole, missing)
            for r in out:
                if r.chunk.id in sims:
                    r.scores["dense"] = round(sims[r.chunk.id], 6)
        return out

    def _searched(
        self, query: str, text: str, allow: IdFilter | None, qv: QueryVectors, *, lay: bool,
    ) -> tuple[dict[str, list[Hit]], dict[str, list[Hit]], dict[str, str], list[tuple[str, float]]]:
        """What ``retrieve`` and ``ranking_candidates`` both search: the runs for ``text`` (none when the filters
        leave nothing; the lay channel only for a story, ``FusionConfig.story_words``), their section runs, each
        section's best chunk, and the fused sections, those the question names by subject first."""
        if allow is not None and not allow:
            runs: dict[str, list[Hit]] = {"bm25": [], "dense": []}
        else:
            story = lay and len(query.split()) >= self.fusion.story_words
            runs = self.search_runs(text, allow, self.fusion.depth, qv, lay=story)
        sections, best = self._section_runs(runs)
        return runs, sections, best, _subjects_first(list(fuse(sections, self.fusion, text)),
                                                     self._subject_sections(query))

    def _ranked(self, fused: list[tuple[str, float]], sections: dict[str, list[Hit]], runs: dict[str, list[Hit]],
                best: dict[str, str], query: str, pinned: set[str]) -> tuple[list[tuple[str, float]], dict[str, float]]:
        """``fused`` with its first ``RANK_DEPTH`` sections (after those pinned) in the ranker's order, each with its
        own fused score, and the ranker's score of each section it ordered."""
        assert self.ranker is not None
        head, rows = self._candidate_rows(fused, sections, runs, best, query, pinned)
        if len(head) < 2:
            return fused, {}
        scores = self.ranker.scores(rows)
        order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
        chosen = {skey for skey, _ in head}
        return ([head[i] for i in order] + [x for x in fused if x[0] not in chosen],
                {skey: round(score, 6) for (skey, _), score in zip(head, scores, strict=True)})

    def _candidate_rows(self, fused: list[tuple[str, float]], sections: dict[str, list[Hit]],
                        runs: dict[str, list[Hit]], best: dict[str, str], query: str,
                        pinned: set[str]) -> tuple[list[tuple[str, float]], list[dict[str, float]]]:
        """The first ``RANK_DEPTH`` fused sections not pinned, and their ranker features (``rerank.features``)."""
        head = [(skey, score) for skey, score in fused if skey not in pinned][:RANK_DEPTH]
        bm25 = _scaled(sections.get("bm25", []))
        dense_run = sections.get("dense", [])
        dense = {h.chunk_id: (i, h.score) for i, h in enumerate(dense_run)}
        lay = {h.chunk_id: h.score for h in sections.get("lay", [])}
        chunks: dict[str, int] = {}
        for name in ("bm25", "dense"):
            for h in runs.get(name, []):
                c = self.index.get(h.chunk_id)
                if c is not None:
                    chunks[f"{c.act}:{c.section}"] = chunks.get(f"{c.act}:{c.section}", 0) + 1
        evidence = []
        for i, (skey, score) in enumerate(head):
            act, section = skey.split(":", 1)
            c = self.index.get(best[skey])
            evidence.append(SectionEvidence(
                act=act, section=section, fused_rank=i, fused=score, bm25=bm25.get(skey), dense=dense.get(skey),
                lay=lay.get(skey), chunks=chunks.get(skey, 0), heading=(c.title or "") if c is not None else "",
                text=c.text if c is not None else ""))  # fmt: skip
        cosines = [h.score for h in dense_run]
        return head, features(evidence, query=query, named_acts=self._named(query).acts,
                              dense_floor=min(cosines, default=0.0), dense_top=max(cosines, default=0.0))

    def ranking_candidates(self, query: str, *, as_of: str | None = None) -> RankingCandidates:
        """What the section ranker sees for ``query`` searched as ``retrieve`` searches the whole index: the first
        ``RANK_DEPTH`` fused sections ("ACT:section") not pinned, in fused order, with their features (training
        rows for ``legal-rag eval train-ranker``), and the sections pinned."""
        self.index.refresh()
        day = day_or_today(as_of)
        pinned = {f"{c.act}:{c.section}" for cid, _ in self._pinned(query, day) if (c := self.index.get(cid))}
        allow = self.allowed(as_of=day)
        text = self.search_text(query)
        runs, sections, best, fused = self._searched(query, text, allow, query_vectors(self.index.embedder, text),
                                                     lay=True)
        head, rows = self._candidate_rows(fused, sections, runs, best, query, pinned)
        return RankingCandidates(tuple((skey, row) for (skey, _), row in zip(head, rows, strict=True)),
                                 frozenset(pinned))

    def search_text(self, query: str, *, offence_told: bool = False, acts: Collection[str] | None = None) -> str:
        """What goes to BM25 and the embedder: the query without the provisions it names (they are
        pinned instead) unless too little is left, plus the statutory wording of its terms of art (those of ``acts``
        when the search is confined to them)."""
        rest = _without_spans(query, [(s, e) for s, e, _ in self._named(query).provisions])
        text = rest if len(rest.split()) >= 3 else query
        return self.terms.expand(text, offence_told=offence_told, acts=acts) if self.terms is not None else text

    def retrieve_many(
        self, queries: Sequence[str], k: int = 10, *, as_of: str | None = None
    ) -> list[list[Retrieved]]:
        """``retrieve`` for several short queries (the claims of an answer, re-retrieving their own
        evidence for GenGround), their embeddings computed in one model call."""
        texts = [self.search_text(q) for q in queries]
        # Claims are single statements: one vector each serves both channels (half the model work).
        vectors = query_vectors_many(self.index.embedder, texts, per_sentence=False)
        return [self.retrieve(q, k, as_of=as_of, vectors=v, lay=False) for q, v in zip(queries, vectors, strict=True)]

    def _subject_sections(self, query: str) -> set[str]:
        """Sections whose heading names the subject the question asks about ("punishment for theft" ->
        the sections headed "Theft"; "what is extortion" -> "Extortion"), longest heading first: a
        question that names an offence by its subject rather than its number. Only for questions (not
        long fact descriptions), and only among headings few Acts share ("Definitions" is no subject)."""
        words = _WORD.findall(query.lower())
        if not words or len(words) > SUBJECT_MAX_WORDS:
            return set()
        table = self._headings()
        stems = [light_stem(w) for w in words]
        found: list[tuple[int, int, str]] = []
        for n in range(min(SUBJECT_MAX_HEADING_WORDS, len(stems)), 0, -1):
            for i in range(len(stems) - n + 1):
                phrase = " ".join(stems[i : i + n])
                if phrase in table and not any(a <= i and i + n <= b for a, b, _ in found):
                    found.append((i, i + n, phrase))
        return {skey for _, _, phrase in found for skey in table[phrase]}

    def _headings(self) -> dict[str, frozenset[str]]:
        """Heading subject (light-stemmed, "Punishment for" dropped) -> section keys, per index version."""
        version = self.index.snapshot
        if self._heading_table is not None and self._heading_table[0] == version:
            return self._heading_table[1]
        table: dict[str, set[str]] = {}
        for c in self.index.chunks():
            subject = _heading_subject(c.title or "")
            if subject:
                table.setdefault(subject, set()).add(f"{c.act}:{c.section}")
        keep = {k: frozenset(v) for k, v in table.items()
                if len({s.split(":")[0] for s in v}) <= SUBJECT_MAX_ACTS}  # fmt: skip
        self._heading_table = (version, keep)
        return keep

    def offence_partner(self, act: str, section: str) -> tuple[str, str] | None:
        """The section that punishes the offence this one defines, or defines the one it punishes
        (``offences.offence_partners``: IPC 405 <-> 406), per index version; None when there is none."""
        version = self.index.snapshot
        if self._partners is None or self._partners[0] != version:
            titles: dict[str, str] = {}
            for c in self.index.chunks():
                titles.setdefault(f"{c.act}:{c.section}", c.title or "")
            self._partners = (version, offence_partners(titles))
        other = self._partners[1].get(f"{act}:{section}")
        if other is None:
            return None
        a, _, s = other.partition(":")
        return a, s

    def _section_runs(self, runs: dict[str, list[Hit]]) -> tuple[dict[str, list[Hit]], dict[str, str]]:
        """Chunk runs to section runs: each retriever votes once per section, at its best chunk, so a
        section split into many chunks neither dilutes nor multiplies its votes. ``best`` is the
        chunk shown for each section: the best-ranked one across retrievers."""
        out: dict[str, list[Hit]] = {}
        best: dict[str, tuple[int, str]] = {}
        for name, hits in runs.items():
            seen: set[str] = set()
            ranked: list[Hit] = []
            for rank, h in enumerate(hits):
                c = self.index.get(h.chunk_id)
                if c is None:
                    continue
                skey = f"{c.act}:{c.section}"
                if skey in seen:
                    continue
                seen.add(skey)
                ranked.append(Hit(skey, h.score))
                if skey not in best or rank < best[skey][0]:
                    best[skey] = (rank, h.chunk_id)
            out[name] = ranked
        return out, {s: cid for s, (_, cid) in best.items()}

    def section_chunks(self, act: str, section: str) -> list[Chunk]:
        """Every chunk of a section, in order (sub-sections, clauses, parts)."""
        return [c for cid in self.index.ids_for(act, section) if (c := self.index.get(cid)) is not None]

    # -- provisions named in the query --

    def _named(self, query: str) -> NamedInQuery:
        """What ``query`` names (one extraction per query: retrieval asks three times)."""
        last = self._last_named
        if last is not None and last[0] == query:
            return last[1]
        named = self._find(query) if self._find is not None else NamedInQuery([], frozenset())
        self._last_named = (query, named)
        return named

    def _pinned(self, query: str, day: str) -> list[tuple[str, Pin]]:
        out: list[tuple[str, Pin]] = [(cid, Pin.DEFINITION) for cid in self._defining(query, day)]
        for _, _, key in self._named(query).provisions:
            if not key.act:
                continue
            out.extend((cid, Pin.CITED) for cid in self.index.ids_for(key.act, key.section, key.sub)[:3])
            for rel, other in self._related(key, day):
                out.extend((cid, rel) for cid in self.index.ids_for(other.act, other.section, other.sub)[:3])
        return out

    def _defining(self, query: str, day: str) -> list[str]:
        """For a definition question, the clauses in force on ``day`` that define its term (``definitions.py``),
        for the longest candidate term the index defines: those of an Act the question names first ("under CrPC",
        "under the Code of Criminal Procedure"), then the criminal codes; at most ``MAX_DEFINITIONS``.
        Definitions that hold only inside their own section ("For the purposes of this sub-section") are left to
        ordinary retrieval."""
        terms = asked_terms(query)
        if not terms:
            return []
        version = self.index.snapshot
        if self._definitions is None or self._definitions[0] != version:
            self._definitions = (version, defined_terms(self.index.chunks()))
        allow = self.allowed(as_of=day)
        # By title or abbreviation as the extractor reads them, or by a word that is an Act's code ("PWDVA", "bsa").
        named = self._named(query).acts | {w.upper() for w in _WORD.findall(query.lower())}

        def order(cid: str) -> tuple[bool, bool]:
            act = cid.split(":")[0]
            return act not in named, act not in GENERAL_CODES

        for term in terms:
            ids = [d.chunk_id for d in self._definitions[1].get(term, [])
                   if d.general and (allow is None or d.chunk_id in allow)]  # fmt: skip
            if ids:
                return self._with_referred(sorted(ids, key=order)[:MAX_DEFINITIONS])
        return []

    def _with_referred(self, ids: list[str]) -> list[str]:
        """Each defining clause followed by the section of its own Act it refers the term to ("(g) "domestic
        violence" has the same meaning as assigned to it in section 3": PWDVA 2(g), then PWDVA 3), which holds what
        the term means."""
        out: list[str] = []
        for cid in ids:
            out.append(cid)
            chunk = self.index.get(cid)
            m = _REFERRED.search(chunk.text) if chunk is not None else None
            if chunk is not None and m is not None and m.group(1) != chunk.section.split("(")[0]:
                out.extend(c for c in self.index.ids_for(chunk.act, m.group(1), ())[:2] if c not in out)
        return out

    def counterparts(self, act: str, section: str) -> list[tuple[Pin, Chunk]]:
        """The chunks of what replaced an old-code section (SUCCESSOR) or what a new-code section replaced
        (PREDECESSOR), whatever the date: for questions about how the law changed."""
        if act not in OLD_TO_NEW and act not in NEW_TO_OLD:
            return []
        out: list[tuple[Pin, Chunk]] = []
        for why, key in self._related(CitationKey(act, section, ()), None, act in OLD_TO_NEW):
            out.extend((why, c) for cid in self.index.ids_for(key.act, key.section, key.sub)[:3]
                       if (c := self.index.get(cid)) is not None)
        return out

    def _related(
        self, key: CitationKey, day: str | None, successors: bool | None = None
    ) -> list[tuple[Pin, CitationKey]]:
        """Successors of an old-code provision for facts on/after 2024-07-01; predecessors of a
        new-code provision for earlier facts (``successors`` given: that direction, any date)."""
        if self.graph is None:
            return []
        if successors is None:
            assert day is not None
            want_succ = key.act in OLD_TO_NEW and day >= NEW_CRIMINAL_CODES_IN_FORCE
            want_pred = key.act in NEW_TO_OLD and day < NEW_CRIMINAL_CODES_IN_FORCE
        else:
            want_succ, want_pred = successors and key.act in OLD_TO_NEW, not successors and key.act in NEW_TO_OLD
        if not (want_succ or want_pred):
            return []
        try:
            rec = self.graph.get_section(key.act, key.section)
        except StoreUnavailableError:
            return []  # retrieval still works without the graph; verification will flag it
        if rec is None:
            return []
        refs = rec.successors if want_succ else rec.predecessors
        out = []
        for p in refs:
            sub = tuple(x.strip(")") for x in p.section.split("(")[1:])
            out.append((Pin.SUCCESSOR if want_succ else Pin.PREDECESSOR,
                        CitationKey(p.act, p.section.split("(")[0], sub)))
        return out


MAX_DEFINITIONS = 2
_REFERRED = re.compile(r"\bhas\s+the\s+(?:same\s+)?meanings?\s+(?:as\s+)?assigned\s+to\s+it\s+(?:in|under|by)\s+"
                       r"section\s+(\d+[A-Z]*)\b(?!(?:\s*\(\w+\))*\s+of\s+(?:the\s+)?(?-i:[A-Z]))", re.IGNORECASE)
"""A defining clause that refers its term to a section of its own Act (not "section 2 of the Indian Penal Code")."""
GENERAL_CODES = frozenset({"BNS", "BNSS", "BSA", "IPC", "CRPC", "IEA"})
"""Where a term defined in many Acts ("offence", "document") is looked up first."""
SUBJECT_MAX_WORDS = 40
"""Longer queries are fact descriptions: a heading word in them ("hurt", "theft") is not their subject."""
SUBJECT_MAX_HEADING_WORDS = 8
"""A heading of up to this many words can be a subject a question names ("Cheating and dishonestly inducing
delivery of property", IPC s.420, has seven); longer ones are clauses, not names."""
SUBJECT_MAX_ACTS = 3
"""A heading shared by more Acts than this ("Definitions", "Short title") names no subject."""
_WORD = re.compile(r"[a-z][a-z\-']*")
_GENERIC = re.compile(r"^(?:punishment|penalty|penalties)\s+(?:for|of)\s+")
_STOP_SUBJECTS = frozenset({"definition", "definitions", "short title", "power", "powers", "procedure", "saving",
                            "savings", "repeal", "repeal and saving", "offence", "offences", "punishment",
                            "punishments", "penalty", "penalties", "rule", "rules", "section", "act", "court",
                            "courts", "person", "general", "interpretation", "application"})


def _heading_subject(title: str) -> str | None:
    """ "Punishment for murder." -> "murder"; "Theft" -> "theft"; generic headings -> None."""
    t = " ".join(title.lower().replace("--", " ").split()).strip(" .,;:-")
    t = _GENERIC.sub("", t)
    if len(t) < 4:
        return None
    words = _WORD.findall(t)
    if not words or len(words) > SUBJECT_MAX_HEADING_WORDS or " ".join(words) != t.replace(",", "").replace("  ", " "):
        return None  # headings with numbers, brackets or long clauses are not subjects a question names
    subject = " ".join(light_stem(w) for w in words)
    return None if subject in _STOP_STEMS else subject


_STOP_STEMS = frozenset(" ".join(light_stem(w) for w in s.split()) for s in _STOP_SUBJECTS)


def _subjects_first(fused: list[tuple[str, float]], subjects: set[str]) -> list[tuple[str, float]]:
    """Sections the question names by subject go before the rest, in their fused order (only sections
    the retrievers found: filters by date and Act still hold)."""
    if not subjects:
        return fused
    first = [x for x in fused if x[0] in subjects]
    return first + [x for x in fused if x[0] not in subjects] if first else fused


def _scaled(hits: Sequence[Hit]) -> dict[str, tuple[int, float]]:
    """Id -> (rank, score min-max scaled within the run)."""
    if not hits:
        return {}
    lo, hi = min(h.score for h in hits), max(h.score for h in hits)
    span = (hi - lo) or 1.0
    return {h.chunk_id: (i, (h.score - lo) / span) for i, h in enumerate(hits)}


def _scores(per: dict[str, dict[str, float]], cid: str, fused: float | None) -> dict[str, float]:
    out = {name: round(float(s[cid]), 6) for name, s in per.items() if cid in s}
    if fused is not None:
        out["fused"] = round(fused, 6)
    return out


def _day(iso: str | None, default: int) -> int:
    if not iso:
        return default
    return int(iso.replace("-", "")[:8])


def _without_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    out, last = [], 0
    for s, e in sorted(spans):
        out.append(text[last:s])
        last = e
    out.append(text[last:])
    return " ".join("".join(out).split())
