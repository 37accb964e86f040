"""Facts -> offences: does a fact description find the offences it makes out, searched over the whole index?

Gold comes from an AILA-style eval set whose statutes are anonymised (S1..S200): the ones that are IPC
sections are recognised by their title and text against the IPC (``data/corpus/legacy/ipc.json``), so
each query's relevant IPC sections become its gold. A gold section counts as found when it, or its BNS
successor (the graph's correspondence, as ``HybridRetriever.counterparts`` reads it), is among the top
``k`` sections: facts searched today find the BNS, earlier ones the IPC. The baseline, measured in the
same run: BM25 alone over the IPC's sections only (the same index, filtered to the IPC).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from legal_rag.retrieval.evaluate import EvalSet
from legal_rag.retrieval.hybrid import FusionConfig, HybridRetriever
from legal_rag.retrieval.types import IdFilter

BASELINE = "bm25_ipc"
_WORDS = re.compile(r"[a-z]+")


def _norm(text: str) -> str:
    return " ".join(_WORDS.findall(text.lower()))


def ipc_sections(docs: Mapping[str, tuple[str, str]], ipc: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Anonymised statute id -> IPC section number, for the documents that are IPC sections.

    A document is IPC section N when its title equals N's after normalising (an IPC title shared by
    several sections is settled by the text) and its text agrees with N's (token-set ratio >= 90 on
    the first 600 characters; some IPC entries hold no text, "Dowry death", and the title decides),
    or, for a title amended since ("Using as genuine a forged document or electronic record"), when
    the titles are close (ratio >= 70) and the texts agree (>= 95).
    """
    rows = [(str(r["Section"]).strip(), _norm(str(r.get("section_title") or "")),
             _norm(str(r.get("section_desc") or ""))[:600]) for r in ipc]  # fmt: skip
    out: dict[str, str] = {}
    for did, (title, text) in docs.items():
        t, x = _norm(title), _norm(text)[:600]
        same_title = [r for r in rows if r[1] == t]
        pool = same_title or rows
        number, r_title, r_text = max(pool, key=lambda r: fuzz.ratio(t, r[1]) + fuzz.token_set_ratio(x, r[2]))
        agree = fuzz.token_set_ratio(x, r_text)
        if (same_title and (agree >= 90 or not r_text)) or (fuzz.ratio(t, r_title) >= 70 and agree >= 95):
            out[did] = number
    return out


def offence_gold(es: EvalSet, ipc_of: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Per query, the IPC sections among its relevant statutes (queries with none are left out)."""
    out = {}
    for qid, rels in es.qrels.items():
        gold = frozenset(ipc_of[d] for d, r in rels.items() if r > 0 and d in ipc_of)
        if gold:
            out[qid] = gold
    return out


@dataclass(frozen=True, slots=True)
class OffenceResult:
    recall: dict[str, float]
    """Mean recall@k per method (``bm25_ipc`` and each fusion variant)."""
    per_query: dict[str, dict[str, list[str]]]
    """Per query and method, the top-k section keys ("BNS:103")."""
    gold: dict[str, list[str]]

    def ratio(self, method: str) -> float:
        base = self.recall[BASELINE]
        return self.recall[method] / base if base else 0.0

    def as_dict(self) -> dict[str, object]:
        return {"recall": {m: round(v, 4) for m, v in self.recall.items()},
                "ratio": {m: round(self.ratio(m), 3) for m in self.recall if m != BASELINE},
                "queries": len(self.gold), "gold": self.gold, "per_query": self.per_query}  # fmt: skip


def evaluate_offences(
    retriever: HybridRetriever, queries: Mapping[str, str], gold: Mapping[str, frozenset[str]],
    variants: Mapping[str, FusionConfig], k: int = 10, as_of: str | None = None,
) -> OffenceResult:
    """Recall@``k`` of each fusion variant (``retrieve`` over the whole index) and of BM25 over the IPC."""
    index = retriever.index
    ipc_only = IdFilter(c.id for c in index.chunks() if c.act == "IPC")
    found_as = {s: {f"IPC:{s}"} | {f"{c.act}:{c.section}" for _, c in retriever.counterparts("IPC", s)}
                for g in gold.values() for s in g}  # fmt: skip
    retrievers = {}
    for name, cfg in variants.items():
        retrievers[name] = copy.copy(retriever)  # the same index, graph and query parsing; other weights
        retrievers[name].fusion = cfg
    ranked: dict[str, dict[str, list[str]]] = {}
    for qid in gold:
        hits = index.lexical.search(queries[qid], 100 * k, ipc_only)
        ranked[qid] = {BASELINE: _top_sections((index.get(h.chunk_id) for h in hits), k)}
        for name, r in retrievers.items():
            ranked[qid][name] = _top_sections((x.chunk for x in r.retrieve(queries[qid], k, as_of=as_of)), k)
    recall = {m: sum(_recall(ranked[q][m], g, found_as) for q, g in gold.items()) / len(gold)
              for m in [BASELINE, *variants]}  # fmt: skip
    return OffenceResult(recall, ranked, {q: sorted(g) for q, g in gold.items()})


def _top_sections(chunks: Any, k: int) -> list[str]:
    out: list[str] = []
    for c in chunks:
        if c is None:
            continue
        key = f"{c.act}:{c.section}"
        if key not in out:
            out.append(key)
            if len(out) == k:
                break
    return out


def _recall(top: Sequence[str], gold: frozenset[str], found_as: Mapping[str, set[str]]) -> float:
    return sum(1 for s in gold if found_as[s] & set(top)) / len(gold)
