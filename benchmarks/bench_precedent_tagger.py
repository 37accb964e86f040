"""What the learned PRECEDENT tagger costs: citation extraction with it against the rules alone, in one run.

    python benchmarks/bench_precedent_tagger.py [--data DIR] [--runs 3] [--words 26000] [--json]

Two workloads from the InLegalNER dev split: its sentences one by one (as ``eval_inlegalner.py`` runs them), and
the same sentences joined into one long judgment-like text of about ``--words`` words. Each is timed ``--runs``
times per extractor after a warm-up (the tagger's model loaded); the median is reported, with the ratio to the
rules alone. Also reported: how many sentences have a cue (a rule span or a cue word: the tagger runs only around
one) and how many PRECEDENT spans each finds in the document.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from eval_inlegalner import FILES, dev_indices, read_bio  # noqa: E402

from verification.extract import CitationExtractor, RulesOnly  # noqa: E402
from verification.extract.precedents import find_precedents  # noqa: E402
from verification.extract.tagger import cue_words  # noqa: E402
from verification.model import Label  # noqa: E402


def _median_seconds(fn: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared/data/dev-eval/inlegalner-train")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--words", type=int, default=26000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    sents = read_bio(args.data / FILES["judgement"])
    texts = [sents[i][0] for i in sorted(dev_indices(len(sents)))]
    doc_parts: list[str] = []
    n_words = 0
    for t in texts:
        if n_words >= args.words:
            break
        doc_parts.append(t)
        n_words += len(t.split())
    doc = " ".join(doc_parts)
    cued = sum(1 for t in texts if find_precedents(t) or cue_words(t.split()))

    extractors = {"rules": CitationExtractor(precedent_retagger=RulesOnly()), "tagger": CitationExtractor()}
    for ex in extractors.values():
        ex.extract("warm-up: Ram v. Shyam, AIR 1990 SC 1")
    out: dict[str, object] = {"sentences": len(texts), "sentences_with_a_cue": cued, "document_words": n_words}
    for name, ex in extractors.items():
        per_sentence = _median_seconds(lambda ex=ex: [ex.extract(t) for t in texts], args.runs)
        document = _median_seconds(lambda ex=ex: ex.extract(doc), args.runs)
        cases = sum(1 for c in ex.extract(doc) if c.label is Label.PRECEDENT)
        out[name] = {"sentences_per_s": round(len(texts) / per_sentence), "document_s": round(document, 3),
                     "precedents_in_document": cases}
    rules, tagger = out["rules"], out["tagger"]
    assert isinstance(rules, dict) and isinstance(tagger, dict)
    out["ratio_sentences"] = round(rules["sentences_per_s"] / tagger["sentences_per_s"], 2)
    out["ratio_document"] = round(tagger["document_s"] / rules["document_s"], 2)
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{len(texts)} dev sentences ({cued} with a cue); a document of {n_words} words; median of {args.runs}")
    print(f"{'':8}{'sentences/s':>13}{'document s':>12}{'precedents':>12}")
    for name in extractors:
        row = out[name]
        assert isinstance(row, dict)
        print(f"{name:8}{row['sentences_per_s']:>13,}{row['document_s']:>12.3f}{row['precedents_in_document']:>12}")
    print(f"tagger / rules: {out['ratio_sentences']}x the time per sentence, {out['ratio_document']}x on the document")


if __name__ == "__main__":
    main()
