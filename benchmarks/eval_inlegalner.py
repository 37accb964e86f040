"""Exact-span precision, recall and F1 of the citation extractor on InLegalNER (PROVISION, STATUTE, PRECEDENT).

    python benchmarks/eval_inlegalner.py [--data DIR] [--split judgement|preamble|both] [--subset all|dev|fit]
                                         [--json] [--errors N] [--label L] [--rules-only] [--model DIR]
                                         [--consistency]

Each sentence is rebuilt by joining its tokens with single spaces; gold spans are the character spans of its
B-/I- runs. A predicted span counts only if start, end and label all match. Two of our outputs have no
InLegalNER counterpart and are not scored: NOTIFICATION spans, and "the said Act" back-references (the corpus
never annotates anaphora).

``--subset dev`` is a fixed random 20% of the sentences (seed 13) held out while writing the rules and training
the PRECEDENT tagger; ``--subset fit`` is the other 80%. ``--rules-only`` scores the rules without the tagger.
The preamble file annotates parties, judges and lawyers only, so with ``--split preamble`` every span we find
counts as a false positive: it shows how much we find there, not F1.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from verification.extract import CitationExtractor, PrecedentTagger, RulesOnly  # noqa: E402
from verification.model import Label  # noqa: E402

LABELS = ("PROVISION", "STATUTE", "PRECEDENT")
FILES = {"judgement": "NER_TRAIN_JUDGEMENT.bio.txt", "preamble": "NER_TRAIN_PREAMBLE.bio.txt"}
DEV_SEED = 13
DEV_FRACTION = 0.2

Span = tuple[int, int, str]


def read_bio(path: Path) -> list[tuple[str, set[Span]]]:
    """Sentences of a token<TAB>tag file as (text, gold spans of the scored labels)."""
    out: list[tuple[str, set[Span]]] = []
    tokens: list[tuple[str, str]] = []
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.strip():
            tok, _, tag = line.rpartition("\t")
            tokens.append((tok, tag))
            continue
        if tokens:
            out.append(_sentence(tokens))
        tokens = []
    return out


def _sentence(tokens: list[tuple[str, str]]) -> tuple[str, set[Span]]:
    text = " ".join(t for t, _ in tokens)
    spans: set[Span] = set()
    pos = 0
    cur: list[int | str] | None = None
    for tok, tag in tokens:
        start, end = pos, pos + len(tok)
        pos = end + 1
        label = tag[2:] if tag[:2] in ("B-", "I-") else None
        if cur is not None and (label is None or tag.startswith("B-") or label != cur[2]):
            spans.add((int(cur[0]), int(cur[1]), str(cur[2])))
            cur = None
        if label is not None:
            if cur is None:
                cur = [start, end, label]
            else:
                cur[1] = end
    if cur is not None:
        spans.add((int(cur[0]), int(cur[1]), str(cur[2])))
    return text, {s for s in spans if s[2] in LABELS}


def dev_indices(n: int) -> set[int]:
    """The held-out 20%: a fixed random sample of sentence indices."""
    return set(random.Random(DEV_SEED).sample(range(n), round(n * DEV_FRACTION)))


def predict(extractor: CitationExtractor, text: str) -> set[Span]:
    return {
        (c.start, c.end, c.label.value)
        for c in extractor.extract(text)
        if c.label is not Label.NOTIFICATION and not c.said
    }


def score(gold: Counter[str], pred: Counter[str], hit: Counter[str]) -> dict[str, dict[str, float]]:
    rows: dict[str, dict[str, float]] = {}
    for label in (*LABELS, "micro"):
        tp = sum(hit.values()) if label == "micro" else hit[label]
        g = sum(gold.values()) if label == "micro" else gold[label]
        p = sum(pred.values()) if label == "micro" else pred[label]
        prec = tp / p if p else 0.0
        rec = tp / g if g else 0.0
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        rows[label] = {"precision": prec, "recall": rec, "f1": f1, "gold": g, "predicted": p, "correct": tp}
    return rows


def consistency(
    sentences: list[tuple[str, set[Span]]], label: str = "PRECEDENT", min_chars: int = 12
) -> dict[str, Any]:
    """How consistently the annotators drew ``label``: every gold span text of at least ``min_chars`` characters
    that occurs more than once in the corpus (at word boundaries), and how many of its occurrences are that exact
    gold span. No extractor, however good, can match both readings of the same words."""
    texts = {text[s:e] for text, gold in sentences for s, e, lab in gold if lab == label and e - s >= min_chars}
    counts: dict[str, list[int]] = {t: [0, 0] for t in texts}
    for text, gold in sentences:
        exact = {(s, e) for s, e, lab in gold if lab == label}
        for t in texts:
            start = text.find(t)
            while start >= 0:
                end = start + len(t)
                if (start == 0 or text[start - 1] == " ") and (end == len(text) or text[end] == " "):
                    counts[t][0 if (start, end) in exact else 1] += 1
                start = text.find(t, start + 1)
    repeated = {t: c for t, c in counts.items() if sum(c) > 1}
    both = {t: c for t, c in repeated.items() if c[0] and c[1]}
    return {
        "repeated_span_texts": len(repeated),
        "labelled_both_ways": len(both),
        "occurrences": sum(sum(c) for c in repeated.values()),
        "occurrences_as_the_span": sum(c[0] for c in repeated.values()),
        "examples": {t: {"as_span": c[0], "not": c[1]} for t, c in sorted(both.items())[:12]},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default="../shared/data/dev-eval/inlegalner-train",
                    help="directory with the .bio.txt files (relative to the repo, or absolute)")
    ap.add_argument("--split", choices=("judgement", "preamble", "both"), default="judgement")
    ap.add_argument("--subset", choices=("all", "dev", "fit"), default="all")
    ap.add_argument("--json", action="store_true", help="print the scores as JSON")
    ap.add_argument("--errors", type=int, default=0, metavar="N", help="print N false positives and negatives")
    ap.add_argument("--label", choices=LABELS, help="only show errors of this label")
    ap.add_argument("--rules-only", action="store_true",
                    help="PRECEDENT spans from the rules alone, without the learned tagger re-drawing them")
    ap.add_argument("--consistency", action="store_true",
                    help="how consistently the corpus labels the same PRECEDENT words (no extraction)")
    ap.add_argument("--model", type=Path, help="the PRECEDENT tagger's files from this directory, not the shipped ones")
    args = ap.parse_args(argv)

    data = Path(args.data)
    if not data.is_absolute():
        data = (REPO / data).resolve()
    files = list(FILES.values()) if args.split == "both" else [FILES[args.split]]
    sentences: list[tuple[str, set[Span]]] = []
    for name in files:
        part = read_bio(data / name)
        if args.subset != "all":
            dev = dev_indices(len(part))
            part = [s for i, s in enumerate(part) if (i in dev) == (args.subset == "dev")]
        sentences.extend(part)

    if args.consistency:
        print(json.dumps(consistency(sentences), indent=2))
        return 0
    retagger = RulesOnly() if args.rules_only else PrecedentTagger(args.model) if args.model else None
    extractor = CitationExtractor(precedent_retagger=retagger)
    gold: Counter[str] = Counter()
    pred: Counter[str] = Counter()
    hit: Counter[str] = Counter()
    errors: list[tuple[str, str, str, str]] = []
    t0 = time.perf_counter()
    predictions = [predict(extractor, text) for text, _ in sentences]
    elapsed = time.perf_counter() - t0
    for (text, g), p in zip(sentences, predictions, strict=True):
        gold.update(s[2] for s in g)
        pred.update(s[2] for s in p)
        hit.update(s[2] for s in g & p)
        for kind, spans in (("FP", p - g), ("FN", g - p)):
            for s, e, label in sorted(spans):
                if args.label is None or label == args.label:
                    errors.append((kind, label, text[s:e], text))
    rows = score(gold, pred, hit)
    speed = len(sentences) / elapsed if elapsed else 0.0
    if args.json:
        print(json.dumps({"sentences": len(sentences), "sentences_per_s": speed, "scores": rows}, indent=2))
    else:
        print(f"{len(sentences)} sentences, {speed:,.0f} sentences/s")
        print(f"{'label':<10} {'P':>6} {'R':>6} {'F1':>6} {'gold':>6} {'pred':>6}")
        for label, r in rows.items():
            print(f"{label:<10} {r['precision']:6.3f} {r['recall']:6.3f} {r['f1']:6.3f} "
                  f"{int(r['gold']):6d} {int(r['predicted']):6d}")
    if args.errors:
        for kind, label, span, text in random.Random(0).sample(errors, min(args.errors, len(errors))):
            print(f"\n{kind} {label}: {span!r}\n    {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
