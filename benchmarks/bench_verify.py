"""Benchmark: verify a ~400-word answer with 10 citations and 3 quotes against the embedded graph.

Run: ``python benchmarks/bench_verify.py [--reps 300] [--json]`` (loads the default corpus into a
temporary graph first).

Reported side by side, measured in the same run on the same inputs: the full ``verify()`` with our
quote checker, and the same pipeline with the quote check done the way it is commonly written
(difflib ``SequenceMatcher`` ratio over a sliding window of the quote's length, one word at a
time, across the cited provision). Target (issue 4): p95 under 10 ms.
"""

from __future__ import annotations

import argparse
import difflib
import json
import time
from collections.abc import Sequence

from support import pct, scratch_graph

from verification.check.quotes import Passage, QuoteResult
from verification.model import QuoteStatus
from verification.verify import Verifier

ANSWER = (
    'On the facts described, the offence is murder. Under Section 103(1) of the BNS, "whoever commits murder '
    'shall be punished with death or imprisonment for life, and shall also be liable to fine". Where a group '
    "of five or more persons acting in concert commits murder on the ground of caste or community, Section 103(2) "
    "BNS applies. The FIR was registered u/s 302 IPC, but for an offence committed after 1 July 2024 the Indian "
    "Penal Code no longer applies: the correct provision is BNS 103. If the accused only intended to cause hurt, "
    "consider culpable homicide not amounting to murder under Section 105 BNS. Common intention is covered by "
    "Section 3(5) BNS, which replaced Section 34 IPC. On arrest, the police must follow Section 35 of the BNSS; "
    "the person arrested has the right to be informed of the grounds of arrest under Section 47 BNSS. For "
    'cheating the punishment under Section 318(4) BNS is "imprisonment of either description for a term which '
    'may extend to ten years, and shall also be liable to fine". A dying declaration is relevant under '
    "Section 26 of the BSA. The Supreme Court in Arnesh Kumar v. State of Bihar, (2014) 8 SCC 273 laid down "
    "guidelines on arrest. Electronic records require the certificate in Section 63 BSA, which provides that "
    '"any information contained in an electronic record which is printed on paper" shall be deemed to be '
    "also a document. Section 377 BNS, sometimes cited in such drafts, does not exist. Counsel should also "
    "check whether bail is available and whether the matter can be compounded, and should verify each "
    "provision against the official text before filing anything in court. The prosecution will have to "
    "prove motive, the weapon and the sequence of events through the witnesses and the medical evidence, "
    "and the defence may argue that the injuries were caused in a sudden fight without premeditation. The "
    "trial court will frame charges after hearing both sides, and the accused may seek bail at that stage. "
    "Any confession made to a police officer is not admissible against him, and statements recorded during "
    "the investigation can be used only to contradict a witness. The victim's family may also claim "
    "compensation, and the court should consider it while passing sentence."
)


class NaiveQuoteChecker:
    """The quote check as commonly written: best SequenceMatcher ratio over word windows."""

    def __init__(self, threshold: float = 0.9) -> None:
        self.threshold = threshold

    def check(self, quote: str, cited: Passage | None, others: Sequence[Passage] = ()) -> QuoteResult:
        if cited is None:
            return QuoteResult(QuoteStatus.UNCHECKED, 0.0, None, None, "no source")
        q = quote.lower()
        words = cited.text.lower().split()
        n = len(q.split())
        best, closest = 0.0, None
        for i in range(max(1, len(words) - n + 1)):
            window = " ".join(words[i : i + n])
            r = difflib.SequenceMatcher(None, q, window).ratio()
            if r > best:
                best, closest = r, window
        status = (
            QuoteStatus.EXACT
            if best == 1.0
            else QuoteStatus.FUZZY
            if best >= self.threshold
            else (QuoteStatus.MISQUOTED)
        )
        return QuoteResult(status, best, closest, None, "naive")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=300)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results: dict[str, object] = {}
    with scratch_graph(prefix="legal-rag-bench-verify-") as (store, _):
        for name, quotes in (("ours", None), ("naive_difflib", NaiveQuoteChecker())):
            v = Verifier(store, quotes=quotes)  # type: ignore[arg-type]
            report = v.verify(ANSWER, as_of="2025-01-01")  # warm-up: loads the Act resolver
            times = []
            for _ in range(args.reps):
                t = time.perf_counter()
                report = v.verify(ANSWER, as_of="2025-01-01")
                times.append((time.perf_counter() - t) * 1000)
            results[name] = {
                "p50_ms": round(pct(times, 50), 2),
                "p95_ms": round(pct(times, 95), 2),
                "citations": len(report.citations),
                "provisions": sum(1 for c in report.citations if c.label == "PROVISION"),
                "quotes": [q.status.value for q in report.quotes],
            }
        results["naive_p95_over_ours"] = round(results["naive_difflib"]["p95_ms"] / results["ours"]["p95_ms"], 1)  # type: ignore[index]
        results["words"] = len(ANSWER.split())
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"answer: {results['words']} words, {results['ours']['provisions']} provisions, "
        f"{len(results['ours']['quotes'])} quotes"
    )
    for name in ("ours", "naive_difflib"):
        r = results[name]
        print(f"{name:<14} p50 {r['p50_ms']:>8} ms   p95 {r['p95_ms']:>8} ms   quotes {r['quotes']}")
    print(f"naive p95 / ours p95 = {results['naive_p95_over_ours']}x   (target: ours p95 < 10 ms)")


if __name__ == "__main__":
    main()
