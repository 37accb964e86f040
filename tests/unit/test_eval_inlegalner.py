"""benchmarks/eval_inlegalner.py reads InLegalNER's BIO files and measures how consistently they label precedents."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import eval_inlegalner as ev  # noqa: E402

# Two running headers of one trial-court judgment in the corpus: the same words, labelled once and not once.
BIO = """\
SC\tO
No.185/2013\tO
:\tO
State\tB-PRECEDENT
V/s\tI-PRECEDENT
Sohan\tI-PRECEDENT
Lal\tI-PRECEDENT
@\tI-PRECEDENT
Sonu\tI-PRECEDENT
DOD\tO

Page\tO
3\tO
:\tO
State\tB-OTHER_PERSON
V/s\tO
Sohan\tB-OTHER_PERSON
Lal\tI-OTHER_PERSON
@\tI-OTHER_PERSON
Sonu\tI-OTHER_PERSON
5.\tO

In\tO
State\tB-PRECEDENT
V/s\tI-PRECEDENT
Sohan\tI-PRECEDENT
Lal\tI-PRECEDENT
@\tI-PRECEDENT
Sonu\tI-PRECEDENT
,\tO
held\tO

Ex-State\tO
V/s\tO
Sohan\tO
Lal\tO
@\tO
Sonu\tO
"""


def test_reads_spans_and_counts_each_reading_of_the_same_words(tmp_path: Path) -> None:
    path = tmp_path / "x.bio.txt"
    path.write_text(BIO, encoding="utf-8")
    sentences = ev.read_bio(path)
    assert len(sentences) == 4
    text, gold = sentences[0]
    assert [(text[s:e], label) for s, e, label in gold] == [("State V/s Sohan Lal @ Sonu", "PRECEDENT")]
    assert sentences[1][1] == set()  # OTHER_PERSON is not a scored label
    report = ev.consistency(sentences)
    # "Ex-State V/s ..." does not hold the words at a word boundary, so it is not an occurrence.
    assert report["repeated_span_texts"] == 1 and report["labelled_both_ways"] == 1
    assert report["occurrences"] == 3 and report["occurrences_as_the_span"] == 2
    assert report["examples"] == {"State V/s Sohan Lal @ Sonu": {"as_span": 2, "not": 1}}
