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
from finetune.examples import Example, Maker, Neighbours, eligible, replacement_pairs
from finetune.gates import GATES, failed_gate
from finetune.judge import Category, Judge
from finetune.prompt import SYSTEM, ContextChunk, OfflineAnswerer, user_turn
from finetune.questions import POOLS, held_out
from finetune.rows import SPLITS, DPORow, ProvisionRef, SFTPromptRow, SFTRow, Turn, write_jsonl
from finetune.statutes import StatuteView, chunk_provision, section_key
from graph_schema.chunking import Chunk
from graph_schema.errors import DatasetError
from graph_schema.store import GraphReader
from verification import Verifier

Progress = Callable[[str, int, int], None]

CRIMINAL = frozenset({"BNS", "BNSS", "BSA", "IPC", "CRPC", "IEA"})
"""Acts a criminal practice asks about most: drawn three times as often as the other Acts."""

@dataclass(frozen=True, slots=True)
class TokenizerFile:
    """A ``tokenizer.json`` (Hugging Face ``tokenizers``) the card's token lengths are counted with.

    Passed in by the caller (the application ships all-MiniLM-L6-v2's WordPiece tokenizer), so the package
    holds no path into another.
    """

    path: Path
    name: str
    """How the card names it ("sentence-transformers/all-MiniLM-L6-v2 WordPiece ...")."""


@dataclass(frozen=True)
class BuildConfig:
    n: int = 1000
    """Rows in all when ``eval_per_category`` is None; else the training rows (about n/5 per category)."""
    seed: int = 7
    eval_fraction: float = 0.1
    eval_per_category: int | None = None
    """Eval rows per category (the evaluation a reader can trust wants >= 100); None: ``eval_fraction`` of n."""
    per_provision: int = 2
    """Rows at most about one provision (a section), over all categories and splits."""
    held_out_acts: int = 2
    """Acts (outside the criminal codes) whose every provision is eval-only, so eval asks about unseen Acts."""

    def quotas(self) -> dict[Category, dict[str, int]]:
        """About n/5 per category, the remainder to the first ones; eval gets ``eval_fraction`` of each, or
        ``eval_per_category`` beside them."""
        base, extra = divmod(self.n, len(Category))
        out = {}
        for i, c in enumerate(Category):
            total = base + (1 if i < extra else 0)
            if self.eval_per_category is not None:
                out[c] = {"train": total, "eval": self.eval_per_category}
            else:
                ev = round(total * self.eval_fraction)
                out[c] = {"train": total - ev, "eval": ev}
        return out

    def split_fraction(self) -> float:
        """The share of provisions held for eval: enough for its quota, with room for what the gates drop."""
        if self.eval_per_category is None:
            return self.eval_fraction
        ev = self.eval_per_category * len(Category)
        return min(0.6, max(self.eval_fraction, 1.5 * ev / (ev + self.n)))


@dataclass
class BuildReport:
    out: Path
    counts: dict[str, Counter[str]] = field(default_factory=lambda: {s: Counter() for s in SPLITS})
    variants: Counter[str] = field(default_factory=Counter)
    templates: dict[str, Counter[str]] = field(default_factory=lambda: {s: Counter() for s in SPLITS})
    candidates: int = 0
    chosen_failed: Counter[str] = field(default_factory=Counter)
    rejected_not_failing: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0
    capped: int = 0
    gates: Counter[str] = field(default_factory=Counter)
    card: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"out": str(self.out), "counts": {s: dict(sorted(c.items())) for s, c in self.counts.items()},
                "totals": {s: sum(c.values()) for s, c in self.counts.items()},
                "candidates": self.candidates, "chosen_failed": sum(self.chosen_failed.values()),
                "rejected_not_failing": sum(self.rejected_not_failing.values()), "duplicates": self.duplicates,
                "capped": self.capped, "gates": dict(sorted(self.gates.items()))}


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

    def sft_pc(self) -> SFTPromptRow:
        """The SFT row as prompt/completion, so a trainer computes the loss on the answer only (TRL's default
        for this shape) instead of on the ~1,500-token prompt."""
        e = self.example
        prompt = [Turn(role="system", content=SYSTEM), Turn(role="user", content=self.user)]
        return SFTPromptRow(id=self.id, prompt=prompt,
                            completion=[Turn(role="assistant", content=e.chosen)], category=e.category,
                            provisions=self.provisions(), as_of=e.as_of)  # fmt: skip

    def dpo(self) -> DPORow:
        e = self.example
        return DPORow(id=self.id, prompt=[Turn(role="system", content=SYSTEM), Turn(role="user", content=self.user)],
                      chosen=[Turn(role="assistant", content=e.chosen)],
                      rejected=[Turn(role="assistant", content=e.rejected)],
                      category=e.category, provisions=self.provisions(), as_of=e.as_of)  # fmt: skip


def held_out_acts(view: StatuteView, units: Sequence[str], seed: int, k: int) -> list[str]:
    """``k`` Acts outside the criminal codes, with at least 20 usable units, drawn with the seed: eval only."""
    per_act = Counter(chunk_provision(u)[0] for u in units)
    pool = sorted(a for a, n in per_act.items() if n >= 20 and a not in CRIMINAL)
    random.Random(f"{seed}/acts").shuffle(pool)
    return sorted(pool[:k])


def assign_splits(view: StatuteView, units: Sequence[str], seed: int, eval_fraction: float,
                  eval_acts: Sequence[str] = ()) -> dict[str, str]:
    """Family id -> split. Families of ``eval_acts`` go to eval; the others are shuffled with the seed and go
    to eval until it holds ``eval_fraction`` of ``units`` (chunk ids weighted by how many usable chunks each
    family has)."""
    weight = Counter(view.chunk_family(u) for u in units)
    fams = sorted(set(view.families.values()) | set(weight))
    random.Random(f"{seed}/split").shuffle(fams)
    held_acts = set(eval_acts)
    target, held = eval_fraction * sum(weight.values()), 0
    out = {}
    for f in fams:
        if f.split(":")[0] in held_acts:
            out[f] = "eval"
            held += weight[f]
    for f in fams:
        if f in out:
            continue
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
                  corpus_dir: Path | None = None, progress: Progress | None = None,
                  neighbours: Neighbours | None = None, tokenizer: TokenizerFile) -> BuildReport:
    """Build ``out/sft``, ``out/sft_pc``, ``out/dpo`` and the card from the graph in ``store``.

    Args:
        neighbours: The product's retriever, as (question, as-of date, k) -> chunk ids: contexts are what it
            brings for each question. Without it, contexts are filled from the split's other units (a test
            double of retrieval, named so in the card).
        tokenizer: The tokenizer the card's token lengths are counted with.

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
    targets = [c for c in view.chunks.values() if eligible(c) and view.text_window(c)]
    targets.sort(key=lambda c: c.id)
    pairs = replacement_pairs(view)
    units = [c.id for c in targets]
    eval_acts = held_out_acts(view, units, config.seed, config.held_out_acts)
    split_of = assign_splits(view, units, config.seed, config.split_fraction(), eval_acts)
    makers = {s: Maker(view, answerer, [c for c in view.chunks.values()
                                        if split_of.get(view.chunk_family(c.id), "train") == s], s, neighbours)
              for s in SPLITS}  # fmt: skip
    quotas = config.quotas()
    seen: set[str] = set()
    per_provision: Counter[str] = Counter()
    built: list[Built] = []
    total = sum(sum(q.values()) for q in quotas.values())
    for category in Category:
        for split in SPLITS:
            rng = random.Random(f"{config.seed}/{category.value}/{split}")
            want = quotas[category][split]
            got = 0
            for ex in _candidates(category, makers[split], targets, pairs, view, split_of, split, rng):
                if got >= want:
                    break
                report.candidates += 1
                b = _check(ex, split, judge, view, report, seen, per_provision, config.per_provision)
                if b is None:
                    continue
                built.append(b)
                got += 1
                report.counts[split][category.value] += 1
                report.variants[f"{category.value}/{ex.variant}"] += 1
                report.templates[split][ex.template.split("+")[-1]] += 1
                tick("examples", len(built), total)
    for category in Category:
        have = sum(report.counts[s][category.value] for s in SPLITS)
        share = sum(quotas[category].values())
        if have < 0.9 * share:
            raise DatasetError(f"only {have} {category.value} examples passed verification, under 90% of {share}")
    _write(out, built, report)
    report.card = _card(config, view, verifier, answerer, report, split_of, corpus_dir, eval_acts,
                        "retriever" if neighbours is not None else "split units (no retriever given)",
                        token_lengths(built, tokenizer))
    write_card(out, report.card)
    tick("write", 1, 1)
    return report


def _candidates(category: Category, maker: Maker, targets: Sequence[Chunk], pairs: Sequence[tuple[Chunk, Chunk]],
                view: StatuteView, split_of: dict[str, str], split: str, rng: random.Random) -> Iterator[Example]:
    if category is Category.OUTDATED:
        mine = [p for p in pairs if split_of.get(view.chunk_family(p[0].id)) == split]
        rng.shuffle(mine)
        for old, new in mine + mine:  # a pair may serve twice (facts before and after 2024), up to the cap
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


def _check(ex: Example, split: str, judge: Judge, view: StatuteView, report: BuildReport, seen: set[str],
           per_provision: Counter[str], cap: int) -> Built | None:
    key = " ".join(ex.question.lower().split())
    if key in seen:
        report.duplicates += 1
        return None
    provision = section_key(*ex.provisions[0])
    if per_provision[provision] >= cap:
        report.capped += 1
        return None
    failed = failed_gate(ex, view)
    if failed is not None:
        report.gates[failed[0]] += 1
        return None
    user = user_turn(ex.question, ex.context, ex.as_of)
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
    per_provision[provision] += 1
    return Built(ex, split, user)


def _write(out: Path, built: Sequence[Built], report: BuildReport) -> None:
    for split in SPLITS:
        rows = sorted((b for b in built if b.split == split), key=lambda b: b.id)
        write_jsonl(out / "sft" / f"{split}.jsonl", (b.sft() for b in rows))
        write_jsonl(out / "sft_pc" / f"{split}.jsonl", (b.sft_pc() for b in rows))
        write_jsonl(out / "dpo" / f"{split}.jsonl", (b.dpo() for b in rows))


def token_lengths(built: Sequence[Built], tokenizer: TokenizerFile) -> dict[str, Any]:
    """Token counts of whole SFT rows (system + user + answer) and of answers, with a named tokenizer."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(tokenizer.path))
    tok.no_truncation()
    tok.no_padding()
    texts = [f"{SYSTEM}\n{b.user}\n{b.example.chosen}" for b in built]
    answers = [max(b.example.chosen, b.example.rejected, key=len) for b in built]
    rows = sorted(len(e.ids) for e in tok.encode_batch(texts)) if texts else [0]
    ans = sorted(len(e.ids) for e in tok.encode_batch(answers)) if answers else [0]

    def stats(xs: list[int]) -> dict[str, int]:
        return {"p50": xs[len(xs) // 2], "p95": xs[min(len(xs) - 1, int(0.95 * len(xs)))], "max": xs[-1]}

    longest = rows[-1]
    return {"tokenizer": tokenizer.name, "row": stats(rows), "answer": stats(ans),
            "max_length": -(-int(longest * 1.25) // 256) * 256}


def _card(config: BuildConfig, view: StatuteView, verifier: Verifier, answerer: OfflineAnswerer, report: BuildReport,
          split_of: dict[str, str], corpus_dir: Path | None, eval_acts: Sequence[str], contexts: str,
          tokens: dict[str, Any]) -> dict[str, Any]:
    fams = Counter(split_of.values())
    return {
        "name": "legal-rag finetune",
        "n_requested": config.n,
        "seed": config.seed,
        "eval_fraction": config.eval_fraction,
        "eval_per_category": config.eval_per_category,
        "per_provision": config.per_provision,
        "generator": answerer.name,
        "contexts": contexts,
        "graph_version": view.version(),
        "corpus_version": corpus_version(corpus_dir),
        "counts": {s: {c.value: report.counts[s][c.value] for c in Category} for s in SPLITS},
        "total": sum(sum(c.values()) for c in report.counts.values()),
        "variants": dict(sorted(report.variants.items())),
        "templates": {s: dict(sorted(report.templates[s].items())) for s in SPLITS},
        "tokens": tokens,
        "verification": {
            "candidates": report.candidates,
            "kept": sum(sum(c.values()) for c in report.counts.values()),
            "chosen_failed": dict(sorted(report.chosen_failed.items())),
            "rejected_not_failing": dict(sorted(report.rejected_not_failing.items())),
            "duplicates": report.duplicates,
            "capped": report.capped,
            "gates": {g: report.gates[g] for g in GATES},
            "fuzzy_threshold": verifier.fuzzy_threshold,
        },
        "split": {"by": "provision family (section + predecessors + successors)",
                  "families": {s: fams[s] for s in SPLITS}, "eval_only_acts": list(eval_acts),
                  "eval_only_templates": sorted(f"{p}:{i}" for p, ts in POOLS.items() for i in range(len(ts))
                                                if held_out(p, i))},
        "licences": licences(corpus_dir),
        "files": {"sft": [f"sft/{s}.jsonl" for s in SPLITS], "sft_pc": [f"sft_pc/{s}.jsonl" for s in SPLITS],
                  "dpo": [f"dpo/{s}.jsonl" for s in SPLITS]},
    }
