"""``build_dataset``: the statute graph -> verified SFT and DPO files, split by provision family, with a card.

Pure over its inputs (a graph store, a verifier, a seed): no clock, no set iteration order, no
global random state. Every category and split draws from its own ``random.Random`` seeded with
``"{seed}/{category}/{split}"``, so the files are byte-identical for a seed and one category's
drops do not reshuffle another's.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finetune.card import corpus_version, licences, write_card
from finetune.examples import Example, Maker, eligible, replacement_pairs
from finetune.judge import Category, Judge
from finetune.prompt import SYSTEM, ContextChunk, OfflineAnswerer, user_turn
from finetune.rows import SPLITS, DPORow, ProvisionRef, SFTRow, Turn, write_jsonl
from finetune.statutes import StatuteView
from graph_schema.errors import LegalRagError
from graph_schema.store import GraphReader
from legal_rag.retrieval.types import Chunk
from verification import Verifier

Progress = Callable[[str, int, int], None]

CRIMINAL = frozenset({"BNS", "BNSS", "BSA", "IPC", "CRPC", "IEA"})
"""Acts a criminal practice asks about most: drawn three times as often as the other Acts."""


class DatasetError(LegalRagError):
    """The dataset could not be built as asked (too few usable provisions for a category)."""


@dataclass(frozen=True)
class BuildConfig:
    n: int = 1000
    seed: int = 7
    eval_fraction: float = 0.1

    def quotas(self) -> dict[Category, dict[str, int]]:
        """About n/5 per category, the remainder to the first ones; eval gets ``eval_fraction`` of each."""
        base, extra = divmod(self.n, len(Category))
        out = {}
        for i, c in enumerate(Category):
            total = base + (1 if i < extra else 0)
            ev = round(total * self.eval_fraction)
            out[c] = {"train": total - ev, "eval": ev}
        return out


@dataclass
class BuildReport:
    out: Path
    counts: dict[str, Counter[str]] = field(default_factory=lambda: {s: Counter() for s in SPLITS})
    variants: Counter[str] = field(default_factory=Counter)
    candidates: int = 0
    chosen_failed: Counter[str] = field(default_factory=Counter)
    rejected_not_failing: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0
    card: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"out": str(self.out), "counts": {s: dict(sorted(c.items())) for s, c in self.counts.items()},
                "totals": {s: sum(c.values()) for s, c in self.counts.items()},
                "candidates": self.candidates, "chosen_failed": sum(self.chosen_failed.values()),
                "rejected_not_failing": sum(self.rejected_not_failing.values()), "duplicates": self.duplicates}


@dataclass(frozen=True)
class Built:
    """An example that passed both checks, with its split."""

    example: Example
    split: str
    user: str

    @property
    def id(self) -> str:
        digest = hashlib.sha256(f"{self.user}\x00{self.example.chosen}\x00{self.example.rejected}".encode())
        return f"{self.example.category.value}-{digest.hexdigest()[:12]}"

    def provisions(self) -> list[ProvisionRef]:
        return [ProvisionRef(act=a, section=s) for a, s in self.example.provisions]

    def sft(self) -> SFTRow:
        e = self.example
        return SFTRow(id=self.id, messages=[Turn(role="system", content=SYSTEM), Turn(role="user", content=self.user),
                                            Turn(role="assistant", content=e.chosen)],
                      category=e.category, provisions=self.provisions(), as_of=e.as_of)  # fmt: skip

    def dpo(self) -> DPORow:
        e = self.example
        return DPORow(id=self.id, prompt=[Turn(role="system", content=SYSTEM), Turn(role="user", content=self.user)],
                      chosen=[Turn(role="assistant", content=e.chosen)],
                      rejected=[Turn(role="assistant", content=e.rejected)],
                      category=e.category, provisions=self.provisions(), as_of=e.as_of)  # fmt: skip


def assign_splits(view: StatuteView, units: Sequence[str], seed: int, eval_fraction: float) -> dict[str, str]:
    """Family id -> split. Families are shuffled with the seed and go to eval until it holds
    ``eval_fraction`` of ``units`` (chunk ids weighted by how many usable chunks each family has)."""
    weight = Counter(view.chunk_family(u) for u in units)
    fams = sorted(set(view.families.values()) | set(weight))
    random.Random(f"{seed}/split").shuffle(fams)
    target, held = eval_fraction * sum(weight.values()), 0
    out = {}
    for f in fams:
        if held < target and weight[f]:
            out[f] = "eval"
            held += weight[f]
        else:
            out[f] = "train"
    return out


def _weighted(chunks: Sequence[Chunk], rng: random.Random) -> Iterator[Chunk]:
    """Chunks in a random order that visits criminal-code provisions three times as often per Act draw."""
    by_act: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_act.setdefault(c.act, []).append(c)
    for pool in by_act.values():
        rng.shuffle(pool)
    acts = sorted(by_act)
    while acts:
        weights = [3.0 if a in CRIMINAL else 1.0 for a in acts]
        act = rng.choices(acts, weights)[0]
        yield by_act[act].pop()
        if not by_act[act]:
            acts.remove(act)


def build_dataset(store: GraphReader, verifier: Verifier, out: Path, config: BuildConfig = BuildConfig(), *,
                  corpus_dir: Path | None = None, progress: Progress | None = None) -> BuildReport:
    """Build ``out/sft``, ``out/dpo`` and the card from the graph in ``store``.

    Raises:
        DatasetError: a category could not reach 90% of its share (the corpus has too few usable provisions).
    """
    report = BuildReport(out)
    tick = progress or (lambda stage, done, total: None)
    tick("read graph", 0, 1)
    view = StatuteView.read(store)
    tick("read graph", 1, 1)
    judge = Judge(verifier, store)
    answerer = OfflineAnswerer(view.act_titles)
    targets = [c for c in view.chunks.values() if eligible(c) and view.in_force_window(c)]
    targets.sort(key=lambda c: c.id)
    pairs = replacement_pairs(view)
    split_of = assign_splits(view, [c.id for c in targets], config.seed, config.eval_fraction)
    makers = {s: Maker(view, answerer, [c for c in view.chunks.values()
                                        if split_of.get(view.chunk_family(c.id), "train") == s]) for s in SPLITS}
    quotas = config.quotas()
    seen: set[str] = set()
    built: list[Built] = []
    total = config.n
    for category in Category:
        for split in SPLITS:
            rng = random.Random(f"{config.seed}/{category.value}/{split}")
            want = quotas[category][split]
            got = 0
            for ex in _candidates(category, makers[split], targets, pairs, view, split_of, split, rng):
                if got >= want:
                    break
                report.candidates += 1
                b = _check(ex, split, judge, report, seen)
                if b is None:
                    continue
                built.append(b)
                got += 1
                report.counts[split][category.value] += 1
                report.variants[f"{category.value}/{ex.variant}"] += 1
                tick("examples", len(built), total)
    for category in Category:
        have = sum(report.counts[s][category.value] for s in SPLITS)
        share = sum(quotas[category].values())
        if have < 0.9 * share:
            raise DatasetError(f"only {have} {category.value} examples passed verification, under 90% of {share}")
    _write(out, built, report)
    report.card = _card(config, view, verifier, answerer, report, split_of, corpus_dir)
    write_card(out, report.card)
    tick("write", 1, 1)
    return report


def _candidates(category: Category, maker: Maker, targets: Sequence[Chunk], pairs: Sequence[tuple[Chunk, Chunk]],
                view: StatuteView, split_of: dict[str, str], split: str, rng: random.Random) -> Iterator[Example]:
    if category is Category.OUTDATED:
        mine = [p for p in pairs if split_of.get(view.chunk_family(p[0].id)) == split]
        rng.shuffle(mine)
        for old, new in mine:
            ex = maker.outdated(old, new, rng)
            if ex is not None:
                yield ex
        return
    make = {Category.CORRECT: maker.correct, Category.DISTRACTOR: maker.distractor,
            Category.INSUFFICIENT: maker.insufficient, Category.MISATTRIBUTED: maker.misattributed}[category]
    mine_t = [t for t in targets if split_of.get(view.chunk_family(t.id)) == split]
    for t in _weighted(mine_t, rng):
        ex = make(t, rng)
        if ex is not None:
            yield ex


def _check(ex: Example, split: str, judge: Judge, report: BuildReport, seen: set[str]) -> Built | None:
    user = user_turn(ex.question, ex.context, ex.as_of)
    key = " ".join(user.lower().split())
    if key in seen:
        report.duplicates += 1
        return None
    context = [ContextChunk(c.id, c.text) for c in ex.context]
    chosen = judge.chosen(ex.category, ex.chosen, context, ex.as_of, ex.provisions)
    if not chosen.ok:
        report.chosen_failed[ex.category.value] += 1
        return None
    rejected = judge.rejected(ex.category, ex.rejected, context, ex.as_of, ex.provisions)
    if not rejected.ok:
        report.rejected_not_failing[ex.category.value] += 1
        return None
    seen.add(key)
    return Built(ex, split, user)


def _write(out: Path, built: Sequence[Built], report: BuildReport) -> None:
    for split in SPLITS:
        rows = sorted((b for b in built if b.split == split), key=lambda b: b.id)
        write_jsonl(out / "sft" / f"{split}.jsonl", (b.sft() for b in rows))
        write_jsonl(out / "dpo" / f"{split}.jsonl", (b.dpo() for b in rows))


def _card(config: BuildConfig, view: StatuteView, verifier: Verifier, answerer: OfflineAnswerer, report: BuildReport,
          split_of: dict[str, str], corpus_dir: Path | None) -> dict[str, Any]:
    fams = Counter(split_of.values())
    return {
        "name": "legal-rag finetune",
        "n_requested": config.n,
        "seed": config.seed,
        "eval_fraction": config.eval_fraction,
        "generator": answerer.name,
        "graph_version": view.version(),
        "corpus_version": corpus_version(corpus_dir),
        "counts": {s: {c.value: report.counts[s][c.value] for c in Category} for s in SPLITS},
        "total": sum(sum(c.values()) for c in report.counts.values()),
        "variants": dict(sorted(report.variants.items())),
        "verification": {
            "candidates": report.candidates,
            "kept": sum(sum(c.values()) for c in report.counts.values()),
            "chosen_failed": dict(sorted(report.chosen_failed.items())),
            "rejected_not_failing": dict(sorted(report.rejected_not_failing.items())),
            "duplicates": report.duplicates,
            "fuzzy_threshold": verifier.fuzzy_threshold,
        },
        "split": {"by": "provision family (section + predecessors + successors)",
                  "families": {s: fams[s] for s in SPLITS}},
        "licences": licences(corpus_dir),
        "files": {"sft": [f"sft/{s}.jsonl" for s in SPLITS], "dpo": [f"dpo/{s}.jsonl" for s in SPLITS]},
    }
